/**
 * The matches of the last few patterns, per file text, so a repeated query answers without
 * matching again. Bounded in bytes by its share of the engine's budget (engineMemory.ts): a text
 * is counted a byte a character (the same string the source cache holds, where it does), a match
 * by its texts and a fixed part for its object. Within a pattern the first files kept stay (a
 * search in file order would otherwise drop what it reads next); an older pattern makes room.
 */
import { BudgetedCache } from './engineMemory';
import { Match } from './matcher';

/** Patterns whose matches are kept, most recent last. */
const CACHED_PATTERNS = 4;
/** A match object with its capture map, beside its texts. */
const MATCH_OBJECT_BYTES = 200;
const CAPTURE_OBJECT_BYTES = 80;

/** A file with matches, or without (kept to answer a repeated query). */
export interface CachedMatches {
  readonly source: string;
  readonly matches: readonly Match[];
}

interface Entry extends CachedMatches {
  readonly bytes: number;
}

/** One pattern's cached files. */
export class PatternMatches {
  /** Given way to newer patterns: keeps nothing more. */
  gone = false;

  constructor(
    private readonly cache: MatchCache,
    readonly files: Map<string, Entry>,
  ) {}

  /** The file's matches, when cached from this very text. */
  get(file: string, source: string): readonly Match[] | undefined {
    const cached = this.files.get(file);
    return cached && cached.source === source ? cached.matches : undefined;
  }

  set(file: string, source: string, matches: readonly Match[]): void {
    this.cache.put(this, file, source, matches);
  }
}

export class MatchCache implements BudgetedCache {
  /** By language and pattern, the least recently searched first. */
  private readonly patterns = new Map<string, PatternMatches>();
  private bytes = 0;
  private entries = 0;
  private dropped = 0;

  constructor(private limitBytes = 64 * 1024 * 1024) {}

  get heldBytes(): number {
    return this.bytes;
  }

  get heldEntries(): number {
    return this.entries;
  }

  get droppedEntries(): number {
    return this.dropped;
  }

  /** Older patterns go first; the newest then keeps the files it cached first. */
  limitTo(bytes: number): void {
    this.limitBytes = bytes;
    while (this.bytes > this.limitBytes && this.patterns.size > 1) this.dropOldest();
    const newest = [...this.patterns.values()].pop();
    if (!newest || this.bytes <= this.limitBytes) return;
    for (const file of [...newest.files.keys()].reverse()) {
      this.remove(newest, file);
      this.dropped++;
      if (this.bytes <= this.limitBytes) return;
    }
  }

  clear(): void {
    for (const pattern of this.patterns.values()) pattern.gone = true;
    this.patterns.clear();
    this.bytes = 0;
    this.entries = 0;
  }

  /** The cached matches of this pattern (now the most recent), the least recently searched pattern giving way past a few. */
  forPattern(language: string, pattern: string): PatternMatches {
    const key = `${language}\u0000${pattern}`;
    const found = this.patterns.get(key) ?? new PatternMatches(this, new Map());
    this.patterns.delete(key);
    this.patterns.set(key, found);
    while (this.patterns.size > CACHED_PATTERNS) this.dropOldest();
    return found;
  }

  put(owner: PatternMatches, file: string, source: string, matches: readonly Match[]): void {
    // A pattern given way since the search began keeps nothing more.
    if (owner.gone) return;
    this.remove(owner, file);
    let bytes = source.length;
    for (const match of matches) {
      bytes += MATCH_OBJECT_BYTES + match.text.length;
      for (const capture of match.captures.values()) bytes += CAPTURE_OBJECT_BYTES + capture.text.length;
    }
    while (this.bytes + bytes > this.limitBytes && this.patterns.size > 1 && this.oldest() !== owner) this.dropOldest();
    if (this.bytes + bytes > this.limitBytes) return;
    owner.files.set(file, { source, matches, bytes });
    this.bytes += bytes;
    this.entries++;
  }

  private remove(owner: PatternMatches, file: string): void {
    const held = owner.files.get(file);
    if (!held) return;
    owner.files.delete(file);
    this.bytes -= held.bytes;
    this.entries--;
  }

  private oldest(): PatternMatches | undefined {
    return this.patterns.values().next().value;
  }

  private dropOldest(): void {
    const [key, oldest] = this.patterns.entries().next().value as [string, PatternMatches];
    this.patterns.delete(key);
    oldest.gone = true;
    for (const entry of oldest.files.values()) this.bytes -= entry.bytes;
    this.entries -= oldest.files.size;
    this.dropped += oldest.files.size;
    oldest.files.clear();
  }
}
