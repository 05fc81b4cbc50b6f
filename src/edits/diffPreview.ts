/**
 * A change between two texts as a model or a person reads it: which lines, and a short diff of
 * them (`@@ line 3`, `-` old lines, `+` new ones), capped, each line clipped. Built on the bounded
 * line diff, so a large or adversarial text costs no more than that diff.
 */
import { clipLine } from '../platform/wording';
import { diffLines, splitLines } from './textDiff';

/** A line of the preview: without its break, cut to the width answers show. */
function clip(line: string): string {
  return clipLine(line.replace(/\r?\n$|\r$/, ''));
}

/**
 * The lines of `after` (1-based) where it differs from `before`, as `3–4, 9`; a deletion is named by
 * the line that follows it. At most `maxRanges` ranges, the rest counted.
 */
export function changedLines(before: string, after: string, maxRanges = 10): string {
  const chunks = diffLines(splitLines(before), splitLines(after));
  const ranges = chunks.map((chunk) => {
    const first = chunk.newStart + 1;
    const last = Math.max(first, chunk.newEnd);
    return first === last ? `${first}` : `${first}–${last}`;
  });
  const shown = ranges.slice(0, maxRanges).join(', ');
  return ranges.length > maxRanges ? `${shown} and ${ranges.length - maxRanges} more places` : shown;
}

/** The diff of `before` → `after` in at most `maxLines` lines (headers included), the rest counted. */
export function diffPreview(before: string, after: string, maxLines = 20): string {
  const oldLines = splitLines(before);
  const newLines = splitLines(after);
  const out: string[] = [];
  for (const chunk of diffLines(oldLines, newLines)) {
    out.push(`@@ line ${chunk.newStart + 1}`);
    for (const line of oldLines.slice(chunk.oldStart, chunk.oldEnd)) out.push(`-${clip(line)}`);
    for (const line of newLines.slice(chunk.newStart, chunk.newEnd)) out.push(`+${clip(line)}`);
  }
  if (out.length <= maxLines) return out.join('\n');
  return [...out.slice(0, maxLines), `… ${out.length - maxLines} more diff lines`].join('\n');
}
