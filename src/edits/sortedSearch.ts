/** Binary search over ascending numbers: line starts, offsets found in one pass, sorted hashes. */

/** The first index of ascending `sorted`, from `low` on, whose value is at or after `value`; `sorted.length` when none is. */
export function lowerBound(sorted: ArrayLike<number>, value: number, low = 0): number {
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle] < value) low = middle + 1;
    else high = middle;
  }
  return low;
}
