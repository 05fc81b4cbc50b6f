/**
 * Parses the patch format agents already write (`*** Begin Patch` … `*** End Patch`, with
 * `*** Add File:`, `*** Delete File:`, `*** Update File:` + optional `*** Move to:`, `@@` hunks
 * and `*** End of File`) into data. Syntax only: nothing is read or written here.
 */

import { ModelFacingError } from '../platform/modelFacingError';

export type HunkLine = { readonly kind: 'context' | 'remove' | 'add'; readonly text: string };

export interface Hunk {
  /** The text after `@@` (a line to find first, e.g. `class Foo`), when given. */
  readonly header?: string;
  readonly lines: readonly HunkLine[];
  /** `*** End of File` closed this hunk: its old lines end the file. */
  readonly endOfFile: boolean;
  /** 1-based line of the hunk in the patch, for errors. */
  readonly patchLine: number;
}

export type PatchOperation =
  | { readonly kind: 'add'; readonly path: string; readonly content: string }
  | { readonly kind: 'delete'; readonly path: string }
  | { readonly kind: 'update'; readonly path: string; readonly moveTo?: string; readonly hunks: readonly Hunk[] };

/** The patch text is not in the expected format; `line` is 1-based in the patch. */
export class PatchSyntaxError extends ModelFacingError {
  constructor(
    readonly line: number,
    readonly reason: string,
    readonly lineText?: string,
  ) {
    super(`patch line ${line}: ${reason}${lineText === undefined ? '' : ` (${JSON.stringify(lineText)})`}`);
    this.name = 'PatchSyntaxError';
  }

  override modelText(): string {
    return `Error: the patch is not in the expected format: ${this.message}. Nothing was written. Expected "*** Begin Patch", then "*** Add File: p" / "*** Update File: p" / "*** Delete File: p" sections, then "*** End Patch".`;
  }
}

const BEGIN = '*** Begin Patch';
const END = '*** End Patch';
const ADD = '*** Add File: ';
const DELETE = '*** Delete File: ';
const UPDATE = '*** Update File: ';
const MOVE = '*** Move to: ';
const END_OF_FILE = '*** End of File';

function isFileHeader(line: string): boolean {
  return line.startsWith(ADD) || line.startsWith(DELETE) || line.startsWith(UPDATE) || line.trim() === END;
}

export function parsePatch(patch: string): PatchOperation[] {
  // Tolerate what models wrap patches in: surrounding blank lines, a heredoc (`<<'EOF'` … `EOF`), CRLF.
  const all = patch.replace(/\r\n/g, '\n').split('\n');
  let first = 0;
  while (first < all.length && all[first].trim() === '') first++;
  let skipped = first;
  let end = all.length;
  while (end > first && all[end - 1].trim() === '') end--;
  let lines = all.slice(first, end);
  if (
    lines.length >= 2 &&
    /^(?:\S*\s+)?<<\s*['"]?EOF['"]?\s*$/.test(lines[0]) &&
    lines[lines.length - 1].trim() === 'EOF'
  ) {
    lines = lines.slice(1, -1);
    skipped++;
  }
  const lineNumber = (index: number) => index + skipped + 1;
  if (lines.length === 0 || lines[0].trim() !== BEGIN)
    throw new PatchSyntaxError(1, `the patch must start with "${BEGIN}"`, lines[0]);
  if (lines[lines.length - 1].trim() !== END) {
    throw new PatchSyntaxError(
      lineNumber(lines.length - 1),
      `the patch must end with "${END}"`,
      lines[lines.length - 1],
    );
  }
  const operations: PatchOperation[] = [];
  let index = 1;
  const last = lines.length - 1;
  while (index < last) {
    const line = lines[index];
    if (line.startsWith(ADD)) {
      const path = line.slice(ADD.length).trim();
      index++;
      const content: string[] = [];
      while (index < last && !isFileHeader(lines[index])) {
        if (!lines[index].startsWith('+')) {
          throw new PatchSyntaxError(
            lineNumber(index),
            'every line of an added file must start with "+"',
            lines[index],
          );
        }
        content.push(lines[index].slice(1));
        index++;
      }
      operations.push({ kind: 'add', path, content: content.length ? `${content.join('\n')}\n` : '' });
    } else if (line.startsWith(DELETE)) {
      operations.push({ kind: 'delete', path: line.slice(DELETE.length).trim() });
      index++;
    } else if (line.startsWith(UPDATE)) {
      const path = line.slice(UPDATE.length).trim();
      index++;
      let moveTo: string | undefined;
      if (index < last && lines[index].startsWith(MOVE)) {
        moveTo = lines[index].slice(MOVE.length).trim();
        index++;
      }
      const hunks: Hunk[] = [];
      while (index < last && !isFileHeader(lines[index])) {
        const start = index;
        let header: string | undefined;
        if (lines[index].startsWith('@@')) {
          header = lines[index].replace(/^@@\s?/, '').trimEnd() || undefined;
          index++;
        } else if (hunks.length > 0) {
          throw new PatchSyntaxError(lineNumber(index), 'expected "@@" to start the next hunk', lines[index]);
        }
        const hunkLines: HunkLine[] = [];
        let endOfFile = false;
        while (index < last && !isFileHeader(lines[index]) && !lines[index].startsWith('@@')) {
          const text = lines[index];
          if (text.trim() === END_OF_FILE) {
            endOfFile = true;
            index++;
            break;
          }
          const mark = text[0];
          if (mark === ' ') hunkLines.push({ kind: 'context', text: text.slice(1) });
          else if (mark === '-') hunkLines.push({ kind: 'remove', text: text.slice(1) });
          else if (mark === '+') hunkLines.push({ kind: 'add', text: text.slice(1) });
          else if (text === '')
            hunkLines.push({ kind: 'context', text: '' }); // an empty context line whose space was trimmed
          else throw new PatchSyntaxError(lineNumber(index), 'a hunk line must start with " ", "-" or "+"', text);
          index++;
        }
        if (hunkLines.length === 0 && header === undefined) {
          throw new PatchSyntaxError(lineNumber(start), `empty hunk in ${path}`);
        }
        if (!hunkLines.some((hunkLine) => hunkLine.kind !== 'context') && hunkLines.length > 0) {
          // Context only changes nothing; tolerated but not recorded.
          continue;
        }
        if (hunkLines.length > 0) hunks.push({ header, lines: hunkLines, endOfFile, patchLine: lineNumber(start) });
      }
      if (hunks.length === 0 && moveTo === undefined) {
        throw new PatchSyntaxError(lineNumber(index - 1), `"${UPDATE}${path}" has no hunk that changes anything`);
      }
      operations.push({ kind: 'update', path, moveTo, hunks });
    } else if (line.trim() === '') {
      index++;
    } else {
      throw new PatchSyntaxError(
        lineNumber(index),
        `expected "${ADD.trim()}", "${DELETE.trim()}", "${UPDATE.trim()}" or "${END}"`,
        line,
      );
    }
  }
  if (operations.length === 0) throw new PatchSyntaxError(1, 'the patch changes no file');
  for (const operation of operations) {
    if (operation.path === '') throw new PatchSyntaxError(1, `an "*** ${operation.kind} File:" line names no path`);
  }
  return operations;
}
