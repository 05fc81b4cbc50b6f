/**
 * One memory budget for the structural engine: what its threads measure of themselves (each
 * parsing thread's V8 heap and wasm memory, the structural indexes it keeps, the trigram index's
 * thread) and what the extension host holds for it (the source cache, the match cache) stay under
 * one figure, the user setting `liveTools.structural.memoryBudgetMB`. The threads report after
 * every job; after each search the caches are given what the threads leave, and each drops what
 * it holds past its share, the coldest first. Threads whose heaps alone pass the budget are ended
 * once idle (a wasm heap never shrinks while its thread lives). Every figure in `report()` is a
 * thread's own measure or counted from what is held (a text by its length and representation, a
 * cached match by its texts and a fixed part for its object).
 */
import * as v8 from 'node:v8';

/** The budget when the setting is absent. */
export const DEFAULT_MEMORY_BUDGET_MB = 256;
/** One parsing thread (~45 MiB measured), the trigram index's thread (~40) and a search's texts in flight (16), with room left. */
export const MIN_MEMORY_BUDGET_MB = 128;

/**
 * Parsing threads for a budget: one per 128 MiB of it (a thread measures 40–50 MiB once its
 * grammar is loaded, its wasm memory grows with the largest text it parsed, and the caches need
 * the rest), at least one, at most one per core and four.
 */
export function parsingThreadsFor(budgetBytes: number, cores: number): number {
  return Math.max(1, Math.min(cores, 4, Math.floor(budgetBytes / (128 * 1024 * 1024))));
}

/** What one thread measured of itself after its last job. */
export interface ThreadMemory {
  /** V8's heap of the thread (`total_heap_size`). */
  readonly heapBytes: number;
  /** The wasm memory of its parser (it grows to the largest tree and never shrinks). */
  readonly wasmBytes: number;
  /** Typed arrays it keeps outside its heap: structural indexes (flatTree.ts). */
  readonly heldBytes: number;
}

/** A wasm memory as the thread holds it to measure it. */
export interface WasmMemory {
  readonly buffer: ArrayBuffer;
}

/**
 * The wasm memory for web-tree-sitter's runtime, made here so the thread can measure it: the one
 * its Emscripten module would make itself (`initMemory`: 32 MiB to start, 32,768 pages at most),
 * handed over as `Parser.init({ wasmMemory })`.
 */
export function parserMemory(): WasmMemory {
  const { WebAssembly: wasm } = globalThis as unknown as {
    WebAssembly: { Memory: new (descriptor: { initial: number; maximum: number }) => WasmMemory };
  };
  return new wasm.Memory({ initial: (32 * 1024 * 1024) / 65536, maximum: 32768 });
}

/** The thread's own measure: call on the thread. */
export function measureThread(wasm: WasmMemory | undefined, heldBytes: number): ThreadMemory {
  return { heapBytes: v8.getHeapStatistics().total_heap_size, wasmBytes: wasm?.buffer.byteLength ?? 0, heldBytes };
}

export function threadBytes(memory: ThreadMemory): number {
  return memory.heapBytes + memory.wasmBytes + memory.heldBytes;
}

/** What V8 takes for a string: one byte a character when every character fits in one, else two. */
export function stringBytes(text: string): number {
  return /[^\u0000-\u00ff]/.test(text) ? text.length * 2 : text.length;
}

/** A cache the budget shares out to: it holds at most its share, and drops its coldest past it. */
export interface BudgetedCache {
  /** Bytes held now, counted from what is held. */
  readonly heldBytes: number;
  /** Entries held now (for the report). */
  readonly heldEntries: number;
  /** Entries dropped so far to stay within the share. */
  readonly droppedEntries: number;
  /** Holds at most `bytes` from now on: drops the coldest entries past it. */
  limitTo(bytes: number): void;
}

export interface EngineParts {
  /** The parsing threads running now, each as it last measured itself. */
  threads(): readonly ThreadMemory[];
  /** The trigram index's thread, when it runs. */
  indexThread(): ThreadMemory | undefined;
  /** Ends the parsing threads that have no job (their heaps go back; the next search starts fresh ones). */
  retireIdleThreads(): number;
  readonly structuralIndexes: BudgetedCache;
  readonly sourceCache: BudgetedCache;
  readonly matchCache: BudgetedCache;
}

/** Of what the threads leave: structural indexes (they spare parsing), texts (they spare reading), matches (they spare both). */
const SHARES = { structuralIndexes: 0.5, sourceCache: 0.35, matchCache: 0.15 } as const;

/** Kept free for a search's texts in flight (search.ts holds at most 4 M characters queued, and reads ahead). */
export const IN_FLIGHT_BYTES = 16 * 1024 * 1024;

export class EngineMemory {
  private retiredThreads = 0;

  constructor(
    private budgetBytes: number,
    private readonly parts: EngineParts,
  ) {}

  setBudget(bytes: number): void {
    this.budgetBytes = bytes;
    this.settle();
  }

  /** What the threads take now but the structural indexes they keep: heaps and wasm memory, as they measured them. */
  private threadsBeside(): number {
    let bytes = 0;
    for (const thread of this.parts.threads()) bytes += thread.heapBytes + thread.wasmBytes;
    const index = this.parts.indexThread();
    return bytes + (index ? threadBytes(index) : 0);
  }

  /** The whole engine now: the threads, the structural indexes they keep, and the caches the host holds. */
  totalBytes(): number {
    const { structuralIndexes, sourceCache, matchCache } = this.parts;
    return this.threadsBeside() + structuralIndexes.heldBytes + sourceCache.heldBytes + matchCache.heldBytes;
  }

  /**
   * Gives each cache its share of what the threads leave, and each drops its coldest past it;
   * where the threads alone leave nothing, the idle ones end first. Called after each search.
   */
  settle(): void {
    if (this.threadsBeside() + IN_FLIGHT_BYTES > this.budgetBytes)
      this.retiredThreads += this.parts.retireIdleThreads();
    const free = Math.max(0, this.budgetBytes - IN_FLIGHT_BYTES - this.threadsBeside());
    this.parts.structuralIndexes.limitTo(Math.floor(free * SHARES.structuralIndexes));
    this.parts.sourceCache.limitTo(Math.floor(free * SHARES.sourceCache));
    this.parts.matchCache.limitTo(Math.floor(free * SHARES.matchCache));
  }

  /** The engine's memory as the threads measured it and the caches count it, line by line. */
  report(): string {
    const mib = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
    const threads = this.parts.threads();
    const index = this.parts.indexThread();
    const cache = (name: string, part: BudgetedCache, what: string): string =>
      `- ${name}: ${mib(part.heldBytes)}, ${part.heldEntries.toLocaleString('en-US')} ${what}` +
      (part.droppedEntries > 0
        ? ` (${part.droppedEntries.toLocaleString('en-US')} dropped to stay within the budget)`
        : '');
    return [
      `Structural search memory: ${mib(this.totalBytes())} of ${mib(this.budgetBytes)} (setting liveTools.structural.memoryBudgetMB).`,
      `- parsing threads: ${threads.length}` +
        (threads.length > 0
          ? `, ${threads.map((thread) => `heap ${mib(thread.heapBytes)} + wasm ${mib(thread.wasmBytes)}`).join('; ')}`
          : ' (none running)') +
        (this.retiredThreads > 0 ? `; ${this.retiredThreads} ended to stay within the budget` : ''),
      cache('structural indexes (on the threads)', this.parts.structuralIndexes, 'files'),
      `- trigram index thread: ${index ? `heap ${mib(index.heapBytes)} + records ${mib(index.heldBytes)}` : 'not running'}`,
      cache('source cache', this.parts.sourceCache, 'files'),
      cache('match cache', this.parts.matchCache, 'files'),
    ].join('\n');
  }
}
