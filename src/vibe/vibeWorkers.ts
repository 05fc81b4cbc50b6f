/**
 * Vibe mode's background workers, without the editor: each worker is an agent loop of our own —
 * ask the model, run the tool calls it makes (write/exec ones only once a human approves), feed
 * the results back, until the model answers without a tool call. Messages sent to a running worker
 * are delivered at its next tool boundary and acknowledged in its transcript; a finished worker
 * that gets a message continues from its transcript. A budget of turns and time ends a worker.
 * Each worker belongs to the conversation that spawned it: only that one may message, wait for,
 * list or stop it through the tools (the human may stop any).
 */

import { ModelFacingError } from '../platform/modelFacingError';
import { Tier } from '../platform/tiers';
import { boundedTimeout } from '../async/timers';

/** Which model a worker runs on: a fast one for mechanical work, a good one for judgement. */
export const WORKER_TIERS = ['fast', 'good'] as const;

export type WorkerTier = (typeof WORKER_TIERS)[number];

/** Where a write or exec worker works: its own copy of the workspace (the default), or the live workspace. */
export const WORKER_ISOLATION = ['copy', 'none'] as const;

export type WorkerIsolationMode = (typeof WORKER_ISOLATION)[number];

/** A worker's label is shown on one line of the approval card and the Workers view. */
export const WORKER_LABEL_MAX = 60;
export type WorkerStatus = 'running' | 'awaiting approval' | 'done' | 'failed' | 'killed';

export interface ToolCall {
  readonly callId: string;
  readonly name: string;
  readonly input: unknown;
}

export type TranscriptEntry =
  | { readonly role: 'brief'; readonly text: string }
  | { readonly role: 'user'; readonly text: string }
  | { readonly role: 'assistant'; readonly text: string; readonly toolCalls: readonly ToolCall[] }
  | { readonly role: 'tool'; readonly callId: string; readonly name: string; readonly text: string }
  | { readonly role: 'note'; readonly text: string };

/** One model turn: its text and the tool calls it asks for (none: the worker is done). */
export interface ModelTurn {
  readonly text: string;
  readonly toolCalls: readonly ToolCall[];
}

export interface WorkerModel {
  /** Which model, for the list ("scripted-1 (fast)"). */
  readonly name: string;
  /** The next turn of `worker` (what it may be offered depends on its access). */
  respond(transcript: readonly TranscriptEntry[], signal: AbortSignal, worker: WorkerSummary): Promise<ModelTurn>;
}

export interface WorkerHost {
  /** Whether this call changes things (write/exec tiers) and must be put to a human first. */
  needsApproval(worker: WorkerSummary, tool: string, input: unknown): boolean;
  approve(
    request: { readonly worker: WorkerSummary; readonly tool: string; readonly input: unknown },
    signal: AbortSignal,
  ): Promise<boolean>;
  /** Runs a call; `asked`: the loop put it to the human (and it was allowed). */
  invokeTool(worker: WorkerSummary, tool: string, input: unknown, signal: AbortSignal, asked: boolean): Promise<string>;
  /** Something about a worker changed (status, transcript). */
  onChange(worker: WorkerSummary): void;
  /**
   * The worker ended (done, failed or killed): what becomes of its work (a worker in a copy: staged for
   * review, or dropped when `keep` is false), in words for its owner. Awaited before it counts as finished.
   */
  settle?(worker: WorkerSummary, keep: boolean | Promise<boolean>): Promise<string | undefined>;
  /** A finished worker is given a message and continues: ready its workspace again. */
  resume?(worker: WorkerSummary): Promise<void>;
}

/** A worker to start: its brief and label, the model chosen for its tier, the conversation that owns it, and what it may do. */
export interface SpawnRequest {
  readonly brief: string;
  readonly label: string;
  readonly tier?: WorkerTier;
  readonly model: WorkerModel;
  /** The conversation that spawned it (default `window`). */
  readonly owner?: string;
  /** Default read. */
  readonly access?: Tier;
  /** An id taken with `reserveId` (default: the next one). */
  readonly id?: string;
}

export interface WorkerBudget {
  readonly maxTurns: number;
  readonly maxMinutes: number;
}

export interface WorkerSummary {
  readonly id: string;
  readonly label: string;
  readonly tier: WorkerTier;
  readonly model: string;
  /** The conversation that spawned it. */
  readonly owner: string;
  /** The most its tool calls may do (read: nothing that changes anything). */
  readonly access: Tier;
  readonly status: WorkerStatus;
  readonly startedAt: number;
  readonly endedAt?: number;
  /** The final answer, or why it failed or stopped. */
  readonly result?: string;
  /** What became of its work once it ended (staged for review as edit_N, nothing changed…). */
  readonly review?: string;
}

/** A worker of another conversation: its owner alone (or the human, in the Workers view) may use it. */
export class NotYourWorker extends ModelFacingError {
  constructor(
    readonly id: string,
    readonly owner: string,
  ) {
    super(`Worker ${id} belongs to another conversation (${owner}).`);
    this.name = 'NotYourWorker';
  }

  override modelText(): string {
    return `Error: ${this.id} was started in another conversation (${this.owner}); only that conversation can use it (the human can stop it in the Workers view). vibe_list shows yours.`;
  }
}

export class UnknownWorker extends ModelFacingError {
  constructor(
    readonly id: string,
    readonly known: readonly string[],
  ) {
    super(`No worker "${id}"${known.length ? `; workers: ${known.join(', ')}` : '; none was spawned'}.`);
    this.name = 'UnknownWorker';
  }

  override modelText(): string {
    return `Error: ${this.message} vibe_list shows them.`;
  }
}

/** Spawning failed before the worker existed (no model, the chosen model unavailable…); `reason` is worded for the model. */
export class WorkerNotStarted extends ModelFacingError {
  constructor(
    readonly reason: string,
    options?: ErrorOptions,
  ) {
    super(`the worker was not started: ${reason}`, options);
    this.name = 'WorkerNotStarted';
  }

  /** The whole reason, not its first line. */
  override modelText(): string {
    return `Error: ${this.message}.`;
  }
}

class Worker {
  status: WorkerStatus = 'running';
  result: string | undefined;
  endedAt: number | undefined;
  readonly transcript: TranscriptEntry[];
  /** Messages waiting for the next tool boundary. */
  readonly inbox: string[] = [];
  turns = 0;
  /** Runs so far (a message to a finished worker starts another). */
  runs = 1;
  /** The last run whose work is settled. */
  private settledRun = 0;
  /** What becomes of the last run's work, settled (a continued run waits for it). */
  settling: Promise<void> = Promise.resolve();
  review: string | undefined;
  controller = new AbortController();
  private finishedWaiters: Array<() => void> = [];
  run: Promise<void> = Promise.resolve();

  constructor(
    readonly id: string,
    readonly label: string,
    readonly tier: WorkerTier,
    readonly model: WorkerModel,
    readonly owner: string,
    readonly access: Tier,
    brief: string,
    readonly startedAt: number,
  ) {
    this.transcript = [{ role: 'brief', text: brief }];
  }

  get finished(): boolean {
    return this.status === 'done' || this.status === 'failed' || this.status === 'killed';
  }

  /** Resolves once the worker has finished and what becomes of its work is settled. */
  whenFinished(): Promise<void> {
    if (this.finished && this.settledRun === this.runs) return Promise.resolve();
    return new Promise((resolve) => this.finishedWaiters.push(resolve));
  }

  /** Ends the worker; its waiters are told once `settled` (what becomes of its work) is done. */
  finish(
    status: 'done' | 'failed' | 'killed',
    result: string,
    settled: Promise<string | undefined> = Promise.resolve(undefined),
  ): void {
    if (this.finished) return;
    this.status = status;
    this.result = result;
    this.endedAt = Date.now();
    this.review = undefined;
    const run = this.runs;
    void settled
      .catch(
        (error: unknown) =>
          `its work could not be brought back: ${error instanceof Error ? error.message : String(error)}`,
      )
      .then((review) => {
        // A worker continued meanwhile has waiters of its own run.
        if (run !== this.runs) return;
        this.review = review;
        this.settledRun = run;
        for (const resolve of this.finishedWaiters.splice(0)) resolve();
      });
  }

  summary(): WorkerSummary {
    return {
      id: this.id,
      label: this.label,
      tier: this.tier,
      model: this.model.name,
      owner: this.owner,
      access: this.access,
      status: this.status,
      startedAt: this.startedAt,
      endedAt: this.endedAt,
      result: this.result,
      review: this.review,
    };
  }
}

export class WorkerPool {
  private readonly workers = new Map<string, Worker>();
  private nextId = 1;

  constructor(
    private readonly host: WorkerHost,
    private readonly budget: () => WorkerBudget,
  ) {}

  /** Takes the id of a worker about to be spawned (what is readied for it before it starts — its copy — is keyed by it). */
  reserveId(): string {
    return `w${this.nextId++}`;
  }

  /** Starts a worker and returns at once. */
  spawn({ id, brief, label, tier = 'fast', model, owner = 'window', access = 'read' }: SpawnRequest): WorkerSummary {
    const worker = new Worker(id ?? this.reserveId(), label, tier, model, owner, access, brief, Date.now());
    this.workers.set(worker.id, worker);
    this.start(worker);
    return worker.summary();
  }

  /**
   * Adds to a worker's brief: delivered at its next tool boundary, or continues a finished worker.
   * With `conversation`, only a worker of that conversation (here and below; none: the human).
   */
  send(
    id: string,
    message: string,
    conversation?: string,
  ): { delivered: 'queued' | 'relaunched'; worker: WorkerSummary } {
    const worker = this.require(id, conversation);
    if (!worker.finished) {
      worker.inbox.push(message);
      return { delivered: 'queued', worker: worker.summary() };
    }
    worker.transcript.push({ role: 'user', text: message });
    worker.status = 'running';
    worker.result = undefined;
    worker.review = undefined;
    worker.endedAt = undefined;
    worker.turns = 0;
    worker.runs++;
    worker.controller = new AbortController();
    this.start(worker, true);
    return { delivered: 'relaunched', worker: worker.summary() };
  }

  /** Waits until the worker finishes or the timeout passes; gives its summary either way. */
  async wait(
    id: string,
    timeoutMs: number,
    signal?: AbortSignal,
    conversation?: string,
  ): Promise<{ finished: boolean; worker: WorkerSummary }> {
    const worker = this.require(id, conversation);
    let timer: NodeJS.Timeout | undefined;
    const finished = await Promise.race([
      worker.whenFinished().then(() => true),
      new Promise<boolean>((resolve) => {
        timer = boundedTimeout(() => resolve(false), timeoutMs);
        if (signal?.aborted) resolve(false);
        signal?.addEventListener('abort', () => resolve(false), { once: true });
      }),
    ]);
    clearTimeout(timer);
    return { finished, worker: worker.summary() };
  }

  /**
   * Stops a worker at once; `keep` false (or resolving false: the human's choice, asked once it stopped)
   * drops the work it did in its copy.
   */
  kill(id: string, why = 'killed', conversation?: string, keep: boolean | Promise<boolean> = true): WorkerSummary {
    const worker = this.require(id, conversation);
    if (!worker.finished) {
      this.end(worker, 'killed', why, keep);
      worker.controller.abort();
      this.host.onChange(worker.summary());
    }
    return worker.summary();
  }

  /** Waits until what becomes of a finished worker's work is settled (its change staged or dropped). */
  settled(id: string): Promise<WorkerSummary> {
    const worker = this.require(id);
    return worker.whenFinished().then(() => worker.summary());
  }

  /** Every worker, or those of one conversation. */
  list(conversation?: string): WorkerSummary[] {
    return [...this.workers.values()]
      .filter((worker) => conversation === undefined || worker.owner === conversation)
      .map((worker) => worker.summary());
  }

  transcript(id: string): readonly TranscriptEntry[] {
    return this.require(id).transcript;
  }

  /** Stops the running workers a conversation started: its client went away. */
  endConversation(conversation: string, why: string): void {
    for (const worker of this.workers.values())
      if (worker.owner === conversation && !worker.finished) this.kill(worker.id, why);
  }

  disposeAll(): void {
    // The window closes: nobody is left to review a worker's work (its copy goes at the next activation).
    for (const worker of this.workers.values())
      if (!worker.finished) this.kill(worker.id, 'the window closed', undefined, false);
  }

  private require(id: string, conversation?: string): Worker {
    const worker = this.workers.get(id);
    if (!worker)
      throw new UnknownWorker(
        id,
        this.list(conversation).map((known) => known.id),
      );
    if (conversation !== undefined && worker.owner !== conversation) throw new NotYourWorker(id, worker.owner);
    return worker;
  }

  /** Ends a worker and settles its work (kept for review unless `keep` is false). */
  private end(
    worker: Worker,
    status: 'done' | 'failed' | 'killed',
    result: string,
    keep: boolean | Promise<boolean> = true,
  ): void {
    if (worker.finished) return;
    const settled = this.host.settle
      ? Promise.resolve().then(() => this.host.settle?.(worker.summary(), keep))
      : Promise.resolve(undefined);
    // A run continued by a message starts only once this one's work is settled (staged or dropped).
    worker.settling = settled.then(
      () => undefined,
      () => undefined,
    );
    worker.finish(status, result, settled);
    void settled.finally(() => this.host.onChange(worker.summary()));
  }

  private start(worker: Worker, resumed = false): void {
    this.host.onChange(worker.summary());
    worker.run = this.loop(worker, resumed).catch((error: unknown) => {
      if (!worker.finished)
        this.end(worker, 'failed', `the worker failed: ${error instanceof Error ? error.message : String(error)}`);
      this.host.onChange(worker.summary());
    });
  }

  private async loop(worker: Worker, resumed: boolean): Promise<void> {
    if (resumed) {
      await worker.settling;
      await this.host.resume?.(worker.summary());
    }
    const { maxTurns, maxMinutes } = this.budget();
    const deadline = Date.now() + maxMinutes * 60_000;
    const signal = worker.controller.signal;
    const overBudget = boundedTimeout(
      () => this.stopForBudget(worker, `its time budget of ${maxMinutes} min ran out`),
      deadline - Date.now(),
    );
    try {
      for (;;) {
        if (worker.finished) return;
        if (worker.turns >= maxTurns) {
          this.stopForBudget(worker, `its budget of ${maxTurns} model turns ran out`);
          return;
        }
        worker.turns++;
        const turn = await worker.model.respond(worker.transcript, signal, worker.summary());
        if (worker.finished) return;
        worker.transcript.push({ role: 'assistant', text: turn.text, toolCalls: turn.toolCalls });
        this.host.onChange(worker.summary());
        if (turn.toolCalls.length === 0) {
          this.end(worker, 'done', turn.text.trim() || '(the worker ended without a message)');
          this.host.onChange(worker.summary());
          return;
        }
        for (const call of turn.toolCalls) {
          if (worker.finished) return;
          worker.transcript.push({
            role: 'tool',
            callId: call.callId,
            name: call.name,
            text: await this.runTool(worker, call, signal),
          });
          this.host.onChange(worker.summary());
        }
        // The tool boundary: messages sent meanwhile join the conversation here.
        for (const message of worker.inbox.splice(0)) {
          worker.transcript.push({ role: 'user', text: message });
          worker.transcript.push({
            role: 'note',
            text: `message received at the tool boundary after turn ${worker.turns}`,
          });
        }
      }
    } finally {
      clearTimeout(overBudget);
    }
  }

  private async runTool(worker: Worker, call: ToolCall, signal: AbortSignal): Promise<string> {
    const asked = this.host.needsApproval(worker.summary(), call.name, call.input);
    if (asked) {
      worker.status = 'awaiting approval';
      this.host.onChange(worker.summary());
      const approved = await this.host.approve(
        { worker: worker.summary(), tool: call.name, input: call.input },
        signal,
      );
      if (worker.finished) return 'The worker was stopped.';
      worker.status = 'running';
      this.host.onChange(worker.summary());
      if (!approved)
        return `The human denied this ${call.name} call. Do not retry it; continue without it or finish and say what is left.`;
    }
    try {
      return await this.host.invokeTool(worker.summary(), call.name, call.input, signal, asked);
    } catch (error) {
      return `Error: ${call.name} failed: ${error instanceof Error ? error.message : String(error)}`;
    }
  }

  private stopForBudget(worker: Worker, why: string): void {
    if (worker.finished) return;
    const last = [...worker.transcript].reverse().find((entry) => entry.role === 'assistant');
    this.end(
      worker,
      'failed',
      `stopped: ${why}${last && last.role === 'assistant' && last.text ? `. Its last message: ${last.text}` : ''}`,
    );
    worker.controller.abort();
    this.host.onChange(worker.summary());
  }
}
