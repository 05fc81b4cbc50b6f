/**
 * `live-tools-mcp hook`: what an agent runs around its own file edits so that it hears, without
 * asking, what each edit did to the diagnostics — the answer our own `edit` gives. It reads the
 * agent's hook event (JSON on stdin): before an edit (Claude Code's and Codex's `PreToolUse`, Gemini
 * CLI's `BeforeTool`) it has the window note what the file has (the baseline, nothing printed); after it
 * (`PostToolUse`, `AfterTool`) it asks again and prints the difference as the agent's
 * `hookSpecificOutput.additionalContext`, which each of the three adds to what the model reads.
 * It is a plain MCP client of the window (one `lsp diagnostics` call), in a session the window holds
 * to `lsp` at read, kept per agent session across runs. Always exit 0: a hook never blocks an edit.
 * No `vscode` here (the bridge's bundle).
 */
import * as path from 'node:path';
import { DeadlineExceeded, withDeadline } from '../async/deadline';
import { LineLimit } from './lineLimit';
import { connectToWindow } from './windowConnection';

/** How long one run may take before it answers "pending" (the agents' hook limits are 60 s or more). */
export const HOOK_BUDGET_MS = 25_000;
/** Before an edit the run only takes the baseline, and the edit waits for it: shorter. */
const BEFORE_BUDGET_MS = 8_000;
/** The largest event read: a Write's event carries the whole file. */
export const MAX_EVENT_BYTES = 64 * 1024 * 1024;
/** The longest reply line read from the window (its answers are far smaller). */
const MAX_REPLY_BYTES = 16 * 1024 * 1024;
/** Files one event may name (a Codex patch may touch many); the window checks at most its own cap of them. */
const MAX_FILES = 20;

export type HookPhase = 'before' | 'after';

export interface HookEvent {
  /** The event's own name, echoed in the output (`hookEventName`). */
  readonly eventName: string;
  readonly phase: HookPhase;
  /** `<agent>:<session id>`: what the window keeps the baseline under. */
  readonly agentSession: string;
  readonly cwd: string;
  /** Absolute paths of the files the tool edits. */
  readonly files: readonly string[];
}

const PHASES: Record<string, HookPhase> = {
  PreToolUse: 'before',
  PostToolUse: 'after',
  BeforeTool: 'before',
  AfterTool: 'after',
};

/** The edit tools of each agent and where their input names the file. */
const FILE_TOOLS: Record<string, readonly string[]> = {
  Edit: ['file_path'],
  Write: ['file_path'],
  MultiEdit: ['file_path'],
  NotebookEdit: ['notebook_path'],
  write_file: ['file_path'],
  replace: ['file_path'],
};

/** The files a Codex `apply_patch` touches: its `*** Add/Update/Delete File:` and `*** Move to:` lines. */
export function patchFiles(patch: string): string[] {
  const files: string[] = [];
  for (const line of patch.split('\n')) {
    // The prefix only, then the rest trimmed: a pattern ending in `(.+?)\s*$` backtracks on trailing blanks.
    const match = /^\*\*\* (?:(?:Add|Update|Delete) File|Move to): /.exec(line);
    const file = match ? line.slice(match[0].length).trimEnd() : '';
    if (file !== '') files.push(file);
  }
  return files;
}

/** The event, or why this run has nothing to do (a tool that edits no file, an event of another kind). */
export function parseHookEvent(value: unknown, fallbackCwd: string, parentPid = process.ppid): HookEvent | string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'the event is not a JSON object';
  const event = value as Record<string, unknown>;
  const eventName = typeof event.hook_event_name === 'string' ? event.hook_event_name : '';
  const phase = PHASES[eventName];
  if (!phase) return `not an edit event (${eventName || 'no hook_event_name'})`;
  const tool = typeof event.tool_name === 'string' ? event.tool_name : '';
  const input =
    typeof event.tool_input === 'object' && event.tool_input !== null
      ? (event.tool_input as Record<string, unknown>)
      : {};
  const named =
    tool === 'apply_patch'
      ? patchFiles(
          typeof input.command === 'string' ? input.command : typeof input.patch === 'string' ? input.patch : '',
        )
      : (FILE_TOOLS[tool] ?? []).map((key) => input[key]).filter((file): file is string => typeof file === 'string');
  if (named.length === 0) return `${tool || 'the tool'} edits no file this hook knows of`;
  const cwd = typeof event.cwd === 'string' && path.isAbsolute(event.cwd) ? event.cwd : fallbackCwd;
  const agent =
    eventName === 'BeforeTool' || eventName === 'AfterTool'
      ? 'gemini'
      : tool === 'apply_patch' || 'turn_id' in event
        ? 'codex'
        : 'claude';
  // Without a session id, the agent's process (the hook's parent) stands for its session.
  const session =
    typeof event.session_id === 'string' && event.session_id !== '' ? event.session_id : `pid-${parentPid}`;
  return {
    eventName,
    phase,
    agentSession: `${agent}:${session.replace(/[^\w.:@-]/g, '_').slice(0, 180)}`,
    cwd,
    files: [...new Set(named.map((file) => path.resolve(cwd, file)))].slice(0, MAX_FILES),
  };
}

/** What the hook prints after an edit: the context the agent adds for its model. */
export function hookOutput(eventName: string, text: string): string {
  return `${JSON.stringify({ hookSpecificOutput: { hookEventName: eventName, additionalContext: text } })}\n`;
}

/** Runs one hook event; the exit code (always 0: a hook never blocks the agent's edit). */
export async function runHook(
  stdin: NodeJS.ReadableStream,
  stdout: NodeJS.WritableStream,
  stderr: NodeJS.WritableStream,
  env: NodeJS.ProcessEnv,
  fallbackCwd: string,
  budgetMs = HOOK_BUDGET_MS,
): Promise<number> {
  const note = (line: string): void => void stderr.write(`live-tools-mcp hook: ${line}\n`);
  const raw = await readAll(stdin, MAX_EVENT_BYTES);
  if (raw === undefined) {
    note(`the event is over ${MAX_EVENT_BYTES / (1024 * 1024)} MiB; nothing checked.`);
    return 0;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    note('the event on stdin is not JSON; nothing checked.');
    return 0;
  }
  const event = parseHookEvent(parsed, fallbackCwd);
  if (typeof event === 'string') return 0;
  if (event.phase === 'before') {
    await withBudget(askWindow(event, env), Math.min(budgetMs, BEFORE_BUDGET_MS));
    return 0;
  }
  const answer = await withBudget(askWindow(event, env), budgetMs);
  const text =
    answer === undefined
      ? `Diagnostics pending: the editor did not answer within ${budgetMs / 1000} s; not verified — ask lsp diagnostics with files later.`
      : answer;
  stdout.write(
    hookOutput(event.eventName, `Agent Live Tools (the editor's language servers) after this edit:\n${text}`),
  );
  return 0;
}

/** The window's answer to `lsp diagnostics` with the event's files, or why there is none (one line). */
async function askWindow(event: HookEvent, env: NodeJS.ProcessEnv): Promise<string> {
  const connection = await connectToWindow(env, event.cwd, {
    client: `live-tools-mcp hook (${event.agentSession.split(':')[0]})`,
    agentSession: event.agentSession,
  });
  if (typeof connection === 'string') return `Not checked: ${connection}`;
  const { socket, rest } = connection;
  // A line past the cap stops the replies: the call's answer never comes, and the budget ends the run.
  const replies = new LineLimit(MAX_REPLY_BYTES, () => undefined);
  const waiting = new Map<number, (reply: JsonRpcReply) => void>();
  replies.on('data', (line: Buffer) => {
    let reply: JsonRpcReply;
    try {
      reply = JSON.parse(line.toString('utf8')) as JsonRpcReply;
    } catch {
      return;
    }
    if (typeof reply.id === 'number') waiting.get(reply.id)?.(reply);
  });
  const closed = new Promise<string>((resolve) => {
    socket.on('close', () => resolve('Not checked: the window closed the connection.'));
    socket.on('error', () => resolve('Not checked: the connection to the window failed.'));
  });
  const request = (id: number, method: string, params: unknown): Promise<JsonRpcReply | string> => {
    socket.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    return Promise.race([new Promise<JsonRpcReply>((resolve) => waiting.set(id, resolve)), closed]);
  };
  try {
    if (rest.length > 0) replies.write(rest);
    socket.pipe(replies);
    const initialized = await request(1, 'initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'live-tools-mcp hook', version: '1' },
    });
    if (typeof initialized === 'string') return initialized;
    socket.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    const called = await request(2, 'tools/call', {
      name: 'lsp',
      // Before the edit: only what the files have now, for the after-run to compare with.
      arguments: { action: 'diagnostics', files: event.files, ...(event.phase === 'before' ? { baseline: true } : {}) },
    });
    if (typeof called === 'string') return called;
    if (called.error) return `Not checked: ${called.error.message ?? 'the window refused the call'}`;
    const texts = (called.result?.content ?? []).flatMap((part) => (part.type === 'text' ? [part.text] : []));
    return texts.join('\n');
  } finally {
    socket.destroy();
  }
}

interface JsonRpcReply {
  readonly id?: number;
  readonly result?: { readonly content?: ReadonlyArray<{ readonly type: string; readonly text: string }> };
  readonly error?: { readonly message?: string };
}

/** What `work` settles to within `ms`, else undefined. */
function withBudget<T>(work: Promise<T>, ms: number): Promise<T | undefined> {
  return withDeadline(work, ms / 1000, 'the window').catch((error: unknown) => {
    if (error instanceof DeadlineExceeded) return undefined;
    throw error;
  });
}

/** All of a stream as text, or undefined past `max` bytes. */
function readAll(stream: NodeJS.ReadableStream, max: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    stream.on('data', (chunk: Buffer | string) => {
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      bytes += buffer.length;
      if (bytes > max) {
        resolve(undefined);
        return;
      }
      chunks.push(buffer);
    });
    stream.on('end', () => resolve(bytes > max ? undefined : Buffer.concat(chunks).toString('utf8')));
    stream.on('error', () => resolve(undefined));
  });
}
