/**
 * Parses JSON with comments: what a person edits in the Run Tool playground, and the tsconfig.json /
 * jsconfig.json files of a project. Comments and trailing commas are allowed; an error names the
 * 1-based line and column.
 */
import { ModelFacingError } from './modelFacingError';

export class JsoncSyntaxError extends ModelFacingError {
  constructor(
    readonly reason: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(`${reason} (line ${line}, column ${column})`);
    this.name = 'JsoncSyntaxError';
  }
}

/** Replaces comments with spaces (keeping offsets) and drops trailing commas before } or ]. */
export function stripJsonc(text: string): string {
  // Runs of text are copied as slices, not a character at a time (a file can be large).
  const parts: string[] = [];
  let copied = 0;
  let index = 0;
  const blank = (stop: number, replacement: string): void => {
    parts.push(text.slice(copied, index), replacement);
    index = copied = stop;
  };
  while (index < text.length) {
    const char = text[index];
    if (char === '"') {
      let end = index + 1;
      while (end < text.length && text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      index = end + 1;
    } else if (char === '/' && text[index + 1] === '/') {
      const end = text.indexOf('\n', index);
      const stop = end === -1 ? text.length : end;
      blank(stop, ' '.repeat(stop - index));
    } else if (char === '/' && text[index + 1] === '*') {
      const end = text.indexOf('*/', index + 2);
      const stop = end === -1 ? text.length : end + 2;
      blank(stop, text.slice(index, stop).replace(/[^\n]/g, ' '));
    } else {
      index++;
    }
  }
  parts.push(text.slice(copied));
  return parts.join('').replace(/,(\s*[}\]])/g, ' $1');
}

function positionOf(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: before[before.length - 1].length + 1 };
}

export function parseJsonc(text: string): unknown {
  const stripped = stripJsonc(text);
  if (stripped.trim() === '') throw new JsoncSyntaxError('The input is empty; write a JSON object', 1, 1);
  try {
    return JSON.parse(stripped);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const offset = /position (\d+)/.exec(message);
    const { line, column } = offset ? positionOf(stripped, Number(offset[1])) : { line: 1, column: 1 };
    throw new JsoncSyntaxError(
      message.replace(/ in JSON at position \d+.*$/, '').replace(/\s*\(line \d+ column \d+\)$/, ''),
      line,
      column,
    );
  }
}
