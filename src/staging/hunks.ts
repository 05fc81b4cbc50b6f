/**
 * The hunks of a staged file, and the change the human shaped by dropping some of them. A hunk is
 * a run of the file's edits on the same or adjacent lines of the captured text (what the diff
 * editor shows as one block); dropping it leaves those lines as they were. What Accept writes is
 * the captured text with the kept hunks' edits applied, nothing else.
 */
import { applyEdits, TextEdit } from '../edits/textEdits';
import { lineOfOffset, newlineStarts } from '../edits/lineStarts';

export interface Hunk {
  /** 0-based, in the file's order. */
  readonly index: number;
  /** 1-based line of the captured text where the hunk starts. */
  readonly line: number;
  /** Indexes into the file's `edits`, consecutive. */
  readonly first: number;
  readonly count: number;
}

/** Offsets where each line of `text` starts. */
/** 0-based line holding `offset`. */
function lineAt(starts: readonly number[], offset: number): number {
  return lineOfOffset(starts, offset) - 1;
}

/** The hunks of sorted, non-overlapping `edits` of `original`. */
export function hunksOf(original: string, edits: readonly TextEdit[]): Hunk[] {
  const starts = newlineStarts(original);
  const hunks: Hunk[] = [];
  let lastLine = -2;
  edits.forEach((edit, index) => {
    const startLine = lineAt(starts, edit.start);
    // An edit ending right after a line break changed nothing on the next line.
    const endLine = edit.end > edit.start ? lineAt(starts, edit.end - 1) : startLine;
    const open = hunks[hunks.length - 1];
    if (open && startLine <= lastLine + 1) hunks[hunks.length - 1] = { ...open, count: open.count + 1 };
    else hunks.push({ index: hunks.length, line: startLine + 1, first: index, count: 1 });
    lastLine = Math.max(lastLine, endLine);
  });
  return hunks;
}

/** The edits of the hunks not in `dropped`. */
export function keptEdits(
  edits: readonly TextEdit[],
  hunks: readonly Hunk[],
  dropped: readonly number[] = [],
): TextEdit[] {
  if (dropped.length === 0) return [...edits];
  const out = new Set(dropped);
  return hunks
    .filter((hunk) => !out.has(hunk.index))
    .flatMap((hunk) => edits.slice(hunk.first, hunk.first + hunk.count));
}

/** The captured text with the kept hunks applied: what the review shows and Accept writes. */
export function keptText(
  original: string,
  edits: readonly TextEdit[],
  hunks: readonly Hunk[],
  dropped: readonly number[] = [],
): string {
  return applyEdits(original, keptEdits(edits, hunks, dropped));
}

/** `dropped` with `hunk` added or taken out, sorted, each once; `hunk` undefined: every hunk of the file or none. */
export function toggledDrops(
  dropped: readonly number[],
  hunkCount: number,
  hunk: number | undefined,
  drop: boolean,
): number[] {
  if (hunk === undefined) return drop ? Array.from({ length: hunkCount }, (_, index) => index) : [];
  const set = new Set(dropped);
  if (drop) set.add(hunk);
  else set.delete(hunk);
  return [...set].sort((a, b) => a - b);
}
