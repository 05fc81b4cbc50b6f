/**
 * Turns `line` + `symbol` (+ `occurrence`, or the `name#N` shorthand) into a position, on the
 * text the editor holds. Never guesses: a missing symbol, a symbol not on the line, or one
 * that occurs more than once without an occurrence index is a typed error carrying what the
 * model needs to ask again (the line's text, the occurrences, nearby lines that have it).
 */
import { ErrorContext, ModelFacingError } from '../platform/modelFacingError';
import { clipLineText } from '../platform/wording';

/** " of <file>" when the call named a file, for the errors below. */
function ofFile(context: ErrorContext): string {
  return context.file ? ` of ${context.file}` : '';
}

export interface LineSource {
  readonly lineCount: number;
  /** Text of a 0-based line, without its line break. */
  lineText(index: number): string;
}

export interface SymbolLocation {
  /** 1-based line. */
  readonly line: number;
  /** 0-based UTF-16 offset of the symbol in its line. */
  readonly character: number;
  readonly length: number;
  readonly symbol: string;
  readonly lineText: string;
}

export class LineOutOfRange extends ModelFacingError {
  constructor(
    readonly line: number,
    readonly lineCount: number,
  ) {
    super(`Line ${line} is outside the file (1–${lineCount}).`);
    this.name = 'LineOutOfRange';
  }

  override modelText(context: ErrorContext = {}): string {
    return `Error: line ${this.line} is outside the file${ofFile(context)}, which has ${this.lineCount} lines (lines are 1-based).`;
  }
}

export class SymbolNotOnLine extends ModelFacingError {
  constructor(
    readonly symbol: string,
    readonly line: number,
    readonly lineText: string,
    /** 1-based lines near `line` that contain the symbol, nearest first. */
    readonly nearbyLines: readonly number[],
  ) {
    super(`"${symbol}" is not on line ${line}.`);
    this.name = 'SymbolNotOnLine';
  }

  override modelText(context: ErrorContext = {}): string {
    const nearby = this.nearbyLines.length
      ? ` "${this.symbol}" is found on line ${this.nearbyLines.join(', line ')}; call again with that line.`
      : ` It is not on the nearby lines either; check the line number, or find the symbol with lsp symbols.`;
    return `Error: "${this.symbol}" is not on line ${this.line}${ofFile(context)}. Line ${this.line} is: ${JSON.stringify(clipLineText(this.lineText))}.${nearby}`;
  }
}

export class AmbiguousSymbol extends ModelFacingError {
  constructor(
    readonly symbol: string,
    readonly line: number,
    readonly lineText: string,
    /** 0-based offsets of each occurrence. */
    readonly occurrences: readonly number[],
  ) {
    super(`"${symbol}" occurs ${occurrences.length} times on line ${line}.`);
    this.name = 'AmbiguousSymbol';
  }

  override modelText(context: ErrorContext = {}): string {
    const choices = this.occurrences.map(
      (offset, index) => `  ${index + 1}: ${markOccurrence(this.lineText, offset, this.symbol.length)}`,
    );
    return [
      `Error: "${this.symbol}" occurs ${this.occurrences.length} times on line ${this.line}${ofFile(context)}; say which with occurrence (1-based) or "${this.symbol}#N":`,
      ...choices,
    ].join('\n');
  }
}

export class OccurrenceOutOfRange extends ModelFacingError {
  constructor(
    readonly symbol: string,
    readonly line: number,
    readonly occurrence: number,
    readonly count: number,
  ) {
    super(`Occurrence ${occurrence} of "${symbol}" was asked for, but line ${line} has ${count}.`);
    this.name = 'OccurrenceOutOfRange';
  }

  override modelText(context: ErrorContext = {}): string {
    return `Error: occurrence ${this.occurrence} of "${this.symbol}" was asked for, but line ${this.line}${ofFile(context)} has only ${this.count}.`;
  }
}

export class InvalidSymbol extends ModelFacingError {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidSymbol';
  }

  /** The whole message: it says what a symbol must look like. */
  override modelText(): string {
    return `Error: ${this.message}`;
  }
}

/** How far from the given line we look for the symbol to say "found on line K". */
export const NEARBY_LINES = 5;

const identifierChar = /[\p{L}\p{N}_$]/u;

export interface SymbolSpec {
  readonly text: string;
  readonly occurrence?: number;
}

/**
 * `name#2` means the second occurrence of `name`, unless the line really contains `name#2`
 * (a literal `#` in code such as C# preprocessor lines or private fields).
 */
export function parseSymbolSpec(symbol: string, occurrence: number | undefined, lineText: string): SymbolSpec {
  const shorthand = /^(.+)#(\d+)$/.exec(symbol);
  if (shorthand && !lineText.includes(symbol)) {
    const fromShorthand = Number(shorthand[2]);
    if (occurrence !== undefined && occurrence !== fromShorthand) {
      throw new InvalidSymbol(
        `"${symbol}" names occurrence ${fromShorthand} but occurrence is ${occurrence}; give only one of them.`,
      );
    }
    return { text: shorthand[1], occurrence: fromShorthand };
  }
  return { text: symbol, occurrence };
}

/**
 * Offsets of `symbol` in `text`. Whole-identifier matches are preferred (`foo` does not
 * match inside `foobar`); plain substring matches are used only when there is no whole one.
 */
export function findOccurrences(text: string, symbol: string): number[] {
  const all: number[] = [];
  for (let index = text.indexOf(symbol); index !== -1; index = text.indexOf(symbol, index + 1)) all.push(index);
  const startsWord = identifierChar.test(symbol[0]);
  const endsWord = identifierChar.test(symbol[symbol.length - 1]);
  const whole = all.filter((index) => {
    const before = text[index - 1];
    const after = text[index + symbol.length];
    const cleanStart = !startsWord || before === undefined || !identifierChar.test(before);
    const cleanEnd = !endsWord || after === undefined || !identifierChar.test(after);
    return cleanStart && cleanEnd;
  });
  return whole.length > 0 ? whole : all;
}

export function checkLine(source: LineSource, line: number): void {
  if (!Number.isInteger(line) || line < 1 || line > source.lineCount) throw new LineOutOfRange(line, source.lineCount);
}

export function locateSymbol(source: LineSource, line: number, symbol: string, occurrence?: number): SymbolLocation {
  checkLine(source, line);
  if (occurrence !== undefined && (!Number.isInteger(occurrence) || occurrence < 1)) {
    throw new InvalidSymbol(`occurrence must be a whole number from 1, not ${occurrence}.`);
  }
  const lineText = source.lineText(line - 1);
  const spec = parseSymbolSpec(symbol, occurrence, lineText);
  if (spec.text.trim() === '') throw new InvalidSymbol('symbol is empty; give the identifier as written on the line.');

  const offsets = findOccurrences(lineText, spec.text);
  if (offsets.length === 0) {
    throw new SymbolNotOnLine(spec.text, line, lineText, linesContaining(source, line, spec.text));
  }
  if (spec.occurrence !== undefined) {
    if (spec.occurrence > offsets.length)
      throw new OccurrenceOutOfRange(spec.text, line, spec.occurrence, offsets.length);
    return { line, character: offsets[spec.occurrence - 1], length: spec.text.length, symbol: spec.text, lineText };
  }
  if (offsets.length > 1) throw new AmbiguousSymbol(spec.text, line, lineText, offsets);
  return { line, character: offsets[0], length: spec.text.length, symbol: spec.text, lineText };
}

function linesContaining(source: LineSource, line: number, symbol: string): number[] {
  const found: number[] = [];
  for (let distance = 1; distance <= NEARBY_LINES; distance++) {
    for (const candidate of [line - distance, line + distance]) {
      if (candidate < 1 || candidate > source.lineCount) continue;
      if (findOccurrences(source.lineText(candidate - 1), symbol).length > 0) found.push(candidate);
    }
  }
  return found;
}

/** The line with the occurrence marked, cut around it when the line is long: `const «foo» = foo;`. */
export function markOccurrence(lineText: string, offset: number, length: number, width = 120): string {
  const marked = `${lineText.slice(0, offset)}«${lineText.slice(offset, offset + length)}»${lineText.slice(offset + length)}`;
  const trimmed = marked.trimStart();
  const start = marked.length - trimmed.length;
  const markStart = offset - start;
  if (trimmed.length <= width) return trimmed.trimEnd();
  const from = Math.max(0, Math.min(markStart - Math.floor(width / 3), trimmed.length - width));
  const slice = trimmed.slice(from, from + width);
  return `${from > 0 ? '…' : ''}${slice}${from + width < trimmed.length ? '…' : ''}`;
}
