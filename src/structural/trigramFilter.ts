/**
 * The host side of the trigram index (its thread: indexWorker.ts). A search asks once per language
 * which of its files surely lack the pattern's trigrams; those are not read. The thread starts on
 * the first question (reading the index saved by an earlier window), builds the records the
 * search's files lacked once the search says it ended, saves them, and stops after a quiet period
 * once it has. It never rules a file in or out by itself being away: a thread that failed or a
 * question cancelled rules nothing out. No `vscode` here.
 */
import type { ThreadMemory } from './engineMemory';
import { Worker } from 'node:worker_threads';

export interface IndexWorkerData {
  /** Where the index is kept between windows (the extension's workspace storage); none: in memory only. */
  readonly storageFile?: string;
  readonly budgetBytes: number;
  /** A file changed more recently than this is not indexed yet (a second change within a clock tick keeps the same times). */
  readonly racyMs: number;
}

export type IndexRequest =
  | {
      readonly kind: 'filter';
      readonly id: number;
      readonly files: readonly string[];
      /** The pattern's trigrams, sorted. */
      readonly required: Uint16Array;
      /** Files larger than this are never ruled out (the search names them as over its size cap). */
      readonly maxBytes: number;
    }
  | { readonly kind: 'searchEnded' }
  /** Files the editor saw change, be created or deleted: those with a record are built again once no search runs. */
  | { readonly kind: 'changed'; readonly files: readonly string[] }
  | { readonly kind: 'status'; readonly id: number };

/** A reply as the thread sends it: with its own memory, measured then. */
export type IndexMessage = IndexReply & { readonly memory?: ThreadMemory };

export type IndexReply =
  | {
      readonly kind: 'filtered';
      readonly id: number;
      /** 1 for each file (in the order asked) ruled out. */
      readonly ruledOut: Uint8Array;
      /** Files that had a record still fresh. */
      readonly fresh: number;
      /** Whether an index saved earlier was read when the thread started. */
      readonly loaded: boolean;
    }
  | {
      readonly kind: 'status';
      readonly id: number;
      readonly records: number;
      readonly bytes: number;
      /** Files waiting to be indexed (and 1 while a build runs). */
      readonly waiting: number;
    }
  | { readonly kind: 'built'; readonly files: number; readonly records: number; readonly bytes: number }
  | { readonly kind: 'saveFailed'; readonly reason: string };

export interface TrigramFilterOptions extends Partial<Omit<IndexWorkerData, 'storageFile'>> {
  /** dist/indexWorker.js. */
  readonly script: string;
  readonly storageFile?: string;
  /** The thread stops after this long without a question, once its build is done. */
  readonly idleMs?: number;
  /** What the thread did (a build done, a save that failed), for the log. */
  readonly report?: (line: string) => void;
}

/** What a search asks of an index. */
export interface FileFilter {
  /** Of `files`, those that surely lack one of `required` (sorted trigrams); none when there is nothing to go by. */
  ruledOut(
    files: readonly string[],
    required: Uint16Array,
    maxBytes: number,
    signal?: AbortSignal,
  ): Promise<Set<string>>;
  /** The search ended: the thread may build what it lacked. */
  searchEnded(): void;
}

/** What a thread that is not running holds and has waiting. */
const NOT_RUNNING = { records: 0, bytes: 0, waiting: 0 } as const;

/** The default racy window: a change in the last two seconds is not indexed yet. */
export const RACY_MS = 2000;

export class TrigramFilter implements FileFilter {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly waiting = new Map<number, (reply: IndexReply) => void>();
  private idleTimer: NodeJS.Timeout | undefined;
  private buildDone: Array<() => void> = [];
  /** Files ruled out so far (the benchmark and tests read it). */
  ruledOutCount = 0;
  /** Whether the thread read an index saved before it started (known after the first question). */
  loadedFromDisk = false;
  /** What the thread measured of itself at its last reply. */
  private memory: ThreadMemory | undefined;

  constructor(private readonly options: TrigramFilterOptions) {}

  async ruledOut(
    files: readonly string[],
    required: Uint16Array,
    maxBytes: number,
    signal?: AbortSignal,
  ): Promise<Set<string>> {
    if (required.length === 0 || files.length === 0) return new Set();
    let reply: IndexReply;
    try {
      reply = await this.ask((id) => ({ kind: 'filter', id, files, required, maxBytes }), signal);
    } catch {
      return new Set();
    }
    if (reply.kind !== 'filtered') return new Set();
    this.loadedFromDisk = reply.loaded;
    const out = new Set<string>();
    reply.ruledOut.forEach((flag, at) => flag === 1 && out.add(files[at]));
    this.ruledOutCount += out.size;
    return out;
  }

  searchEnded(): void {
    this.worker?.postMessage({ kind: 'searchEnded' } satisfies IndexRequest);
    this.armIdle();
  }

  /**
   * Files changed, created or deleted on disk (the editor's file events): the running thread builds
   * again the records it holds of them, so the next search need not read them to tell. A thread not
   * running is not started: the next search finds those records stale by their stat, as it would.
   */
  changed(files: readonly string[]): void {
    if (files.length > 0) this.worker?.postMessage({ kind: 'changed', files } satisfies IndexRequest);
  }

  /** What the thread holds, and what waits to be built (none when it is not running). */
  async status(): Promise<{ records: number; bytes: number; waiting: number }> {
    if (!this.worker) return NOT_RUNNING;
    const reply = await this.ask((id) => ({ kind: 'status', id }));
    return reply.kind === 'status' ? reply : NOT_RUNNING;
  }

  /** Resolves once the thread has built (and saved) what it lacked; at once when it is not running. */
  async built(): Promise<void> {
    for (;;) {
      const status = await this.status();
      if (status.waiting === 0) return;
      await new Promise<void>((resolve) => this.buildDone.push(resolve));
    }
  }

  dispose(): void {
    clearTimeout(this.idleTimer);
    void this.worker?.terminate();
    this.worker = undefined;
    this.settleAll();
  }

  private ask(request: (id: number) => IndexRequest, signal?: AbortSignal): Promise<IndexReply> {
    const worker = this.start();
    const id = this.nextId++;
    clearTimeout(this.idleTimer);
    return new Promise<IndexReply>((resolve, reject) => {
      const onAbort = (): void => {
        this.waiting.delete(id);
        reject(new Error('cancelled'));
      };
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.set(id, (reply) => {
        signal?.removeEventListener('abort', onAbort);
        resolve(reply);
      });
      worker.postMessage(request(id));
    });
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const data: IndexWorkerData = {
      storageFile: this.options.storageFile,
      budgetBytes: this.options.budgetBytes ?? 64 * 1024 * 1024,
      racyMs: this.options.racyMs ?? RACY_MS,
    };
    const worker = new Worker(this.options.script, { workerData: data });
    this.memory = undefined;
    worker.unref();
    worker.on('message', (reply: IndexMessage) => {
      if (reply.memory) this.memory = reply.memory;
      if (reply.kind === 'built') {
        this.options.report?.(
          `indexed ${reply.files} files; the index holds ${reply.records} (${(reply.bytes / 1024 / 1024).toFixed(1)} MiB)`,
        );
        for (const resolve of this.buildDone.splice(0)) resolve();
        this.armIdle();
        return;
      }
      if (reply.kind === 'saveFailed') {
        this.options.report?.(`the index was not saved: ${reply.reason}`);
        return;
      }
      this.waiting.get(reply.id)?.(reply);
      this.waiting.delete(reply.id);
    });
    const gone = (): void => {
      // Questions are only ever waiting on the thread that runs: one that ended leaves none behind.
      if (this.worker === worker) this.worker = undefined;
      if (this.worker === undefined) this.settleAll();
    };
    worker.on('error', (error) => {
      this.options.report?.(`the index thread stopped: ${error.message}`);
      gone();
    });
    worker.on('exit', gone);
    this.worker = worker;
    return worker;
  }

  /** The thread's memory as it last measured it; undefined while no thread runs. */
  threadMemory(): ThreadMemory | undefined {
    return this.worker ? this.memory : undefined;
  }

  /** Questions of a thread that is gone rule nothing out; waiters for its build stop waiting. */
  private settleAll(): void {
    for (const [id, settle] of this.waiting) settle({ kind: 'status', id, ...NOT_RUNNING });
    this.waiting.clear();
    for (const resolve of this.buildDone.splice(0)) resolve();
  }

  private armIdle(): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(
      () => {
        void this.status().then((status) => {
          // A question asked meanwhile (or a build) keeps it: its answer is on the way.
          if (status.waiting > 0 || this.waiting.size > 0) return this.armIdle();
          void this.worker?.terminate();
          this.worker = undefined;
        });
      },
      this.options.idleMs ?? 10 * 60_000,
    );
    this.idleTimer.unref();
  }
}
