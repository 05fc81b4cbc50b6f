/**
 * Whether a scan grows linearly: timed on an input and on one eight times larger, failing when the
 * time grows like the square (64×) instead of the size (8×; up to 24× is allowed for noise on a
 * shared machine).
 */
import * as assert from 'node:assert/strict';

/** Best of three runs, in ms. */
function timed(run: () => void): number {
  let best = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 3; round++) {
    const started = performance.now();
    run();
    best = Math.min(best, performance.now() - started);
  }
  return best;
}

/** How the time of `run(size)` grows from `base` to 8 × `base` (after a warm-up). */
function growth(run: (size: number) => void, base: number): { ratio: number; small: number; large: number } {
  run(base);
  const small = timed(() => run(base));
  const large = timed(() => run(base * 8));
  return { ratio: large / Math.max(small, 0.2), small, large };
}

/** Fails when the time grows past 24× for 8× the input; measured again (up to three times in all) before failing, as a busy machine can slow one run. */
export function assertLinear(what: string, run: (size: number) => void, base: number): void {
  let best = growth(run, base);
  for (let round = 1; round < 3 && best.ratio >= 24; round++) {
    const again = growth(run, base);
    if (again.ratio < best.ratio) best = again;
  }
  const { ratio, small, large } = best;
  assert.ok(
    ratio < 24,
    `${what}: ${small.toFixed(1)} ms at ${base}, ${large.toFixed(1)} ms at ${base * 8} (×${ratio.toFixed(1)})`,
  );
}
