/**
 * The one protocol class for kernel child processes (Python driver, JavaScript host): newline-
 * delimited JSON to the kernel on fd 3 and from it on fd 4, a table of pending executions by id,
 * an `exited` promise. Raw bytes on fd 1/2 (C-level writes, subprocesses) become stream messages
 * of the running cell. The kernel leads its own process group, so `kill` takes its children along.
 * Reading is bounded: a message line may hold MAX_MESSAGE_BYTES; a longer one, or a line that is no
 * message (a cell writing to fd 4 itself), is dropped and the running cell told how many bytes went.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import type { Readable, Writable } from 'node:stream';
import { describeError, Logger, nullLogger } from '../log/logger';
import { ModelFacingError } from '../platform/modelFacingError';
import { BoundedLineReader } from '../process/boundedLineReader';
import { processGroupExists, signalProcessGroup } from '../process/childProcess';
import { MAX_MESSAGE_BYTES } from './kernelLimits';
import { withoutEndpointAccess } from '../process/childEnvironment';

/** Messages a kernel sends about a running cell (everything but `ready` and `done`). */
export type CellMessage =
  | { readonly type: 'stream'; readonly id: number; readonly name: 'stdout' | 'stderr'; readonly text: string }
  | { readonly type: 'display' | 'result'; readonly id: number; readonly mime: string; readonly data: string }
  | {
      readonly type: 'error';
      readonly id: number;
      readonly ename: string;
      readonly evalue: string;
      readonly traceback: readonly string[];
    }
  /** `awaited`: the cell is blocked on this call from the start (Python: called on the cell's own thread). */
  | {
      readonly type: 'tool';
      readonly id: number;
      readonly call: number;
      readonly name: string;
      readonly input: unknown;
      readonly awaited?: boolean;
    }
  /** The cell now waits on an earlier call (JavaScript: it awaited the promise `tool()` returned). */
  | { readonly type: 'tool_awaited'; readonly id: number; readonly call: number }
  /** Made here, not sent: bytes on fd 4 that were dropped, as one line over the bound or as lines that were no message. */
  | {
      readonly type: 'dropped';
      readonly id: number;
      readonly bytes: number;
      readonly reason: 'too-long' | 'not-a-message';
    };

type KernelMessage =
  | CellMessage
  | { readonly type: 'ready'; readonly pid: number; readonly version: string }
  /** `dropped`: characters of stream text the kernel left out beyond its own hard limit (optional). */
  | { readonly type: 'done'; readonly id: number; readonly dropped?: number };

export interface KernelExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** We sent the SIGKILL (budget, cancellation, reset, dispose). */
  readonly killedByUs: boolean;
}

export type ExecutionOutcome =
  { readonly kind: 'done'; readonly dropped: number } | { readonly kind: 'exited'; readonly exit: KernelExit };

export interface KernelCommand {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env?: NodeJS.ProcessEnv;
  /** How long the kernel may take to say `ready`. */
  readonly readyTimeoutMs?: number;
  /** "Python", "JavaScript": how a KernelStartError names the kernel. */
  readonly language?: string;
}

/** The kernel did not start or did not say `ready`; the message says what it printed. */
export class KernelStartError extends ModelFacingError {
  constructor(
    readonly command: string,
    readonly reason: string,
    /** "Python", "JavaScript", when the caller said. */
    readonly language?: string,
  ) {
    super(`could not start the kernel (${command}): ${reason}`);
    this.name = 'KernelStartError';
  }

  override modelText(): string {
    return `Error: the ${this.language ? `${this.language} ` : ''}kernel could not start (${this.command}): ${this.reason}. Fix the interpreter (setting liveTools.eval.python) and call again.`;
  }
}

/** Characters of fd 1/2 output and dropped lines logged while no cell runs, until the next cell starts. */
const BETWEEN_CELLS_LOG_CHARS = 64 * 1024;

/** Kernel groups still alive; killed if the host exits without disposing them. */
const liveGroups = new Set<number>();
let exitHookInstalled = false;

function killGroup(pid: number): void {
  signalProcessGroup(pid, 'SIGKILL');
}

interface PendingExecution {
  readonly onMessage: (message: CellMessage) => void;
  readonly resolve: (outcome: ExecutionOutcome) => void;
  /** `done` arrived; it settles a moment later (see `receive`). */
  finishing?: boolean;
}

export class KernelProcess {
  readonly exited: Promise<KernelExit>;
  private readonly pending = new Map<number, PendingExecution>();
  private nextId = 0;
  private exit: KernelExit | undefined;
  private killedByUs = false;
  private readonly toKernel: Writable;
  /** What has been logged since the last cell started (see BETWEEN_CELLS_LOG_CHARS). */
  private loggedBetweenCells = 0;

  private constructor(
    private readonly child: ChildProcess,
    readonly pid: number,
    private readonly logger: Logger,
  ) {
    this.toKernel = child.stdio[3] as Writable;
    // A write after the kernel died must not throw out of an event handler; the exit says what happened.
    this.toKernel.on('error', (error) => logger.debug('kernel.write', describeError(error)));
    this.exited = new Promise<KernelExit>((resolve) => {
      let closed = false;
      child.once('close', () => (closed = true));
      child.once('exit', (code, signal) => {
        liveGroups.delete(pid);
        killGroup(pid); // children it left behind in its group
        const exit: KernelExit = { code, signal, killedByUs: this.killedByUs };
        // What it wrote just before dying is still in the pipes: read it (bounded wait) before settling.
        const settle = (): void => {
          this.exit = exit;
          for (const [id, execution] of this.pending) {
            if (execution.finishing) continue;
            execution.resolve({ kind: 'exited', exit });
            this.pending.delete(id);
          }
          resolve(exit);
        };
        if (closed) return settle();
        const timer = setTimeout(settle, 500);
        child.once('close', () => {
          clearTimeout(timer);
          settle();
        });
      });
    });
  }

  /** Spawns the kernel in its own process group and waits for its `ready` message. */
  static async start(
    command: KernelCommand,
    logger: Logger = nullLogger,
  ): Promise<{ kernel: KernelProcess; version: string }> {
    let child: ChildProcess;
    try {
      child = spawn(command.command, [...command.args], {
        cwd: command.cwd,
        env: withoutEndpointAccess(command.env ?? process.env),
        detached: true, // its own process group: kill(-pid) reaches what the cells started
        stdio: ['ignore', 'pipe', 'pipe', 'pipe', 'pipe'],
      });
    } catch (error) {
      throw new KernelStartError(command.command, describeError(error), command.language);
    }
    const failedToSpawn = new Promise<never>((_, reject) =>
      child.once('error', (error) => reject(new KernelStartError(command.command, error.message, command.language))),
    );
    failedToSpawn.catch(() => undefined);
    if (child.pid === undefined) await failedToSpawn;
    const pid = child.pid as number;
    liveGroups.add(pid);
    if (!exitHookInstalled) {
      exitHookInstalled = true;
      process.once('exit', () => liveGroups.forEach(killGroup));
    }
    const kernel = new KernelProcess(child, pid, logger);
    let early = '';
    const keepEarly = (chunk: Buffer): void => {
      if (early.length < 4000) early += chunk.toString('utf8');
    };
    child.stderr?.on('data', keepEarly);
    const ready = new Promise<{ version: string }>((resolve) => (kernel.onReady = resolve));
    kernel.listen();
    const timeoutMs = command.readyTimeoutMs ?? 30_000;
    let timer: NodeJS.Timeout | undefined;
    try {
      const { version } = await Promise.race([
        ready,
        failedToSpawn,
        kernel.exited.then((exit) => {
          throw new KernelStartError(
            command.command,
            `it ${describeExit(exit)} before it was ready${early.trim() ? `:\n${early.trim().slice(-2000)}` : ''}`,
            command.language,
          );
        }),
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () =>
              reject(
                new KernelStartError(
                  command.command,
                  `it did not say ready within ${timeoutMs / 1000} s`,
                  command.language,
                ),
              ),
            timeoutMs,
          );
        }),
      ]);
      return { kernel, version };
    } catch (error) {
      kernel.kill();
      throw error;
    } finally {
      clearTimeout(timer);
      child.stderr?.off('data', keepEarly);
    }
  }

  private onReady: (ready: { version: string }) => void = () => undefined;

  private listen(): void {
    const fromKernel = this.child.stdio[4] as Readable;
    const reader = new BoundedLineReader(
      MAX_MESSAGE_BYTES,
      (line, bytes) => this.receive(line, bytes),
      (bytes) => this.drop(bytes, 'too-long'),
    );
    fromKernel.on('data', (chunk: Buffer) => reader.push(chunk));
    fromKernel.on('end', () => reader.end());
    fromKernel.on('error', (error) => this.logger.debug('kernel.read', describeError(error)));
    for (const name of ['stdout', 'stderr'] as const) {
      const stream = this.child[name];
      const rawDecoder = new StringDecoder('utf8');
      stream?.on('data', (chunk: Buffer) => this.receiveRaw(name, rawDecoder.write(chunk)));
    }
  }

  private receive(line: string, bytes: number): void {
    // The kernels begin every message with a line break too, so what a cell wrote to fd 4 without one
    // ends there instead of swallowing the message: empty lines are the usual case, not an error.
    if (line.length === 0) return;
    const message = parseMessage(line);
    if (!message) return this.drop(bytes, 'not-a-message');
    if (message.type === 'ready') {
      this.onReady({ version: message.version });
      return;
    }
    const execution = this.pending.get(message.id);
    if (!execution) {
      this.logger.debug('kernel.protocol', `${message.type} for no pending execution (${message.id})`);
      return;
    }
    if (message.type === 'done') {
      // Bytes the cell wrote to fd 1/2 before `done` may be read in this same poll of the event
      // loop, after this line: settle once that poll is over, so they still count as the cell's.
      execution.finishing = true;
      setImmediate(() => {
        this.pending.delete(message.id);
        execution.resolve({ kind: 'done', dropped: message.dropped ?? 0 });
      });
      return;
    }
    execution.onMessage(message);
  }

  /** Bytes on fd 4 that were no message: the running cell's answer says so, else the log does. */
  private drop(bytes: number, reason: 'too-long' | 'not-a-message'): void {
    const running = this.running();
    if (running) running.execution.onMessage({ type: 'dropped', id: running.id, bytes, reason });
    else
      this.logBetweenCells(
        'kernel.protocol',
        `${bytes} bytes on fd 4 dropped between cells (${reason === 'too-long' ? `one line over ${MAX_MESSAGE_BYTES} bytes` : 'not a message'})`,
      );
  }

  /** fd 1/2 bytes belong to the cell that runs (kernels run one at a time), else to the log. */
  private receiveRaw(name: 'stdout' | 'stderr', text: string): void {
    if (!text) return;
    const running = this.running();
    if (running) running.execution.onMessage({ type: 'stream', id: running.id, name, text });
    else this.logBetweenCells(`kernel.${name}`, text.trimEnd());
  }

  /** The cell that runs (or has just said `done`): the oldest pending execution. */
  private running(): { id: number; execution: PendingExecution } | undefined {
    const [id, execution] = this.pending.entries().next().value ?? [];
    return id !== undefined && execution !== undefined ? { id, execution } : undefined;
  }

  /** A background thread of the kernel may write between cells without end: the log keeps the first 64 K characters. */
  private logBetweenCells(tag: string, text: string): void {
    if (this.loggedBetweenCells >= BETWEEN_CELLS_LOG_CHARS) return;
    this.loggedBetweenCells += text.length;
    this.logger.info(
      tag,
      this.loggedBetweenCells < BETWEEN_CELLS_LOG_CHARS
        ? text
        : `${text.slice(0, 1000)}\n[… more output of the kernel between cells is not logged until the next cell]`,
    );
  }

  get alive(): boolean {
    return this.exit === undefined;
  }

  /** Runs code; settles at the kernel's `done`, or when the kernel exits first. */
  execute(code: string, onMessage: (message: CellMessage) => void): Promise<ExecutionOutcome> {
    if (this.exit) return Promise.resolve({ kind: 'exited', exit: this.exit });
    const id = ++this.nextId;
    this.loggedBetweenCells = 0;
    return new Promise<ExecutionOutcome>((resolve) => {
      this.pending.set(id, { onMessage, resolve });
      this.send({ type: 'execute', id, code });
    });
  }

  sendToolResult(call: number, ok: boolean, text: string): void {
    this.send({ type: 'tool_result', call, ok, text });
  }

  private send(message: object): void {
    if (this.exit || this.toKernel.destroyed) return;
    this.toKernel.write(`${JSON.stringify(message)}\n`);
  }

  /** SIGINT to the kernel process itself (not its group): a KeyboardInterrupt in the running cell. */
  interrupt(): void {
    if (this.exit) return;
    try {
      process.kill(this.pid, 'SIGINT');
    } catch {
      // already gone
    }
  }

  /** SIGKILL to the whole process group. */
  kill(): void {
    if (this.exit) return;
    this.killedByUs = true;
    killGroup(this.pid);
  }

  /** Kills the kernel and waits until it is gone, and (up to 2 s) until its whole group is reaped. */
  async dispose(): Promise<void> {
    this.kill();
    await this.exited;
    for (let waited = 0; waited < 2000 && processGroupExists(this.pid); waited += 50) {
      killGroup(this.pid);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

/** A line as a message: a JSON object with a `type`, else undefined. */
function parseMessage(line: string): KernelMessage | undefined {
  if (!line.startsWith('{')) return undefined;
  try {
    const message: unknown = JSON.parse(line);
    return typeof message === 'object' && message !== null && typeof (message as { type?: unknown }).type === 'string'
      ? (message as KernelMessage)
      : undefined;
  } catch {
    return undefined;
  }
}

export function describeExit(exit: KernelExit): string {
  if (exit.killedByUs) return 'was killed';
  if (exit.signal) return `was ended by ${exit.signal}`;
  return `exited with code ${exit.code}`;
}
