/**
 * A raw Debug Adapter Protocol client for plain Node (no vscode): Content-Length framing over any
 * pair of streams, requests answered by promise, events by `waitForEvent`, reverse requests refused.
 * Plus starters for the real adapters the tests use, each disposed by killing its process tree.
 */
import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { EventEmitter } from 'node:events';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { descendants, isAlive } from './processes';
import { repoRoot } from './repoRoot';

const DEFAULT_TIMEOUT_MS = 30_000;

/** The adapter answered `success: false`; `message` is the adapter's own words. */
export class DapRequestError extends Error {
  constructor(
    readonly command: string,
    readonly response: DebugProtocol.Response,
  ) {
    const detail = (response.body as { error?: DebugProtocol.Message } | undefined)?.error?.format;
    super(`${command} failed: ${detail ?? response.message ?? 'no message'}`);
    this.name = 'DapRequestError';
  }
}

interface Pending {
  readonly command: string;
  resolve(body: unknown): void;
  reject(error: Error): void;
}

/**
 * Emits 'event' (the DebugProtocol.Event), '<event name>' (its body), 'reverseRequest' and 'close'.
 * `output` accumulates the text of every `output` event, so tests can check the program's stdout.
 */
export class DapClient extends EventEmitter {
  output = '';
  readonly closed: Promise<void>;
  private seq = 1;
  private buffer = Buffer.alloc(0);
  private readonly pending = new Map<number, Pending>();
  private isClosed = false;
  private markClosed!: () => void;

  constructor(
    input: Readable,
    private readonly out: Writable,
  ) {
    super();
    this.closed = new Promise((resolve) => (this.markClosed = resolve));
    input.on('data', (chunk: Buffer) => this.receive(chunk));
    input.on('end', () => this.close());
    input.on('error', () => this.close());
    out.on('error', () => this.close());
    this.on('output', (body: DebugProtocol.OutputEvent['body']) => (this.output += body.output));
  }

  /** Sends a request and resolves with the response's body; rejects on success:false, timeout or close. */
  request<T = any>(command: string, args?: unknown, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<T> {
    if (this.isClosed) return Promise.reject(new Error(`${command}: the adapter connection is closed`));
    const seq = this.seq++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(seq);
        reject(new Error(`${command}: no response in ${timeoutMs} ms`));
      }, timeoutMs);
      const settle =
        <A>(done: (value: A) => void) =>
        (value: A) => {
          clearTimeout(timer);
          done(value);
        };
      this.pending.set(seq, { command, resolve: settle(resolve as (body: unknown) => void), reject: settle(reject) });
      this.send({ seq, type: 'request', command, arguments: args });
    });
  }

  /** The next event named `name` (for which `predicate` holds) arriving after this call. */
  waitForEvent<T = any>(
    name: string,
    predicate: (body: T) => boolean = () => true,
    timeoutMs = DEFAULT_TIMEOUT_MS,
  ): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const cleanup = (): void => {
        clearTimeout(timer);
        this.off(name, onEvent);
        this.off('close', onClose);
      };
      const onEvent = (body: T): void => {
        if (!predicate(body)) return;
        cleanup();
        resolve(body);
      };
      const onClose = (): void => {
        cleanup();
        reject(new Error(`waiting for the ${name} event: the adapter connection closed`));
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`no ${name} event in ${timeoutMs} ms`));
      }, timeoutMs);
      this.on(name, onEvent);
      this.once('close', onClose);
    });
  }

  /** Ends the connection; pending requests are rejected. Idempotent. */
  close(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    for (const pending of this.pending.values())
      pending.reject(new Error(`${pending.command}: the adapter connection closed`));
    this.pending.clear();
    this.out.end();
    this.markClosed();
    this.emit('close');
  }

  private send(message: object): void {
    const json = Buffer.from(JSON.stringify(message), 'utf8');
    this.out.write(`Content-Length: ${json.length}\r\n\r\n`);
    this.out.write(json);
  }

  private receive(chunk: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const headerEnd = this.buffer.indexOf('\r\n\r\n');
      if (headerEnd === -1) return;
      const length = /Content-Length:\s*(\d+)/i.exec(this.buffer.subarray(0, headerEnd).toString('ascii'));
      if (!length)
        throw new Error(`DAP header without Content-Length: ${this.buffer.subarray(0, headerEnd).toString()}`);
      const start = headerEnd + 4;
      const end = start + Number(length[1]);
      if (this.buffer.length < end) return;
      const message = JSON.parse(this.buffer.subarray(start, end).toString('utf8')) as DebugProtocol.ProtocolMessage;
      this.buffer = this.buffer.subarray(end);
      this.dispatch(message);
    }
  }

  private dispatch(message: DebugProtocol.ProtocolMessage): void {
    if (message.type === 'response') {
      const response = message as DebugProtocol.Response;
      const pending = this.pending.get(response.request_seq);
      if (!pending) return;
      this.pending.delete(response.request_seq);
      if (response.success) pending.resolve(response.body);
      else pending.reject(new DapRequestError(pending.command, response));
    } else if (message.type === 'event') {
      const event = message as DebugProtocol.Event;
      this.emit('event', event);
      this.emit(event.event, event.body ?? {});
    } else if (message.type === 'request') {
      // runInTerminal, startDebugging: this client has no terminal and no child sessions.
      const request = message as DebugProtocol.Request;
      this.emit('reverseRequest', request);
      this.send({
        seq: this.seq++,
        type: 'response',
        request_seq: request.seq,
        command: request.command,
        success: false,
        message: `${request.command} is not supported by the test DAP client`,
      });
    }
  }
}

/** A running adapter process with its client; `dispose` kills its whole process tree. */
export interface StartedAdapter {
  readonly adapterID: string;
  readonly client: DapClient;
  readonly process: ChildProcess;
  /** The program's stdout: output events, or (delve) the adapter's own stdout. */
  programOutput(): string;
  /** The adapter's pid and the pids of all its live descendants (the debuggee among them). */
  pids(): number[];
  dispose(): Promise<void>;
}

export const DEBIAN_PYTHON = '/usr/bin/python3';
export const LLDB_VSCODE = '/usr/bin/lldb-vscode-16';
export const DLV = '/usr/bin/dlv';

function requireBinary(file: string, install: string): void {
  if (!fs.existsSync(file)) throw new Error(`${file} not found: install ${install} (.ci/run does)`);
}

/** `python -m debugpy.adapter` over stdio. Launch arguments: program, python, cwd, console "internalConsole". */
export function startDebugpy(python = DEBIAN_PYTHON): StartedAdapter {
  requireBinary(python, 'python3');
  const probe = spawnSyncOk(python, ['-c', 'import debugpy']);
  if (!probe)
    throw new Error(`${python} cannot import debugpy: install the Debian package python3-debugpy (.ci/run does)`);
  return startStdioAdapter('python', python, ['-m', 'debugpy.adapter']);
}

/** lldb-vscode over stdio. Launch arguments: program, cwd, args, env as an array of "K=V". */
export function startLldb(binary = LLDB_VSCODE): StartedAdapter {
  requireBinary(binary, 'lldb-16');
  return startStdioAdapter('lldb', binary, []);
}

/** Our fault-injection adapter (out/test/fixtures/faultAdapter.js) over stdio; launch argument `mode`. */
export function startFaultAdapter(
  script = path.join(repoRoot(), 'out', 'test', 'fixtures', 'faultAdapter.js'),
): StartedAdapter {
  requireBinary(script, 'nothing: build it with node esbuild.mjs --tests');
  return startStdioAdapter('fault', process.execPath, [script]);
}

export function startStdioAdapter(
  adapterID: string,
  command: string,
  args: readonly string[],
  cwd = process.cwd(),
): StartedAdapter {
  // detached: its own process group, so dispose reaches whatever it started.
  const child = spawn(command, [...args], { cwd, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
  child.stderr!.resume(); // never let a full stderr pipe block the adapter
  const client = new DapClient(child.stdout!, child.stdin!);
  child.once('exit', () => client.close());
  return adapter(adapterID, client, child, () => client.output);
}

/**
 * `dlv dap --client-addr`: delve dials us, so we listen on a free port first. The program's stdout
 * arrives on dlv's own stdout, not as output events. Launch arguments: mode "debug", program (the
 * package directory), output (where to put the binary).
 */
export async function startDelve(dlv = DLV, cwd = process.cwd()): Promise<StartedAdapter> {
  requireBinary(dlv, 'delve');
  const server = net.createServer();
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  const child = spawn(dlv, ['dap', `--client-addr=127.0.0.1:${port}`], {
    cwd,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  child.stdout!.setEncoding('utf8').on('data', (text: string) => (stdout += text));
  child.stderr!.resume();
  try {
    const socket = await new Promise<net.Socket>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`dlv did not connect to 127.0.0.1:${port} in 10 s`)), 10_000);
      child.once('exit', (code) => reject(new Error(`dlv exited with ${code} before connecting`)));
      server.once('connection', (socket) => {
        clearTimeout(timer);
        resolve(socket);
      });
    });
    const client = new DapClient(socket, socket);
    child.once('exit', () => client.close());
    return adapter('go', client, child, () => stdout);
  } catch (error) {
    killTree(child.pid);
    throw error;
  } finally {
    server.close();
  }
}

function adapter(
  adapterID: string,
  client: DapClient,
  child: ChildProcess,
  programOutput: () => string,
): StartedAdapter {
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  const pids = (): number[] => (child.pid === undefined ? [] : [child.pid, ...descendants(child.pid)].filter(isAlive));
  return {
    adapterID,
    client,
    process: child,
    programOutput,
    pids,
    async dispose() {
      const known = pids();
      client.close();
      killTree(child.pid);
      for (const pid of known) kill(pid);
      await Promise.race([exited, delay(5000)]);
      // The debuggee is reparented once the adapter dies; wait for it to go too.
      for (let waited = 0; known.some(isAlive) && waited < 5000; waited += 50) await delay(50);
    },
  };
}

/** Kills the process group led by `pid` and every descendant, wherever its group is. */
function killTree(pid: number | undefined): void {
  if (pid === undefined) return;
  const tree = descendants(pid);
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // no such group: already gone
  }
  for (const child of [pid, ...tree]) kill(child);
}

function kill(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

function spawnSyncOk(command: string, args: string[]): boolean {
  return spawnSync(command, args, { stdio: 'ignore' }).status === 0;
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The initialize request as VS Code sends it (@vscode/debugadapter refuses one without pathFormat "path"). */
export async function initialize(adapter: StartedAdapter): Promise<DebugProtocol.Capabilities> {
  const capabilities = await adapter.client.request<DebugProtocol.Capabilities | undefined>('initialize', {
    clientID: 'agent-live-tools-tests',
    adapterID: adapter.adapterID,
    linesStartAt1: true,
    columnsStartAt1: true,
    pathFormat: 'path',
    supportsVariableType: true,
  });
  return capabilities ?? {};
}

export interface FirstStop {
  readonly threadId: number;
  readonly stopped: DebugProtocol.StoppedEvent['body'];
  readonly capabilities: DebugProtocol.Capabilities;
  /** Milliseconds from sending initialize to each step. */
  readonly timings: { initialized: number; configurationDone: number; launched: number; stopped: number };
}

/**
 * The sequence every adapter here accepts: initialize → launch (reply not awaited: adapters answer
 * it only after configurationDone) → `initialized` → setBreakpoints → configurationDone → launch
 * reply and `stopped`. `line` is 1-based; resolves at the first stop.
 */
export async function launchToFirstStop(
  adapter: StartedAdapter,
  launchArgs: Record<string, unknown>,
  breakpointFile: string,
  line: number,
  timeoutMs = DEFAULT_TIMEOUT_MS,
): Promise<FirstStop> {
  const { client } = adapter;
  const started = Date.now();
  const since = (): number => Date.now() - started;
  // Listen before initialize: an adapter may send `initialized` in the same chunk as its reply,
  // dispatched before an `await` on that reply could resume.
  const initialized = client.waitForEvent('initialized', undefined, timeoutMs);
  const stopped = client.waitForEvent<DebugProtocol.StoppedEvent['body']>('stopped', undefined, timeoutMs);
  for (const promise of [initialized, stopped]) promise.catch(() => undefined);
  const capabilities = await initialize(adapter);
  const timings = { initialized: 0, configurationDone: 0, launched: 0, stopped: 0 };
  const launched = client.request('launch', launchArgs, timeoutMs).then(() => (timings.launched = since()));
  launched.catch(() => undefined);
  // A launch that fails early fails instead of `initialized` arriving; its reason is often only
  // in the output events (delve: "Build error: Check the debug console for details").
  await Promise.race([initialized, launched.then(() => initialized)]).catch((error: Error) => {
    throw new Error(`${error.message}\nadapter output:\n${client.output.slice(-2000)}`);
  });
  timings.initialized = since();
  await client.request('setBreakpoints', { source: { path: breakpointFile }, breakpoints: [{ line }] });
  await client.request('configurationDone');
  timings.configurationDone = since();
  const [body] = await Promise.all([stopped, launched]);
  timings.stopped = since();
  const threadId =
    body.threadId ?? (await client.request<DebugProtocol.ThreadsResponse['body']>('threads')).threads[0]!.id;
  return { threadId, stopped: body, capabilities, timings };
}
