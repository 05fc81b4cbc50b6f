/**
 * What the window's MCP endpoint and its stdio bridge (`live-tools-mcp`) agree on: the environment
 * variables the extension puts into every integrated terminal, the discovery files naming each
 * window's socket and folders, and the one line of authentication a connection opens with. No
 * `vscode` here: the bridge bundles it.
 *
 * The endpoint is a Unix domain socket in a directory only this user can enter (a named pipe on
 * Windows), and every connection must first send this window's random token: a process of another
 * user cannot reach the socket, and one of this user that did not get the token from the window
 * (its terminals' environment or its discovery file, both readable by this user only) is refused.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ENDPOINT_SOCKET_VARIABLE, ENDPOINT_TOKEN_VARIABLE } from '../process/childEnvironment';
import { processLive, processStartTime } from '../process/processLiveness';

export { processStartTime };

/** The socket (or pipe) of the window that started this terminal. */
export const SOCKET_VARIABLE = ENDPOINT_SOCKET_VARIABLE;
/** That window's token. */
export const TOKEN_VARIABLE = ENDPOINT_TOKEN_VARIABLE;
/** Where discovery files are kept (tests; a user who wants them elsewhere). Default `~/.agent-live-tools/windows`. */
export const STATE_DIR_VARIABLE = 'AGENT_LIVE_TOOLS_STATE_DIR';

/** The longest first line a connection may send, and how long it has to send it. */
export const MAX_HELLO_LENGTH = 1024;
export const HELLO_TIMEOUT_MS = 5000;

/** A window's discovery file: written when its endpoint listens, removed when it closes. */
export interface WindowRecord {
  readonly socket: string;
  readonly token: string;
  /** Real paths of the window's workspace folders. */
  readonly folders: readonly string[];
  /** The extension host's process: a record whose process is gone is stale. */
  readonly pid: number;
  /** When that process started (Linux: clock ticks since boot): a pid reused by another process does not make the record live. */
  readonly started?: string;
}

/** Where a bridge may connect: a window's socket and token. */
export interface WindowEndpoint {
  readonly socket: string;
  readonly token: string;
}

/** The first line a connection sends: the token, and who connects (for logs and cards). */
export interface Hello {
  readonly token: string;
  readonly client: string;
  /**
   * Set by `live-tools-mcp hook`: the agent session whose edits the hook reports on (`claude:<session_id>`).
   * Such a connection asks `lsp` only, and what it saw is kept under that session across hook runs.
   */
  readonly agentSession?: string;
}

/** An agent's session id as a hook names it: bounded, one line of plain characters. */
const AGENT_SESSION = /^[\w.:@-]{1,200}$/;

/** The endpoint's answer to the hello, one line; after `ok` the connection carries MCP messages. */
export type HelloReply = { readonly ok: true } | { readonly ok: false; readonly error: string };

export function discoveryDir(env: NodeJS.ProcessEnv = process.env): string {
  return env[STATE_DIR_VARIABLE] || path.join(os.homedir(), '.agent-live-tools', 'windows');
}

/** Creates a directory only this user may enter (0700), or makes an existing one so; throws when another user owns it. */
export function ensurePrivateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stat = fs.statSync(dir);
  if (typeof process.getuid === 'function' && stat.uid !== process.getuid())
    throw new Error(`${dir} belongs to another user: the MCP endpoint keeps its files only where no one else can.`);
  if ((stat.mode & 0o077) !== 0) fs.chmodSync(dir, 0o700);
}

/** Where a window's socket lives: a fresh private directory (Unix), or a named pipe with an unguessable name (Windows). */
export function socketPath(privateDir: string, nonce: string): string {
  return process.platform === 'win32' ? `\\\\.\\pipe\\agent-live-tools-${nonce}` : path.join(privateDir, 'mcp.sock');
}

/** The parsed hello, or undefined when the line is not one. */
export function parseHello(line: string): Hello | undefined {
  try {
    const value = JSON.parse(line) as Partial<Hello>;
    if (typeof value.token !== 'string' || typeof value.client !== 'string') return undefined;
    if (value.agentSession === undefined) return { token: value.token, client: value.client };
    if (typeof value.agentSession !== 'string' || !AGENT_SESSION.test(value.agentSession)) return undefined;
    return { token: value.token, client: value.client, agentSession: value.agentSession };
  } catch {
    return undefined;
  }
}

/** Whether the window that wrote the record still runs: its process is alive and, where known, is the one that started then. */
export function recordLive(record: Pick<WindowRecord, 'pid' | 'started'>): boolean {
  return processLive(record);
}

/** The record a file holds, or undefined when it holds none. */
function parseRecord(text: string): WindowRecord | undefined {
  try {
    const value = JSON.parse(text) as Partial<WindowRecord>;
    if (
      typeof value.socket === 'string' &&
      typeof value.token === 'string' &&
      typeof value.pid === 'number' &&
      (value.started === undefined || typeof value.started === 'string') &&
      Array.isArray(value.folders) &&
      value.folders.every((folder) => typeof folder === 'string')
    )
      return value as WindowRecord;
  } catch {
    // A file being written or left by a crash: not a window.
  }
  return undefined;
}

function recordFiles(dir: string): string[] {
  try {
    return fs
      .readdirSync(dir)
      .filter((name) => name.endsWith('.json'))
      .map((name) => path.join(dir, name));
  } catch {
    return [];
  }
}

/** Reads the records of live windows; unreadable, malformed and stale files are left out. */
export function readWindowRecords(dir: string, live: (record: WindowRecord) => boolean = recordLive): WindowRecord[] {
  const records: WindowRecord[] = [];
  for (const file of recordFiles(dir)) {
    let record: WindowRecord | undefined;
    try {
      record = parseRecord(fs.readFileSync(file, 'utf8'));
    } catch {
      continue;
    }
    if (record && live(record)) records.push(record);
  }
  return records;
}

/** Removes the records of windows that are gone (a crashed editor leaves its record behind); returns their files. */
export function removeStaleRecords(dir: string, live: (record: WindowRecord) => boolean = recordLive): string[] {
  const removed: string[] = [];
  for (const file of recordFiles(dir)) {
    try {
      const record = parseRecord(fs.readFileSync(file, 'utf8'));
      // A file that holds no record may be one being written: left alone.
      if (record && !live(record)) {
        fs.rmSync(file, { force: true });
        removed.push(file);
      }
    } catch {
      // Unreadable: not ours to judge.
    }
  }
  return removed;
}

/**
 * Why the bridge must not send a token to this socket, or undefined when it may: the socket and the
 * directory holding it must be this user's, the directory closed to everyone else (0700). A record
 * left by a window that is gone may name a directory another user has made since.
 */
export function unsafeSocket(socket: string, uid = process.getuid?.()): string | undefined {
  // Windows: a named pipe with an unguessable name; its directory is not a file system one.
  if (process.platform === 'win32' || uid === undefined) return undefined;
  const dir = path.dirname(socket);
  let dirStat: fs.Stats;
  let socketStat: fs.Stats;
  try {
    dirStat = fs.lstatSync(dir);
    socketStat = fs.lstatSync(socket);
  } catch {
    return `${socket} does not exist`;
  }
  if (!dirStat.isDirectory() || dirStat.uid !== uid) return `${dir} is not a directory of this user`;
  if ((dirStat.mode & 0o077) !== 0) return `${dir} is open to other users (mode ${(dirStat.mode & 0o777).toString(8)})`;
  if (!socketStat.isSocket() || socketStat.uid !== uid) return `${socket} is not a socket of this user`;
  return undefined;
}

/** The windows with a folder that holds the directory, the deepest folder first. */
export function windowsFor(records: readonly WindowRecord[], directory: string): WindowRecord[] {
  const depths = new Map<WindowRecord, number>();
  for (const record of records) {
    for (const folder of record.folders) {
      const relative = path.relative(folder, directory);
      const inside = relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
      if (inside) depths.set(record, Math.max(depths.get(record) ?? -1, folder.length));
    }
  }
  return [...depths].sort(([, a], [, b]) => b - a).map(([record]) => record);
}

function realDirectory(directory: string): string {
  try {
    return fs.realpathSync(directory);
  } catch {
    return directory;
  }
}

/**
 * The windows an agent may reach, best first: the one of the terminal it runs in, then each whose
 * folder holds the directory (the deepest first); or the reason there is none (one line). The
 * bridge tries them in order (a socket it must not trust, or cannot reach, is passed over).
 */
export function findWindows(env: NodeJS.ProcessEnv, cwd: string): WindowEndpoint[] | string {
  const socket = env[SOCKET_VARIABLE];
  const token = env[TOKEN_VARIABLE];
  const fromTerminal = socket && token ? [{ socket, token }] : [];
  const dir = discoveryDir(env);
  const records = readWindowRecords(dir);
  const directory = realDirectory(cwd);
  const holding = windowsFor(records, directory);
  if (fromTerminal.length + holding.length > 0) return [...fromTerminal, ...holding];
  if (records.length === 0)
    return `no VS Code window with Agent Live Tools is open (no live window in ${dir}). Open the project in VS Code, then start the agent again.`;
  const folders = records.flatMap((found) => found.folders).slice(0, 5);
  return `no open VS Code window has a folder holding ${directory} (open: ${folders.join(', ')}). Start the agent in one of those folders, or from a terminal of the window you want.`;
}
