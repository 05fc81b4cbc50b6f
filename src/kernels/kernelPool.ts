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
import { KernelTranscripts } from './transcript';

export const EVAL_LANGUAGES = ['python', 'javascript'] as const;

export type EvalLanguage = (typeof EVAL_LANGUAGES)[number];

export const LANGUAGE_NAMES: Readonly<Record<EvalLanguage, string>> = { python: 'Python', javascript: 'JavaScript' };

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
  /** What the cell is for, in the agent's words (the transcript shows it). */
  readonly description?: string;
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

/** A top-level name of a kernel, as the Kernels view lists it. */
export interface KernelVariable {
  readonly name: string;
  readonly type: string;
  /** Short (reprlib / util.inspect at depth 0, cut at 120 characters). */
  readonly repr: string;
}

/** The most names the variables cell lists. */
export const MAX_VARIABLES = 200;
const VARIABLES_MARK = '\u0000agent-variables';

/**
 * The cell of our own that lists a kernel's top-level names (never in the transcript): Python runs
 * it in a namespace of its own, reading the cells' globals, so it leaves no name behind; JavaScript
 * leaves out what a fresh kernel has (`__agentInitialGlobals`, set by jsKernelHost).
 */
const VARIABLES_CELL: Readonly<Record<EvalLanguage, string>> = {
  python: `exec(${JSON.stringify(
    [
      'import json, reprlib',
      'short = reprlib.Repr()',
      'short.maxstring = short.maxother = 120',
      'rows = []',
      'for name, value in list(cells.items()):',
      '    if name.startswith("_"): continue',
      '    try: text = short.repr(value)',
      '    except Exception as error: text = "<repr failed: %s>" % type(error).__name__',
      '    rows.append([name, type(value).__name__, text[:120]])',
      `    if len(rows) >= ${MAX_VARIABLES}: break`,
      `print(${JSON.stringify(VARIABLES_MARK)} + json.dumps(rows))`,
    ].join('\n'),
  )}, {"cells": globals()})`,
  javascript: `(() => {
  const initial = globalThis.__agentInitialGlobals ?? new Set();
  const { inspect } = require('node:util');
  const rows = [];
  for (const name of Object.getOwnPropertyNames(globalThis)) {
    if (initial.has(name)) continue;
    let type = 'unknown';
    let text;
    try {
      const value = globalThis[name];
      type = value === null ? 'null' : typeof value === 'object' ? (value.constructor?.name ?? 'Object') : typeof value;
      text = inspect(value, { depth: 0, breakLength: Infinity, maxArrayLength: 6, maxStringLength: 120 }).slice(0, 120);
    } catch (error) {
      text = '<' + String(error).slice(0, 100) + '>';
    }
    rows.push([name, type, text]);
    if (rows.length >= ${MAX_VARIABLES}) break;
  }
  process.stdout.write(${JSON.stringify(VARIABLES_MARK)} + JSON.stringify(rows) + '\\n');
})()`,
};

export class KernelPool {
  private readonly entries = new Map<string, Entry>();
  /** What each kernel ran, for the human (the transcript notebook). */
  readonly transcripts = new KernelTranscripts();
  /** For a conversation's next cell: the human restarted or stopped its kernel. */
  private readonly humanNotes = new Map<string, string>();

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
      this.transcripts.mark(conversation, language, 'The agent reset the kernel: its state was dropped.');
      entry = undefined;
    }
    const human = this.humanNotes.get(key);
    this.humanNotes.delete(key);
    if (human) notes.push(human);
    if (!entry) {
      entry = this.create(conversation, language);
      this.entries.set(key, entry);
      this.transcripts.newKernel(conversation, language);
    }
    const pidBefore = entry.kernel.pid;
    const shown = this.transcripts.began(conversation, language, {
      description: request.description ?? '',
      code: request.code,
    });
    let result: KernelResult;
    try {
      result = await entry.kernel.execute(request.code, {
        idleBudgetSeconds: this.host.idleBudgetSeconds(),
        cancellation: request.cancellation,
        callTool: request.callTool,
        onPart: shown.output,
      });
    } catch (error) {
      // It never started: the next cell chooses the interpreter again.
      if (this.entries.get(key) === entry) this.entries.delete(key);
      const text = error instanceof Error ? error.message : String(error);
      shown.end({ parts: [{ kind: 'error', text }], status: 'crashed', notes: [], cutChars: 0, seconds: 0 });
      throw error;
    }
    shown.end(result);
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

  /**
   * The human stops one kernel, or restarts it from its transcript: its state is lost, the
   * conversation's next cell starts a fresh one and is told why.
   */
  async stop(conversation: string, language: EvalLanguage, how: 'stopped' | 'restarted' = 'stopped'): Promise<void> {
    const key = keyOf(conversation, language);
    const entry = this.entries.get(key);
    this.entries.delete(key);
    if (!entry) return;
    // Told before the kernel is gone: a cell sent meanwhile already runs in a fresh one.
    this.humanNotes.set(key, `the human ${how} the ${entry.kernel.language} kernel; its state was lost`);
    this.transcripts.mark(
      conversation,
      language,
      `You ${how} the kernel: its state is gone; the agent's next cell starts a fresh one.`,
    );
    await entry.kernel.dispose();
  }

  /** The human interrupts the kernel's running cell; false when none runs. */
  interrupt(conversation: string, language: EvalLanguage): boolean {
    return this.entries.get(keyOf(conversation, language))?.kernel.interrupt() ?? false;
  }

  /**
   * The kernel's top-level names, by a cell of our own (queued behind the agent's, never in the
   * transcript); undefined when no kernel runs or it did not answer within its 5 s.
   */
  async variables(conversation: string, language: EvalLanguage): Promise<KernelVariable[] | undefined> {
    const entry = this.entries.get(keyOf(conversation, language));
    if (entry?.kernel.pid === undefined) return undefined;
    const result = await entry.kernel.execute(VARIABLES_CELL[language], { idleBudgetSeconds: 5 });
    const text = result.parts.map((part) => (part.kind === 'text' ? part.text : '')).join('');
    const at = text.lastIndexOf(VARIABLES_MARK);
    if (result.status !== 'ok' || at === -1) return undefined;
    try {
      const rows = JSON.parse(text.slice(at + VARIABLES_MARK.length).split('\n')[0]) as [string, string, string][];
      return rows.map(([name, type, repr]) => ({ name, type, repr }));
    } catch {
      return undefined;
    }
  }

  /** Stops the kernels of a conversation and of its workers (`<conversation>#worker-…`): its client went away. */
  async endConversation(conversation: string): Promise<void> {
    const ending = [...this.entries].filter(([, entry]) => belongsTo(entry.conversation, conversation));
    for (const [key] of ending) this.entries.delete(key);
    this.transcripts.forget((id) => belongsTo(id, conversation));
    await Promise.all(ending.map(([, entry]) => entry.kernel.dispose()));
  }

  /** The human stops every kernel (each conversation's next cell is told). */
  async stopAll(): Promise<number> {
    const live = this.live();
    await Promise.all(live.map((kernel) => this.stop(kernel.conversation, kernel.language)));
    return live.length;
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
