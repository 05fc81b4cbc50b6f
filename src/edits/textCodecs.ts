/**
 * How a file's bytes map to the text the editor shows, per encoding (the editor's encoding ids):
 * the text, where each UTF-16 offset of it lies in the bytes, which units were read from bytes that
 * do not encode back (invalid UTF-8, an odd last byte of UTF-16, a byte a code page leaves
 * undefined), and the bytes of a new text. The writer splices with these, so the bytes outside a
 * change are never decoded and encoded again. Every scan is one linear pass over the bytes.
 */

/** The byte order marks the editor recognises, by the encodings that carry them. */
const BOMS: Readonly<Record<string, readonly number[]>> = {
  utf8: [0xef, 0xbb, 0xbf],
  utf8bom: [0xef, 0xbb, 0xbf],
  utf16le: [0xff, 0xfe],
  utf16be: [0xfe, 0xff],
};

/** What a scan of a file's body (the bytes after its byte order mark) found. */
export interface BodyScan {
  /** Byte offset in the body of each requested UTF-16 offset, in the order asked. */
  readonly positions: readonly number[];
  /** UTF-16 offsets of units read from bytes that would not encode back to themselves, ascending. */
  readonly lossy: readonly number[];
}

/** A text's bytes in an encoding, or the first character the encoding cannot hold. */
export type Encoded = { readonly bytes: Uint8Array } | { readonly unwritable: string; readonly at: number };

export interface TextCodec {
  /** The editor's id: `utf8`, `utf8bom`, `utf16le`, `windows1252`… */
  readonly encoding: string;
  /** The byte order mark this encoding recognises (kept when present, never added). */
  readonly bom: readonly number[];
  decode(body: Uint8Array): string;
  /** One pass: where `offsets` (ascending UTF-16 offsets of `decode(body)`) lie, and which units are lossy. */
  scan(body: Uint8Array, offsets: readonly number[]): BodyScan;
  encode(text: string): Encoded;
}

/** The byte order mark at the start of `bytes` for this codec, or none. */
export function bomOf(bytes: Uint8Array, codec: TextCodec): number {
  const bom = codec.bom;
  if (bom.length === 0 || bytes.length < bom.length) return 0;
  return bom.every((byte, index) => bytes[index] === byte) ? bom.length : 0;
}

/** Collects positions while a scan walks the units in order. */
class PositionCollector {
  readonly positions: number[];
  private next = 0;

  constructor(private readonly offsets: readonly number[]) {
    this.positions = new Array<number>(offsets.length);
  }

  /** The unit at `unit` starts at byte `byte`. */
  at(unit: number, byte: number): void {
    while (this.next < this.offsets.length && this.offsets[this.next] <= unit) {
      this.positions[this.next] = byte;
      this.next++;
    }
  }

  /** The body ended at `byte` after `units` units: every remaining offset is its end. */
  end(units: number, byte: number): void {
    while (this.next < this.offsets.length) {
      if (this.offsets[this.next] > units)
        throw new RangeError(`offset ${this.offsets[this.next]} is past the end of the text (${units})`);
      this.positions[this.next] = byte;
      this.next++;
    }
  }
}

const utf8Decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * UTF-8 as the WHATWG decoder reads it (what TextDecoder and the editor do): an invalid
 * sequence becomes one U+FFFD per maximal subpart, which is lossy.
 */
function utf8Codec(encoding: string): TextCodec {
  return {
    encoding,
    bom: BOMS.utf8,
    decode: (body) => utf8Decoder.decode(body),
    scan(body, offsets) {
      const collect = new PositionCollector(offsets);
      const lossy: number[] = [];
      let units = 0;
      let needed = 0;
      let seen = 0;
      let codePoint = 0;
      let lower = 0x80;
      let upper = 0xbf;
      let start = 0;
      for (let index = 0; index < body.length; index++) {
        const byte = body[index];
        if (needed === 0) {
          start = index;
          if (byte <= 0x7f) {
            collect.at(units, index);
            units++;
            continue;
          }
          if (byte >= 0xc2 && byte <= 0xdf) {
            needed = 1;
            codePoint = byte & 0x1f;
          } else if (byte >= 0xe0 && byte <= 0xef) {
            if (byte === 0xe0) lower = 0xa0;
            if (byte === 0xed) upper = 0x9f;
            needed = 2;
            codePoint = byte & 0x0f;
          } else if (byte >= 0xf0 && byte <= 0xf4) {
            if (byte === 0xf0) lower = 0x90;
            if (byte === 0xf4) upper = 0x8f;
            needed = 3;
            codePoint = byte & 0x07;
          } else {
            collect.at(units, index);
            lossy.push(units);
            units++;
          }
          continue;
        }
        if (byte < lower || byte > upper) {
          // The sequence so far is one U+FFFD; this byte starts afresh.
          collect.at(units, start);
          lossy.push(units);
          units++;
          needed = seen = codePoint = 0;
          lower = 0x80;
          upper = 0xbf;
          index--;
          continue;
        }
        lower = 0x80;
        upper = 0xbf;
        codePoint = (codePoint << 6) | (byte & 0x3f);
        seen++;
        if (seen === needed) {
          collect.at(units, start);
          units += codePoint > 0xffff ? 2 : 1;
          needed = seen = codePoint = 0;
        }
      }
      if (needed !== 0) {
        collect.at(units, start);
        lossy.push(units);
        units++;
      }
      collect.end(units, body.length);
      return { positions: collect.positions, lossy };
    },
    encode(text) {
      const lone = loneSurrogate(text);
      if (lone !== undefined) return { unwritable: text[lone], at: lone };
      return { bytes: Buffer.from(text, 'utf8') };
    },
  };
}

/** The offset of the first lone surrogate of `text`, if any (UTF-8 cannot hold one). */
function loneSurrogate(text: string): number | undefined {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        index++;
        continue;
      }
      return index;
    }
    if (code >= 0xdc00 && code <= 0xdfff) return index;
  }
  return undefined;
}

/** UTF-16 in either byte order: two bytes a unit (lone surrogates included); an odd last byte is one lossy U+FFFD. */
function utf16Codec(order: 'le' | 'be'): TextCodec {
  const encoding = `utf16${order}`;
  const toLittleEndian = (bytes: Uint8Array): Buffer => {
    const copy = Buffer.from(bytes.subarray(0, bytes.length - (bytes.length % 2)));
    return order === 'be' ? copy.swap16() : copy;
  };
  return {
    encoding,
    bom: BOMS[encoding],
    decode: (body) => toLittleEndian(body).toString('utf16le') + (body.length % 2 ? '\uFFFD' : ''),
    scan(body, offsets) {
      const units = Math.ceil(body.length / 2);
      const positions = offsets.map((offset) => {
        if (offset > units) throw new RangeError(`offset ${offset} is past the end of the text (${units})`);
        return Math.min(offset * 2, body.length);
      });
      return { positions, lossy: body.length % 2 ? [units - 1] : [] };
    },
    encode(text) {
      const bytes = Buffer.from(text, 'utf16le');
      return { bytes: order === 'be' ? bytes.swap16() : bytes };
    },
  };
}

/**
 * A code page of one byte per character, given as its 256 characters (byte → character, as the
 * editor decodes them). A byte whose character another byte shares (U+FFFD for bytes the code page
 * leaves undefined) does not encode back: lossy.
 */
export function singleByteCodec(encoding: string, table: string): TextCodec {
  if (table.length !== 256) throw new RangeError(`${encoding}: a code page table has 256 characters`);
  const byteOf = new Map<number, number>();
  const shared = new Set<number>();
  for (let byte = 0; byte < 256; byte++) {
    const code = table.charCodeAt(byte);
    if (byteOf.has(code)) shared.add(code);
    else byteOf.set(code, byte);
  }
  for (const code of shared) byteOf.delete(code);
  return {
    encoding,
    bom: [],
    decode(body) {
      const parts: string[] = [];
      const chunk = 8192;
      for (let from = 0; from < body.length; from += chunk) {
        const codes: number[] = [];
        for (let index = from; index < Math.min(body.length, from + chunk); index++)
          codes.push(table.charCodeAt(body[index]));
        parts.push(String.fromCharCode(...codes));
      }
      return parts.join('');
    },
    scan(body, offsets) {
      const positions = offsets.map((offset) => {
        if (offset > body.length) throw new RangeError(`offset ${offset} is past the end of the text (${body.length})`);
        return offset;
      });
      const lossy: number[] = [];
      for (let index = 0; index < body.length; index++)
        if (shared.has(table.charCodeAt(body[index]))) lossy.push(index);
      return { positions, lossy };
    },
    encode(text) {
      const bytes = new Uint8Array(text.length);
      for (let index = 0; index < text.length; index++) {
        const byte = byteOf.get(text.charCodeAt(index));
        if (byte === undefined) return { unwritable: text[index], at: index };
        bytes[index] = byte;
      }
      return { bytes };
    },
  };
}

/** ISO-8859-1 proper: byte n is U+00nn (the WHATWG `latin1` label means windows-1252 instead). */
export const LATIN1_TABLE = Array.from({ length: 256 }, (_, byte) => String.fromCharCode(byte)).join('');

/** The editor's encodings that are one byte a character (their tables come from the editor's own decoding). */
export const SINGLE_BYTE_ENCODINGS: ReadonlySet<string> = new Set([
  'windows1252',
  'iso88591',
  'iso88593',
  'iso885915',
  'macroman',
  'cp437',
  'windows1256',
  'iso88596',
  'windows1257',
  'iso88594',
  'iso885914',
  'windows1250',
  'iso88592',
  'cp852',
  'windows1251',
  'cp866',
  'cp1125',
  'iso88595',
  'koi8r',
  'koi8u',
  'iso885913',
  'windows1253',
  'iso88597',
  'windows1255',
  'iso88598',
  'iso885910',
  'iso885916',
  'windows1254',
  'iso88599',
  'windows1258',
  'windows874',
  'iso885911',
  'koi8ru',
  'koi8t',
  'cp865',
  'cp850',
  'cp857',
]);

/**
 * The codec of an encoding whose bytes this module maps itself: UTF-8 (with or without its mark)
 * and UTF-16; a code page needs its table (`singleByteCodec`). Undefined for the rest (the
 * multi-byte code pages: gbk, shiftjis, big5…), which the writer refuses rather than re-encode.
 */
export function codecFor(encoding: string): TextCodec | undefined {
  if (encoding === 'utf8' || encoding === 'utf8bom') return utf8Codec(encoding);
  if (encoding === 'utf16le') return utf16Codec('le');
  if (encoding === 'utf16be') return utf16Codec('be');
  if (encoding === 'iso88591') return singleByteCodec(encoding, LATIN1_TABLE);
  return undefined;
}

/** The encoding a byte order mark at the start of `bytes` announces (the editor reads by it whatever the settings say). */
export function encodingOfBom(bytes: Uint8Array): 'utf8bom' | 'utf16le' | 'utf16be' | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf8bom';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf16be';
  return undefined;
}
