/**
 * Matching one file's text: parse, find the pattern's matches, delete the tree. `InlineMatcher`
 * does it on this thread (a parsing thread's own matcher; the command line without threads); `ParsePool` spreads files over
 * worker threads, each with its own grammars, so parsing uses every core. A batch run (the
 * command line) hands over paths instead of texts (`DiskJob`): the thread that parses reads the
 * file, so no text crosses threads or stays behind on the calling one.
 */
import { readFileSync, statSync } from 'node:fs';
import { LanguageRegistry } from './languages';
import { findMatches, Match, PatternTooExpensive } from './matcher';
import { CompiledPattern, compilePattern } from './pattern';
import { mayMatch } from './prefilter';
import { FlatTree, GrammarTypes } from './flatTree';

export interface MatchJob {
  /** The file the text is of, when it is one: a thread holding its structural index matches without parsing. */
  readonly file?: string;
  readonly language: string;
  readonly pattern: string;
  readonly text: string;
  /** Stop after this many matches. */
  readonly limit: number;
}

/** A file the matching thread reads itself. */
export interface DiskJob extends Omit<MatchJob, 'text'> {
  readonly file: string;
  /** Its length as last read (a thread pool sends large texts to one thread). */
  readonly size: number;
  /** Longer texts (in UTF-16 units) are not parsed. */
  readonly maxLength: number;
  /** Send the text back with the matches (a rewrite needs it). */
  readonly withSource: boolean;
}

/** What became of one file: its matches (none when not parsed), or why it was not parsed. */
export interface FileOutcome {
  readonly parsed: boolean;
  readonly matches: readonly Match[];
  /** The text, when asked for. */
  readonly source?: string;
  /** Not parsed: lacking a text every match contains, or one of the reasons a search names. */
  readonly skipped?: 'no candidate' | SkipReason;
  /** Not read, too large: its size in bytes. */
  readonly bytes?: number;
}

/** Why a file that might hold matches was not parsed (every search names such files). */
export type SkipReason = 'too large' | NotText['notText'];

/** A file with no text to search: it could not be read, holds a NUL character, or is surely over the size cap (not read). */
export type NotText = { readonly notText: 'unreadable' | 'binary' } | NotRead;

/** A file not read: its bytes are more than the size cap could hold (`surelyOverCap`). */
export interface NotRead {
  readonly notText: 'too large';
  readonly bytes: number;
}

/**
 * Whether a file of `bytes` bytes is longer than `maxLength` UTF-16 units without reading it: UTF-8
 * spends at most 3 bytes on one unit (4 on two). A file between the cap and this is read and its
 * length counted; one past it is not read at all (a 200 MB bundle in a folder must not be held).
 */
export function surelyOverCap(bytes: number, maxLength: number): boolean {
  return bytes > mostBytesUnderCap(maxLength);
}

/** The most bytes a file within the cap can have. */
export function mostBytesUnderCap(maxLength: number): number {
  return 3 * maxLength;
}

/** A file's text, or why it has none. */
export type FileText = string | NotText;

/** What the caller needs of a compiled pattern: its scaffold context, prefilter texts and names. */
export type PatternSummary = Pick<
  CompiledPattern,
  'language' | 'context' | 'requiredTexts' | 'requiredRuns' | 'gapWords' | 'metavariables'
>;

/** `signal` takes a job back: a thread busy with it is terminated (this thread cannot stop itself, and ignores it). */
export interface FileMatcher {
  match(job: MatchJob, signal?: AbortSignal): Promise<Match[]>;
  matchFile(job: DiskJob, signal?: AbortSignal): Promise<FileOutcome>;
  /** Compiles the pattern where the matching happens (a thread's grammars); throws PatternError. */
  describe(language: string, pattern: string, signal?: AbortSignal): Promise<PatternSummary>;
  /** Keep the text's structural index for later patterns (threads that keep indexes; others ignore it). */
  indexInBackground?(file: string, language: string, text: string): void;
  /** How many jobs are worth keeping in flight at once. */
  readonly parallelism: number;
  dispose(): void;
}

/** The file's text, or why it has none (unreadable, binary: a NUL character, or surely longer than `maxLength`: not read). */
export function readTextFile(file: string, maxLength = Number.POSITIVE_INFINITY): FileText {
  let text: string;
  try {
    const { size } = statSync(file);
    if (surelyOverCap(size, maxLength)) return { notText: 'too large', bytes: size };
    text = readFileSync(file, 'utf8');
  } catch {
    return { notText: 'unreadable' };
  }
  return asText(text);
}

/** The text read, unless it is binary (a NUL character). */
export function asText(text: string): FileText {
  return text.includes('\u0000') ? { notText: 'binary' } : text;
}

export class InlineMatcher implements FileMatcher {
  readonly parallelism = 1;
  private readonly patterns = new Map<string, CompiledPattern>();
  private readonly types = new Map<string, GrammarTypes>();

  constructor(private readonly registry: LanguageRegistry) {}

  /** The text's structural index (parsed, walked once, the tree deleted). */
  async index(language: string, text: string): Promise<FlatTree | undefined> {
    const loaded = await this.registry.load(language);
    let types = this.types.get(language);
    if (!types) this.types.set(language, (types = new GrammarTypes(loaded.language)));
    const tree = loaded.parser.parse(text);
    if (!tree) return undefined;
    try {
      return FlatTree.fromTree(tree, types);
    } finally {
      tree.delete();
    }
  }

  /** The job's matches read from the index of its text, without parsing. */
  async matchIndexed(job: MatchJob, index: FlatTree): Promise<Match[]> {
    const loaded = await this.registry.load(job.language);
    const pattern = this.compiled(job.language, job.pattern, () => compilePattern(loaded, job.pattern));
    return findMatches(index.withText(job.text), job.text, pattern.root, { limit: job.limit });
  }

  async match(job: MatchJob): Promise<Match[]> {
    const loaded = await this.registry.load(job.language);
    const pattern = this.compiled(job.language, job.pattern, () => compilePattern(loaded, job.pattern));
    const tree = loaded.parser.parse(job.text);
    if (!tree) return [];
    try {
      return findMatches(tree, job.text, pattern.root, { limit: job.limit });
    } finally {
      tree.delete();
    }
  }

  async matchFile(job: DiskJob): Promise<FileOutcome> {
    const text = readTextFile(job.file, job.maxLength);
    if (typeof text !== 'string') return notTextOutcome(text);
    if (!mayMatch(text, await this.describe(job.language, job.pattern)))
      return { parsed: false, matches: [], skipped: 'no candidate' };
    if (text.length > job.maxLength) return { parsed: false, matches: [], skipped: 'too large' };
    let matches: Match[];
    try {
      matches = await this.match({ ...job, text });
    } catch (error) {
      throw error instanceof PatternTooExpensive ? error.inFile(job.file) : error;
    }
    return { parsed: true, matches, ...(job.withSource ? { source: text } : {}) };
  }

  async describe(language: string, pattern: string): Promise<PatternSummary> {
    const loaded = await this.registry.load(language);
    return this.compiled(language, pattern, () => compilePattern(loaded, pattern));
  }

  dispose(): void {
    this.patterns.clear();
  }

  /** The compiled pattern, kept for the few most recent queries. */
  private compiled(language: string, source: string, compile: () => CompiledPattern): CompiledPattern {
    const key = `${language}\u0000${source}`;
    let pattern = this.patterns.get(key);
    if (!pattern) {
      pattern = compile();
      this.patterns.set(key, pattern);
      if (this.patterns.size > 16) this.patterns.delete(this.patterns.keys().next().value as string);
    }
    return pattern;
  }
}

/** The outcome of a file with no text to search. */
export function notTextOutcome(text: NotText): FileOutcome {
  return {
    parsed: false,
    matches: [],
    skipped: text.notText,
    ...(text.notText === 'too large' ? { bytes: text.bytes } : {}),
  };
}
