/**
 * Lines of a text as the editor counts them (a line ends at LF, CRLF or a lone CR): where each
 * starts, and which line an offset is on, by binary search. Every "line N" an answer gives comes from
 * here, in one pass over the text however many offsets are asked.
 */
import { lowerBound } from './sortedSearch';

/** The length of the line break starting at `index` (2 for CRLF), or 0. */
export function breakAt(text: string, index: number): number {
  const code = text.charCodeAt(index);
  if (code === 0x0a) return 1;
  if (code === 0x0d) return text.charCodeAt(index + 1) === 0x0a ? 2 : 1;
  return 0;
}

/** Offsets where each line of `text` starts; the first is 0. */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let index = 0; index < text.length; index++) {
    const length = breakAt(text, index);
    if (length > 0) {
      index += length - 1;
      starts.push(index + 1);
    }
  }
  return starts;
}

/** Offsets where each LF-ended line starts (the first is 0): lines as a split at `\n` makes them. */
export function newlineStarts(text: string): number[] {
  const starts = [0];
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) starts.push(at + 1);
  return starts;
}

/** The 1-based line `offset` is on, given the text's `lineStarts` (or `newlineStarts`). */
export function lineOfOffset(starts: ArrayLike<number>, offset: number): number {
  // The number of lines starting at or before the offset.
  return lowerBound(starts, offset + 1);
}

/** The 1-based lines of `offsets` in `text`. */
export function linesOfOffsets(text: string, offsets: readonly number[]): number[] {
  const starts = lineStarts(text);
  return offsets.map((offset) => lineOfOffset(starts, offset));
}
