/**
 * `edit`'s search: where `old_string` occurs in a file's text, as TextEdits replacing it with
 * `new_string`. Missing or not unique is a typed error that says why: the line of each
 * occurrence, or where the closest near-match is (e.g. the same text with other indentation).
 */
import { TextEdit } from '../edits/textEdits';
import { ErrorContext, ModelFacingError } from '../platform/modelFacingError';
import { closestLines } from './closestLine';
import { clipLineText } from '../platform/wording';
import { lineOfOffset, linesOfOffsets, newlineStarts } from '../edits/lineStarts';
import { indexOfText, TextSearch } from '../edits/textSearch';

/** ` in <file>` when the tool runner knows the file argument. */
function inFile(context: ErrorContext): string {
  return context.file ? ` in ${context.file}` : '';
}

export class OldStringNotFound extends ModelFacingError {
  constructor(
    /** 1-based line and text of the closest near-match, and how it differs, when one is close. */
    readonly closest?: { readonly line: number; readonly text: string; readonly how: string },
  ) {
    super('old_string was not found in the file');
    this.name = 'OldStringNotFound';
  }

  override modelText(context: ErrorContext = {}): string {
    const near = this.closest
      ? ` Closest: line ${this.closest.line}: ${JSON.stringify(clipLineText(this.closest.text))} (${this.closest.how}).`
      : ' Nothing similar is in the file.';
    return `Error: old_string was not found${inFile(context)}; nothing was written.${near} Read the file and copy old_string exactly, whitespace included.`;
  }
}

/** Line numbers an answer lists; the rest are counted. */
export const LISTED_LINES = 20;

/** `1, 2, 3` — at most LISTED_LINES of them, then how many more. */
export function lineList(lines: readonly number[]): string {
  const listed = lines.slice(0, LISTED_LINES).join(', ');
  return lines.length > LISTED_LINES
    ? `${listed} and ${(lines.length - LISTED_LINES).toLocaleString('en-US')} more`
    : listed;
}

export class OldStringNotUnique extends ModelFacingError {
  constructor(
    /** 1-based line where each occurrence starts. */
    readonly lines: readonly number[],
  ) {
    super(`old_string occurs ${lines.length.toLocaleString('en-US')} times`);
    this.name = 'OldStringNotUnique';
  }

  override modelText(context: ErrorContext = {}): string {
    return `Error: old_string occurs ${this.lines.length.toLocaleString('en-US')} times${inFile(context)} (lines ${lineList(this.lines)}); nothing was written. Include more surrounding lines to make it unique, or set replace_all to change every occurrence.`;
  }
}

export class NothingToEdit extends ModelFacingError {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'NothingToEdit';
  }

  override modelText(): string {
    return `Error: ${this.reason}; nothing was written.`;
  }
}

/**
 * Where `needle` occurs, without overlaps, as [start, end) ranges. Line breaks are layout: an LF in
 * `needle` matches a CRLF of the text and the other way round (a model writes `\n` whatever the file
 * has). Both are searched with CRLF read as LF, and each match is mapped back by its line and
 * column (only line breaks differ): one pass over the text, whatever the needle.
 */
function occurrences(text: string, needle: string): Array<{ start: number; end: number }> {
  const found: Array<{ start: number; end: number }> = [];
  const plain = needle.replace(/\r\n/g, '\n');
  if (!plain.includes('\n') || !text.includes('\r\n')) {
    const wanted = new TextSearch(text.includes('\r\n') ? needle : plain);
    const length = wanted.needle.length;
    for (let index = wanted.indexIn(text); index !== -1; index = wanted.indexIn(text, index + length))
      found.push({ start: index, end: index + length });
    return found;
  }
  const flat = text.replace(/\r\n/g, '\n');
  const flatStarts = newlineStarts(flat);
  const textStarts = newlineStarts(text);
  const back = (offset: number): number => {
    const line = lineIndex(flatStarts, offset);
    return textStarts[line] + (offset - flatStarts[line]);
  };
  const wanted = new TextSearch(plain);
  for (let index = wanted.indexIn(flat); index !== -1; index = wanted.indexIn(flat, index + plain.length))
    found.push({ start: back(index), end: back(index + plain.length) });
  return found;
}

/** The 0-based index of the line (by its start offsets) holding `offset`. */
function lineIndex(starts: readonly number[], offset: number): number {
  return lineOfOffset(starts, offset) - 1;
}

/** Same text with every run of whitespace collapsed to one space, and a map back to offsets in the original. */
function collapsed(text: string): { text: string; offsets: Int32Array } {
  const pieces: string[] = [];
  const offsets = new Int32Array(text.length);
  let length = 0;
  for (let index = 0; index < text.length;) {
    const start = index;
    if (isWhitespace(text.charCodeAt(index))) {
      while (index < text.length && isWhitespace(text.charCodeAt(index))) index++;
      pieces.push(' ');
      offsets[length++] = start;
    } else {
      while (index < text.length && !isWhitespace(text.charCodeAt(index))) offsets[length++] = index++;
      pieces.push(text.slice(start, index));
    }
  }
  return { text: pieces.join(''), offsets: offsets.subarray(0, length) };
}

/** What `\s` matches. */
function isWhitespace(code: number): boolean {
  return (
    (code >= 9 && code <= 13) ||
    code === 32 ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/** Lines of `old_string` tried for the closest line of the file (compared in one pass). */
const NEAR_LINES_TRIED = 3;

/** Where `oldString` almost occurs: with other whitespace, else the line most like one of its first lines. */
export function nearMatch(text: string, oldString: string): OldStringNotFound['closest'] {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  const haystack = collapsed(text);
  const needle = collapsed(oldString.trim()).text;
  if (needle.trim() !== '') {
    const at = indexOfText(haystack.text, needle);
    if (at !== -1) {
      const line = linesOfOffsets(text, [haystack.offsets[at]])[0];
      return {
        line,
        text: lines[line - 1],
        how: 'it matches there if whitespace (indentation or line breaks) is ignored',
      };
    }
  }
  const wantedLines = oldString
    .split('\n')
    .filter((line) => line.trim() !== '')
    .slice(0, NEAR_LINES_TRIED);
  const { found, stoppedAt } = closestLines(lines, wantedLines);
  const compared =
    stoppedAt === undefined ? '' : `, of the lines before ${stoppedAt.toLocaleString('en-US')} (the rest not compared)`;
  for (const [at, wanted] of wantedLines.entries()) {
    const index = found[at];
    if (index !== undefined) {
      const first = at === 0 ? 'its first line' : `its line ${JSON.stringify(wanted.trim())}`;
      return { line: index + 1, text: lines[index], how: `the closest line to ${first}${compared}` };
    }
  }
  return undefined;
}

/** The edits that replace `oldString` (every occurrence with `replaceAll`, else exactly one) by `newString`. */
export function editsFor(text: string, oldString: string, newString: string, replaceAll: boolean): TextEdit[] {
  if (oldString === '') throw new NothingToEdit('old_string is empty; to create or overwrite a whole file use write');
  if (oldString === newString)
    throw new NothingToEdit('old_string and new_string are identical, so nothing would change');
  const found = occurrences(text, oldString);
  if (found.length === 0) throw new OldStringNotFound(nearMatch(text, oldString));
  if (found.length > 1 && !replaceAll)
    throw new OldStringNotUnique(
      linesOfOffsets(
        text,
        found.map(({ start }) => start),
      ),
    );
  return found.map(({ start, end }) => ({ start, end, text: newString }));
}
