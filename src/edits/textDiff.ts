/**
 * Diffs: of lines (texts split into lines that keep their breaks, so joining them gives the text
 * back byte for byte), and of two texts as edits that touch only what differs. Myers' O(ND), bounded:
 * past MAX_DIFF_DISTANCE differences, or past DIFF_WORK_BUDGET comparisons ((N+M)·D) for a whole
 * call (its line diff and every character diff in it together), the middle becomes one chunk
 * (coarser, never wrong), so no text can make it run long or hold much memory (the trace is about D²
 * numbers) on the extension host.
 */
import { TextEdit, trimmed } from './textEdits';

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

/** A difference: items [oldStart, oldEnd) of the old sequence became [newStart, newEnd) of the new one. */
export interface Chunk {
  readonly oldStart: number;
  readonly oldEnd: number;
  readonly newStart: number;
  readonly newEnd: number;
}

/** Past this many differing items the rest of a diff is one chunk. */
export const MAX_DIFF_DISTANCE = 1000;
/** (N+M)·D at most: about 100 ms of comparisons. */
export const DIFF_WORK_BUDGET = 20_000_000;

/** Comparisons a diff may still make; shared by the diffs of one call, so their sum stays within DIFF_WORK_BUDGET. */
export interface DiffBudget {
  remaining: number;
}

/** The chunks that turn `before` into `after`, in order, never touching each other. */
export function diffLines(before: readonly string[], after: readonly string[], budget?: DiffBudget): Chunk[] {
  return diffSequences(before.length, after.length, (i, j) => before[i] === after[j], budget);
}

/**
 * The chunks that turn a sequence of `n` items into one of `m`, where `same(i, j)` says item i of
 * the first equals item j of the second; in order, never touching each other.
 */
export function diffSequences(
  n: number,
  m: number,
  same: (i: number, j: number) => boolean,
  budget: DiffBudget = { remaining: DIFF_WORK_BUDGET },
): Chunk[] {
  let head = 0;
  while (head < n && head < m && same(head, head)) head++;
  let tail = 0;
  while (tail < n - head && tail < m - head && same(n - 1 - tail, m - 1 - tail)) tail++;
  const a = n - head - tail;
  const b = m - head - tail;
  if (a === 0 && b === 0) return [];
  const middle = myers(a, b, (i, j) => same(head + i, head + j), budget) ?? [
    { oldStart: 0, oldEnd: a, newStart: 0, newEnd: b },
  ];
  return middle.map((chunk) => ({
    oldStart: chunk.oldStart + head,
    oldEnd: chunk.oldEnd + head,
    newStart: chunk.newStart + head,
    newEnd: chunk.newEnd + head,
  }));
}

/** Myers' greedy diff with its trace; undefined past MAX_DIFF_DISTANCE or the work budget (what it spent is taken from it). */
function myers(n: number, m: number, same: (i: number, j: number) => boolean, budget: DiffBudget): Chunk[] | undefined {
  const max = Math.min(n + m, MAX_DIFF_DISTANCE, Math.floor(Math.max(0, budget.remaining) / Math.max(1, n + m)));
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
      while (x < n && y < m && same(x, y)) {
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
  budget.remaining -= (n + m) * Math.max(1, found < 0 ? max : found);
  if (found < 0) return undefined;
  // Walk the trace back from (n, m), collecting the single-item steps, then join them into chunks.
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
    steps.push({ x: previousX, y: previousY, kind: down ? 'insert' : 'delete' });
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

/** A changed region of lines at most this long (in characters, both sides) is diffed character by character. */
const CHARACTER_DIFF_LIMIT = 20_000;

/** True when a cut at `offset` would split a CRLF or a surrogate pair of `text`. */
function splits(text: string, offset: number): boolean {
  if (offset <= 0 || offset >= text.length) return false;
  const before = text.charCodeAt(offset - 1);
  const after = text.charCodeAt(offset);
  return (
    (before === 0x0d && after === 0x0a) || (before >= 0xd800 && before <= 0xdbff && after >= 0xdc00 && after <= 0xdfff)
  );
}

/**
 * The edits that turn `before` into `after`, touching only what differs: changed lines, then within
 * a changed region of moderate size the characters that differ (so a character between two changes
 * is not rewritten). Edits never split a CRLF or a surrogate pair, and never touch each other.
 * (A CRLF split by a U+FFFD anchor cannot occur: the anchor is neither CR nor LF.)
 */
export function diffEdits(before: string, after: string): TextEdit[] {
  if (before === after) return [];
  const budget: DiffBudget = { remaining: DIFF_WORK_BUDGET };
  // U+FFFD stands for bytes a file's encoding could not read: kept in place, they keep those bytes. When
  // both texts hold as many, each is taken for its counterpart and the stretches between are diffed apart.
  const oldStretches = before.split('\uFFFD');
  const newStretches = after.split('\uFFFD');
  if (oldStretches.length > 1 && oldStretches.length === newStretches.length) {
    const edits: TextEdit[] = [];
    let oldAt = 0;
    for (const [index, stretch] of oldStretches.entries()) {
      for (const edit of lineAndCharacterEdits(stretch, newStretches[index], budget))
        edits.push({ start: edit.start + oldAt, end: edit.end + oldAt, text: edit.text });
      oldAt += stretch.length + 1;
    }
    return edits;
  }
  return lineAndCharacterEdits(before, after, budget);
}

function lineAndCharacterEdits(before: string, after: string, budget: DiffBudget): TextEdit[] {
  if (before === after) return [];
  const oldLines = splitLines(before);
  const newLines = splitLines(after);
  const oldStarts = lineOffsets(oldLines);
  const newStarts = lineOffsets(newLines);
  const edits: TextEdit[] = [];
  for (const chunk of diffLines(oldLines, newLines, budget)) {
    const oldFrom = oldStarts[chunk.oldStart];
    const oldTo = oldStarts[chunk.oldEnd];
    const newFrom = newStarts[chunk.newStart];
    const newTo = newStarts[chunk.newEnd];
    if (oldTo - oldFrom + newTo - newFrom > CHARACTER_DIFF_LIMIT || budget.remaining <= 0) {
      edits.push(trimmed(before, { start: oldFrom, end: oldTo, text: after.slice(newFrom, newTo) }));
      continue;
    }
    const characters = diffSequences(
      oldTo - oldFrom,
      newTo - newFrom,
      (i, j) => before.charCodeAt(oldFrom + i) === after.charCodeAt(newFrom + j),
      budget,
    );
    for (const piece of characters) {
      let oldStart = oldFrom + piece.oldStart;
      let oldEnd = oldFrom + piece.oldEnd;
      let newStart = newFrom + piece.newStart;
      let newEnd = newFrom + piece.newEnd;
      // What lies outside a piece is the same on both sides: widen both by the same characters.
      while (oldStart > oldFrom && newStart > newFrom && (splits(before, oldStart) || splits(after, newStart))) {
        oldStart--;
        newStart--;
      }
      while (oldEnd < oldTo && newEnd < newTo && (splits(before, oldEnd) || splits(after, newEnd))) {
        oldEnd++;
        newEnd++;
      }
      const last = edits[edits.length - 1];
      if (last && last.end >= oldStart) {
        // Widened into the previous piece: one edit for both.
        const lastNewEnd = newStart - (oldStart - last.end);
        edits[edits.length - 1] = { start: last.start, end: oldEnd, text: last.text + after.slice(lastNewEnd, newEnd) };
      } else edits.push({ start: oldStart, end: oldEnd, text: after.slice(newStart, newEnd) });
    }
  }
  return edits;
}

/** Start offset of each line, and the text's length after the last. */
function lineOffsets(lines: readonly string[]): number[] {
  const starts = [0];
  for (const line of lines) starts.push(starts[starts.length - 1] + line.length);
  return starts;
}
