/**
 * The eval tool's kernels: one per language per conversation, started on first use with the
 * interpreter chosen then (a reset chooses again), kept until reset, stopped by the human, or the
 * window closing. What a cell's answer says beyond its output (which kernel started) is added here.
 */
import { Logger } from '../log/logger';
import { belongsTo } from '../platform/caller';
import { ModelFacingError } from '../platform/modelFacingError';
import { CallTool, CancellationLike, Kernel, KernelLaunch } from './kernel';
import { formatText, KernelResult } from './kernelResult';

export const EVAL_LANGUAGES = ['python', 'javascript'] as const;

export type EvalLanguage = (typeof EVAL_LANGUAGES)[number];

export type LaunchChoice =
  | { readonly ok: true; readonly launch: KernelLaunch; readonly origin: string }
  | { readonly ok: false; readonly reason: string };

export interface KernelPoolHost {
  /** How the language's kernel starts in this workspace and where its interpreter comes from, or why none can. */
  launchFor(language: EvalLanguage): LaunchChoice;
  /** Where kernels run (the first workspace folder). */
  cwd(): string;
  idleBudgetSeconds(): number;
  readonly logger: Logger;
  /** A kernel started or ended. */
  onChange(): void;
}

export interface LiveKernel {
  readonly conversation: string;
  readonly language: EvalLanguage;
  readonly languageName: string;
  readonly pid: number;
  readonly version: string | undefined;
  readonly origin: string;
}

export interface CellRequest {
  readonly code: string;
  readonly reset?: boolean;
  readonly cancellation?: CancellationLike;
  readonly callTool?: CallTool;
}

export interface CellAnswer {
  readonly result: KernelResult;
  /** What the model reads: notes, the kernel that started for this cell, then the output. */
  readonly text: string;
}

/** No interpreter for the language: the reason, worded for the model, is what the eval call answers. */
export class NoInterpreter extends ModelFacingError {
  constructor(reason: string) {
    super(reason);
    this.name = 'NoInterpreter';
  }

  /** All of the reason, not only its first line. */
  override modelText(): string {
    return `Error: ${this.message}`;
  }
}

interface Entry {
  readonly kernel: Kernel;
  readonly origin: string;
  readonly conversation: string;
  readonly language: EvalLanguage;
}

export class KernelPool {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly host: KernelPoolHost) {}

  async run(conversation: string, language: EvalLanguage, request: CellRequest): Promise<CellAnswer> {
    const key = keyOf(conversation, language);
    const notes: string[] = [];
    let entry = this.entries.get(key);
    if (entry && request.reset) {
      // A reset chooses the interpreter again (the project may have gained a .venv since).
      this.entries.delete(key);
      await entry.kernel.dispose();
      notes.push(`reset: the previous ${entry.kernel.language} kernel and its state were dropped`);
      entry = undefined;
    }
    if (!entry) {
      entry = this.create(conversation, language);
      this.entries.set(key, entry);
    }
    const pidBefore = entry.kernel.pid;
    let result: KernelResult;
    try {
      result = await entry.kernel.execute(request.code, {
        idleBudgetSeconds: this.host.idleBudgetSeconds(),
        cancellation: request.cancellation,
        callTool: request.callTool,
      });
    } catch (error) {
      // It never started: the next cell chooses the interpreter again.
      if (this.entries.get(key) === entry) this.entries.delete(key);
      throw error;
    }
    notes.push(...result.notes);
    const pidAfter = entry.kernel.pid;
    if (pidAfter !== undefined && pidAfter !== pidBefore)
      notes.push(`started ${entry.kernel.language} ${entry.kernel.version ?? '(version unknown)'}, ${entry.origin}`);
    return { result, text: formatText({ ...result, notes }) };
  }

  /** The kernels whose process is running now. */
  live(): LiveKernel[] {
    const live: LiveKernel[] = [];
    for (const { kernel, origin, conversation, language } of this.entries.values()) {
      const pid = kernel.pid;
      if (pid === undefined) continue;
      live.push({ conversation, language, languageName: kernel.language, pid, version: kernel.version, origin });
    }
    return live;
  }

  /** Stops one kernel (its state is lost; the conversation's next cell starts a fresh one). */
  async stop(conversation: string, language: EvalLanguage): Promise<void> {
    const key = keyOf(conversation, language);
    const entry = this.entries.get(key);
    this.entries.delete(key);
    await entry?.kernel.dispose();
  }

  /** Stops the kernels of a conversation and of its workers (`<conversation>#worker-…`): its client went away. */
  async endConversation(conversation: string): Promise<void> {
    const ending = [...this.entries].filter(([, entry]) => belongsTo(entry.conversation, conversation));
    for (const [key] of ending) this.entries.delete(key);
    await Promise.all(ending.map(([, entry]) => entry.kernel.dispose()));
  }

  async disposeAll(): Promise<void> {
    const entries = [...this.entries.values()];
    this.entries.clear();
    await Promise.all(entries.map((entry) => entry.kernel.dispose()));
  }

  private create(conversation: string, language: EvalLanguage): Entry {
    const choice = this.host.launchFor(language);
    if (!choice.ok) throw new NoInterpreter(choice.reason);
    const kernel = new Kernel({
      launch: choice.launch,
      cwd: this.host.cwd(),
      logger: this.host.logger,
      onChange: () => this.host.onChange(),
    });
    return { kernel, origin: choice.origin, conversation, language };
  }
}

function keyOf(conversation: string, language: EvalLanguage): string {
  return `${language}\u0000${conversation}`;
}
