/**
 * What the main thread and a parsing thread (src/structural/parseWorker.ts) say to each other:
 * a job per message, answered with matches that travel without their texts (the main thread has
 * the file's text and slices it again: a copied text is a full copy, and nested matches, a
 * function in a function, would copy the same characters many times over).
 */
import { MatchJob } from './fileMatcher';
import { Match } from './matcher';

/** One job at a time per worker: a reply answers the job the worker was last given. */
export type WorkerRequest = MatchJob;

export type WorkerReply =
  | { readonly matches: readonly WireMatch[] }
  | { readonly error: { readonly name: string; readonly message: string } };

export interface WireMatch {
  readonly start: number;
  readonly end: number;
  readonly startRow: number;
  readonly startColumn: number;
  readonly endRow: number;
  /** Name, start, end of each capture. */
  readonly captures: ReadonlyArray<readonly [string, number, number]>;
}

export function toWire(match: Match): WireMatch {
  const { start, end, startRow, startColumn, endRow } = match;
  return { start, end, startRow, startColumn, endRow, captures: [...match.captures].map(([name, capture]) => [name, capture.start, capture.end] as const) };
}

export function fromWire(wire: WireMatch, text: string): Match {
  return {
    ...wire,
    text: text.slice(wire.start, wire.end),
    captures: new Map(wire.captures.map(([name, start, end]) => [name, { text: text.slice(start, end), start, end }])),
  };
}
