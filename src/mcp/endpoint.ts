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

/** The socket (or pipe) of the window that started this terminal. */
export const SOCKET_VARIABLE = 'AGENT_LIVE_TOOLS_MCP_SOCKET';
/** That window's token. */
export const TOKEN_VARIABLE = 'AGENT_LIVE_TOOLS_MCP_TOKEN';
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
}

/** The first line a connection sends: the token, and who connects (for logs and cards). */
export interface Hello {
  readonly token: string;
  readonly client: string;
}

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
    return { token: value.token, client: value.client };
  } catch {
    return undefined;
  }
}

/** Reads the records of live windows; unreadable, malformed and stale files are left out. */
export function readWindowRecords(dir: string, alive: (pid: number) => boolean = processAlive): WindowRecord[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir).filter((name) => name.endsWith('.json'));
  } catch {
    return [];
  }
  const records: WindowRecord[] = [];
  for (const name of names) {
    try {
      const value = JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')) as Partial<WindowRecord>;
      if (
        typeof value.socket === 'string' &&
        typeof value.token === 'string' &&
        typeof value.pid === 'number' &&
        Array.isArray(value.folders) &&
        value.folders.every((folder) => typeof folder === 'string') &&
        alive(value.pid)
      )
        records.push(value as WindowRecord);
    } catch {
      // A file being written or left by a crash: not a window.
    }
  }
  return records;
}

/**
 * The window whose folder holds the directory most closely (the deepest folder that contains it);
 * undefined when none does.
 */
export function windowFor(records: readonly WindowRecord[], directory: string): WindowRecord | undefined {
  let best: { record: WindowRecord; depth: number } | undefined;
  for (const record of records) {
    for (const folder of record.folders) {
      const relative = path.relative(folder, directory);
      const inside = relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
      if (inside && (!best || folder.length > best.depth)) best = { record, depth: folder.length };
    }
  }
  return best?.record;
}

function realDirectory(directory: string): string {
  try {
    return fs.realpathSync(directory);
  } catch {
    return directory;
  }
}

/** The socket and token of an agent's window, or the reason there is none (one line). */
export function findWindow(env: NodeJS.ProcessEnv, cwd: string): { socket: string; token: string } | string {
  const socket = env[SOCKET_VARIABLE];
  const token = env[TOKEN_VARIABLE];
  if (socket && token) return { socket, token };
  const dir = discoveryDir(env);
  const records = readWindowRecords(dir);
  const directory = realDirectory(cwd);
  const record = windowFor(records, directory);
  if (record) return record;
  if (records.length === 0)
    return `no VS Code window with Agent Live Tools is open (no live window in ${dir}). Open the project in VS Code, then start the agent again.`;
  const folders = records.flatMap((found) => found.folders).slice(0, 5);
  return `no open VS Code window has a folder holding ${directory} (open: ${folders.join(', ')}). Start the agent in one of those folders, or from a terminal of the window you want.`;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
