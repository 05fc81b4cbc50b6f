/**
 * Parsing on worker threads. Each worker loads its own grammars (wasm heaps are per thread) and
 * holds a few jobs at a time, answered in order; jobs wait in one queue and go to whichever worker
 * has room first, the longest first, and a worker on a large text is given nothing more meanwhile
 * (it never holds up the small ones behind it). Workers start together, on first use, and stop
 * after a quiet period, which also hands back the memory their wasm heaps grew to (a wasm heap
 * never shrinks while its thread lives). A worker that dies fails its jobs with the reason; the
 * next job starts a fresh one. A job is never left running unwanted or unbounded: cancelling it
 * (its signal) takes it out of the queue, or terminates the thread busy with it; a job still
 * running after the deadline ends its thread too; either way the thread's other jobs go back to
 * the queue and a fresh thread takes them. A thread that parsed a very large text is retired once
 * it answers, so the memory its heap grew to goes back at once.
 */
import { Worker } from 'node:worker_threads';
import { DiskJob, FileOutcome, FileMatcher, MatchJob, PatternSummary } from './fileMatcher';
import { Match } from './matcher';
import {
  errorFromWire,
  fileOutcomeFromWire,
  fromWire,
  WorkerMessage,
  WorkerReply,
  WorkerRequest,
} from './workerProtocol';
import type { BudgetedCache, ThreadMemory } from './engineMemory';
import { ModelFacingError } from '../platform/modelFacingError';
import { StoppedInFile } from './stoppedInFile';

export class ParsingThreadFailed extends ModelFacingError {
  constructor(reason: string) {
    super(
      `A parsing thread stopped: ${reason}. ` +
        (/memory limit/.test(reason)
          ? 'One file had more matches than a thread holds: narrow the pattern (a bare $A matches every node), search fewer files, or cap the results.'
          : 'Run the search again (it starts a fresh thread).'),
    );
    this.name = 'ParsingThreadFailed';
  }
}

/** A job taken back by its caller's signal (its search was cancelled). */
export class JobCancelled extends ModelFacingError {
  constructor() {
    super('The job was cancelled.');
    this.name = 'JobCancelled';
  }
}

/** A job ran past the deadline; its thread was terminated. */
export class ParsingTimedOut extends StoppedInFile {
  constructor(
    readonly seconds: number,
    readonly file?: string,
  ) {
    super(
      `Parsing and matching ${file ?? 'one file'} took more than ${seconds} s; it was stopped. ` +
        'Narrow the pattern (fewer `$$$` runs, more literal code) or leave this file out with `path`.',
    );
    this.name = 'ParsingTimedOut';
  }

  inFile(file: string): ParsingTimedOut {
    return new ParsingTimedOut(this.seconds, file);
  }
}

interface Pending {
  readonly request: WorkerRequest;
  /** The worker it is for, when it is not for whichever has room. */
  readonly worker?: PooledWorker;
  /** Work nobody waits for (building an index): given only to an idle thread when nothing else waits. */
  readonly background?: boolean;
  /** The worker that took it. */
  takenBy?: PooledWorker;
  /** The length of the text (for a file, as this thread last read it): what decides whether it is large. */
  readonly length: number;
  resolve(reply: WorkerReply): void;
  reject(error: Error): void;
}

interface PooledWorker {
  readonly worker: Worker;
  /** The jobs it was given, oldest first: it answers them in that order. */
  inFlight: Pending[];
  /** Whether it parses large texts (one worker does: each worker's wasm heap grows to its largest tree). */
  readonly takesLarge: boolean;
  /** Ends the thread when its oldest job runs past the deadline. */
  deadline?: NodeJS.Timeout;
  /** What it measured of itself after its last job. */
  memory?: ThreadMemory;
}

/**
 * Texts longer than this go to the one worker that takes large texts: each worker's wasm heap
 * grows to its largest tree and never shrinks (30–100 bytes per character, measured: the 1 M
 * character bundle of the benchmark grows it by ~70 MB, a dense 300 K one by ~25 MB), so only one
 * heap grows large. (Letting a second worker take texts up to 400 K balanced the threads better but
 * took the benchmark's peak from ~180 to ~205 MB.)
 */
export const LARGE_TEXT_LENGTH = 256 * 1024;

/**
 * Jobs a worker holds at once: the next is there as soon as it answers one, without waiting for
 * this thread to hand it over (most jobs of a batch run are files it reads and finds no candidate
 * in, shorter than the round trip). A worker on a large text is given nothing more meanwhile.
 */
const PIPELINE_DEPTH = 4;

/** How long one job may run (parsing one capped file and matching within its step budget take seconds at most). */
export const JOB_DEADLINE_MS = 60_000;

/** A thread that parsed a text longer than this is retired once it answers: its wasm heap grew to fit it and never shrinks. */
export const RETIRE_AFTER_LENGTH = 4 * 1024 * 1024;

/**
 * Each thread's V8 old generation, in MB: the tree's nodes the matcher walks and the matches it
 * keeps (the wasm heap, ~25–40 bytes per character, is outside it). The thread for large texts
 * gets more: a broad pattern over a 3–9 M character bundle needs 96–128 MB when every match is
 * wanted (~19 K matches of `$A.$B($$$C)`), ≤ 64 MB at the editor's caps (1,001 matches). Past it a
 * thread fails cleanly (ParsingThreadFailed), and what it can hold is also what the command
 * line's main thread (64 MB) can take back.
 */
export const OLD_GENERATION_MB = 64;
export const LARGE_TEXT_OLD_GENERATION_MB = 128;

function isLarge(pending: Pending): boolean {
  return pending.length > LARGE_TEXT_LENGTH;
}

/** The first reply, or error of the request itself (a pattern's); a thread that stopped counts only when all did. */
function firstAnswer(replies: ReadonlyArray<Promise<WorkerReply>>): Promise<WorkerReply> {
  return new Promise((resolve, reject) => {
    let stopped = 0;
    for (const reply of replies) {
      reply.then(resolve, (error: Error) => {
        if (!(error instanceof ParsingThreadFailed) || ++stopped === replies.length) reject(error);
      });
    }
  });
}

/**
 * What the structural indexes of all threads may take, in bytes of typed arrays (outside the
 * threads' JS heaps), shared equally: at 2.7 (Python) to 5 (Go) bytes per source character, 40–70
 * MB of source. Texts past RETIRE_AFTER_LENGTH are not indexed (their thread is retired).
 */
export const INDEX_BUDGET_BYTES = 192 * 1024 * 1024;

/**
 * Characters of texts this thread holds for indexes, built or waiting to be: to tell an unchanged
 * text (the source cache keeps most of them anyway), and what bounds the queue of index jobs.
 */
const INDEXED_TEXT_CHARACTERS = 64 * 1024 * 1024;

/** Threads holding indexes stop after this long without a job (instead of `idleMs`): an agent asks again minutes later. */
export const INDEX_IDLE_MS = 10 * 60_000;

export interface ParsePoolOptions {
  /** dist/parseWorker.js, with dist/grammars and dist/web-tree-sitter.wasm beside it. */
  readonly script: string;
  readonly size: number;
  /** Workers stop after this long without a job. */
  readonly idleMs?: number;
  /**
   * Keep a structural index of each file matched from its text (built in the background after
   * the search that read it), so the next pattern matches it without parsing; `INDEX_BUDGET_BYTES`
   * when true. The editor's search does; a one-shot command line does not.
   */
  readonly index?: boolean | { readonly budgetBytes: number; readonly idleMs?: number };
  /** A job running longer than this ends its thread (default JOB_DEADLINE_MS). */
  readonly deadlineMs?: number;
}

export class ParsePool implements FileMatcher {
  readonly parallelism: number;
  private readonly workers: PooledWorker[] = [];
  private readonly waiting: Pending[] = [];
  /** The jobs each caller's signal may take back. */
  private readonly bySignal = new Map<AbortSignal, { readonly jobs: Set<Pending>; readonly onAbort: () => void }>();
  private idleTimer: NodeJS.Timeout | undefined;
  /** Files whose structural index a thread holds, with the text it was built from; least recently used first (a match from one moves it last). */
  private readonly indexed = new Map<
    string,
    { readonly worker: PooledWorker; readonly text: string; readonly bytes: number; readonly build: number }
  >();
  /** Numbers each index built, so a thread told to forget one drops that build, not a newer one of the same file. */
  private builds = 0;
  private indexedCharacters = 0;
  private indexedBytes = 0;
  /** The structural indexes' share of the engine's budget (engineMemory.ts); the options' budget until it is given. */
  private indexLimit = Number.POSITIVE_INFINITY;
  private indexesDropped = 0;
  /** Characters of the texts waiting in index jobs (the queue holds them until a thread takes them). */
  private queuedCharacters = 0;
  /** Files waiting to be indexed or being indexed. */
  private readonly indexing = new Set<string>();
  private indexingDoneWaiters: Array<() => void> = [];

  constructor(private readonly options: ParsePoolOptions) {
    this.parallelism = options.size;
  }

  /** Texts matched so far, from a structural index or parsed (the benchmark and tests read it). */
  readonly served = { fromIndex: 0, parsed: 0 };

  /** Files a thread holds the structural index of. */
  get indexedFiles(): number {
    return this.indexed.size;
  }

  /** The structural indexes the threads keep, as a cache the engine's budget shares out to. */
  readonly structuralIndexes: BudgetedCache = ((pool: ParsePool): BudgetedCache => ({
    get heldBytes(): number {
      return pool.indexedBytes;
    },
    get heldEntries(): number {
      return pool.indexed.size;
    },
    get droppedEntries(): number {
      return pool.indexesDropped;
    },
    limitTo: (bytes) => pool.limitIndexes(bytes),
  }))(this);

  /** The threads running now, each as it last measured itself (one that has not answered yet is left out). */
  threadMemory(): ThreadMemory[] {
    return this.workers.flatMap((pooled) => (pooled.memory ? [pooled.memory] : []));
  }

  /**
   * Ends the threads with no job (their heaps go back, and the indexes they keep); how many. Index
   * builds still waiting are dropped: the budget that ends the threads has no room for them.
   */
  retireIdleThreads(): number {
    for (let at = this.waiting.length - 1; at >= 0; at--)
      if (this.waiting[at].background) this.waiting.splice(at, 1)[0].reject(new JobCancelled());
    const idle = this.workers.filter((pooled) => pooled.inFlight.length === 0);
    for (const pooled of idle) this.retire(pooled);
    return idle.length;
  }

  /** Keeps at most `bytes` of structural indexes from now on: the least recently used go, their threads told. */
  private limitIndexes(bytes: number): void {
    this.indexLimit = bytes;
    for (const [file] of this.indexed) {
      if (this.indexedBytes <= bytes) break;
      this.dropIndex(file);
      this.indexesDropped++;
    }
  }

  /** Forgets the file's index here and has the thread that holds that build drop it. */
  private dropIndex(file: string): void {
    const held = this.indexed.get(file);
    if (!held) return;
    this.unindex(file);
    if (this.workers.includes(held.worker))
      void this.send({ kind: 'forget', file, build: held.build }, 0, held.worker).catch(() => undefined);
  }

  /** What the indexes of texts waiting to be indexed will take, at the bytes per character of those built so far. */
  private queuedIndexBytes(): number {
    const perCharacter = this.indexedCharacters > 0 ? this.indexedBytes / this.indexedCharacters : 5;
    return this.queuedCharacters * perCharacter;
  }

  /** Resolves once no index is waiting to be built (the benchmark and tests wait for the background work). */
  indexingDone(): Promise<void> {
    if (this.indexing.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.indexingDoneWaiters.push(resolve));
  }

  /** Threads running now. */
  get threads(): number {
    return this.workers.length;
  }

  /**
   * A text's matches: from the structural index of a thread that holds one built from this very
   * text, else parsed by whichever thread has room (and, with `index`, indexed in the background).
   */
  async match(job: MatchJob, signal?: AbortSignal): Promise<Match[]> {
    const file = job.file;
    const held = file === undefined ? undefined : this.indexed.get(file);
    if (file !== undefined && held) {
      if (held.text === job.text && this.workers.includes(held.worker)) {
        const reply = await this.send(
          { kind: 'indexed', job: { ...job, file, build: held.build } },
          0,
          held.worker,
          signal,
        );
        if ('matches' in reply) {
          this.served.fromIndex++;
          if (this.indexed.get(file) === held) {
            this.indexed.delete(file);
            this.indexed.set(file, held);
          }
          return reply.matches.map((wire) => fromWire(wire, job.text));
        }
      }
      // Its text changed (or its thread ended): the thread that holds the old build drops it.
      this.dropIndex(file);
    }
    const reply = await this.send({ kind: 'text', job }, job.text.length, undefined, signal);
    if (!('matches' in reply)) throw new ParsingThreadFailed('it answered a text with something else');
    this.served.parsed++;
    if (file !== undefined) this.indexInBackground(file, job.language, job.text);
    return reply.matches.map((wire) => fromWire(wire, job.text));
  }

  /**
   * Queues building the text's index on whichever thread is idle next, unless indexing is off, a
   * thread holds it already, or the text is too long to keep.
   */
  indexInBackground(file: string, language: string, text: string): void {
    if (!this.options.index || this.indexing.has(file) || text.length > RETIRE_AFTER_LENGTH) return;
    const held = this.indexed.get(file);
    if (held?.text === text) return;
    // First come, kept: once the budget is spent a new file is parsed each time, and what is held
    // stays (evicting the oldest would make a scan in file order evict exactly the index it needs
    // next, and keep none). A changed file takes its old index's place.
    const heldLength = held?.text.length ?? 0;
    if (!held && this.indexedBytes + this.queuedIndexBytes() >= this.indexBudget()) return;
    if (this.indexedCharacters + this.queuedCharacters - heldLength + text.length > INDEXED_TEXT_CHARACTERS) return;
    this.indexing.add(file);
    this.queuedCharacters += text.length;
    const settled = (): void => {
      this.queuedCharacters -= text.length;
      this.indexDone(file);
    };
    const build = ++this.builds;
    const pending: Pending = {
      request: { kind: 'index', file, language, text, build },
      length: text.length,
      background: true,
      resolve: (reply) => {
        settled();
        const worker = pending.takenBy;
        this.dropIndex(file);
        if (!('indexed' in reply) || reply.indexed === 0 || !worker || !this.workers.includes(worker)) return;
        // Built past the share (the share shrank meanwhile, or the estimate was short): not kept.
        if (this.indexedBytes + reply.indexed > this.indexBudget()) {
          void this.send({ kind: 'forget', file, build }, 0, worker).catch(() => undefined);
          return;
        }
        this.indexed.set(file, { worker, text, bytes: reply.indexed, build });
        this.indexedCharacters += text.length;
        this.indexedBytes += reply.indexed;
      },
      reject: settled,
    };
    this.waiting.push(pending);
    this.dispatch();
  }

  private indexDone(file: string): void {
    this.indexing.delete(file);
    if (this.indexing.size > 0) return;
    for (const resolve of this.indexingDoneWaiters.splice(0)) resolve();
  }

  private unindex(file: string): void {
    const held = this.indexed.get(file);
    if (!held) return;
    this.indexed.delete(file);
    this.indexedCharacters -= held.text.length;
    this.indexedBytes -= held.bytes;
  }

  /** A thread that ends takes its indexes with it. */
  private unindexWorker(pooled: PooledWorker): void {
    for (const [file, held] of this.indexed) if (held.worker === pooled) this.unindex(file);
  }

  async matchFile(job: DiskJob, signal?: AbortSignal): Promise<FileOutcome> {
    const reply = await this.send({ kind: 'file', job }, job.size, undefined, signal);
    if (!('file' in reply)) throw new ParsingThreadFailed('it answered a file with something else');
    return fileOutcomeFromWire(reply.file, job.withSource);
  }

  /**
   * Every worker compiles the pattern (those not running yet start now), so all have loaded the
   * grammar by the time files come; the first answer is taken.
   */
  async describe(language: string, pattern: string, signal?: AbortSignal): Promise<PatternSummary> {
    while (this.workers.length < this.options.size) this.start();
    const reply = await firstAnswer(
      this.workers.map((worker) => this.send({ kind: 'describe', language, pattern }, 0, worker, signal)),
    );
    if (!('summary' in reply)) throw new ParsingThreadFailed('it answered a pattern with something else');
    return reply.summary;
  }

  dispose(): void {
    this.clearIdleTimer();
    const failure = new ParsingThreadFailed('the pool was disposed');
    for (const pending of this.waiting.splice(0)) pending.reject(failure);
    for (const pooled of this.workers.splice(0)) this.stop(pooled, failure);
  }

  private send(
    request: WorkerRequest,
    length: number,
    worker?: PooledWorker,
    signal?: AbortSignal,
  ): Promise<WorkerReply> {
    if (signal?.aborted) return Promise.reject(new JobCancelled());
    this.clearIdleTimer();
    return new Promise<WorkerReply>((resolve, reject) => {
      const settled = (): void => {
        if (signal) this.forget(signal, pending);
      };
      const pending: Pending = {
        request,
        length,
        worker,
        resolve: (reply) => {
          settled();
          resolve(reply);
        },
        reject: (error) => {
          settled();
          reject(error);
        },
      };
      if (signal) this.watch(signal, pending);
      this.waiting.push(pending);
      this.dispatch();
    });
  }

  /** One abort listener per signal (a search sends hundreds of jobs with one), cancelling every job of it still pending. */
  private watch(signal: AbortSignal, pending: Pending): void {
    let watched = this.bySignal.get(signal);
    if (!watched) {
      const jobs = new Set<Pending>();
      const onAbort = (): void => {
        this.bySignal.delete(signal);
        for (const job of [...jobs]) this.cancel(job);
      };
      watched = { jobs, onAbort };
      this.bySignal.set(signal, watched);
      signal.addEventListener('abort', onAbort, { once: true });
    }
    watched.jobs.add(pending);
  }

  private forget(signal: AbortSignal, pending: Pending): void {
    const watched = this.bySignal.get(signal);
    if (!watched) return;
    watched.jobs.delete(pending);
    if (watched.jobs.size > 0) return;
    signal.removeEventListener('abort', watched.onAbort);
    this.bySignal.delete(signal);
  }

  /** A job its caller no longer wants: out of the queue, or its thread terminated (the thread's other jobs go back to the queue). */
  private cancel(pending: Pending): void {
    const at = this.waiting.indexOf(pending);
    if (at !== -1) {
      this.waiting.splice(at, 1);
      pending.reject(new JobCancelled());
      return;
    }
    const busy = this.workers.find((pooled) => pooled.inFlight.includes(pending));
    if (busy) this.terminate(busy, pending, new JobCancelled());
  }

  /**
   * Ends a thread at once: `victim` fails with `error`, its other jobs go back to the front of the
   * queue (those meant for it alone fail), and a fresh thread takes them.
   */
  private terminate(pooled: PooledWorker, victim: Pending, error: Error): void {
    const at = this.workers.indexOf(pooled);
    if (at !== -1) this.workers.splice(at, 1);
    this.unindexWorker(pooled);
    this.clearDeadline(pooled);
    const others = pooled.inFlight.filter((pending) => pending !== victim);
    pooled.inFlight = [];
    victim.reject(error);
    const stopped = new ParsingThreadFailed('it was stopped');
    for (const pending of others) if (pending.worker === pooled) pending.reject(stopped);
    this.waiting.unshift(...others.filter((pending) => pending.worker !== pooled));
    void pooled.worker.terminate();
    this.dispatch();
  }

  /** The oldest job of a thread has this long; past it the thread is ended. */
  private armDeadline(pooled: PooledWorker): void {
    this.clearDeadline(pooled);
    const head = pooled.inFlight[0];
    if (!head) return;
    const ms = this.options.deadlineMs ?? JOB_DEADLINE_MS;
    pooled.deadline = setTimeout(() => {
      const file = head.request.kind === 'file' ? head.request.job.file : undefined;
      this.terminate(pooled, head, new ParsingTimedOut(ms / 1000, file));
    }, ms);
    pooled.deadline.unref();
  }

  private clearDeadline(pooled: PooledWorker): void {
    if (pooled.deadline) clearTimeout(pooled.deadline);
    pooled.deadline = undefined;
  }

  /** Hands waiting jobs to free workers, starting workers up to the pool's size. */
  private dispatch(): void {
    while (this.workers.length < Math.min(this.options.size, this.waiting.length + this.busy())) this.start();
    // Once the thread for large texts retired, the idle others may be enough in number, yet none takes a large text waiting.
    if (
      this.workers.length < this.options.size &&
      !this.workers.some((pooled) => pooled.takesLarge) &&
      this.waiting.some((pending) => !pending.worker && isLarge(pending))
    )
      this.start();
    // Idle workers first, then one more job each in turn, so jobs spread over the workers.
    for (let depth = 0; depth < PIPELINE_DEPTH; depth++) {
      for (const pooled of this.workers) {
        if (pooled.inFlight.length !== depth || pooled.inFlight.some(isLarge)) continue;
        const at = this.next(pooled);
        if (at === -1) continue;
        const [pending] = this.waiting.splice(at, 1);
        pending.takenBy = pooled;
        pooled.inFlight.push(pending);
        pooled.worker.postMessage(pending.request);
        if (pooled.inFlight.length === 1) this.armDeadline(pooled);
      }
    }
  }

  /**
   * Where in the queue the next job for a worker is: the first one meant for it alone, else the
   * longest it may take (a long text left for last keeps one worker busy after the others are
   * done), the earliest of equals. -1 when there is none.
   */
  private next(pooled: PooledWorker): number {
    let best = -1;
    let background = -1;
    for (let at = 0; at < this.waiting.length; at++) {
      const pending = this.waiting[at];
      if (pending.worker === pooled) return at;
      if (pending.worker || (isLarge(pending) && !pooled.takesLarge)) continue;
      if (pending.background) {
        if (background === -1) background = at;
        continue;
      }
      if (best === -1 || pending.length > this.waiting[best].length) best = at;
    }
    // Background work only to an idle thread while no search has work waiting or running: a search never queues behind it.
    if (best !== -1 || background === -1 || pooled.inFlight.length > 0) return best;
    const searching = this.workers.some((other) => other.inFlight.some((pending) => !pending.background));
    return searching ? -1 : background;
  }

  private busy(): number {
    return this.workers.filter((pooled) => pooled.inFlight.length > 0).length;
  }

  private start(): PooledWorker {
    const takesLarge = !this.workers.some((other) => other.takesLarge);
    const worker = new Worker(this.options.script, {
      workerData: { indexBudget: this.threadIndexBudget() / this.options.size },
      resourceLimits: {
        maxYoungGenerationSizeMb: 2,
        maxOldGenerationSizeMb: takesLarge ? LARGE_TEXT_OLD_GENERATION_MB : OLD_GENERATION_MB,
      },
    });
    // The pool never keeps a process alive by itself (the command line exits when its search is done).
    worker.unref();
    const pooled: PooledWorker = { worker, inFlight: [], takesLarge };
    worker.on('message', (reply: WorkerMessage) => {
      if (reply.memory) pooled.memory = reply.memory;
      const pending = pooled.inFlight.shift();
      if (!pending) return;
      this.armDeadline(pooled);
      if ('error' in reply) pending.reject(errorFromWire(reply.error));
      else pending.resolve(reply);
      if (pending.length > RETIRE_AFTER_LENGTH && pooled.inFlight.length === 0) this.retire(pooled);
      this.dispatch();
      this.scheduleIdleStop();
    });
    worker.on('error', (error) => this.remove(pooled, error.message));
    worker.on('exit', (code) => this.remove(pooled, `it exited with code ${code}`));
    this.workers.push(pooled);
    return pooled;
  }

  /** Ends an idle thread (its heap grew large); the next job starts a fresh one. */
  private retire(pooled: PooledWorker): void {
    const at = this.workers.indexOf(pooled);
    if (at !== -1) this.workers.splice(at, 1);
    this.unindexWorker(pooled);
    this.clearDeadline(pooled);
    void pooled.worker.terminate();
  }

  private remove(pooled: PooledWorker, reason: string): void {
    const at = this.workers.indexOf(pooled);
    if (at !== -1) this.workers.splice(at, 1);
    const failure = new ParsingThreadFailed(reason);
    this.stop(pooled, failure);
    // What waits for this worker alone waits in vain.
    for (let i = this.waiting.length - 1; i >= 0; i--)
      if (this.waiting[i].worker === pooled) this.waiting.splice(i, 1)[0].reject(failure);
    // Jobs still waiting get a fresh worker.
    this.dispatch();
  }

  private stop(pooled: PooledWorker, failure: Error): void {
    this.unindexWorker(pooled);
    this.clearDeadline(pooled);
    for (const pending of pooled.inFlight.splice(0)) pending.reject(failure);
    void pooled.worker.terminate();
  }

  private indexBudget(): number {
    return Math.min(this.threadIndexBudget(), this.indexLimit);
  }

  /** What the options allow the indexes of all threads (each thread is given its part of it). */
  private threadIndexBudget(): number {
    const index = this.options.index;
    if (!index) return 0;
    return index === true ? INDEX_BUDGET_BYTES : index.budgetBytes;
  }

  private scheduleIdleStop(): void {
    if (this.waiting.length > 0 || this.busy() > 0) return;
    this.clearIdleTimer();
    const index = this.options.index;
    const idleMs =
      this.indexed.size > 0 && index
        ? ((index === true ? undefined : index.idleMs) ?? INDEX_IDLE_MS)
        : (this.options.idleMs ?? 60_000);
    this.idleTimer = setTimeout(() => this.dispose(), idleMs);
    this.idleTimer.unref();
  }

  private clearIdleTimer(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
  }
}
