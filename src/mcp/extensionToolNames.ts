/**
 * The names MCP clients see for other extensions' language model tools, and the way back. A name
 * depends only on the tool's extension and its own name (stable across sessions and reloads), fits
 * MCP's `^[a-zA-Z0-9_.-]{1,64}$`, never equals one of ours (they have no dot), and names one tool:
 * `<extension id>.<tool>` where that fits as written, else a shortened head, `..` and a hash of both.
 */
import { createHash } from 'node:crypto';

/** A language model tool and the extension whose manifest declares it. */
export interface ExtensionTool {
  /** The extension's id (`publisher.name`), in lower case as the editor's full reference names have it. */
  readonly extensionId: string;
  /** The tool's name in `vscode.lm.tools`. */
  readonly name: string;
}

/** What MCP allows in a tool name (2025-06-18: letters, digits, `_`, `.`, `-`; 1 to 64). */
export const MCP_TOOL_NAME = /^[a-zA-Z0-9_.-]{1,64}$/;
const MAX_LENGTH = 64;
const HASH_LENGTH = 12;
/** An extension id as the marketplace allows it, and a tool name as the editor's manifest schema does: no dot in either part. */
const PLAIN_EXTENSION_ID = /^[a-z0-9-]+\.[a-z0-9-]+$/;
const PLAIN_TOOL_NAME = /^[a-zA-Z0-9_-]+$/;

/**
 * The MCP name of another extension's tool. Plain names read `<publisher>.<extension>.<tool>`: three
 * non-empty parts, so never a `..`. Any other (too long, or characters MCP does not take) is its head
 * with those characters replaced, then `..` and 12 hex digits of SHA-256 over the id and the name: it
 * cannot equal a plain name, and two of them are equal only when their hashes are.
 */
export function extensionToolMcpName(tool: ExtensionTool): string {
  const extensionId = tool.extensionId.toLowerCase();
  const plain = `${extensionId}.${tool.name}`;
  if (PLAIN_EXTENSION_ID.test(extensionId) && PLAIN_TOOL_NAME.test(tool.name) && plain.length <= MAX_LENGTH)
    return plain;
  const hash = createHash('sha256').update(`${extensionId}\n${tool.name}`).digest('hex').slice(0, HASH_LENGTH);
  const head = plain.replace(/[^a-zA-Z0-9_.-]/g, '_').slice(0, MAX_LENGTH - HASH_LENGTH - 2);
  return `${head}..${hash}`;
}

/**
 * The tools offered under their MCP names, and the tool each name stands for. Should two tools ever
 * get one name (a hash collision, or one tool declared twice), neither is offered: a name a client
 * calls is never a guess.
 */
export class ExtensionToolNames<T extends ExtensionTool> {
  private readonly byName = new Map<string, T>();

  constructor(tools: readonly T[]) {
    const taken = new Set<string>();
    for (const tool of tools) {
      const name = extensionToolMcpName(tool);
      if (taken.has(name)) this.byName.delete(name);
      else this.byName.set(name, tool);
      taken.add(name);
    }
  }

  /** Each offered tool with its MCP name, in the order given. */
  entries(): Array<{ readonly mcpName: string; readonly tool: T }> {
    return [...this.byName].map(([mcpName, tool]) => ({ mcpName, tool }));
  }

  /** The tool an MCP name stands for, if it is offered. */
  toolOf(mcpName: string): T | undefined {
    return this.byName.get(mcpName);
  }
}
