/**
 * What the main thread and a parsing thread (src/structural/parseWorker.ts) say to each other:
 * a request per message, answered in turn. Matches of a text the main thread sent travel without
 * their texts (the main thread has the file's text and slices it again: a copied text is a full
 * copy, and nested matches, a function in a function, would copy the same characters many times
 * over); matches of a file the thread read itself carry them.
 */
import { DiskJob, FileOutcome, MatchJob, PatternSummary } from './fileMatcher';
import { Match, PatternTooExpensive } from './matcher';
import { PatternError } from './pattern';
import type { ThreadMemory } from './engineMemory';

/** One request at a time per worker: a reply answers the request the worker was last given. */
export type WorkerRequest =
  | { readonly kind: 'text'; readonly job: MatchJob }
  | { readonly kind: 'file'; readonly job: DiskJob }
  | { readonly kind: 'describe'; readonly language: string; readonly pattern: string }
  /** Build and keep the text's structural index. */
  | {
      readonly kind: 'index';
      readonly file: string;
      readonly language: string;
      readonly text: string;
      readonly build: number;
    }
  /** Match the text from the index this thread keeps of it. */
  | { readonly kind: 'indexed'; readonly job: MatchJob & { readonly file: string; readonly build: number } }
  /** Drop the file's index if it is this build (the pool's share of the budget shrank, or the text changed). */
  | { readonly kind: 'forget'; readonly file: string; readonly build: number };

export type WorkerReply =
  | { readonly matches: readonly WireMatch[] }
  | { readonly file: WireFileOutcome }
  | { readonly summary: PatternSummary }
  /** Bytes of the index kept (0: not kept). */
  | { readonly indexed: number }
  /** The thread no longer holds the file's index (evicted past its budget). */
  | { readonly missing: true }
  | { readonly error: WireError };

/** A reply as the thread sends it: with its own memory, measured after the job. */
export type WorkerMessage = WorkerReply & { readonly memory?: ThreadMemory };

/** An error as it crosses threads: its name and message, and a budget and file for PatternTooExpensive. */
export interface WireError {
  readonly name: string;
  readonly message: string;
  readonly budget?: number;
  readonly file?: string;
}

export function errorToWire(error: Error): WireError {
  if (error instanceof PatternTooExpensive)
    return { name: error.name, message: error.message, budget: error.budget, file: error.file };
  return { name: error.name, message: error.message };
}

export interface WireMatch {
  readonly start: number;
  readonly end: number;
  readonly startRow: number;
  readonly startColumn: number;
  readonly endRow: number;
  readonly coveredStart: number;
  readonly coveredEnd: number;
  /** Name, start, end of each capture. */
  readonly captures: ReadonlyArray<readonly [string, number, number]>;
}

export function toWire(match: Match): WireMatch {
  const { start, end, startRow, startColumn, endRow, coveredStart, coveredEnd } = match;
  return {
    start,
    end,
    startRow,
    startColumn,
    endRow,
    coveredStart,
    coveredEnd,
    captures: [...match.captures].map(([name, capture]) => [name, capture.start, capture.end] as const),
  };
}

export function fromWire(wire: WireMatch, text: string): Match {
  return {
    ...wire,
    text: text.slice(wire.start, wire.end),
    captures: new Map(wire.captures.map(([name, start, end]) => [name, { text: text.slice(start, end), start, end }])),
  };
}

/**
 * A file a thread read: its matches with their own texts, or, when that is less to copy (nested
 * matches, a function in a function, repeat the same characters) or the text was asked for, as
 * offsets into the text sent once.
 */
export type WireFileOutcome =
  | (Omit<FileOutcome, 'source'> & { readonly source?: undefined })
  | (Omit<FileOutcome, 'matches' | 'source'> & { readonly source: string; readonly offsets: readonly WireMatch[] });

/** The text of matches and their captures, in UTF-16 units: what sending them copies. */
export function matchedLength(matches: readonly Match[]): number {
  let length = 0;
  for (const match of matches) {
    length += match.end - match.start;
    for (const capture of match.captures.values()) length += capture.end - capture.start;
  }
  return length;
}

export function fileOutcomeToWire(outcome: FileOutcome, withSource: boolean): WireFileOutcome {
  const { source, matches, ...rest } = outcome;
  if (source === undefined) return { ...rest, matches };
  return withSource || matchedLength(matches) > source.length
    ? { ...rest, source, offsets: matches.map(toWire) }
    : { ...rest, matches };
}

export function fileOutcomeFromWire(wire: WireFileOutcome, withSource: boolean): FileOutcome {
  if (wire.source === undefined) return wire;
  const { offsets, source, ...rest } = wire;
  return { ...rest, matches: offsets.map((match) => fromWire(match, source)), ...(withSource ? { source } : {}) };
}

/** An error raised in a thread, rebuilt with its name (a PatternError or PatternTooExpensive stays one: callers tell them apart). */
export function errorFromWire(wire: WireError): Error {
  if (wire.name === 'PatternError') return new PatternError(wire.message);
  if (wire.name === 'PatternTooExpensive' && wire.budget !== undefined)
    return new PatternTooExpensive(wire.budget, wire.file);
  const error = new Error(wire.message);
  error.name = wire.name;
  return error;
}
