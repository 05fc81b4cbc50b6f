import * as assert from 'node:assert/strict';
import {
  LineBreaksCannotCarry,
  LostBytes,
  mapAcrossLineBreaks,
  NotPlannedText,
  sameLines,
  spliceEdits,
  UnwritableText,
} from '../../src/edits/byteSplice';
import { codecFor, LATIN1_TABLE, singleByteCodec, TextCodec } from '../../src/edits/textCodecs';
import { diffEdits } from '../../src/edits/textDiff';
import { applyEdits, InvalidEdit, minimalEdit, TextEdit, trimmed } from '../../src/edits/textEdits';
import { seededRandom } from '../support/seededRandom';

const utf8 = codecFor('utf8') as TextCodec;
const utf16le = codecFor('utf16le') as TextCodec;
const utf16be = codecFor('utf16be') as TextCodec;
const latin1 = codecFor('iso88591') as TextCodec;
/**
 * windows-1252 as iconv-lite (the editor) reads it: Latin-1 but for 0x80–0x9F, where the five bytes the
 * code page leaves undefined become U+FFFD (lossy). (Node's TextDecoder reads windows-1252 as Latin-1.)
 */
const windows1252Undefined = [0x81, 0x8d, 0x8f, 0x90, 0x9d];
const windows1252Table =
  LATIN1_TABLE.slice(0, 0x80) + '€\uFFFD‚ƒ„…†‡ˆ‰Š‹Œ\uFFFDŽ\uFFFD\uFFFD‘’“”•–—˜™š›œ\uFFFDžŸ' + LATIN1_TABLE.slice(0xa0);
const windows1252 = singleByteCodec('windows1252', windows1252Table);

const bytes = (...values: number[]) => Uint8Array.from(values);
const ascii = (text: string) => [...Buffer.from(text, 'latin1')];

/** The edit replacing the first `find` of `text` by `by`. */
function replace(text: string, find: string, by: string): TextEdit {
  const start = text.indexOf(find);
  assert.ok(start >= 0, `"${find}" is not in the text`);
  return { start, end: start + find.length, text: by };
}

describe('byte splice: a change touches only its own bytes', () => {
  it('keeps each line its own break in a file with mixed line breaks', () => {
    const file = Buffer.from('one\r\ntwo\r\nthree\nfour\nfive\r\nsix\nseven\n');
    const text = file.toString();
    const result = spliceEdits('a.txt', file, utf8, text, [replace(text, 'six', 'SIX')]);
    assert.equal(Buffer.from(result.bytes).toString(), 'one\r\ntwo\r\nthree\nfour\nfive\r\nSIX\nseven\n');
  });

  it('keeps the other bytes of a Latin-1 file read as UTF-8 (shown as U+FFFD)', () => {
    // "# café crème\nx = 1\n" in Latin-1, read by an editor set to UTF-8.
    const file = bytes(...ascii('# caf'), 0xe9, ...ascii(' cr'), 0xe8, ...ascii('me\nx = 1\n'));
    const text = utf8.decode(file);
    assert.equal(text, '# caf\uFFFD cr\uFFFDme\nx = 1\n');
    const result = spliceEdits('a.py', file, utf8, text, [replace(text, 'x = 1', 'x = 2')]);
    assert.deepEqual([...result.bytes], [...file.subarray(0, 13), ...ascii('x = 2\n')]);
  });

  it('writes a Latin-1 file in Latin-1', () => {
    const file = bytes(...ascii('# caf'), 0xe9, ...ascii('\nx = 1\n'));
    const text = latin1.decode(file);
    assert.equal(text, '# café\nx = 1\n');
    const result = spliceEdits('a.py', file, latin1, text, [replace(text, 'x = 1', 'x = "crème"')]);
    assert.deepEqual([...result.bytes], [...file.subarray(0, 7), ...ascii('x = "cr'), 0xe8, ...ascii('me"\n')]);
  });

  it('keeps a UTF-8 byte order mark, and a UTF-16 one with its byte order', () => {
    const marked = Buffer.concat([bytes(0xef, 0xbb, 0xbf), Buffer.from('a\r\nb\nc\n')]);
    const text = utf8.decode(marked.subarray(3));
    const result = spliceEdits('a.txt', marked, codecFor('utf8bom') as TextCodec, text, [replace(text, 'b', 'B')]);
    assert.deepEqual([...result.bytes], [0xef, 0xbb, 0xbf, ...ascii('a\r\nB\nc\n')]);

    const be = Buffer.concat([bytes(0xfe, 0xff), Buffer.from('é\nx\r\n', 'utf16le').swap16()]);
    const beText = utf16be.decode(be.subarray(2));
    assert.equal(beText, 'é\nx\r\n');
    const written = spliceEdits('a.txt', be, utf16be, beText, [replace(beText, 'x', 'ü')]);
    assert.deepEqual([...written.bytes], [0xfe, 0xff, ...Buffer.from('é\nü\r\n', 'utf16le').swap16()]);
  });

  it('applies a change planned on the editor’s view (one line break for every line) to the file’s own breaks', () => {
    const file = Buffer.from('one\r\ntwo\nthree\r\n');
    const view = 'one\r\ntwo\r\nthree\r\n';
    // Trimmed on the view first, so the line break the edit keeps is the file's own.
    const edit = replace(view, 'two\r\nthree', 'TWO\r\nthree');
    const result = spliceEdits('a.txt', file, utf8, view, [edit]);
    assert.equal(Buffer.from(result.bytes).toString(), 'one\r\nTWO\nthree\r\n');
    assert.deepEqual(mapAcrossLineBreaks('a\nb', 'a\r\nb', [0, 1, 2, 3]), [0, 1, 3, 4]);
    assert.equal(mapAcrossLineBreaks('a\nb', 'a\nc', [0]), undefined);
  });

  it('refuses a change planned on another text, naming the file', () => {
    const file = Buffer.from('a\nb\n');
    assert.throws(
      () => spliceEdits('src/a.txt', file, utf8, 'a\nc\n', [{ start: 0, end: 1, text: 'x' }]),
      (error: unknown) => error instanceof NotPlannedText && /^src\/a\.txt changed since/.test(error.message),
    );
  });

  it('refuses to replace bytes the encoding cannot read, and text the encoding cannot hold', () => {
    const file = bytes(...ascii('a\nb'), 0xff, ...ascii('c\n'));
    const text = utf8.decode(file);
    assert.throws(
      () => spliceEdits('a.txt', file, utf8, text, [{ start: 2, end: 5, text: 'xyz' }]),
      (error: unknown) => error instanceof LostBytes && error.line === 2,
    );
    // An edit that keeps the U+FFFD around it is trimmed and touches only what it changes.
    const kept = spliceEdits('a.txt', file, utf8, text, [{ start: 2, end: 5, text: 'B\uFFFDc' }]);
    assert.deepEqual([...kept.bytes], [...ascii('a\nB'), 0xff, ...ascii('c\n')]);
    assert.throws(
      () => spliceEdits('a.txt', Buffer.from('x\n'), latin1, 'x\n', [{ start: 0, end: 1, text: '€' }]),
      (error: unknown) => error instanceof UnwritableText && /cannot hold "€" \(U\+20AC\)/.test(error.message),
    );
    assert.throws(
      () => spliceEdits('a.txt', Buffer.from('x\n'), utf8, 'x\n', [{ start: 0, end: 1, text: '\ud800' }]),
      UnwritableText,
    );
  });

  it('trims an edit to what it changes, never splitting a CRLF or a surrogate pair', () => {
    assert.deepEqual(trimmed('abc', { start: 0, end: 3, text: 'aXc' }), { start: 1, end: 2, text: 'X' });
    assert.deepEqual(trimmed('a\r\nb', { start: 0, end: 4, text: 'a\rb' }), { start: 1, end: 3, text: '\r' });
    assert.deepEqual(trimmed('😀', { start: 0, end: 2, text: '😁' }), { start: 0, end: 2, text: '😁' });
    assert.deepEqual(minimalEdit('same', 'same'), { start: 4, end: 4, text: '' });
  });
});

describe('diffEdits: the edits between two texts, touching only what differs', () => {
  it('gives separate edits for changes on one line, so what lies between them is not rewritten', () => {
    assert.deepEqual(diffEdits('a \uFFFD b\n', 'A \uFFFD B\n'), [
      { start: 0, end: 1, text: 'A' },
      { start: 4, end: 5, text: 'B' },
    ]);
  });

  it('never splits a CRLF or a surrogate pair, and the edits make the new text (1,000 random pairs)', () => {
    const random = seededRandom(5);
    const alphabet = ['a', 'b', '\r', '\n', '\r\n', '😀', '😁', 'x'];
    const text = () => Array.from({ length: Math.floor(random() * 12) }, () => pick(random, alphabet)).join('');
    for (let round = 0; round < 1000; round++) {
      const before = text();
      const after = text();
      const edits = diffEdits(before, after);
      assert.equal(applyEdits(before, edits), after, JSON.stringify({ before, after, edits }));
    }
  });
});

describe('UTF-8 scan: positions and lossy units as the WHATWG decoder reads the bytes', () => {
  it('agrees with TextDecoder on random bytes (2,000 buffers)', () => {
    const random = seededRandom(8);
    const pieces = [
      [0xff],
      [0xc0],
      [0x80],
      [0xe2, 0x82],
      [0xf0, 0x9f],
      [0xed, 0xa0, 0x80],
      [0xc3, 0xa9],
      [0x41],
      [0x0a],
    ];
    for (let round = 0; round < 2000; round++) {
      const body: number[] = [];
      const length = Math.floor(random() * 12);
      for (let index = 0; index < length; index++) {
        if (random() < 0.5) body.push(...pieces[Math.floor(random() * pieces.length)]);
        else body.push(Math.floor(random() * 256));
      }
      const buffer = Uint8Array.from(body);
      const text = utf8.decode(buffer);
      const offsets = Array.from({ length: text.length + 1 }, (_, index) => index).filter(
        (offset) => !(text.charCodeAt(offset) >= 0xdc00 && text.charCodeAt(offset) <= 0xdfff && offset > 0),
      );
      const { positions, lossy } = utf8.scan(buffer, offsets);
      offsets.forEach((offset, index) =>
        assert.equal(
          new TextDecoder().decode(buffer.subarray(0, positions[index])),
          text.slice(0, offset),
          `bytes [${body.join(', ')}] offset ${offset}`,
        ),
      );
      // Lossy: exactly the U+FFFD units whose bytes are not U+FFFD's own encoding (EF BF BD).
      const positionOf = new Map(offsets.map((offset, index) => [offset, positions[index]]));
      const expected = [...text.matchAll(/\uFFFD/g)]
        .map((match) => match.index)
        .filter((unit) => {
          const from = positionOf.get(unit) as number;
          const to = positionOf.get(unit + 1) as number;
          return !(to - from === 3 && buffer[from] === 0xef && buffer[from + 1] === 0xbf && buffer[from + 2] === 0xbd);
        });
      assert.deepEqual(lossy, expected, `bytes [${body.join(', ')}]`);
    }
  });
});

/** One piece of a generated file: its bytes and the text they read as; `lossy` when they would not encode back. */
interface Atom {
  readonly bytes: readonly number[];
  readonly text: string;
  readonly lossy: boolean;
}

interface Encoding {
  readonly codec: TextCodec;
  readonly bom: readonly number[];
  /** Characters this encoding holds, to build texts from. */
  readonly alphabet: readonly string[];
  /** Characters it cannot hold (new text with one is refused), or none. */
  readonly foreign: readonly string[];
  /** Byte runs it reads as U+FFFD and cannot write back, safe next to any other atom. */
  readonly lossy: readonly (readonly number[])[];
  encode(char: string): number[];
}

const common = ['a', 'b', 'x', ' ', '=', ';', '{', '}'];
const breaks = ['\n', '\r\n', '\r'];
const encodings: readonly Encoding[] = [
  {
    codec: utf8,
    bom: [],
    alphabet: [...common, 'é', '€', '中', '😀'],
    foreign: ['\udc00'],
    lossy: [[0xff], [0xc0], [0x80], [0xfe]],
    encode: (char) => [...Buffer.from(char, 'utf8')],
  },
  {
    codec: codecFor('utf8bom') as TextCodec,
    bom: [0xef, 0xbb, 0xbf],
    alphabet: [...common, 'ü', '∑', '😀'],
    foreign: [],
    lossy: [[0xff]],
    encode: (char) => [...Buffer.from(char, 'utf8')],
  },
  {
    codec: utf16le,
    bom: [0xff, 0xfe],
    alphabet: [...common, 'é', '中', '😀', '\ud800'],
    foreign: [],
    lossy: [],
    encode: (char) => [...Buffer.from(char, 'utf16le')],
  },
  {
    codec: utf16be,
    bom: [0xfe, 0xff],
    alphabet: [...common, 'é', '中', '😀'],
    foreign: [],
    lossy: [],
    encode: (char) => [...Buffer.from(char, 'utf16le').swap16()],
  },
  {
    codec: latin1,
    bom: [],
    alphabet: [...common, 'é', 'ß', '\u0085', 'ÿ'],
    foreign: ['€', '中'],
    lossy: [],
    encode: (char) => [LATIN1_TABLE.indexOf(char)],
  },
  {
    codec: windows1252,
    bom: [],
    alphabet: [...common, 'é', '€', '‰', 'Ÿ'],
    foreign: ['中', 'ā'],
    lossy: windows1252Undefined.map((byte) => [byte]),
    encode: (char) => [windows1252Table.indexOf(char)],
  },
];

interface Case {
  readonly encoding: Encoding;
  readonly atoms: readonly Atom[];
  readonly file: Uint8Array;
  readonly text: string;
  readonly edits: readonly TextEdit[];
}

type Splice = (
  path: string,
  file: Uint8Array,
  codec: TextCodec,
  planned: string,
  edits: readonly TextEdit[],
) => {
  bytes: Uint8Array;
};

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)];
}

/** A random file of atoms (characters, line breaks of every kind, lossy bytes) and random edits of its text. */
function randomCase(random: () => number): Case {
  const encoding = pick(random, encodings);
  const atoms: Atom[] = [];
  const count = Math.floor(random() * 40);
  for (let index = 0; index < count; index++) {
    const roll = random();
    if (roll < 0.15) {
      const lineBreak = pick(random, breaks);
      // A lone CR followed by LF would read as one CRLF: the generator never puts them side by side.
      if (lineBreak === '\n' && atoms[atoms.length - 1]?.text === '\r') continue;
      atoms.push({
        bytes: encoding.encode(lineBreak === '\r\n' ? '\r' : lineBreak),
        text: lineBreak === '\r\n' ? '\r' : lineBreak,
        lossy: false,
      });
      if (lineBreak === '\r\n') atoms.push({ bytes: encoding.encode('\n'), text: '\n', lossy: false });
    } else if (roll < 0.22 && encoding.lossy.length > 0) {
      atoms.push({ bytes: pick(random, encoding.lossy), text: '\uFFFD', lossy: true });
    } else {
      const char = pick(random, encoding.alphabet);
      // A lone high surrogate (UTF-16 holds one) must not meet a low one.
      atoms.push({ bytes: encoding.encode(char), text: char, lossy: false });
    }
  }
  const withBom = encoding.bom.length > 0 && random() < 0.7;
  const file = Uint8Array.from([...(withBom ? encoding.bom : []), ...atoms.flatMap((atom) => atom.bytes)]);
  const text = atoms.map((atom) => atom.text).join('');
  // Edit boundaries fall between atoms, except inside a CRLF (two atoms) or a surrogate pair (one atom).
  const boundaries = [0];
  for (const [index, atom] of atoms.entries()) {
    const at = boundaries[boundaries.length - 1] + atom.text.length;
    if (!(atom.text === '\r' && atoms[index + 1]?.text === '\n')) boundaries.push(at);
    else boundaries.push(Number.NaN);
  }
  const usable = boundaries.filter((offset) => !Number.isNaN(offset));
  const cuts = [...new Set(Array.from({ length: Math.floor(random() * 6) }, () => pick(random, usable)))].sort(
    (a, b) => a - b,
  );
  const edits: TextEdit[] = [];
  for (let index = 0; index + 1 < cuts.length; index += 2) {
    const replacement = Array.from({ length: Math.floor(random() * 4) }, () =>
      random() < 0.1 && encoding.foreign.length > 0
        ? pick(random, encoding.foreign)
        : random() < 0.2
          ? pick(random, ['\n', '\r\n'])
          : pick(
              random,
              encoding.alphabet.filter((char) => char !== '\ud800'),
            ),
    ).join('');
    edits.push({ start: cuts[index], end: cuts[index + 1], text: replacement });
  }
  if (cuts.length % 2 === 1) edits.push({ start: cuts[cuts.length - 1], end: cuts[cuts.length - 1], text: 'x' });
  return { encoding, atoms, file, text, edits };
}

/** The byte offset of each text offset, from the atoms (independent of the codec's own scan). */
function byteOffsetOf(testCase: Case, offset: number): number {
  let bytesBefore = testCase.file.length - testCase.atoms.reduce((sum, atom) => sum + atom.bytes.length, 0);
  let units = 0;
  for (const atom of testCase.atoms) {
    if (units >= offset) break;
    units += atom.text.length;
    bytesBefore += atom.bytes.length;
  }
  return bytesBefore;
}

function commonPrefix(a: Uint8Array, b: Uint8Array): number {
  let length = 0;
  while (length < a.length && length < b.length && a[length] === b[length]) length++;
  return length;
}

function commonSuffix(a: Uint8Array, b: Uint8Array): number {
  let length = 0;
  while (length < a.length && length < b.length && a[a.length - 1 - length] === b[b.length - 1 - length]) length++;
  return length;
}

/**
 * Runs one case through `splice` and returns what is wrong, or undefined. Expected: refused when a
 * change replaces lossy bytes or writes a character the encoding lacks; otherwise the new bytes read
 * as the edited text, the bytes before the first change and after the last are the file's own, and a
 * revert (planned on the new text, back to the old one) gives back the original bytes exactly.
 */
function problemOf(testCase: Case, splice: Splice): string | undefined {
  const { encoding, file, text, edits } = testCase;
  const codec = encoding.codec;
  const changes = edits.map((edit) => trimmed(text, edit)).filter((edit) => edit.start !== edit.end || edit.text);
  const lossyUnits = new Set<number>();
  let unit = 0;
  for (const atom of testCase.atoms) {
    if (atom.lossy) lossyUnits.add(unit);
    unit += atom.text.length;
  }
  const losesBytes = changes.some((edit) => [...lossyUnits].some((at) => at >= edit.start && at < edit.end));
  const unwritable = changes.some((edit) => [...edit.text].some((char) => encoding.foreign.includes(char)));
  let result: { bytes: Uint8Array };
  try {
    result = splice('a.txt', file, codec, text, edits);
  } catch (error) {
    if (losesBytes && error instanceof LostBytes) return undefined;
    if (unwritable && error instanceof UnwritableText) return undefined;
    return `refused unexpectedly: ${error instanceof Error ? error.message : String(error)}`;
  }
  if (losesBytes || unwritable) return `written although it ${losesBytes ? 'loses bytes' : 'cannot be encoded'}`;
  const bom =
    encoding.bom.length > 0 && encoding.bom.every((byte, index) => file[index] === byte) ? encoding.bom.length : 0;
  const expected = applyEdits(text, edits);
  if (codec.decode(result.bytes.subarray(bom)) !== expected) return 'the new bytes do not read as the edited text';
  if (bom && commonPrefix(result.bytes, file) < bom) return 'the byte order mark changed';
  if (changes.length > 0) {
    if (commonPrefix(result.bytes, file) < byteOffsetOf(testCase, changes[0].start))
      return 'a byte before the first change changed';
    if (commonSuffix(result.bytes, file) < file.length - byteOffsetOf(testCase, changes[changes.length - 1].end))
      return 'a byte after the last change changed';
  } else if (Buffer.compare(Buffer.from(result.bytes), Buffer.from(file)) !== 0)
    return 'bytes changed without a change';
  let back: { bytes: Uint8Array };
  try {
    back = splice('a.txt', result.bytes, codec, expected, diffEdits(expected, text));
  } catch (error) {
    return `the revert was refused: ${error instanceof Error ? error.message : String(error)} (${JSON.stringify({ text, expected, revert: diffEdits(expected, text) })})`;
  }
  if (Buffer.compare(Buffer.from(back.bytes), Buffer.from(file)) !== 0)
    return 'the revert does not give back the original bytes';
  return undefined;
}

/** What a writer that decodes, edits and encodes the whole file again would do (the mutation the trial must catch). */
const reencodingSplice: Splice = (path, file, codec, _planned, edits) => {
  const bom = codec.bom.length > 0 && codec.bom.every((byte, index) => file[index] === byte) ? codec.bom.length : 0;
  const text = applyEdits(codec.decode(file.subarray(bom)), edits);
  const encoded = codec.encode(text);
  if ('unwritable' in encoded) throw new UnwritableText(path, encoded.unwritable, codec.encoding);
  return { bytes: Buffer.concat([file.subarray(0, bom), encoded.bytes]) };
};

describe('byte splice: hostile files and plans are written exactly or refused', () => {
  it("the reviewer's cases: fragments a deletion would join, an odd last byte of UTF-16, a lone CR under the editor's view", () => {
    const joined = Buffer.concat([
      Buffer.from('x = "'),
      bytes(0xc3),
      Buffer.from('" + "'),
      bytes(0xa9),
      Buffer.from('"\n'),
    ]);
    const text = utf8.decode(joined);
    const at = text.indexOf('" + "');
    assert.throws(() => spliceEdits('a.py', joined, utf8, text, [{ start: at, end: at + 5, text: '' }]), LostBytes);
    const odd = Buffer.concat([bytes(0xff, 0xfe), Buffer.from('a\n', 'utf16le'), bytes(0x41)]);
    const oddText = utf16le.decode(odd.subarray(2));
    assert.throws(
      () =>
        spliceEdits('b.txt', odd, utf16le, oddText, [{ start: oddText.length, end: oddText.length, text: 'end\n' }]),
      LostBytes,
    );
    assert.throws(
      () =>
        spliceEdits('c.txt', Buffer.from('one\rtwo\n'), utf8, 'one\ntwo\n', [{ start: 4, end: 4, text: '\nnew\n' }]),
      LineBreaksCannotCarry,
    );
  });

  it('random bytes, odd lengths, lone CRs and plans on the editor’s view (3,000 cases): never a byte lost unsaid', () => {
    const random = seededRandom(4242);
    const refusals = [LostBytes, UnwritableText, NotPlannedText, LineBreaksCannotCarry];
    const soup = [
      [0xff],
      [0xc3],
      [0xa9],
      [0xe2, 0x82],
      [0x80],
      [0xf0, 0x9f],
      [0x0d],
      [0x0a],
      [0x0d, 0x0a],
      [0x41],
      [0x20],
    ];
    let written = 0;
    let refused = 0;
    for (let round = 0; round < 3000; round++) {
      const codec = pick(random, [utf8, utf16le, utf16be, latin1]);
      const body: number[] = [];
      for (let index = Math.floor(random() * 14); index > 0; index--) {
        if (codec === utf8) body.push(...pick(random, soup));
        else {
          const char = pick(random, ['a', '\r', '\n', 'é', '😀', '\r\n']);
          if (codec === latin1) body.push(...Buffer.from(char === '😀' ? 'x' : char, 'latin1'));
          else if (codec === utf16le) body.push(...Buffer.from(char, 'utf16le'));
          else body.push(...Buffer.from(char, 'utf16le').swap16());
        }
      }
      // An odd last byte: UTF-16 reads it as one U+FFFD.
      if (codec !== utf8 && codec !== latin1 && random() < 0.3) body.push(0x41);
      const file = Uint8Array.from(body);
      const text = codec.decode(file);
      // Half the plans are made on the editor's view: every break one kind.
      const view = random() < 0.5 ? text : text.replace(/\r\n|\r|\n/g, random() < 0.5 ? '\n' : '\r\n');
      const cuts = [...new Set(Array.from({ length: 2 }, () => Math.floor(random() * (view.length + 1))))].sort(
        (a, b) => a - b,
      );
      const edit = {
        start: cuts[0],
        end: cuts[cuts.length - 1],
        text: pick(random, ['', 'x', '\n', 'é\r\n', '\uFFFD']),
      };
      const label = `case ${round} (${codec.encoding}): ${JSON.stringify({ body, view, edit })}`;
      let result;
      try {
        result = spliceEdits('f', file, codec, view, [edit]);
      } catch (error) {
        if (error instanceof InvalidEdit) continue; // a cut inside a CRLF or a surrogate pair of the view
        assert.ok(
          refusals.some((kind) => error instanceof kind),
          `${label}: ${String(error)}`,
        );
        refused++;
        continue;
      }
      written++;
      assert.equal(codec.decode(result.bytes), result.text, `${label}: the bytes do not read as the text`);
      assert.ok(sameLines(result.text, applyEdits(view, [edit])), `${label}: not the planned lines`);
      const back = (() => {
        try {
          return spliceEdits('f', result.bytes, codec, result.text, diffEdits(result.text, text)).bytes;
        } catch (error) {
          assert.ok(
            refusals.some((kind) => error instanceof kind),
            `${label}: the revert: ${String(error)}`,
          );
          return undefined;
        }
      })();
      if (back) assert.deepEqual([...back], [...file], `${label}: the revert`);
    }
    assert.ok(written > 1000 && refused > 100, `written ${written}, refused ${refused}`);
  });
});

describe('byte splice: seeded randomized trial', () => {
  const cases = Array.from({ length: 1500 }, (_, index) => randomCase(seededRandom(1000 + index)));

  it('1,500 files in UTF-8 (with and without a mark), UTF-16 LE/BE, Latin-1 and windows-1252: bytes outside the changes kept, the revert exact', () => {
    const problems = cases.flatMap((testCase, index) => {
      const problem = problemOf(testCase, spliceEdits);
      return problem ? [`case ${index} (${testCase.encoding.codec.encoding}, seed ${1000 + index}): ${problem}`] : [];
    });
    assert.deepEqual(problems.slice(0, 5), []);
    const written = cases.filter((testCase) => testCase.edits.length > 0).length;
    assert.ok(written > 1000, `only ${written} cases had edits`);
    const lossyFiles = cases.filter((testCase) => testCase.atoms.some((atom) => atom.lossy)).length;
    assert.ok(lossyFiles > 200, `only ${lossyFiles} cases had bytes the encoding cannot read`);
  });

  it('fails a writer that encodes the whole file again', () => {
    const caught = cases.filter((testCase) => problemOf(testCase, reencodingSplice) !== undefined).length;
    assert.ok(caught > 100, `the trial caught the re-encoding writer in only ${caught} cases`);
  });
});
