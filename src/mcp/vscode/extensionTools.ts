/**
 * Other extensions' language model tools for MCP clients, when the user turns it on
 * (`liveTools.mcp.offerExtensionTools`, user settings only): each tool of `vscode.lm.tools` that one
 * installed extension's manifest declares, listed under its extension-qualified name
 * (`mcp/extensionToolNames.ts`) to a caller `ToolRunner.offeredOfOtherExtensions` offers them to — they
 * count as exec — and called through the runner, which holds the cap and puts every call on the card.
 */
import * as vscode from 'vscode';
import { boundedTimeout } from '../../async/timers';
import { Caller } from '../../platform/caller';
import { Setting } from '../../platform/settings';
import { userSettingValue } from '../../platform/vscode/userSettings';
import { singleLine } from '../../platform/wording';
import { TOOL_CATALOG } from '../../tools/declarations';
import { ToolRunner } from '../../tools/toolRunner';
import { ExtensionTool, ExtensionToolNames } from '../extensionToolNames';
import { extensionToolAnnotations } from '../toolAnnotations';
import type { McpToolInfo } from '../mcpSession';

/** A tool's extension as its manifest has it. */
interface Owner {
  readonly extensionId: string;
  readonly extensionTitle: string;
  readonly toolTitle: string;
}

type OwnedTool = ExtensionTool & Owner & { readonly info: vscode.LanguageModelToolInformation };

/**
 * How long after the extension set changes the tools are looked at again: the window hears of the
 * change and of the tools it brings by two separate messages (the stable API has no event for
 * `vscode.lm.tools`).
 */
const SETTLE_MS = 3000;

interface ManifestTool {
  readonly name?: unknown;
  readonly displayName?: unknown;
}

export class ExtensionTools {
  /** Tool name → the one extension that declares it (undefined when two do); read once per extension set. */
  private owners: Map<string, Owner | undefined> | undefined;

  constructor(
    private readonly runner: ToolRunner,
    private readonly ownId: string,
  ) {}

  /** The tools a session with this caller is offered, each with its MCP name (none while the setting is off). */
  listed(caller: Caller): McpToolInfo[] {
    const offered = new Set(this.runner.offeredOfOtherExtensions(caller).map((tool) => tool.name));
    return this.table()
      .entries()
      .filter(({ tool }) => offered.has(tool.name))
      .map(({ mcpName, tool }) => ({
        name: mcpName,
        title: `${tool.toolTitle} (${tool.extensionTitle})`,
        description: `${tool.info.description}\n(A tool of the VS Code extension ${tool.extensionId}: each call waits for the human's approval in the editor.)`,
        inputSchema: { ...(tool.info.inputSchema ?? {}), type: 'object' },
        annotations: extensionToolAnnotations(`${tool.toolTitle} (${tool.extensionTitle})`),
      }));
  }

  /**
   * The name the runner knows an MCP tool name by: ours as it is, another extension's through its
   * qualified name (the runner holds it to the caller's cap); undefined for anything else — a tool of
   * another extension is never called by its bare name over MCP.
   */
  runnerName(mcpName: string): string | undefined {
    if (TOOL_CATALOG.some((declaration) => declaration.name === mcpName)) return mcpName;
    return this.table().toolOf(mcpName)?.name;
  }

  /** Calls `changed` when the installed extensions change, and again once the window has their tools. */
  watch(changed: () => void): vscode.Disposable {
    let settle: NodeJS.Timeout | undefined;
    const subscription = vscode.extensions.onDidChange(() => {
      this.owners = undefined;
      changed();
      clearTimeout(settle);
      settle = boundedTimeout(changed, SETTLE_MS);
    });
    return new vscode.Disposable(() => {
      clearTimeout(settle);
      subscription.dispose();
    });
  }

  private table(): ExtensionToolNames<OwnedTool> {
    if (userSettingValue<boolean>(Setting.mcpOfferExtensionTools) !== true) return new ExtensionToolNames([]);
    const owners = this.ownersNow();
    const tools: OwnedTool[] = [];
    for (const info of vscode.lm.tools) {
      const owner = owners.get(info.name);
      if (owner) tools.push({ ...owner, name: info.name, info });
    }
    return new ExtensionToolNames(tools);
  }

  private ownersNow(): Map<string, Owner | undefined> {
    if (this.owners) return this.owners;
    const owners = new Map<string, Owner | undefined>();
    for (const extension of vscode.extensions.all) {
      if (extension.id.toLowerCase() === this.ownId.toLowerCase()) continue;
      const manifest = extension.packageJSON as {
        displayName?: unknown;
        contributes?: { languageModelTools?: unknown };
      };
      const declared = manifest.contributes?.languageModelTools;
      if (!Array.isArray(declared)) continue;
      for (const entry of declared as ManifestTool[]) {
        if (typeof entry?.name !== 'string') continue;
        const owner: Owner = {
          extensionId: extension.id.toLowerCase(),
          extensionTitle: titleOf(manifest.displayName, extension.id),
          toolTitle: titleOf(entry.displayName, entry.name),
        };
        // A name two extensions declare belongs to neither for certain: it is not offered.
        owners.set(entry.name, owners.has(entry.name) ? undefined : owner);
      }
    }
    this.owners = owners;
    return owners;
  }
}

/** A manifest's display name on one line, or the fallback when it has none (or an unresolved `%key%`). */
function titleOf(value: unknown, fallback: string): string {
  if (typeof value !== 'string' || !value.trim() || /^%.*%$/.test(value)) return fallback;
  return singleLine(value, 100);
}
