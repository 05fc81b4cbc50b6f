/**
 * Edits are data: `{ start, end, text }` in UTF-16 offsets into one file's text (what
 * `TextDocument.offsetAt` and web-tree-sitter use). `applyEdits` computes the text an edit
 * list produces, refusing overlapping, out-of-range or ambiguous edits with typed errors.
 */

import { ModelFacingError } from '../platform/modelFacingError';

export interface TextEdit {
  /** UTF-16 offset of the first replaced code unit. */
  readonly start: number;
  /** UTF-16 offset just past the last replaced code unit (`start` for an insertion). */
  readonly end: number;
  /** The replacement. */
  readonly text: string;
}

/** An edit that cannot be applied to the text it was made for (negative, reversed, past the end, or splitting a character). */
export class InvalidEdit extends ModelFacingError {
  constructor(
    readonly edit: TextEdit,
    readonly reason: string,
  ) {
    super(`Edit ${describeRange(edit)} is invalid: ${reason}.`);
    this.name = 'InvalidEdit';
  }

  override modelText(): string {
    return couldNotStage(this.message);
  }
}

/** Two edits of one file touch the same text (or insert at the same offset, whose order would be a guess). */
export class OverlappingEdits extends ModelFacingError {
  constructor(
    readonly first: TextEdit,
    readonly second: TextEdit,
  ) {
    super(`Edits ${describeRange(first)} and ${describeRange(second)} overlap.`);
    this.name = 'OverlappingEdits';
  }

  override modelText(): string {
    return couldNotStage(this.message);
  }
}

/** The model meets these errors when it stages a change (the staging store checks its edits first). */
function couldNotStage(message: string): string {
  return `Error: could not stage the change: ${message.replace(/\.$/, '')}. Nothing was staged or written.`;
}

export function describeRange(edit: TextEdit): string {
  return edit.start === edit.end ? `at ${edit.start}` : `${edit.start}–${edit.end}`;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** True when `offset` falls inside a surrogate pair or a CRLF line break, which no editor position can name. */
function splitsUnit(text: string, offset: number): string | undefined {
  if (offset <= 0 || offset >= text.length) return undefined;
  const before = text.charCodeAt(offset - 1);
  const after = text.charCodeAt(offset);
  if (isHighSurrogate(before) && isLowSurrogate(after)) return 'it splits a surrogate pair';
  if (before === 0x0d && after === 0x0a) return 'it splits a CRLF line break';
  return undefined;
}

/**
 * The edits sorted by position, after checking each one against `text` and against each
 * other. Touching edits are fine (one ends where the next starts); an insertion at the start
 * of a replacement comes first.
 */
export function checkedEdits(text: string, edits: readonly TextEdit[]): TextEdit[] {
  for (const edit of edits) {
    if (!Number.isInteger(edit.start) || !Number.isInteger(edit.end))
      throw new InvalidEdit(edit, 'offsets must be whole numbers');
    if (edit.start < 0) throw new InvalidEdit(edit, 'it starts before the text');
    if (edit.end < edit.start) throw new InvalidEdit(edit, 'it ends before it starts');
    if (edit.end > text.length)
      throw new InvalidEdit(edit, `it ends past the end of the text (${text.length} UTF-16 units)`);
    if (typeof edit.text !== 'string') throw new InvalidEdit(edit, 'its replacement is not a string');
    const split = splitsUnit(text, edit.start) ?? splitsUnit(text, edit.end);
    if (split) throw new InvalidEdit(edit, split);
  }
  const sorted = [...edits].sort((a, b) => a.start - b.start || a.end - b.end);
  for (let index = 1; index < sorted.length; index++) {
    const previous = sorted[index - 1];
    const current = sorted[index];
    const bothInsertAtSamePoint =
      previous.start === previous.end && current.start === current.end && previous.start === current.start;
    if (current.start < previous.end || bothInsertAtSamePoint) throw new OverlappingEdits(previous, current);
  }
  return sorted;
}

/** The text `edits` make of `text`. Offsets all refer to the original text. */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  const parts: string[] = [];
  let cursor = 0;
  for (const edit of checkedEdits(text, edits)) {
    parts.push(text.slice(cursor, edit.start), edit.text);
    cursor = edit.end;
  }
  parts.push(text.slice(cursor));
  return parts.join('');
}

/**
 * The editor keeps one line-break style per document and converts the line breaks of inserted
 * text to it; the same is done here so the proposed text is exactly what accepting writes.
 * A text without line breaks counts as LF (the editor's default on Linux and macOS).
 */
export function withLineBreaksOf(original: string, edits: readonly TextEdit[]): TextEdit[] {
  const crlf = original.includes('\r\n');
  return edits.map((edit) => {
    const normalized = edit.text.replace(/\r\n|\r|\n/g, crlf ? '\r\n' : '\n');
    return normalized === edit.text ? edit : { ...edit, text: normalized };
  });
}

/**
 * True when the text ends lines both with CRLF and with a lone LF. The editor's model holds one
 * line break per document and normalizes such a file when it loads it (measured in VS Code 1.139:
 * an edit through a WorkspaceEdit then rewrites every line ending), so such a file is written as bytes.
 */
export function hasMixedLineBreaks(text: string): boolean {
  const crlf = text.indexOf('\r\n');
  if (crlf === -1) return false;
  return /(^|[^\r])\n/.test(text);
}

/** True when a cut between `text[offset - 1]` and `text[offset]` would split a CRLF or a surrogate pair. */
function splitsAt(text: string, offset: number): boolean {
  return splitsUnit(text, offset) !== undefined;
}

/**
 * The edit narrowed to what it changes: the characters its replacement shares with the text it
 * replaces, at either end, are left out (never splitting a CRLF or a surrogate pair). An edit that
 * changes nothing becomes an empty insertion.
 */
export function trimmed(text: string, edit: TextEdit): TextEdit {
  let head = 0;
  const limit = Math.min(edit.end - edit.start, edit.text.length);
  while (head < limit && text.charCodeAt(edit.start + head) === edit.text.charCodeAt(head)) head++;
  while (head > 0 && (splitsAt(text, edit.start + head) || splitsAt(edit.text, head))) head--;
  let tail = 0;
  while (
    tail < limit - head &&
    text.charCodeAt(edit.end - 1 - tail) === edit.text.charCodeAt(edit.text.length - 1 - tail)
  )
    tail++;
  while (tail > 0 && (splitsAt(text, edit.end - tail) || splitsAt(edit.text, edit.text.length - tail))) tail--;
  if (head === 0 && tail === 0) return edit;
  return { start: edit.start + head, end: edit.end - tail, text: edit.text.slice(head, edit.text.length - tail) };
}

/** One edit from the common prefix and suffix of two texts: small undo steps, markers and folds survive. */
export function minimalEdit(before: string, after: string): TextEdit {
  return trimmed(before, { start: 0, end: before.length, text: after });
}
