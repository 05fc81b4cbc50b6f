/**
 * The hint of an edit or hunk that does not match (src/writes/closestLine.ts): the same line a
 * comparison of every line would pick, in one pass, and a search that stops at its budget says so.
 */
import * as assert from 'node:assert/strict';
import { closestLine, closestLines, NEAR_MATCH_CHARACTERS } from '../../src/writes/closestLine';
import { applyHunks, HunkNotFound } from '../../src/writes/applyPatch';
import { nearMatch } from '../../src/writes/editMatch';

/** Dice similarity of character pairs, white space collapsed, computed directly. */
function dice(a: string, b: string): number {
  const pairs = (text: string) => {
    const compact = text.slice(0, 1000).replace(/\s+/g, ' ').trim();
    return Array.from({ length: Math.max(0, compact.length - 1) }, (_, index) => compact.slice(index, index + 2));
  };
  const left = pairs(a);
  const right = pairs(b);
  if (left.length + right.length === 0) return a.trim() === b.trim() ? 1 : 0;
  const pool = new Map<string, number>();
  for (const pair of right) pool.set(pair, (pool.get(pair) ?? 0) + 1);
  let shared = 0;
  for (const pair of left) {
    const left = pool.get(pair) ?? 0;
    if (left > 0) {
      shared++;
      pool.set(pair, left - 1);
    }
  }
  return (2 * shared) / (left.length + right.length);
}

/** The first line of the highest similarity over 0.5, comparing every line. */
function everyLine(lines: readonly string[], wanted: string): number | undefined {
  let best: number | undefined;
  let score = 0.5;
  lines.forEach((line, index) => {
    const similarity = dice(line, wanted);
    if (similarity > score) {
      score = similarity;
      best = index;
    }
  });
  return best;
}

describe('closest line: the hint of an edit or hunk that does not match', () => {
  it('picks the line a comparison of every line picks, whatever the lengths', () => {
    let seed = 7;
    const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    const words = ['const', 'value', '=', 'foo(', ')', ';', 'return', 'x', 'if', '{', '}', '  '];
    const line = () =>
      Array.from({ length: Math.floor(random() * 12) }, () => words[Math.floor(random() * words.length)]).join(' ');
    for (let round = 0; round < 200; round++) {
      const lines = Array.from({ length: 40 }, line);
      const wanted = [line(), line(), line()];
      const { found, stoppedAt } = closestLines(lines, wanted);
      assert.equal(stoppedAt, undefined);
      assert.deepEqual(
        found,
        wanted.map((one) => everyLine(lines, one)),
        JSON.stringify({ lines, wanted }),
      );
    }
  });

  it(`compares at most ${NEAR_MATCH_CHARACTERS.toLocaleString('en-US')} characters of lines, and the answers say where it stopped`, () => {
    const lines = Array.from({ length: 40_000 }, (_, index) => `line ${index} ${'abcdefghij'.repeat(4)}`);
    lines.push('the wanted line at the very end');
    const { index, stoppedAt } = closestLine(lines, 'the wanted line at the end');
    assert.equal(index, undefined);
    assert.ok(stoppedAt !== undefined && stoppedAt < 40_000, `stopped at ${stoppedAt}`);
    // Lines like one already compared cost nothing more: the same file of one repeated line is compared whole.
    assert.equal(
      closestLine([...Array(100_000).fill('x'.repeat(50)), 'the wanted line'], 'the wanted line').index,
      100_000,
    );
    const text = lines.join('\n');
    const hint = nearMatch(`${text}\nfoo(1, 2);\n`, 'line 5 abcdefghij\nnot here');
    assert.match(
      hint?.how ?? '',
      new RegExp(
        `^the closest line to its first line, of the lines before ${stoppedAt.toLocaleString('en-US')} \\(the rest not compared\\)$`,
      ),
    );
    assert.throws(
      () =>
        applyHunks('a.txt', text, [
          { lines: [{ kind: 'remove', text: 'zzzzzzzzzzzzzzz' }], endOfFile: false, patchLine: 1 },
        ]),
      (error: unknown) =>
        error instanceof HunkNotFound &&
        error.modelText().includes(`No close line (lines before ${stoppedAt.toLocaleString('en-US')} compared).`),
    );
  });
});
