/**
 * Connect an Agent: the configuration of an agent (Claude Code, Codex, Gemini, a project's
 * .mcp.json) that starts the `live-tools-mcp` bridge of this window, copied, and on request added:
 * to .mcp.json through the writer, or by the agent's own command in a new terminal (asked first).
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { Setting } from '../../platform/settings';
import { Tier } from '../../platform/tiers';
import { assertRealPathInside } from '../../workspace/containment';
import { currentText } from '../../workspace/vscode/fileTexts';
import { WorkspaceWriter } from '../../workspace/vscode/workspaceWriter';
import { workspaceFolderPaths } from '../../workspace/vscode/workspaceFolders';
import {
  AGENT_TARGETS,
  AgentConfig,
  agentConfig,
  AgentFileChange,
  AgentTarget,
  guidanceInstall,
  hookInstall,
  withServerAdded,
} from '../connectConfig';

/** What the command is asked without a human (tests, other extensions): it asks nothing and returns the configuration. */
export interface ConnectRequest {
  readonly target?: AgentTarget;
  /** Add the configuration (.mcp.json through the writer; the agent's own command in a terminal, asked). */
  readonly add?: boolean;
  /** Install the edit hook in the agent's project settings. */
  readonly hook?: boolean;
  /** Add the guidance where the agent reads project guidance. */
  readonly guidance?: boolean;
}

/** The command's handler: with a request argument it asks nothing and returns the text. */
export function connectAgentCommand(
  writer: WorkspaceWriter,
  nodeCommand: string,
  bridgeFile: string,
  maxTier: () => Tier,
  instructions: () => string,
): (request?: ConnectRequest) => Promise<string | undefined> {
  /** Changes one file of the first workspace folder through the writer; a link out of the workspace is not followed. */
  const change = async (relative: string, apply: (existing: string | undefined) => string): Promise<void> => {
    const folder = workspaceFolderPaths()[0];
    if (!folder) throw new Error(`No folder is open to hold ${relative}.`);
    const file = path.join(folder.path, relative);
    // The writer checks the real path again right before writing.
    assertRealPathInside(workspaceFolderPaths(), file);
    await writer.writeForUser(file, apply(await currentText(file)));
  };
  /** Offers one file change, showing exactly what it adds; applies it when the human (or the request) says so. */
  const offer = async (what: string, planned: AgentFileChange | undefined, requested?: boolean): Promise<void> => {
    if (!planned) return;
    if (requested === false) return;
    if (requested === undefined) {
      const chosen = await vscode.window.showInformationMessage(
        `${what} It adds to ${planned.file}:`,
        { modal: true, detail: planned.added },
        'Add',
      );
      if (chosen !== 'Add') return;
    }
    try {
      await change(planned.file, planned.apply);
    } catch (error) {
      if (requested) throw error;
      void vscode.window.showErrorMessage(
        `Could not change ${planned.file}: ${error instanceof Error ? error.message : String(error)}. Nothing was written.`,
      );
    }
  };
  const addConfig = async (config: AgentConfig): Promise<void> => {
    if (config.target === 'mcp.json') {
      await change('.mcp.json', (existing) => withServerAdded(existing, nodeCommand, bridgeFile));
      return;
    }
    // The agent's own command writes outside the workspace: asked first, every time, whoever asks for it.
    const run = await vscode.window.showWarningMessage(
      `Run "${config.text}" in a new terminal? It writes ${config.writes}.`,
      { modal: true },
      'Run',
    );
    if (run !== 'Run') return;
    const terminal = vscode.window.createTerminal({ name: `Connect ${config.label}` });
    terminal.show();
    terminal.sendText(config.text);
  };
  /** The edit hook and the guidance, each asked (or as requested). */
  const offerExtras = async (config: AgentConfig, request?: ConnectRequest): Promise<void> => {
    await offer(
      `Install the edit hook for ${config.label}? Before and after each of its own file edits it asks this window what the edit did to the diagnostics, and ${config.label} reads the answer.`,
      hookInstall(config.target, nodeCommand, bridgeFile),
      request ? (request.hook ?? false) : undefined,
    );
    await offer(
      `Add guidance for ${config.label} on when to use these tools?`,
      guidanceInstall(config.target, instructions()),
      request ? (request.guidance ?? false) : undefined,
    );
  };
  return async (request?: ConnectRequest): Promise<string | undefined> => {
    const target =
      request?.target ??
      (
        await vscode.window.showQuickPick(
          AGENT_TARGETS.map((candidate) => {
            const config = agentConfig(candidate, nodeCommand, bridgeFile);
            return { label: config.label, detail: config.text.split('\n')[0], target: candidate };
          }),
          { title: 'Connect an agent to this window (MCP)', placeHolder: 'Which agent?' },
        )
      )?.target;
    if (!target || !AGENT_TARGETS.includes(target)) return undefined;
    const config = agentConfig(target, nodeCommand, bridgeFile);
    await vscode.env.clipboard.writeText(config.text);

    if (request) {
      if (request.add) await addConfig(config);
      await offerExtras(config, request);
      return config.text;
    }
    const action = target === 'mcp.json' ? 'Add to .mcp.json' : 'Run in Terminal';
    const chosen = await vscode.window.showInformationMessage(
      `Copied the ${config.label} configuration: ${config.text.split('\n')[0]}${target === 'mcp.json' ? ' …' : ''}. Agents connected this way are offered ${maxTier()} tools (${Setting.mcpMaxTier}).`,
      action,
    );
    if (chosen === action) {
      try {
        await addConfig(config);
      } catch (error) {
        void vscode.window.showErrorMessage(
          `Could not add the configuration: ${error instanceof Error ? error.message : String(error)}. It is on the clipboard; add it by hand.`,
        );
      }
    }
    await offerExtras(config);
    return config.text;
  };
}
