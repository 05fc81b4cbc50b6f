/**
 * Finding a string in a text in time linear in both. The engine's own `indexOf` compares a long
 * needle at each place it may start (a needle of `a…ab a…a` in a text of `a`s costs the text's
 * length times the needle's); for a needle that long a Knuth–Morris–Pratt search is used instead,
 * its table built once per needle.
 */

/** Needles up to this long go to the engine's search (at most this many comparisons per character). */
const NATIVE_NEEDLE = 64;

export class TextSearch {
  private table: Int32Array | undefined;

  constructor(readonly needle: string) {}

  /** The first place at or after `from` where the needle starts, or -1. An empty needle is at `from`. */
  indexIn(text: string, from = 0): number {
    const { needle } = this;
    if (needle.length <= NATIVE_NEEDLE) return text.indexOf(needle, from);
    const table = (this.table ??= fallbackTable(needle));
    for (let index = Math.max(0, from), matched = 0; index < text.length; index++) {
      const code = text.charCodeAt(index);
      while (matched > 0 && code !== needle.charCodeAt(matched)) matched = table[matched - 1];
      if (code === needle.charCodeAt(matched)) matched++;
      if (matched === needle.length) return index - needle.length + 1;
    }
    return -1;
  }
}

/** Whether `needle` occurs in `text`, in linear time. */
export function containsText(text: string, needle: string): boolean {
  return new TextSearch(needle).indexIn(text) !== -1;
}

/** The first place of `needle` in `text` at or after `from`, in linear time. */
export function indexOfText(text: string, needle: string, from = 0): number {
  return new TextSearch(needle).indexIn(text, from);
}

function fallbackTable(needle: string): Int32Array {
  const table = new Int32Array(needle.length);
  for (let index = 1, matched = 0; index < needle.length; index++) {
    const code = needle.charCodeAt(index);
    while (matched > 0 && code !== needle.charCodeAt(matched)) matched = table[matched - 1];
    if (code === needle.charCodeAt(matched)) matched++;
    table[index] = matched;
  }
  return table;
}
