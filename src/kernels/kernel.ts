/**
 * A persistent kernel of the eval tool (Python through kernel.py, JavaScript through jsKernelHost):
 * runs cells in one namespace, relays `tool()` calls to a callback, and bounds each cell by an idle
 * budget (time the cell does not spend blocked on a relayed tool call) and by cancellation: SIGINT
 * first, the kill after a grace. A lost kernel is restarted, and said so. What differs per language
 * is how it starts.
 */
import { Logger, nullLogger } from '../log/logger';
import { boundedTimeout } from '../async/timers';
import { ModelFacingError } from '../platform/modelFacingError';
import { CellStatus, KernelPart, KernelResult, OutputCollector } from './kernelResult';
import { CellMessage, describeExit, KernelExit, KernelProcess } from './kernelProcess';

/** The shape of the editor's CancellationToken, without importing it. */
export interface CancellationLike {
  readonly isCancellationRequested: boolean;
  onCancellationRequested(listener: () => void): { dispose(): void };
}

export type CallTool = (
  name: string,
  input: unknown,
  token: CancellationLike,
) => Promise<{ ok: boolean; text: string }>;

/** How a language's kernel process starts (the protocol on fd 3/4 is the same for all). */
export interface KernelLaunch {
  /** "Python", "JavaScript": how results and notes name the kernel. */
  readonly language: string;
  readonly command: string;
  readonly args: readonly string[];
  /** Added to the environment the kernel inherits. */
  readonly env?: Readonly<Record<string, string>>;
}

export interface KernelOptions {
  readonly launch: KernelLaunch;
  readonly cwd: string;
  readonly env?: NodeJS.ProcessEnv;
  readonly callTool?: CallTool;
  readonly logger?: Logger;
  readonly idleBudgetSeconds?: number;
  /** Between the SIGINT and the kill, when the cell does not stop. */
  readonly interruptGraceMs?: number;
  /** Called when a kernel process starts or ends (a view of live kernels listens). */
  readonly onChange?: () => void;
}

export interface ExecuteOptions {
  readonly idleBudgetSeconds?: number;
  readonly cancellation?: AbortSignal | CancellationLike;
  /** Answers this cell's tool() calls (the caller's own approvals); else the kernel's callTool. */
  readonly callTool?: CallTool;
  /** Each output part as it arrives (the transcript shows a running cell's output). */
  readonly onPart?: (part: KernelPart) => void;
}

export const DEFAULT_IDLE_BUDGET_SECONDS = 300;
/** How each kernel names the error an interrupt raises: Python's KeyboardInterrupt, the JavaScript host's Interrupted. */
const INTERRUPT_ERRORS = new Set(['KeyboardInterrupt', 'Interrupted']);
const INTERRUPT_REPEAT_MS = 250;
const DEFAULT_INTERRUPT_GRACE_MS = 2000;

/** The kernel was disposed (the extension is deactivating); nothing more runs in it. */
export class KernelDisposed extends ModelFacingError {
  constructor(language: string) {
    super(`the ${language} kernel was disposed`);
    this.name = 'KernelDisposed';
  }
}

export class Kernel {
  private process: KernelProcess | undefined;
  private starting: Promise<KernelProcess> | undefined;
  /** Why the previous kernel is gone, for the note on the next cell's result. */
  private lostState: string | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private disposed = false;
  /** Stops the running cell, as its cancellation would (set while one runs). */
  private stopRunning: ((why: 'human') => void) | undefined;
  private readonly logger: Logger;
  version: string | undefined;

  constructor(private readonly options: KernelOptions) {
    this.logger = options.logger ?? nullLogger;
  }

  /** The running kernel's pid, if one runs. */
  get pid(): number | undefined {
    return this.process?.alive ? this.process.pid : undefined;
  }

  /** Runs one cell (cells queue behind each other); never rejects for what the cell did. */
  execute(code: string, options: ExecuteOptions = {}): Promise<KernelResult> {
    const run = this.queue.then(() => this.run(code, options));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** The human interrupts the running cell (SIGINT, then the kill after the grace); false when none runs. */
  interrupt(): boolean {
    if (!this.stopRunning) return false;
    this.stopRunning('human');
    return true;
  }

  /** Kills the kernel (its state is gone); the next cell starts a fresh one. */
  async reset(): Promise<void> {
    const current = this.process;
    this.process = undefined;
    this.lostState = undefined;
    await current?.dispose();
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    await this.reset();
  }

  private async ensureKernel(): Promise<KernelProcess> {
    if (this.process?.alive) return this.process;
    if (this.starting) return this.starting;
    this.starting = (async () => {
      const { launch } = this.options;
      const { kernel, version } = await KernelProcess.start(
        {
          command: launch.command,
          args: [...launch.args],
          cwd: this.options.cwd,
          env: { ...(this.options.env ?? process.env), ...launch.env },
          language: launch.language,
        },
        this.logger,
      );
      this.version = version;
      this.logger.info('kernel.start', `${launch.language} ${version} (${launch.command}), pid ${kernel.pid}`);
      void kernel.exited.then((exit) => {
        if (this.process === kernel) this.lostState = this.lostStateNote(exit);
        this.options.onChange?.();
      });
      this.process = kernel;
      this.options.onChange?.();
      return kernel;
    })();
    try {
      return await this.starting;
    } finally {
      this.starting = undefined;
    }
  }

  private async run(code: string, options: ExecuteOptions): Promise<KernelResult> {
    if (this.disposed) throw new KernelDisposed(this.language);
    const started = Date.now();
    const cancellation = toCancellation(options.cancellation);
    if (cancellation.token.isCancellationRequested) {
      return {
        parts: [{ kind: 'error', text: 'the cell was cancelled before it ran' }],
        status: 'interrupted',
        stoppedBecause: 'cancelled',
        notes: [],
        cutChars: 0,
        seconds: 0,
      };
    }
    const notes: string[] = [];
    if (this.process && !this.process.alive && !this.lostState) await this.process.exited;
    const lost = this.process?.alive ? undefined : this.lostState;
    const kernel = await this.ensureKernel();
    if (lost) notes.push(lost);
    this.lostState = undefined;

    const output = new OutputCollector();
    const budgetMs =
      (options.idleBudgetSeconds ?? this.options.idleBudgetSeconds ?? DEFAULT_IDLE_BUDGET_SECONDS) * 1000;
    const graceMs = this.options.interruptGraceMs ?? DEFAULT_INTERRUPT_GRACE_MS;
    let stoppedBecause: KernelResult['stoppedBecause'];
    let sawError = false;
    let sawInterrupt = false;
    let graceTimer: NodeJS.Timeout | undefined;
    let resendTimer: NodeJS.Timeout | undefined;

    const stop = (why: 'idle-budget' | 'cancelled' | 'human'): void => {
      if (stoppedBecause) return;
      stoppedBecause = why;
      this.logger.info('kernel.interrupt', `${why}: SIGINT to ${kernel.pid}`);
      kernel.interrupt();
      // A SIGINT can land before the kernel has taken the cell in (Python stamps a cell when its reader
      // thread reads it; JavaScript may be ending the cell's synchronous part): repeat it until the cell ends.
      resendTimer = setInterval(() => kernel.interrupt(), INTERRUPT_REPEAT_MS);
      graceTimer = setTimeout(() => {
        clearInterval(resendTimer);
        this.logger.warn('kernel.kill', `the cell did not stop ${graceMs} ms after SIGINT: killing ${kernel.pid}`);
        kernel.kill();
      }, graceMs);
    };
    const budget = new IdleBudget(budgetMs, () => stop('idle-budget'));
    const cancelListener = cancellation.onCancel(() => stop('cancelled'));
    this.stopRunning = stop;
    const add = (part: KernelPart): void => {
      output.add(part);
      options.onPart?.(part);
    };

    const onMessage = (message: CellMessage): void => {
      switch (message.type) {
        case 'stream':
          add({ kind: 'text', stream: message.name, text: message.text });
          break;
        case 'display':
        case 'result':
          add(richPart(message.type, message.mime, message.data));
          break;
        case 'error':
          sawError = true;
          if (INTERRUPT_ERRORS.has(message.ename)) sawInterrupt = true;
          add({ kind: 'error', text: message.traceback.join('') || `${message.ename}: ${message.evalue}` });
          break;
        case 'tool':
          void this.relayTool(kernel, message, budget, cancellation.token, options.callTool ?? this.options.callTool);
          break;
        case 'tool_awaited':
          budget.awaited(message.call);
          break;
        case 'dropped':
          output.addDroppedLine(message.bytes, message.reason);
          break;
      }
    };

    budget.start();
    let outcome: Awaited<ReturnType<KernelProcess['execute']>>;
    try {
      outcome = await kernel.execute(code, onMessage);
    } finally {
      this.stopRunning = undefined;
    }
    budget.stop();
    clearTimeout(graceTimer);
    clearInterval(resendTimer);
    cancelListener.dispose();

    let status: CellStatus = sawInterrupt ? 'interrupted' : sawError ? 'error' : 'ok';
    if (outcome.kind === 'done') {
      output.addDropped(outcome.dropped);
    } else {
      status = outcome.exit.killedByUs ? 'killed' : 'crashed';
      output.add({
        kind: 'error',
        text: lostKernelText(this.language, outcome.exit, stoppedBecause, graceMs, budgetMs),
      });
      this.lostState = this.lostStateNote(outcome.exit);
    }
    if (stoppedBecause && status === 'interrupted') {
      output.add({
        kind: 'error',
        text:
          stoppedBecause === 'cancelled'
            ? 'the cell was cancelled (interrupted; the kernel and its state are kept)'
            : stoppedBecause === 'human'
              ? "the human interrupted the cell from the kernel's transcript (the kernel and its state are kept)"
              : `the cell was interrupted after ${budgetMs / 1000} s not waiting on a tool call (the idle budget); the kernel and its state are kept`,
      });
    }
    return {
      parts: output.parts(),
      status,
      stoppedBecause,
      notes,
      cutChars: output.cutChars,
      seconds: (Date.now() - started) / 1000,
    };
  }

  get language(): string {
    return this.options.launch.language;
  }

  private lostStateNote(exit: KernelExit): string {
    return `the previous ${this.language} kernel ${describeExit(exit)}; its state was lost and a fresh kernel was started`;
  }

  private async relayTool(
    kernel: KernelProcess,
    message: Extract<CellMessage, { type: 'tool' }>,
    budget: IdleBudget,
    token: CancellationLike,
    callTool: CallTool | undefined,
  ): Promise<void> {
    budget.callStarted(message.call, message.awaited === true);
    let answer: { ok: boolean; text: string };
    try {
      answer = callTool
        ? await callTool(message.name, message.input, token)
        : { ok: false, text: 'no tools are available to this kernel' };
    } catch (error) {
      answer = { ok: false, text: error instanceof Error ? error.message : String(error) };
    } finally {
      budget.callEnded(message.call);
    }
    kernel.sendToolResult(message.call, answer.ok, answer.text);
  }
}

function lostKernelText(
  language: string,
  exit: KernelExit,
  why: KernelResult['stoppedBecause'],
  graceMs: number,
  budgetMs: number,
): string {
  if (exit.killedByUs && why) {
    const reason =
      why === 'cancelled'
        ? 'the cell was cancelled'
        : why === 'human'
          ? 'the human interrupted the cell'
          : `the cell ran ${budgetMs / 1000} s not waiting on a tool call (the idle budget)`;
    return `the ${language} kernel was killed: ${reason} and it did not stop within ${graceMs / 1000} s of the interrupt; its state is lost (the next cell starts a fresh kernel)`;
  }
  return `the ${language} kernel ${describeExit(exit)}; its state is lost (the next cell starts a fresh kernel)`;
}

function richPart(kind: 'display' | 'result', mime: string, data: string): KernelPart {
  if (mime === 'image/png')
    return { kind: 'image', mime: 'image/png', data: new Uint8Array(Buffer.from(data, 'base64')) };
  return kind === 'result'
    ? { kind: 'result', text: data }
    : { kind: 'text', stream: 'stdout', text: data.endsWith('\n') ? data : `${data}\n` };
}

/**
 * Counts a cell's running time except while the cell is blocked on a relayed tool call, and fires
 * once when the budget is spent. A call in flight pauses the clock only once the kernel says the
 * cell waits on it: a call the cell fired and left running (a JavaScript promise not awaited, a
 * Python call from another thread) must not let the cell compute past its budget meanwhile.
 */
class IdleBudget {
  private used = 0;
  private since: number | undefined;
  private timer: NodeJS.Timeout | undefined;
  /** Relayed calls not answered yet, and which of them the cell waits on. */
  private readonly inFlight = new Set<number>();
  private readonly waitedOn = new Set<number>();
  private fired = false;
  private stopped = false;

  constructor(
    private readonly budgetMs: number,
    private readonly onSpent: () => void,
  ) {}

  start(): void {
    this.since = Date.now();
    this.arm();
  }

  callStarted(call: number, awaited: boolean): void {
    this.inFlight.add(call);
    if (awaited) this.awaited(call);
  }

  /** The cell now waits on `call`; an answered or unknown call changes nothing. */
  awaited(call: number): void {
    if (!this.inFlight.has(call) || this.waitedOn.has(call)) return;
    this.waitedOn.add(call);
    if (this.waitedOn.size === 1) this.pause();
  }

  callEnded(call: number): void {
    this.inFlight.delete(call);
    if (this.waitedOn.delete(call) && this.waitedOn.size === 0) this.resume();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private pause(): void {
    if (this.since === undefined) return;
    this.used += Date.now() - this.since;
    this.since = undefined;
    clearTimeout(this.timer);
  }

  private resume(): void {
    if (this.stopped) return;
    this.since = Date.now();
    this.arm();
  }

  private arm(): void {
    if (this.fired) return;
    this.timer = boundedTimeout(() => {
      this.fired = true;
      this.onSpent();
    }, this.budgetMs - this.used);
  }
}

/** An AbortSignal or a cancellation token as one thing; `token` is what the tool callback receives. */
function toCancellation(source: AbortSignal | CancellationLike | undefined): {
  onCancel(listener: () => void): { dispose(): void };
  token: CancellationLike;
} {
  if (source === undefined) {
    const token: CancellationLike = {
      isCancellationRequested: false,
      onCancellationRequested: () => ({ dispose: () => undefined }),
    };
    return { onCancel: () => ({ dispose: () => undefined }), token };
  }
  if ('aborted' in source) {
    const signal = source;
    const token: CancellationLike = {
      get isCancellationRequested() {
        return signal.aborted;
      },
      onCancellationRequested(listener) {
        signal.addEventListener('abort', listener, { once: true });
        return { dispose: () => signal.removeEventListener('abort', listener) };
      },
    };
    return { onCancel: (listener) => onCancelNow(token, listener), token };
  }
  return { onCancel: (listener) => onCancelNow(source, listener), token: source };
}

function onCancelNow(token: CancellationLike, listener: () => void): { dispose(): void } {
  if (token.isCancellationRequested) {
    const timer = setTimeout(listener, 0);
    return { dispose: () => clearTimeout(timer) };
  }
  return token.onCancellationRequested(listener);
}
