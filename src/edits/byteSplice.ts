/**
 * A change applied to a file's bytes: the edits, planned on a text, are located in the bytes and
 * only their ranges are replaced by the new text in the file's own encoding. Every other byte —
 * the byte order mark, each line's own break, bytes the encoding cannot read — stays as it was.
 * The text planned on must be the file's text now (or the editor's view of it, which differs only
 * in line breaks); otherwise nothing is written. Linear in the file's size and the edits' count.
 */
import { ModelFacingError } from '../platform/modelFacingError';
import { breakAt, lineOfOffset, lineStarts } from './lineStarts';
import { lowerBound } from './sortedSearch';
import { bomOf, TextCodec } from './textCodecs';
import { checkedEdits, TextEdit, trimmed } from './textEdits';

/** The file's text is not the text the change was planned on (someone changed it since). */
export class NotPlannedText extends ModelFacingError {
  constructor(readonly path: string) {
    super(`${path} changed since this change was planned; nothing was written. Read it again and redo the change.`);
    this.name = 'NotPlannedText';
  }
}

/** The change would replace bytes the file's encoding cannot read back: they would be lost. */
export class LostBytes extends ModelFacingError {
  constructor(
    readonly path: string,
    readonly line: number,
    readonly encoding: string,
  ) {
    super(
      `${path}: the change at line ${line} replaces bytes that are not valid ${encoding} (shown as \uFFFD), which ` +
        `would be lost; nothing was written. Leave those characters out of the change, or ask the user to reopen ` +
        `the file with its real encoding.`,
    );
    this.name = 'LostBytes';
  }
}

/** The new text holds a character the file's encoding cannot hold. */
export class UnwritableText extends ModelFacingError {
  constructor(
    readonly path: string,
    readonly character: string,
    readonly encoding: string,
  ) {
    const code = character.codePointAt(0) ?? 0;
    super(
      `${path} is ${encoding}, which cannot hold ${JSON.stringify(character)} (U+${code.toString(16).toUpperCase().padStart(4, '0')}); ` +
        `nothing was written. Write the text without it (an escape the language allows, say).`,
    );
    this.name = 'UnwritableText';
  }
}

export interface Spliced {
  readonly bytes: Uint8Array;
  /** The file's text after the change, as read from its bytes (its own line breaks). */
  readonly text: string;
  /** The edits as applied to the file's text (offsets of the text read from the bytes). */
  readonly edits: readonly TextEdit[];
}

/**
 * Maps ascending offsets of `view` onto `text` when the two differ only in which line break ends
 * each line (the editor's model gives every line one break); undefined when they differ otherwise.
 * An offset at a line's break maps to where that line's break starts in `text`.
 */
export function mapAcrossLineBreaks(view: string, text: string, offsets: readonly number[]): number[] | undefined {
  const mapped = new Array<number>(offsets.length);
  let next = 0;
  let v = 0;
  let t = 0;
  const record = (): void => {
    while (next < offsets.length && offsets[next] <= v) mapped[next++] = t;
  };
  while (v < view.length || t < text.length) {
    record();
    const viewBreak = breakAt(view, v);
    const textBreak = breakAt(text, t);
    if (viewBreak > 0 || textBreak > 0) {
      if (viewBreak === 0 || textBreak === 0) return undefined;
      v += viewBreak;
      t += textBreak;
      continue;
    }
    if (v >= view.length || t >= text.length || view.charCodeAt(v) !== text.charCodeAt(t)) return undefined;
    v++;
    t++;
  }
  record();
  return next === offsets.length ? mapped : undefined;
}

/** True when two texts hold the same lines (line breaks aside). */
export function sameLines(a: string, b: string): boolean {
  return a === b || mapAcrossLineBreaks(a, b, []) !== undefined;
}

/**
 * `edits` of `planned`, as edits of `text` (the file's text now), each trimmed to what it changes
 * (first on `planned`, so what an edit keeps of a line break is the file's own), sorted; those that
 * change nothing left out. `text` must be `planned` or hold the same lines: else NotPlannedText.
 */
export function editsOnText(path: string, planned: string, text: string, edits: readonly TextEdit[]): TextEdit[] {
  const sorted = checkedEdits(planned, edits)
    .map((edit) => trimmed(planned, edit))
    .filter((edit) => edit.start !== edit.end || edit.text !== '');
  let onText: TextEdit[] = sorted;
  if (text !== planned) {
    const ends = mapAcrossLineBreaks(
      planned,
      text,
      sorted.flatMap((edit) => [edit.start, edit.end]),
    );
    if (!ends) throw new NotPlannedText(path);
    onText = sorted.map((edit, index) => ({ start: ends[2 * index], end: ends[2 * index + 1], text: edit.text }));
  }
  return onText.map((edit) => trimmed(text, edit)).filter((edit) => edit.start !== edit.end || edit.text !== '');
}

/** The text `edits` (sorted, as editsOnText gives them; insertions at one point in order) make of `text`. */
export function editedText(text: string, edits: readonly TextEdit[]): string {
  const parts: string[] = [];
  let cursor = 0;
  for (const edit of edits) {
    parts.push(text.slice(cursor, edit.start), edit.text);
    cursor = edit.end;
  }
  parts.push(text.slice(cursor));
  return parts.join('');
}

/**
 * Applies `edits` (offsets into `planned`) to `bytes`, a file in `codec`'s encoding. `planned` must be
 * the file's text (or the editor's view of it: the same lines, other line breaks): else NotPlannedText.
 * An edit that would replace lossy bytes is refused (LostBytes), as is new text the encoding cannot
 * hold (UnwritableText). Each edit is trimmed to what it changes (so lossy bytes beside it stay);
 * edits that change nothing are left out.
 */
export function spliceEdits(
  path: string,
  bytes: Uint8Array,
  codec: TextCodec,
  planned: string,
  edits: readonly TextEdit[],
): Spliced {
  const bom = bomOf(bytes, codec);
  const body = bytes.subarray(bom);
  const text = codec.decode(body);
  const changed = editsOnText(path, planned, text, edits);
  if (changed.length === 0) return { bytes, text, edits: [] };
  // (The edits' sort is checked by editsOnText; the lossy units and positions below are of `text`.)
  const { positions, lossy } = codec.scan(
    body,
    changed.flatMap((edit) => [edit.start, edit.end]),
  );
  let starts: number[] | undefined;
  const line = (offset: number): number => lineOfOffset((starts ??= lineStarts(text)), offset);
  const parts: Uint8Array[] = [bytes.subarray(0, bom)];
  let cursor = 0;
  changed.forEach((edit, index) => {
    const firstLossy = lossy[lowerBound(lossy, edit.start)];
    if (firstLossy !== undefined && firstLossy < edit.end) throw new LostBytes(path, line(firstLossy), codec.encoding);
    const encoded = codec.encode(edit.text);
    if ('unwritable' in encoded) throw new UnwritableText(path, encoded.unwritable, codec.encoding);
    parts.push(body.subarray(cursor, positions[2 * index]), encoded.bytes);
    cursor = positions[2 * index + 1];
  });
  parts.push(body.subarray(cursor));
  const result = Buffer.concat(parts);
  const after = editedText(text, changed);
  // The bytes must read as the text planned: next to bytes the encoding cannot read, a splice can join
  // them into a character (a UTF-8 lead byte meeting a continuation byte once the text between goes, an
  // odd byte of UTF-16 shifting what follows). Then nothing is written.
  const reads = codec.decode(result.subarray(bom));
  if (reads !== after)
    throw new LostBytes(path, lineOfOffset(lineStarts(after), firstDifference(reads, after)), codec.encoding);
  assertPlannedLines(path, planned, text, edits, after);
  return { bytes: result, text: after, edits: changed };
}

/** The first offset where two texts differ (the shorter one's length when one begins the other). */
function firstDifference(a: string, b: string): number {
  let at = 0;
  while (at < a.length && at < b.length && a.charCodeAt(at) === b.charCodeAt(at)) at++;
  return at;
}

/**
 * A change planned on the editor's view (other line breaks) must leave the same lines as it would on
 * that view: a line break it inserts next to a lone CR of the file would join it into one CRLF, and a
 * line would be lost. Then nothing is written.
 */
export function assertPlannedLines(
  path: string,
  planned: string,
  text: string,
  edits: readonly TextEdit[],
  after: string,
): void {
  if (planned === text) return;
  const onView = editedText(
    planned,
    checkedEdits(planned, edits).map((edit) => trimmed(planned, edit)),
  );
  if (!sameLines(after, onView)) throw new LineBreaksCannotCarry(path);
}

/** A change planned on the editor's view of a file whose line breaks cannot carry it exactly. */
export class LineBreaksCannotCarry extends ModelFacingError {
  constructor(readonly path: string) {
    super(
      `${path}: the change was planned on the editor's view of the file, and the file's own line breaks (a lone CR) ` +
        `would join a line it adds; nothing was written. Make the change with edit or patch, which plan on the file's own text.`,
    );
    this.name = 'LineBreaksCannotCarry';
  }
}
