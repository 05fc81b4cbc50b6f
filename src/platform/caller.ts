/**
 * Who calls a tool: what it may do at most (its tier cap), whose state it works on (its
 * conversation: kernels, debug session, workers, staged edits), how the human sees it named, and
 * whether the human was already asked about this very call. Every caller reaches the same tools
 * through one runner (src/tools/toolRunner.ts), which holds the cap and asks where nobody did.
 */
import { Tier } from './tiers';

export type CallerKind =
  /** A chat request: VS Code showed (or the human auto-approved) the tool's confirmation. */
  | 'chat'
  /** `vscode.lm.invokeTool` without a chat token (another extension): VS Code asks with a dialog. */
  | 'extension'
  /** The Run Tool playground, which asked with its own dialog. */
  | 'playground'
  /** A background worker of vibe mode. */
  | 'worker'
  /** `tool()` from an eval cell. */
  | 'cell'
  /** A session of the window's MCP endpoint (an agent outside the extension host): asked on the question card. */
  | 'mcp';

export interface Caller {
  readonly kind: CallerKind;
  /** The most this caller may do; a tool above it is refused (and never offered to it). */
  readonly cap: Tier;
  readonly conversation: string;
  /** One line, bounded: how an approval card names who asks ("worker w2 "fix the tests""). */
  readonly label: string;
  /** True when the human already allowed this call (the chat's or VS Code's confirmation, the playground's dialog, our card). */
  readonly humanAsked: boolean;
  /**
   * The folders this caller works in instead of the window's: a worker's private copy. Every tool it
   * calls is rooted there (paths, the boundary, working directories), and its writes reach nobody's files.
   */
  readonly copy?: readonly { readonly name: string; readonly path: string }[];
}

/** A write of this caller lands in its own copy only: nobody needs to be asked about it. */
export function writesOnlyItsCopy(caller: Pick<Caller, 'copy'>, tier: Tier): boolean {
  return caller.copy !== undefined && tier === 'write';
}

/** The conversation of a worker: its own kernels, debug session and staged edits, under its owner's. */
export function workerConversation(owner: string, workerId: string): string {
  return `${owner}#worker-${workerId}`;
}

/** Whether state kept under `id` is the conversation's own or one of its workers'. */
export function belongsTo(id: string, conversation: string): boolean {
  return id === conversation || id.startsWith(`${conversation}#`);
}
