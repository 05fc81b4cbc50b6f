/**
 * Applies the hunks of one `*** Update File:` to a file's text, as other agents' patch tools do:
 * hunks in order, each found after the previous one (after its `@@` header line when given),
 * first exactly, then ignoring trailing whitespace, then ignoring surrounding whitespace and
 * typographic punctuation. A hunk that cannot be found fails the whole file, naming the hunk.
 */
import { ModelFacingError } from '../platform/modelFacingError';
import { Hunk } from './patchParser';
import { clipLineText } from '../platform/wording';

export type MatchKind = 'exact' | 'trailing whitespace ignored' | 'whitespace ignored';

/** A hunk whose old lines (or `@@` header) are not in the file after the previous hunk. */
export class HunkNotFound extends ModelFacingError {
  constructor(
    readonly path: string,
    readonly hunkIndex: number,
    readonly hunk: Hunk,
    readonly missing: 'header' | 'lines',
    /** 1-based line of the closest candidate and its text, when one looks close. */
    readonly closest?: { readonly line: number; readonly text: string },
  ) {
    super(`hunk ${hunkIndex + 1} of ${path} does not match the file`);
    this.name = 'HunkNotFound';
  }

  override modelText(): string {
    const what =
      this.missing === 'header'
        ? `its @@ line ${JSON.stringify(this.hunk.header)} is not in the file after the previous hunk`
        : 'its context and removed lines are not in the file (after the previous hunk)';
    const near = this.closest
      ? ` Closest line ${this.closest.line}: ${JSON.stringify(clipLineText(this.closest.text))}.`
      : '';
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

/** Index of the first run of `pattern` in `lines` at or after `from`, trying each normalizer in turn. */
function seek(
  lines: readonly string[],
  pattern: readonly string[],
  from: number,
  atEnd: boolean,
): { index: number; kind: MatchKind } | undefined {
  for (const [kind, normalize] of normalizers) {
    const wanted = pattern.map(normalize);
    const fits = (start: number) => wanted.every((line, offset) => normalize(lines[start + offset]) === line);
    if (atEnd) {
      const start = lines.length - pattern.length;
      if (start >= from && fits(start)) return { index: start, kind };
    }
    for (let start = from; start + pattern.length <= lines.length; start++) {
      if (fits(start)) return { index: start, kind };
    }
  }
  return undefined;
}

function similarity(a: string, b: string): number {
  const grams = (text: string) => {
    const compact = text.replace(/\s+/g, ' ').trim();
    const result = new Map<string, number>();
    for (let index = 0; index < compact.length - 1; index++) {
      const gram = compact.slice(index, index + 2);
      result.set(gram, (result.get(gram) ?? 0) + 1);
    }
    return result;
  };
  const left = grams(a);
  const right = grams(b);
  let shared = 0;
  let total = 0;
  for (const count of left.values()) total += count;
  for (const count of right.values()) total += count;
  for (const [gram, count] of left) shared += Math.min(count, right.get(gram) ?? 0);
  return total === 0 ? (a.trim() === b.trim() ? 1 : 0) : (2 * shared) / total;
}

/** The 0-based index of the line most like `wanted` (similarity ≥ 0.5), if any. */
export function closestLine(lines: readonly string[], wanted: string, from = 0): number | undefined {
  let best: number | undefined;
  let bestScore = 0.5;
  for (let index = from; index < lines.length; index++) {
    const score = similarity(lines[index], wanted);
    if (score > bestScore) {
      bestScore = score;
      best = index;
    }
  }
  return best;
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

export function applyHunks(path: string, original: string, hunks: readonly Hunk[]): PatchedText {
  const { lines, breaks, dominant } = splitLines(original);
  const replacements: { start: number; removed: number; added: NewLine[] }[] = [];
  const matches: MatchKind[] = [];
  let cursor = 0;
  hunks.forEach((hunk, hunkIndex) => {
    if (hunk.header !== undefined) {
      const found = seek(lines, [hunk.header], cursor, false);
      if (!found) {
        const near = closestLine(lines, hunk.header, cursor);
        throw new HunkNotFound(
          path,
          hunkIndex,
          hunk,
          'header',
          near === undefined ? undefined : { line: near + 1, text: lines[near] },
        );
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
    let found = seek(lines, old, cursor, hunk.endOfFile);
    // A trailing empty context line often stands for the final line break, which is not a line here.
    if (!found && old.length > 1 && old[old.length - 1] === '') {
      const trimmed = old.slice(0, -1);
      found = seek(lines, trimmed, cursor, hunk.endOfFile);
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
      const near = closestLine(lines, firstChanged, 0);
      throw new HunkNotFound(
        path,
        hunkIndex,
        hunk,
        'lines',
        near === undefined ? undefined : { line: near + 1, text: lines[near] },
      );
    }
    replacements.push({ start: found.index, removed: old.length, added: keepFileContext(hunk, lines, found.index) });
    matches.push(found.kind);
    cursor = found.index + old.length;
  });
  const result: NewLine[] = lines.map((text, index) => ({ text, from: index }));
  for (const replacement of [...replacements].reverse()) {
    result.splice(replacement.start, replacement.removed, ...replacement.added);
  }
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
  let old = start;
  for (const line of hunk.lines) {
    if (line.kind === 'context') {
      replaced.length = 0;
      result.push(old < lines.length ? { text: lines[old], from: old } : { text: line.text });
      old++;
    } else if (line.kind === 'remove') replaced.push(old++);
    else result.push({ text: line.text, from: replaced.shift() });
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
