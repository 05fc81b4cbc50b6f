/**
 * Applies the hunks of one `*** Update File:` to a file's text, as other agents' patch tools do:
 * hunks in order, each found after the previous one (after its `@@` header line when given),
 * first exactly, then ignoring trailing whitespace, then ignoring surrounding whitespace and
 * typographic punctuation. A hunk that cannot be found fails the whole file, naming the hunk.
 */
import { ModelFacingError } from '../platform/modelFacingError';
import { Hunk } from './patchParser';
import { clipLineText } from '../platform/wording';
import { closestLine } from './closestLine';
import { lowerBound } from '../edits/sortedSearch';

export type MatchKind = 'exact' | 'trailing whitespace ignored' | 'whitespace ignored';

/**
 * Lines compared while placing the hunks of one file, in all: each hunk is sought from the previous
 * one to the end of the file under up to three normalizers, so a patch of many hunks that match only
 * loosely could scan the file once per hunk. Tens of milliseconds; past it the patch is refused.
 */
export const SEEK_LINE_BUDGET = 5_000_000;

/** Placing the hunks took more than SEEK_LINE_BUDGET line comparisons. */
export class PatchTooCostly extends ModelFacingError {
  constructor(
    readonly path: string,
    readonly hunkIndex: number,
    readonly budget = SEEK_LINE_BUDGET,
  ) {
    super(
      `placing the hunks of ${path} took more than ${budget.toLocaleString('en-US')} line comparisons (stopped at hunk ${hunkIndex + 1}); nothing was written. Send fewer hunks per patch, with context lines copied exactly from the file (the loose matches scan the file again for each hunk).`,
    );
    this.name = 'PatchTooCostly';
  }
}

/** A hunk whose old lines (or `@@` header) are not in the file after the previous hunk. */
export class HunkNotFound extends ModelFacingError {
  constructor(
    readonly path: string,
    readonly hunkIndex: number,
    readonly hunk: Hunk,
    readonly missing: 'header' | 'lines',
    /** 1-based line of the closest candidate and its text, when one looks close; and the line before which the search stopped, if it did. */
    readonly closest?: { readonly line?: number; readonly text?: string; readonly stoppedAt?: number },
  ) {
    super(`hunk ${hunkIndex + 1} of ${path} does not match the file`);
    this.name = 'HunkNotFound';
  }

  override modelText(): string {
    const what =
      this.missing === 'header'
        ? `its @@ line ${JSON.stringify(this.hunk.header)} is not in the file after the previous hunk`
        : 'its context and removed lines are not in the file (after the previous hunk)';
    const { line, text, stoppedAt } = this.closest ?? {};
    const compared = stoppedAt === undefined ? '' : ` (lines before ${stoppedAt.toLocaleString('en-US')} compared)`;
    const near =
      line !== undefined && text !== undefined
        ? ` Closest line ${line}${compared}: ${JSON.stringify(clipLineText(text))}.`
        : compared && ` No close line${compared}.`;
    return `Error: hunk ${this.hunkIndex + 1} of ${this.path} does not apply: ${what}.${near} Nothing was written (no file of the patch). The hunk:\n${hunkText(this.hunk)}`;
  }
}

export interface PatchedText {
  readonly text: string;
  /** How each hunk matched; anything but exact is worth a word in the answer. */
  readonly matches: readonly MatchKind[];
}

const normalizers: readonly [MatchKind, (line: string) => string][] = [
  ['exact', (line) => line],
  ['trailing whitespace ignored', (line) => line.trimEnd()],
  ['whitespace ignored', (line) => normalizePunctuation(line.trim())],
];

function normalizePunctuation(line: string): string {
  return line
    .replace(/[\u2010-\u2015\u2212]/g, '-')
    .replace(/[\u2018\u2019\u201a\u201b]/g, "'")
    .replace(/[\u201c\u201d\u201e\u201f]/g, '"')
    .replace(/[\u00a0\u2002-\u200a\u202f\u205f\u3000]/g, ' ');
}

/**
 * The file's lines under each normalizer, each normalized once (lazily) for all the hunks of a patch,
 * and where each distinct line is (ascending): a hunk whose first line is nowhere after the cursor under
 * a normalizer is not sought under it at all.
 */
interface NormalizedLines {
  lines(kind: MatchKind): readonly string[];
  positions(kind: MatchKind): ReadonlyMap<string, readonly number[]>;
}

function normalizedLinesOf(lines: readonly string[]): NormalizedLines {
  const made = new Map<MatchKind, readonly string[]>();
  const placed = new Map<MatchKind, Map<string, number[]>>();
  const normalizedLines = (kind: MatchKind): readonly string[] => {
    let normalized = made.get(kind);
    if (!normalized) {
      const normalize = normalizers.find(([candidate]) => candidate === kind)?.[1] ?? ((line: string) => line);
      normalized = lines.map(normalize);
      made.set(kind, normalized);
    }
    return normalized;
  };
  return {
    lines: normalizedLines,
    positions: (kind) => {
      let positions = placed.get(kind);
      if (!positions) {
        positions = new Map();
        normalizedLines(kind).forEach((line, index) => {
          const at = (positions as Map<string, number[]>).get(line);
          if (at) at.push(index);
          else (positions as Map<string, number[]>).set(line, [index]);
        });
        placed.set(kind, positions);
      }
      return positions;
    },
  };
}

/** The first of the ascending `positions` at or after `from`, or undefined. */
function firstFrom(positions: readonly number[] | undefined, from: number): number | undefined {
  return positions?.[lowerBound(positions, from)];
}

/**
 * Index of the first run of `pattern` in `lines` at or after `from`, trying each normalizer in turn;
 * each search is Knuth–Morris–Pratt over lines, linear in the lines searched and the pattern.
 */
function seek(
  lines: NormalizedLines,
  count: number,
  pattern: readonly string[],
  from: number,
  atEnd: boolean,
  budget: SeekBudget,
): { index: number; kind: MatchKind } | undefined {
  for (const [kind, normalize] of normalizers) {
    const hay = lines.lines(kind);
    const wanted = pattern.map(normalize);
    if (atEnd) {
      const start = count - pattern.length;
      if (start >= from && wanted.every((line, offset) => hay[start + offset] === line)) return { index: start, kind };
    }
    // The search starts where the hunk's first line first is: none after the cursor, no search.
    const first = wanted.length === 0 ? from : firstFrom(lines.positions(kind).get(wanted[0]), from);
    if (first === undefined) continue;
    const index = firstRun(hay, wanted, first, budget);
    if (index !== -1) return { index, kind };
  }
  return undefined;
}

/** Line comparisons left for placing the hunks of one file, and the hunk being placed. */
interface SeekBudget {
  lines: number;
  readonly path: string;
  hunkIndex: number;
  readonly total: number;
}

/** The first index at or after `from` where `wanted` runs in `hay` (Knuth–Morris–Pratt), or -1. */
function firstRun(hay: readonly string[], wanted: readonly string[], from: number, budget: SeekBudget): number {
  if (wanted.length === 0) return from <= hay.length ? from : -1;
  budget.lines -= wanted.length;
  const fallback = new Int32Array(wanted.length);
  for (let index = 1, matched = 0; index < wanted.length; index++) {
    while (matched > 0 && wanted[index] !== wanted[matched]) matched = fallback[matched - 1];
    if (wanted[index] === wanted[matched]) matched++;
    fallback[index] = matched;
  }
  // Each line is compared at most twice on average (the fallbacks never outnumber the advances).
  for (let index = from, matched = 0; index < hay.length; index++) {
    if (--budget.lines < 0) throw new PatchTooCostly(budget.path, budget.hunkIndex, budget.total);
    while (matched > 0 && hay[index] !== wanted[matched]) matched = fallback[matched - 1];
    if (hay[index] === wanted[matched]) matched++;
    if (matched === wanted.length) return index - wanted.length + 1;
  }
  return -1;
}

/**
 * Splits into lines, each with its own line break (`\r\n`, `\n`, or '' for a last line without
 * one), and the break most lines use, which added lines take.
 */
function splitLines(text: string): { lines: string[]; breaks: string[]; dominant: string } {
  const lines: string[] = [];
  const breaks: string[] = [];
  let crlf = 0;
  let start = 0;
  while (start < text.length) {
    const end = text.indexOf('\n', start);
    if (end === -1) {
      lines.push(text.slice(start));
      breaks.push('');
      break;
    }
    const isCrlf = end > start && text[end - 1] === '\r';
    if (isCrlf) crlf++;
    lines.push(text.slice(start, isCrlf ? end - 1 : end));
    breaks.push(isCrlf ? '\r\n' : '\n');
    start = end + 1;
  }
  return { lines, breaks, dominant: crlf * 2 > breaks.filter(Boolean).length ? '\r\n' : '\n' };
}

/** The hint of a hunk not found: the closest line to `wanted` from `from`, and where the search stopped. */
function nearLine(lines: readonly string[], wanted: string, from: number): HunkNotFound['closest'] {
  const { index, stoppedAt } = closestLine(lines, wanted, from);
  if (index === undefined && stoppedAt === undefined) return undefined;
  return { ...(index === undefined ? {} : { line: index + 1, text: lines[index] }), stoppedAt };
}

/** `lineBudget`: the line comparisons placing the hunks may take (tests lower it). */
export function applyHunks(
  path: string,
  original: string,
  hunks: readonly Hunk[],
  lineBudget = SEEK_LINE_BUDGET,
): PatchedText {
  const { lines, breaks, dominant } = splitLines(original);
  const normalized = normalizedLinesOf(lines);
  const replacements: { start: number; removed: number; added: NewLine[] }[] = [];
  const matches: MatchKind[] = [];
  let cursor = 0;
  const budget: SeekBudget = { lines: lineBudget, path, hunkIndex: 0, total: lineBudget };
  hunks.forEach((hunk, hunkIndex) => {
    budget.hunkIndex = hunkIndex;
    if (hunk.header !== undefined) {
      const found = seek(normalized, lines.length, [hunk.header], cursor, false, budget);
      if (!found) {
        throw new HunkNotFound(path, hunkIndex, hunk, 'header', nearLine(lines, hunk.header, cursor));
      }
      cursor = found.index + 1;
    }
    const old = hunk.lines.filter((line) => line.kind !== 'add').map((line) => line.text);
    const added = hunk.lines.filter((line) => line.kind !== 'remove').map((line): NewLine => ({ text: line.text }));
    if (old.length === 0) {
      // Pure insertion: after the header when there is one, else at the end of the file.
      const at = hunk.header !== undefined ? cursor : lines.length;
      replacements.push({ start: at, removed: 0, added });
      matches.push('exact');
      cursor = at;
      return;
    }
    let found = seek(normalized, lines.length, old, cursor, hunk.endOfFile, budget);
    // A trailing empty context line often stands for the final line break, which is not a line here.
    if (!found && old.length > 1 && old[old.length - 1] === '') {
      const trimmed = old.slice(0, -1);
      found = seek(normalized, lines.length, trimmed, cursor, hunk.endOfFile, budget);
      if (found && found.index + trimmed.length === lines.length) {
        const kept = keepFileContext(hunk, lines, found.index);
        const lastAdded = kept[kept.length - 1]?.text === '' ? kept.slice(0, -1) : kept;
        replacements.push({ start: found.index, removed: trimmed.length, added: lastAdded });
        matches.push(found.kind);
        cursor = found.index + trimmed.length;
        return;
      }
      found = undefined;
    }
    if (!found) {
      const firstChanged = hunk.lines.find((line) => line.kind === 'remove')?.text ?? old[0];
      throw new HunkNotFound(path, hunkIndex, hunk, 'lines', nearLine(lines, firstChanged, 0));
    }
    replacements.push({ start: found.index, removed: old.length, added: keepFileContext(hunk, lines, found.index) });
    matches.push(found.kind);
    cursor = found.index + old.length;
  });
  // The replacements are in order and apart (each hunk is sought after the previous): one pass builds the result.
  const result: NewLine[] = [];
  let next = 0;
  for (const replacement of replacements) {
    for (; next < replacement.start; next++) result.push({ text: lines[next], from: next });
    result.push(...replacement.added);
    next = Math.max(next, replacement.start + replacement.removed);
  }
  for (; next < lines.length; next++) result.push({ text: lines[next], from: next });
  // Each line keeps its own break; a new one takes the file's usual break; the file keeps (or lacks) its final one.
  const finalBreak = original === '' || breaks[breaks.length - 1] !== '';
  const text = result
    .map((line, index) => {
      const own = line.from === undefined ? '' : breaks[line.from];
      if (index < result.length - 1) return line.text + (own || dominant);
      return line.text + (finalBreak ? own || dominant : '');
    })
    .join('');
  return { text, matches };
}

/**
 * A line of the patched file: its text and the line of the file whose line break it takes (a kept
 * line its own, an added line the one of the line it replaces); none: the file's usual break.
 */
interface NewLine {
  readonly text: string;
  readonly from?: number;
}

/**
 * The new lines of a hunk matched at `start`: context lines as the file has them (a loose match
 * keeps the file's whitespace), added lines paired in order with the lines they replace.
 */
function keepFileContext(hunk: Hunk, lines: readonly string[], start: number): NewLine[] {
  const result: NewLine[] = [];
  const replaced: number[] = [];
  let paired = 0;
  let old = start;
  for (const line of hunk.lines) {
    if (line.kind === 'context') {
      replaced.length = 0;
      paired = 0;
      result.push(old < lines.length ? { text: lines[old], from: old } : { text: line.text });
      old++;
    } else if (line.kind === 'remove') replaced.push(old++);
    else result.push({ text: line.text, from: paired < replaced.length ? replaced[paired++] : undefined });
  }
  return result;
}

/** The hunk as the model wrote it, for an error message. */
export function hunkText(hunk: Hunk): string {
  const marks = { context: ' ', remove: '-', add: '+' } as const;
  return [
    `@@${hunk.header ? ` ${hunk.header}` : ''}`,
    ...hunk.lines.map((line) => `${marks[line.kind]}${line.text}`),
  ].join('\n');
}
