/**
 * Line diffs and the three-way merge that Agent Changes reverts and keeps with. Texts are split
 * into lines that keep their line breaks, so joining the lines gives the text back byte for byte.
 * The diff is Myers' O(ND), bounded: past MAX_DIFF_DISTANCE differences, or past DIFF_WORK_BUDGET
 * line comparisons ((N+M)·D), the middle becomes one chunk (coarser, never wrong), so no file can
 * make it run long or hold much memory (the trace is about D² numbers) on the extension host.
 */

/** Lines with their breaks (`a\n`, `b\r\n`, a last line without one). */
export function splitLines(text: string): string[] {
  const lines: string[] = [];
  let from = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', from)) {
    lines.push(text.slice(from, at + 1));
    from = at + 1;
  }
  if (from < text.length) lines.push(text.slice(from));
  return lines;
}

/** A difference: lines [oldStart, oldEnd) of the old text became [newStart, newEnd) of the new one. */
export interface Chunk {
  readonly oldStart: number;
  readonly oldEnd: number;
  readonly newStart: number;
  readonly newEnd: number;
}

/** Past this many differing lines the rest of a diff is one chunk. */
export const MAX_DIFF_DISTANCE = 1000;
/** (N+M)·D at most: about 100 ms of comparisons. */
export const DIFF_WORK_BUDGET = 20_000_000;

/** The chunks that turn `before` into `after`, in order, never touching each other. */
export function diffLines(before: readonly string[], after: readonly string[]): Chunk[] {
  let head = 0;
  while (head < before.length && head < after.length && before[head] === after[head]) head++;
  let tail = 0;
  while (
    tail < before.length - head &&
    tail < after.length - head &&
    before[before.length - 1 - tail] === after[after.length - 1 - tail]
  )
    tail++;
  const a = before.slice(head, before.length - tail);
  const b = after.slice(head, after.length - tail);
  if (a.length === 0 && b.length === 0) return [];
  const middle = myers(a, b) ?? [{ oldStart: 0, oldEnd: a.length, newStart: 0, newEnd: b.length }];
  return middle.map((chunk) => ({
    oldStart: chunk.oldStart + head,
    oldEnd: chunk.oldEnd + head,
    newStart: chunk.newStart + head,
    newEnd: chunk.newEnd + head,
  }));
}

/** Myers' greedy diff with its trace; undefined past MAX_DIFF_DISTANCE. */
function myers(a: readonly string[], b: readonly string[]): Chunk[] | undefined {
  const n = a.length;
  const m = b.length;
  const max = Math.min(n + m, MAX_DIFF_DISTANCE, Math.floor(DIFF_WORK_BUDGET / Math.max(1, n + m)));
  const offset = max + 1;
  let v: Int32Array = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  let found = -1;
  for (let d = 0; d <= max && found < 0; d++) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let x =
        k === -d || (k !== d && v[offset + k - 1] < v[offset + k + 1]) ? v[offset + k + 1] : v[offset + k - 1] + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        found = d;
        break;
      }
    }
  }
  if (found < 0) return undefined;
  // Walk the trace back from (n, m), collecting the single-line steps, then join them into chunks.
  const steps: { x: number; y: number; kind: 'delete' | 'insert' }[] = [];
  let x = n;
  let y = m;
  for (let d = found; d > 0; d--) {
    v = trace[d];
    const k = x - y;
    const down = k === -d || (k !== d && v[offset + k - 1] < v[offset + k + 1]);
    const previousK = down ? k + 1 : k - 1;
    const previousX = v[offset + previousK];
    const previousY = previousX - previousK;
    while (x > previousX && y > previousY) {
      x--;
      y--;
    }
    if (down) steps.push({ x: previousX, y: previousY, kind: 'insert' });
    else steps.push({ x: previousX, y: previousY, kind: 'delete' });
    x = previousX;
    y = previousY;
  }
  steps.reverse();
  const chunks: Chunk[] = [];
  for (const step of steps) {
    const last = chunks[chunks.length - 1];
    const oldEnd = step.kind === 'delete' ? step.x + 1 : step.x;
    const newEnd = step.kind === 'insert' ? step.y + 1 : step.y;
    if (last && last.oldEnd === step.x && last.newEnd === step.y)
      chunks[chunks.length - 1] = { ...last, oldEnd, newEnd };
    else chunks.push({ oldStart: step.x, oldEnd, newStart: step.y, newEnd });
  }
  return chunks;
}

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
