/**
 * Breakpoints that survive edits: a breakpoint may carry the text the model expects on its line
 * (`line_text`) or an identifier on it (`symbol`). When the file changed since the model read it,
 * the breakpoint goes to the nearest line that holds that text, and the answer says so; a text
 * found nowhere is refused with the lines around the one given.
 */
import { BreakpointSpec } from './debugHost';

/** A breakpoint as the model gave it: a line, and optionally what should be on it. */
export interface AnchoredSpec extends BreakpointSpec {
  readonly lineText?: string;
  readonly symbol?: string;
}

export interface PlacedSpec extends BreakpointSpec {
  /** The line the model gave, when the breakpoint went elsewhere. */
  readonly movedFrom?: number;
}

/** Lines shown around the given one when its text is found nowhere. */
const CONTEXT_LINES = 3;

/** Whether a line holds the spec's text: `line_text` as a substring, `symbol` as a whole identifier. */
function matcherOf(spec: AnchoredSpec): (line: string) => boolean {
  if (spec.lineText !== undefined) {
    const text = spec.lineText.trim();
    return (line) => line.includes(text);
  }
  const escaped = (spec.symbol ?? '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const identifier = new RegExp(`(?<![\\w$])${escaped}(?![\\w$])`);
  return (line) => identifier.test(line);
}

/** What the model expected, quoted for an answer. */
export function expectedText(spec: AnchoredSpec): string {
  return spec.lineText !== undefined
    ? `line_text ${JSON.stringify(spec.lineText)}`
    : `symbol ${JSON.stringify(spec.symbol)}`;
}

/** `lines[i]` for 1-based `line`, numbered, with those around it. */
export function linesAround(lines: readonly string[], line: number): string {
  const from = Math.max(1, line - CONTEXT_LINES);
  const to = Math.min(lines.length, line + CONTEXT_LINES);
  const shown: string[] = [];
  for (let number = from; number <= to; number++) shown.push(`${number}: ${lines[number - 1]}`);
  return shown.join('\n');
}

/**
 * Each spec at the nearest line (ties: the later line, as text is more often inserted above) that
 * holds its text; specs without a text stay where they are. `notFound` for the first spec whose text
 * is on no line of the file.
 */
export function anchorBreakpoints(
  lines: readonly string[],
  specs: readonly AnchoredSpec[],
): { placed: PlacedSpec[] } | { notFound: AnchoredSpec } {
  const placed: PlacedSpec[] = [];
  for (const spec of specs) {
    const { lineText: _text, symbol: _symbol, ...breakpoint } = spec;
    if (spec.lineText === undefined && spec.symbol === undefined) {
      placed.push(breakpoint);
      continue;
    }
    const holds = matcherOf(spec);
    const given = Math.min(Math.max(spec.line, 1), lines.length);
    let found: number | undefined;
    for (let distance = 0; distance < lines.length && found === undefined; distance++) {
      for (const candidate of [given + distance, given - distance]) {
        if (candidate >= 1 && candidate <= lines.length && holds(lines[candidate - 1])) {
          found = candidate;
          break;
        }
      }
    }
    if (found === undefined) return { notFound: spec };
    placed.push(found === spec.line ? breakpoint : { ...breakpoint, line: found, movedFrom: spec.line });
  }
  return { placed };
}
