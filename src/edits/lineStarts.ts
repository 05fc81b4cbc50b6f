/**
 * Lines of a text as the editor counts them (a line ends at LF, CRLF or a lone CR): where each
 * starts, and which line an offset is on, by binary search. Every "line N" an answer gives comes from
 * here, in one pass over the text however many offsets are asked.
 */

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

/** The 1-based line `offset` is on, given the text's `lineStarts`. */
export function lineOfOffset(starts: readonly number[], offset: number): number {
  let low = 0;
  let high = starts.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (starts[middle] <= offset) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The 1-based lines of `offsets` in `text`. */
export function linesOfOffsets(text: string, offsets: readonly number[]): number[] {
  const starts = lineStarts(text);
  return offsets.map((offset) => lineOfOffset(starts, offset));
}
