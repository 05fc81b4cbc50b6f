/**
 * Parsing on worker threads. Each worker loads its own grammars (wasm heaps are per thread) and
 * has one job at a time; jobs wait in one queue and go to whichever worker is free first (a large
 * file on one worker never holds up the small ones behind it). Workers
 * start on first use and stop after a quiet period, which also hands back the memory their wasm
 * heaps grew to (a wasm heap never shrinks while its thread lives). A worker that dies fails its
 * jobs with the reason; the next job starts a fresh one.
 */
import { Worker } from 'node:worker_threads';
import { FileMatcher, MatchJob } from './fileMatcher';
import { Match } from './matcher';
import { fromWire, WorkerReply, WorkerRequest } from './workerProtocol';

export class ParsingThreadFailed extends Error {
  constructor(reason: string) {
    super(`A parsing thread stopped: ${reason}. Run the search again (it starts a fresh thread).`);
    this.name = 'ParsingThreadFailed';
  }
}

interface Pending {
  readonly job: MatchJob;
  resolve(matches: Match[]): void;
  reject(error: Error): void;
}

interface PooledWorker {
  readonly worker: Worker;
  /** The job it is on. */
  current: Pending | undefined;
  /** Whether it parses large texts (one worker does: each worker's wasm heap grows to its largest tree). */
  readonly takesLarge: boolean;
}

/** Texts longer than this go to the one worker that takes large texts (a 1 M character file grows its heap by ~60 MB). */
export const LARGE_TEXT_LENGTH = 512 * 1024;

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

  match(job: MatchJob): Promise<Match[]> {
    this.clearIdleTimer();
    return new Promise<Match[]>((resolve, reject) => {
      this.waiting.push({ job, resolve, reject });
      this.dispatch();
    });
  }

  dispose(): void {
    this.clearIdleTimer();
    const failure = new ParsingThreadFailed('the pool was disposed');
    for (const pending of this.waiting.splice(0)) pending.reject(failure);
    for (const pooled of this.workers.splice(0)) this.stop(pooled, failure);
  }

  /** Hands waiting jobs to free workers (each the first job it may take), starting workers up to the pool's size. */
  private dispatch(): void {
    while (this.workers.length < Math.min(this.options.size, this.waiting.length + this.busy())) this.start();
    for (const free of this.workers) {
      if (free.current) continue;
      const at = this.waiting.findIndex((pending) => free.takesLarge || pending.job.text.length <= LARGE_TEXT_LENGTH);
      if (at === -1) continue;
      const [pending] = this.waiting.splice(at, 1);
      free.current = pending;
      free.worker.postMessage(pending.job satisfies WorkerRequest);
    }
  }

  private busy(): number {
    return this.workers.filter((pooled) => pooled.current).length;
  }

  private start(): PooledWorker {
    const worker = new Worker(this.options.script, { resourceLimits: { maxYoungGenerationSizeMb: 2, maxOldGenerationSizeMb: 64 } });
    // The pool never keeps a process alive by itself (the command line exits when its search is done).
    worker.unref();
    const pooled: PooledWorker = { worker, current: undefined, takesLarge: !this.workers.some((other) => other.takesLarge) };
    worker.on('message', (reply: WorkerReply) => {
      const pending = pooled.current;
      if (!pending) return;
      pooled.current = undefined;
      if ('error' in reply) {
        const error = new Error(reply.error.message);
        error.name = reply.error.name;
        pending.reject(error);
      } else {
        pending.resolve(reply.matches.map((wire) => fromWire(wire, pending.job.text)));
      }
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
    pooled.current?.reject(failure);
    pooled.current = undefined;
    void pooled.worker.terminate();
  }

  private scheduleIdleStop(): void {
    if (this.waiting.length > 0 || this.workers.some((pooled) => pooled.current)) return;
    this.clearIdleTimer();
    this.idleTimer = setTimeout(() => this.dispose(), this.options.idleMs ?? 60_000);
    this.idleTimer.unref();
  }

  private clearIdleTimer(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
  }
}
