/**
 * The line of a file most like a wanted line, for the hint of an edit or hunk that does not match:
 * the Dice similarity of their character pairs (white space collapsed), at least 0.5. One pass
 * over the lines for every wanted line at once, each distinct line's pairs counted once, lines too
 * short to reach 0.5 skipped, and at most NEAR_MATCH_CHARACTERS characters of lines compared:
 * a hint must not stall the editor on a file of a million lines (the answer says where it stopped).
 */

/** A line is compared by its first characters only (a minified line would cost its whole length per comparison). */
const SIMILARITY_CHARACTERS = 1000;

/** Characters of lines one search compares (tens of milliseconds); the lines after are not compared. */
export const NEAR_MATCH_CHARACTERS = 1_000_000;

export interface ClosestLines {
  /** For each wanted line, the 0-based index of the line most like it, if one is close. */
  readonly found: ReadonlyArray<number | undefined>;
  /** Set when the budget ran out: the lines compared end before this 0-based index. */
  readonly stoppedAt?: number;
}

/** Character pairs of a line, white space collapsed, counted; and how many in all. */
function grams(text: string): { readonly counts: Map<string, number>; readonly total: number } {
  const compact = text.slice(0, SIMILARITY_CHARACTERS).replace(/\s+/g, ' ').trim();
  const counts = new Map<string, number>();
  for (let index = 0; index < compact.length - 1; index++) {
    const gram = compact.slice(index, index + 2);
    counts.set(gram, (counts.get(gram) ?? 0) + 1);
  }
  return { counts, total: Math.max(0, compact.length - 1) };
}

export function closestLines(lines: readonly string[], wanted: readonly string[], from = 0): ClosestLines {
  const targets = wanted.map((line) => ({ line, ...grams(line), best: undefined as number | undefined, score: 0.5 }));
  // Dice reaches 0.5 only when the shorter has a third of the longer's pairs: the shortest line worth comparing.
  const shortest = Math.min(...targets.map((target) => target.total / 3));
  const scores = new Map<string, number[]>();
  let budget = NEAR_MATCH_CHARACTERS;
  for (let index = from; index < lines.length; index++) {
    const line = lines[index];
    if (Math.max(0, line.length - 1) < shortest) continue;
    // Keyed by what is compared (a line's first characters): long keys would all hash alike.
    const key = line.length > SIMILARITY_CHARACTERS ? line.slice(0, SIMILARITY_CHARACTERS) : line;
    let lineScores = scores.get(key);
    if (!lineScores) {
      budget -= Math.min(line.length, SIMILARITY_CHARACTERS);
      if (budget < 0) return { found: targets.map((target) => target.best), stoppedAt: index };
      const own = grams(line);
      lineScores = targets.map((target) => similarity(own, target, line));
      scores.set(key, lineScores);
    }
    lineScores.forEach((score, at) => {
      const target = targets[at];
      if (score > target.score) {
        target.score = score;
        target.best = index;
      }
    });
  }
  return { found: targets.map((target) => target.best) };
}

/** The 0-based index of the line most like `wanted`, if any, and where the search stopped if it did. */
export function closestLine(
  lines: readonly string[],
  wanted: string,
  from = 0,
): { index?: number; stoppedAt?: number } {
  const { found, stoppedAt } = closestLines(lines, [wanted], from);
  return { index: found[0], stoppedAt };
}

function similarity(
  left: ReturnType<typeof grams>,
  right: ReturnType<typeof grams> & { readonly line: string },
  line: string,
): number {
  const total = left.total + right.total;
  if (total === 0) return line.trim() === right.line.trim() ? 1 : 0;
  let shared = 0;
  for (const [gram, count] of left.counts) shared += Math.min(count, right.counts.get(gram) ?? 0);
  return (2 * shared) / total;
}
