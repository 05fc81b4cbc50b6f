/**
 * The three-way merge that Agent Changes reverts and keeps with (and a worker's change is accepted with), over lines that keep their breaks
 * (the bounded line diff is `edits/textDiff`), so joining the lines gives the text back byte for byte.
 */
import { diffLines } from './textDiff';

/** One region of a three-way merge: the lines of the ancestor it spans and who changed them. */
export interface MergeRegion {
  /** Lines [start, end) of the ancestor. */
  readonly start: number;
  readonly end: number;
  /** 'ours' / 'theirs': only that side changed these lines (or both the same way: 'theirs'); 'both': each did, differently (a conflict). */
  readonly changedBy: 'ours' | 'theirs' | 'both';
  readonly ours: readonly string[];
  readonly theirs: readonly string[];
  /** Where the region's lines are in ours, 0-based. */
  readonly oursStart: number;
}

/**
 * The regions where `ours` or `theirs` differ from `ancestor`; regions of the two sides that
 * overlap or touch are one region changed by both (touching counts: an edit right next to
 * another is treated as touching it, the safe side for a revert).
 */
export function mergeRegions(
  ancestor: readonly string[],
  ours: readonly string[],
  theirs: readonly string[],
): MergeRegion[] {
  const mine = diffLines(ancestor, ours).map((chunk) => ({ ...chunk, side: 'ours' as const }));
  const yours = diffLines(ancestor, theirs).map((chunk) => ({ ...chunk, side: 'theirs' as const }));
  const all = [...mine, ...yours].sort((p, q) => p.oldStart - q.oldStart || p.oldEnd - q.oldEnd);
  const regions: MergeRegion[] = [];
  let oursShift = 0;
  let theirsShift = 0;
  for (let index = 0; index < all.length;) {
    let start = all[index].oldStart;
    let end = all[index].oldEnd;
    const sides = new Set<'ours' | 'theirs'>();
    let oursDelta = 0;
    let theirsDelta = 0;
    while (index < all.length && (sides.size === 0 || all[index].oldStart <= end)) {
      const chunk = all[index];
      start = Math.min(start, chunk.oldStart);
      end = Math.max(end, chunk.oldEnd);
      sides.add(chunk.side);
      const delta = chunk.newEnd - chunk.newStart - (chunk.oldEnd - chunk.oldStart);
      if (chunk.side === 'ours') oursDelta += delta;
      else theirsDelta += delta;
      index++;
    }
    const oursStart = start + oursShift;
    const theirsStart = start + theirsShift;
    const oursLines = ours.slice(oursStart, end + oursShift + oursDelta);
    const theirsLines = theirs.slice(theirsStart, end + theirsShift + theirsDelta);
    // Both sides made the same change (a hunk reverted by hand, say): no conflict, it is theirs already.
    const same =
      sides.size === 2 &&
      oursLines.length === theirsLines.length &&
      oursLines.every((line, at) => line === theirsLines[at]);
    regions.push({
      start,
      end,
      changedBy: same ? 'theirs' : sides.size === 2 ? 'both' : sides.has('ours') ? 'ours' : 'theirs',
      ours: oursLines,
      theirs: theirsLines,
      oursStart,
    });
    oursShift += oursDelta;
    theirsShift += theirsDelta;
  }
  return regions;
}

/**
 * The ancestor with each region replaced by the side `pick` chooses (ours, theirs, or the
 * ancestor's own lines), joined back into text; `placed` gets where each region's lines landed
 * (0-based first line and count in the result).
 */
export function mergeWith(
  ancestor: readonly string[],
  regions: readonly MergeRegion[],
  pick: (region: MergeRegion) => 'ours' | 'theirs' | 'ancestor',
  placed?: (region: MergeRegion, line: number, count: number) => void,
): string {
  const out: string[] = [];
  let at = 0;
  for (const region of regions) {
    out.push(...ancestor.slice(at, region.start));
    const side = pick(region);
    const chosen =
      side === 'ours' ? region.ours : side === 'theirs' ? region.theirs : ancestor.slice(region.start, region.end);
    placed?.(region, out.length, chosen.length);
    out.push(...chosen);
    at = region.end;
  }
  out.push(...ancestor.slice(at));
  return out.join('');
}
