/**
 * The trigrams of a text: every three characters in a row that are all word characters (ASCII
 * letters, digits, `_`, `$`, and every character past ASCII), each hashed to 16 bits, kept as a
 * sorted set. A pattern's trigrams are those of the texts every match must contain verbatim
 * (`requiredTexts`): wherever such a text occurs in a file, each of its trigrams occurs there too,
 * so a file whose set lacks one of them cannot match, whatever the grammar makes of the text
 * around it. Nothing here depends on a grammar: the index stays valid when one changes. One pass
 * over the text, a table lookup and a multiply per character.
 */
import { lowerBound } from '../edits/sortedSearch';

/** Bumped whenever what `fileTrigrams` computes or a record holds changes: an index of another version is not read. */
export const TRIGRAM_VERSION = 2;

/** Each word character's 7-bit code (ASCII ones distinct, others folded), 0 for the rest. */
const CODE = new Uint8Array(65536);
{
  let code = 1;
  for (const char of '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_$')
    CODE[char.charCodeAt(0)] = code++;
  for (let unit = 0x80; unit < 0x10000; unit++) CODE[unit] = code + (unit % (128 - code));
}

const seen = new Uint8Array(65536);
const found = new Uint16Array(65536);

/** The sorted distinct trigram hashes of `text`. */
export function fileTrigrams(text: string): Uint16Array {
  let count = 0;
  let key = 0;
  let run = 0;
  for (let index = 0; index < text.length; index++) {
    const code = CODE[text.charCodeAt(index)];
    if (code === 0) {
      run = 0;
      continue;
    }
    key = ((key << 7) | code) & 0x1fffff;
    if (++run < 3) continue;
    const hash = Math.imul(key, 0x9e3779b1) >>> 16;
    if (seen[hash] === 0) {
      seen[hash] = 1;
      found[count++] = hash;
    }
  }
  const trigrams = found.slice(0, count);
  for (const hash of trigrams) seen[hash] = 0;
  return trigrams.sort();
}

/** The sorted distinct trigram hashes every file holding all of `texts` has (empty: no text rules a file out). */
export function requiredTrigrams(texts: readonly string[]): Uint16Array {
  return fileTrigrams(texts.join(' '));
}

/** Whether `sorted` (a file's trigrams) holds every one of `required` (sorted too): a binary search each, from the last. */
export function holdsAll(sorted: Uint16Array, required: Uint16Array): boolean {
  let low = 0;
  for (const hash of required) {
    low = lowerBound(sorted, hash, low);
    if (low === sorted.length || sorted[low] !== hash) return false;
  }
  return true;
}
