/**
 * `edit`'s search: where `old_string` occurs in a file's text, as TextEdits replacing it with
 * `new_string`. Missing or not unique is a typed error that says why: the line of each
 * occurrence, or where the closest near-match is (e.g. the same text with other indentation).
 */
import { TextEdit } from '../edits/textEdits';
import { ErrorContext, ModelFacingError } from '../platform/modelFacingError';
import { closestLine } from './applyPatch';
import { clipLineText } from '../platform/wording';

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

export class OldStringNotUnique extends ModelFacingError {
  constructor(
    /** 1-based line where each occurrence starts. */
    readonly lines: readonly number[],
  ) {
    super(`old_string occurs ${lines.length} times`);
    this.name = 'OldStringNotUnique';
  }

  override modelText(context: ErrorContext = {}): string {
    return `Error: old_string occurs ${this.lines.length} times${inFile(context)} (lines ${this.lines.join(', ')}); nothing was written. Include more surrounding lines to make it unique, or set replace_all to change every occurrence.`;
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

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let index = text.indexOf('\n'); index !== -1 && index < offset; index = text.indexOf('\n', index + 1)) line++;
  return line;
}

/**
 * Where `needle` occurs, without overlaps, as [start, end) ranges. Line breaks are layout: an LF in
 * `needle` matches a CRLF of the text and the other way round (a model writes `\n` whatever the file has).
 */
function occurrences(text: string, needle: string): Array<{ start: number; end: number }> {
  const found: Array<{ start: number; end: number }> = [];
  if (!needle.includes('\n')) {
    for (let index = text.indexOf(needle); index !== -1; index = text.indexOf(needle, index + needle.length))
      found.push({ start: index, end: index + needle.length });
    return found;
  }
  const escaped = needle.split(/\r?\n/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const pattern = new RegExp(escaped.join('\\r?\\n'), 'g');
  for (let match = pattern.exec(text); match; match = pattern.exec(text))
    found.push({ start: match.index, end: match.index + match[0].length });
  return found;
}

/** Same text with every run of whitespace collapsed, and a map back to offsets in the original. */
function collapsed(text: string): { text: string; offsets: number[] } {
  let out = '';
  const offsets: number[] = [];
  let inSpace = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (/\s/.test(char)) {
      if (!inSpace) {
        out += ' ';
        offsets.push(index);
      }
      inSpace = true;
    } else {
      out += char;
      offsets.push(index);
      inSpace = false;
    }
  }
  return { text: out, offsets };
}

/** Where `oldString` almost occurs: with other whitespace, else the most similar line. */
export function nearMatch(text: string, oldString: string): OldStringNotFound['closest'] {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  const haystack = collapsed(text);
  const needle = collapsed(oldString.trim()).text;
  if (needle.trim() !== '') {
    const at = haystack.text.indexOf(needle);
    if (at !== -1) {
      const line = lineAt(text, haystack.offsets[at]);
      return {
        line,
        text: lines[line - 1],
        how: 'it matches there if whitespace (indentation or line breaks) is ignored',
      };
    }
  }
  const wantedLines = oldString.split('\n').filter((line) => line.trim() !== '');
  for (const wanted of wantedLines) {
    const index = closestLine(lines, wanted);
    if (index !== undefined) {
      const first = wanted === wantedLines[0] ? 'its first line' : `its line ${JSON.stringify(wanted.trim())}`;
      return { line: index + 1, text: lines[index], how: `the closest line to ${first}` };
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
  if (found.length > 1 && !replaceAll) throw new OldStringNotUnique(found.map(({ start }) => lineAt(text, start)));
  return found.map(({ start, end }) => ({ start, end, text: newString }));
}
