/**
 * The window's MCP endpoint, without the editor: the socket in its private directory, the hello every
 * connection opens with, the sessions and their ids, and the discovery record. The hello's first line must
 * carry this window's token (compared in constant time, at most MAX_HELLO_LENGTH bytes, within
 * HELLO_TIMEOUT_MS); anything else gets one refusal line and the connection ends, and nothing else is read
 * before it. Once the token matches, the connection (paused, with what came after the hello put back) is
 * handed to the glue (`vscode/registerMcp.ts`), which serves it as a session and shows the sessions.
 */
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  ensurePrivateDir,
  HELLO_TIMEOUT_MS,
  HelloReply,
  MAX_HELLO_LENGTH,
  parseHello,
  processStartTime,
  removeStaleRecords,
  socketPath,
  WindowRecord,
} from './endpoint';
import type { McpSession } from './mcpSession';
import { Logger } from '../log/logger';
import { singleLine } from '../platform/wording';

export interface HelloOptions {
  readonly token: string;
  /** A connection that sent the token, the client it named (one bounded line), and the agent session a hook named. */
  authenticated(connection: net.Socket, client: string, agentSession?: string): void;
  refused(why: string): void;
  readonly timeoutMs?: number;
}

export function acceptHello(connection: net.Socket, options: HelloOptions): void {
  let buffered = Buffer.alloc(0);
  const refuse = (error: string): void => {
    const reply: HelloReply = { ok: false, error };
    connection.end(`${JSON.stringify(reply)}\n`);
    options.refused(error);
  };
  const timer = setTimeout(() => {
    connection.off('data', onData);
    refuse('no token was sent in time.');
  }, options.timeoutMs ?? HELLO_TIMEOUT_MS);
  const onData = (chunk: Buffer): void => {
    // Bounded: past MAX_HELLO_LENGTH without a line break it is refused.
    buffered = Buffer.concat([buffered, chunk]);
    const end = buffered.indexOf(0x0a);
    if (end === -1 && buffered.length <= MAX_HELLO_LENGTH) return;
    clearTimeout(timer);
    connection.pause();
    connection.off('data', onData);
    const hello =
      end === -1 || end > MAX_HELLO_LENGTH ? undefined : parseHello(buffered.subarray(0, end).toString('utf8'));
    if (!hello || !sameToken(hello.token, options.token)) {
      refuse(
        "wrong or missing token: this is not the window's token. Start the agent from a terminal of the window, or through its discovery file.",
      );
      return;
    }
    const reply: HelloReply = { ok: true };
    connection.write(`${JSON.stringify(reply)}\n`);
    const rest = buffered.subarray(end + 1);
    if (rest.length > 0) connection.unshift(rest);
    options.authenticated(connection, singleLine(hello.client, 100), hello.agentSession);
  };
  connection.on('data', onData);
  connection.on('error', () => clearTimeout(timer));
  connection.on('close', () => clearTimeout(timer));
}

export function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}

/** What the endpoint asks of its glue: the folders for the record, a session per connection, and what to do as they come and go. */
export interface EndpointOptions {
  readonly log: Logger;
  /** Where the window's discovery record goes (`discoveryDir()`). */
  readonly stateDir: string;
  /** Where the socket's private directory is made (the system's temporary directory). */
  readonly tempDir?: string;
  /** The real paths of the window's folders, for its record. */
  folders(): string[];
  /**
   * Serves an authenticated connection as one MCP session with this id (`bridge`: the client the hello
   * named; `agentSession`: the agent session a hook reports on).
   */
  serve(connection: net.Socket, id: string, bridge: string, agentSession?: string): McpSession;
  /** A session opened or closed. */
  sessionsChanged(): void;
  /** A session ended: what its conversation holds ends with it. */
  sessionClosed(session: McpSession): Promise<void>;
}

/**
 * The window's endpoint: a socket (0600) in a fresh directory only this user may enter (0700), a random
 * token every connection must send first, one MCP session per authenticated connection with an id unique
 * beyond this window (Agent Changes keeps each client's history apart across windows and reloads), and the
 * discovery record (pid, process start time) written once it listens, where the records of windows that
 * are gone are removed first. Disposing it ends the sessions and removes the record and the directory.
 */
export class EndpointServer {
  readonly socket: string;
  readonly token = crypto.randomBytes(32).toString('base64url');
  readonly discoveryFile: string;
  /** Settles once the socket listens and the record is written (or failed to be, which is logged). */
  readonly listening: Promise<void>;
  private readonly sessionsById = new Map<string, McpSession>();
  private readonly server: net.Server;
  private nextSession = 1;

  private constructor(
    private readonly privateDir: string,
    private readonly nonce: string,
    private readonly options: EndpointOptions,
  ) {
    this.socket = socketPath(privateDir, nonce);
    this.discoveryFile = path.join(options.stateDir, `${process.pid}-${nonce}.json`);
    this.server = net.createServer((connection) =>
      acceptHello(connection, {
        token: this.token,
        authenticated: (authenticated, bridge, agentSession) => this.open(authenticated, bridge, agentSession),
        refused: (why) => options.log.warn('mcp', `connection refused: ${why}`),
      }),
    );
    this.server.on('error', (error) => options.log.warn('mcp', `endpoint error: ${error.message}`));
    this.listening = new Promise((resolve) =>
      this.server.listen(this.socket, () => {
        if (process.platform !== 'win32') fs.chmodSync(this.socket, 0o600);
        options.log.info('mcp', `listening at ${this.socket}`);
        this.writeRecord();
        resolve();
      }),
    );
  }

  /** Listens in a fresh private directory; undefined (logged) when none can be made. */
  static open(options: EndpointOptions): EndpointServer | undefined {
    let privateDir: string;
    try {
      privateDir = fs.mkdtempSync(path.join(options.tempDir ?? os.tmpdir(), 'agent-live-tools-'));
    } catch (error) {
      options.log.warn('mcp', `no MCP endpoint: cannot create its directory (${String(error)})`);
      return undefined;
    }
    return new EndpointServer(privateDir, crypto.randomBytes(8).toString('hex'), options);
  }

  sessions(): ReadonlyMap<string, McpSession> {
    return this.sessionsById;
  }

  /** Writes (again, as the folders change) the record a bridge started outside the window's terminals finds it by. */
  writeRecord(): void {
    const { log, stateDir } = this.options;
    try {
      ensurePrivateDir(stateDir);
      // Records of windows that crashed would send a bridge to a socket that may since be someone else's.
      for (const removed of removeStaleRecords(stateDir))
        log.info('mcp', `removed the record of a window that is gone: ${removed}`);
      const record: WindowRecord = {
        socket: this.socket,
        token: this.token,
        folders: this.options.folders(),
        pid: process.pid,
        started: processStartTime(process.pid),
      };
      fs.writeFileSync(this.discoveryFile, JSON.stringify(record), { mode: 0o600 });
    } catch (error) {
      log.warn('mcp', `no discovery file: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** Ends every session; how many there were. */
  async closeSessions(): Promise<number> {
    const open = [...this.sessionsById.values()];
    await Promise.all(open.map((session) => session.close()));
    return open.length;
  }

  dispose(): void {
    void this.closeSessions();
    this.server.close();
    fs.rmSync(this.discoveryFile, { force: true });
    fs.rmSync(this.privateDir, { recursive: true, force: true });
  }

  private open(connection: net.Socket, bridge: string, agentSession?: string): void {
    const { log } = this.options;
    const id = `${this.nonce}-${this.nextSession++}`;
    const session = this.options.serve(connection, id, bridge, agentSession);
    this.sessionsById.set(id, session);
    this.options.sessionsChanged();
    log.info('mcp', `session ${id} opened (${bridge})`);
    void session.closed.then(async () => {
      this.sessionsById.delete(id);
      this.options.sessionsChanged();
      log.info('mcp', `session ${id} closed (${session.peer.client()}): ending its kernels, debug session and workers`);
      await this.options.sessionClosed(session);
    });
  }
}
