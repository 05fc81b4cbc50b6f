/**
 * File text kept between searches, keyed by path and checked against size and mtime, so a
 * second search in the same process reads only what changed. Bounded in bytes (as V8 holds the
 * strings) by its share of the engine's budget (engineMemory.ts). What the last two searches
 * read is kept over what comes new: a search in file order over more text than the cache holds
 * would otherwise drop, text by text, exactly what it reads next, and keep none of it warm.
 */
import { promises as fs } from 'node:fs';
import { asText, FileText, surelyOverCap } from './fileMatcher';
import { BudgetedCache, stringBytes } from './engineMemory';

interface Entry {
  readonly size: number;
  readonly mtimeMs: number;
  readonly text: string;
  readonly bytes: number;
  /** The search that last read it. */
  used: number;
}

/** Without a budget's share: what one search may keep. */
const DEFAULT_LIMIT_BYTES = 64 * 1024 * 1024;

export class SourceCache implements BudgetedCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;
  private dropped = 0;
  /** Counts searches (`searchEnded`): an entry read in this one or the one before stays. */
  private generation = 0;

  constructor(private limitBytes = DEFAULT_LIMIT_BYTES) {}

  get heldBytes(): number {
    return this.bytes;
  }

  get heldEntries(): number {
    return this.entries.size;
  }

  get droppedEntries(): number {
    return this.dropped;
  }

  limitTo(bytes: number): void {
    this.limitBytes = bytes;
    this.makeRoom(0, Number.POSITIVE_INFINITY);
  }

  /** A search ended: what it read is kept over what the next one brings. */
  searchEnded(): void {
    this.generation++;
  }

  /**
   * The file's text from disk (cached while unchanged), or why it has none (unreadable, binary, or
   * surely longer than `maxLength`: then it is not read).
   */
  async read(file: string, maxLength = Number.POSITIVE_INFINITY): Promise<FileText> {
    let stat;
    try {
      stat = await fs.stat(file);
    } catch {
      this.forget(file);
      return { notText: 'unreadable' };
    }
    if (surelyOverCap(stat.size, maxLength)) {
      this.forget(file);
      return { notText: 'too large', bytes: stat.size };
    }
    const cached = this.entries.get(file);
    if (cached && cached.size === stat.size && cached.mtimeMs === stat.mtimeMs) {
      // Last read last: the map's order is the order of use, the coldest first.
      cached.used = this.generation;
      this.entries.delete(file);
      this.entries.set(file, cached);
      return cached.text;
    }
    let read: string;
    try {
      read = await fs.readFile(file, 'utf8');
    } catch {
      this.forget(file);
      return { notText: 'unreadable' };
    }
    const text = asText(read);
    this.forget(file);
    if (typeof text !== 'string') return text;
    const bytes = stringBytes(text);
    // Older entries make room (those no search read lately); the text is kept only where there is room, and
    // never one that would take more than half of it.
    if (bytes <= this.limitBytes / 2 && this.makeRoom(bytes, this.generation - 1)) {
      this.entries.set(file, { size: stat.size, mtimeMs: stat.mtimeMs, text, bytes, used: this.generation });
      this.bytes += bytes;
    }
    return text;
  }

  private forget(file: string): void {
    const cached = this.entries.get(file);
    if (!cached) return;
    this.bytes -= cached.bytes;
    this.entries.delete(file);
  }

  /** Drops entries last read before search `before`, the coldest first, until `bytes` more fit; whether they do. */
  private makeRoom(bytes: number, before: number): boolean {
    if (this.bytes + bytes <= this.limitBytes) return true;
    for (const [file, entry] of this.entries) {
      if (entry.used >= before) return false;
      this.forget(file);
      this.dropped++;
      if (this.bytes + bytes <= this.limitBytes) return true;
    }
    return false;
  }
}
