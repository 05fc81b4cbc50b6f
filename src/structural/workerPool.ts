/**
 * Parsing on worker threads. Each worker loads its own grammars (wasm heaps are per thread) and
 * holds a few jobs at a time, answered in order; jobs wait in one queue and go to whichever worker
 * has room first, and a worker on a large file is given nothing more meanwhile (it never holds up
 * the small ones behind it). Workers start on first use and stop after a quiet period, which also
 * hands back the memory their wasm heaps grew to (a wasm heap never shrinks while its thread
 * lives). A worker that dies fails its jobs with the reason; the next job starts a fresh one.
 */
import { Worker } from 'node:worker_threads';
import { DiskJob, FileOutcome, FileMatcher, MatchJob, PatternSummary } from './fileMatcher';
import { Match } from './matcher';
import { errorFromWire, fileOutcomeFromWire, fromWire, WorkerReply, WorkerRequest } from './workerProtocol';

export class ParsingThreadFailed extends Error {
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

interface Pending {
  readonly request: WorkerRequest;
  /** The length of the text (for a file, as this thread last read it): what decides whether it is large. */
  readonly length: number;
  resolve(reply: WorkerReply): void;
  reject(error: Error): void;
}

interface PooledWorker {
  readonly worker: Worker;
  /** The jobs it was given, oldest first: it answers them in that order. */
  readonly inFlight: Pending[];
  /** Whether it parses large texts (one worker does: each worker's wasm heap grows to its largest tree). */
  readonly takesLarge: boolean;
}

/**
 * Texts longer than this go to the one worker that takes large texts: each worker's wasm heap
 * grows to its largest tree and never shrinks (~60 bytes per character: a 1 M character file grows
 * it by ~60 MB, a 256 K one by ~15 MB), so only one heap grows large.
 */
export const LARGE_TEXT_LENGTH = 256 * 1024;

/**
 * Jobs a worker holds at once: the next is there as soon as it answers one, without waiting for
 * this thread to hand it over (most jobs of a batch run are files it reads and finds no candidate
 * in, shorter than the round trip). A worker on a large text is given nothing more meanwhile.
 */
const PIPELINE_DEPTH = 4;

function isLarge(pending: Pending): boolean {
  return pending.length > LARGE_TEXT_LENGTH;
}

export interface WorkerPoolOptions {
  /** dist/parseWorker.js, with dist/grammars and dist/web-tree-sitter.wasm beside it. */
  readonly script: string;
  readonly size: number;
  /** Workers stop after this long without a job. */
  readonly idleMs?: number;
}

export class WorkerPool implements FileMatcher {
  readonly parallelism: number;
  private readonly workers: PooledWorker[] = [];
  private readonly waiting: Pending[] = [];
  private idleTimer: NodeJS.Timeout | undefined;

  constructor(private readonly options: WorkerPoolOptions) {
    this.parallelism = options.size;
  }

  /** Threads running now. */
  get threads(): number {
    return this.workers.length;
  }

  async match(job: MatchJob): Promise<Match[]> {
    const reply = await this.send({ kind: 'text', job }, job.text.length);
    if (!('matches' in reply)) throw new ParsingThreadFailed('it answered a text with something else');
    return reply.matches.map((wire) => fromWire(wire, job.text));
  }

  async matchFile(job: DiskJob): Promise<FileOutcome> {
    const reply = await this.send({ kind: 'file', job }, job.size);
    if (!('file' in reply)) throw new ParsingThreadFailed('it answered a file with something else');
    return fileOutcomeFromWire(reply.file, job.withSource);
  }

  async describe(language: string, pattern: string): Promise<PatternSummary> {
    const reply = await this.send({ kind: 'describe', language, pattern }, 0);
    if (!('summary' in reply)) throw new ParsingThreadFailed('it answered a pattern with something else');
    return reply.summary;
  }

  dispose(): void {
    this.clearIdleTimer();
    const failure = new ParsingThreadFailed('the pool was disposed');
    for (const pending of this.waiting.splice(0)) pending.reject(failure);
    for (const pooled of this.workers.splice(0)) this.stop(pooled, failure);
  }

  private send(request: WorkerRequest, length: number): Promise<WorkerReply> {
    this.clearIdleTimer();
    return new Promise<WorkerReply>((resolve, reject) => {
      this.waiting.push({ request, length, resolve, reject });
      this.dispatch();
    });
  }

  /** Hands waiting jobs to free workers (each the first job it may take), starting workers up to the pool's size. */
  private dispatch(): void {
    while (this.workers.length < Math.min(this.options.size, this.waiting.length + this.busy())) this.start();
    // Idle workers first, then one more job each in turn, so jobs spread over the workers.
    for (let depth = 0; depth < PIPELINE_DEPTH; depth++) {
      for (const pooled of this.workers) {
        if (pooled.inFlight.length !== depth || pooled.inFlight.some(isLarge)) continue;
        const at = this.waiting.findIndex((pending) => pooled.takesLarge || !isLarge(pending));
        if (at === -1) continue;
        const [pending] = this.waiting.splice(at, 1);
        pooled.inFlight.push(pending);
        pooled.worker.postMessage(pending.request);
      }
    }
  }

  private busy(): number {
    return this.workers.filter((pooled) => pooled.inFlight.length > 0).length;
  }

  private start(): PooledWorker {
    const worker = new Worker(this.options.script, { resourceLimits: { maxYoungGenerationSizeMb: 2, maxOldGenerationSizeMb: 64 } });
    // The pool never keeps a process alive by itself (the command line exits when its search is done).
    worker.unref();
    const pooled: PooledWorker = { worker, inFlight: [], takesLarge: !this.workers.some((other) => other.takesLarge) };
    worker.on('message', (reply: WorkerReply) => {
      const pending = pooled.inFlight.shift();
      if (!pending) return;
      if ('error' in reply) pending.reject(errorFromWire(reply.error));
      else pending.resolve(reply);
      this.dispatch();
      this.scheduleIdleStop();
    });
    worker.on('error', (error) => this.remove(pooled, error.message));
    worker.on('exit', (code) => this.remove(pooled, `it exited with code ${code}`));
    this.workers.push(pooled);
    return pooled;
  }

  private remove(pooled: PooledWorker, reason: string): void {
    const at = this.workers.indexOf(pooled);
    if (at !== -1) this.workers.splice(at, 1);
    this.stop(pooled, new ParsingThreadFailed(reason));
    // Jobs still waiting get a fresh worker.
    this.dispatch();
  }

  private stop(pooled: PooledWorker, failure: Error): void {
    for (const pending of pooled.inFlight.splice(0)) pending.reject(failure);
    void pooled.worker.terminate();
  }

  private scheduleIdleStop(): void {
    if (this.waiting.length > 0 || this.busy() > 0) return;
    this.clearIdleTimer();
    this.idleTimer = setTimeout(() => this.dispose(), this.options.idleMs ?? 60_000);
    this.idleTimer.unref();
  }

  private clearIdleTimer(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
  }
}
