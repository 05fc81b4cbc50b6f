/**
 * What a search needs to rule a file out without reading it: per file which file it was (device and
 * inode), its size, modification and change times and its trigram set (trigrams.ts), within a budget
 * in bytes, the least recently used giving way. A record answers only while the path still leads to
 * that file with that size and those times (the stat made before the read; the change time moves
 * with every write, whatever sets the modification time back); anything else is read as if there
 * were no index. As bytes (`serialize`)
 * it carries a version and a CRC-32: a torn or foreign file is refused whole (`load` false, nothing
 * added). No `vscode` here: the index thread (indexWorker.ts) holds it.
 */
import { crc32 } from 'node:zlib';
import { holdsAll, TRIGRAM_VERSION } from './trigrams';

/** One file as it was indexed. */
export interface TrigramRecord {
  /** Which file it was (a path may lead to another one later: a link retargeted, a folder swapped). */
  readonly dev: number;
  readonly ino: number;
  readonly size: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
  readonly trigrams: Uint16Array;
}

/** What a stat says of a file that a record must match. */
export type FileStat = Omit<TrigramRecord, 'trigrams'>;

/** The default budget: ~1.5 KB per file of Python's library (~40 k such files), ~0.5 KB per JavaScript file. */
export const TRIGRAM_INDEX_BUDGET = 64 * 1024 * 1024;

const MAGIC = 'ALT-TRIGRAMS';
/** Per record besides its path and trigrams: the path's length, dev, ino, size, mtime, ctime, the trigram count. */
const RECORD_FIXED_BYTES = 4 + 8 * 5 + 4;
/** What a record costs held here besides its trigrams: the map entry, the object, the array's header. */
const HELD_OVERHEAD_BYTES = 160;

export class TrigramIndex {
  private readonly records = new Map<string, TrigramRecord>();
  private bytes = 0;
  /** Changed since it was loaded or saved. */
  private changed = false;

  constructor(private readonly budgetBytes: number) {}

  get size(): number {
    return this.records.size;
  }

  /** Whether the file has a record, fresh or not. */
  has(file: string): boolean {
    return this.records.has(file);
  }

  /** What the records take, as counted against the budget. */
  get heldBytes(): number {
    return this.bytes;
  }

  get dirty(): boolean {
    return this.changed;
  }

  saved(): void {
    this.changed = false;
  }

  /** The file's record while it was built from this very file, size and times (then it is the most recently used); a stale one is dropped. */
  fresh(file: string, stat: FileStat): TrigramRecord | undefined {
    const record = this.records.get(file);
    if (!record) return undefined;
    if (
      record.dev === stat.dev &&
      record.ino === stat.ino &&
      record.size === stat.size &&
      record.mtimeMs === stat.mtimeMs &&
      record.ctimeMs === stat.ctimeMs
    ) {
      this.records.delete(file);
      this.records.set(file, record);
      return record;
    }
    this.forget(file);
    return undefined;
  }

  /** True only when the file, unchanged since it was indexed, lacks one of `required` (sorted trigrams). */
  rulesOut(file: string, stat: FileStat, required: Uint16Array): boolean {
    if (required.length === 0) return false;
    const record = this.fresh(file, stat);
    return record !== undefined && !holdsAll(record.trigrams, required);
  }

  put(file: string, record: TrigramRecord): void {
    this.forget(file);
    const cost = costOf(file, record);
    if (cost > this.budgetBytes) return;
    this.records.set(file, record);
    this.bytes += cost;
    this.changed = true;
    for (const [oldest] of this.records) {
      if (this.bytes <= this.budgetBytes) break;
      this.forget(oldest);
    }
  }

  forget(file: string): void {
    const record = this.records.get(file);
    if (!record) return;
    this.records.delete(file);
    this.bytes -= costOf(file, record);
    this.changed = true;
  }

  /**
   * The index as bytes: magic, version, record count, the records (path, size, mtime, ctime,
   * trigrams, little-endian), then a CRC-32 of all before it. Least recently used first, as loaded back.
   */
  serialize(): Buffer {
    const entries = [...this.records].map(([file, record]) => [Buffer.from(file, 'utf8'), record] as const);
    let length = MAGIC.length + 4 + 4;
    for (const [path, record] of entries) length += RECORD_FIXED_BYTES + path.length + record.trigrams.byteLength;
    const out = Buffer.alloc(length + 4);
    let at = out.write(MAGIC, 0, 'latin1');
    at = out.writeUInt32LE(TRIGRAM_VERSION, at);
    at = out.writeUInt32LE(entries.length, at);
    for (const [path, record] of entries) {
      at = out.writeUInt32LE(path.length, at);
      at += path.copy(out, at);
      at = out.writeDoubleLE(record.dev, at);
      at = out.writeDoubleLE(record.ino, at);
      at = out.writeDoubleLE(record.size, at);
      at = out.writeDoubleLE(record.mtimeMs, at);
      at = out.writeDoubleLE(record.ctimeMs, at);
      at = out.writeUInt32LE(record.trigrams.length, at);
      at += copyLittleEndian(record.trigrams, out, at);
    }
    out.writeUInt32LE(crc32(out.subarray(0, at)), at);
    return out;
  }

  /** Adds the records of `bytes` (from `serialize`); false, and nothing added, when they are not an index of this version, or torn. */
  load(bytes: Buffer): boolean {
    const parsed = parse(bytes);
    if (!parsed) return false;
    for (const [file, record] of parsed) this.put(file, record);
    this.changed = false;
    return true;
  }
}

function costOf(file: string, record: TrigramRecord): number {
  return HELD_OVERHEAD_BYTES + file.length * 2 + record.trigrams.byteLength;
}

const littleEndian = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Writes the hashes as little-endian 16-bit words (a copy of the array's bytes where the machine is little-endian). */
function copyLittleEndian(trigrams: Uint16Array, out: Buffer, at: number): number {
  if (littleEndian) return Buffer.from(trigrams.buffer, trigrams.byteOffset, trigrams.byteLength).copy(out, at);
  trigrams.forEach((hash, index) => out.writeUInt16LE(hash, at + index * 2));
  return trigrams.byteLength;
}

function parse(bytes: Buffer): Array<[string, TrigramRecord]> | undefined {
  const header = MAGIC.length + 8;
  if (bytes.length < header + 4 || bytes.toString('latin1', 0, MAGIC.length) !== MAGIC) return undefined;
  if (bytes.readUInt32LE(MAGIC.length) !== TRIGRAM_VERSION) return undefined;
  const end = bytes.length - 4;
  if (crc32(bytes.subarray(0, end)) !== bytes.readUInt32LE(end)) return undefined;
  const count = bytes.readUInt32LE(MAGIC.length + 4);
  const records: Array<[string, TrigramRecord]> = [];
  let at = header;
  for (let index = 0; index < count; index++) {
    if (at + RECORD_FIXED_BYTES > end) return undefined;
    const pathLength = bytes.readUInt32LE(at);
    if (at + RECORD_FIXED_BYTES + pathLength > end) return undefined;
    const file = bytes.toString('utf8', at + 4, at + 4 + pathLength);
    at += 4 + pathLength;
    const dev = bytes.readDoubleLE(at);
    const ino = bytes.readDoubleLE(at + 8);
    const size = bytes.readDoubleLE(at + 16);
    const mtimeMs = bytes.readDoubleLE(at + 24);
    const ctimeMs = bytes.readDoubleLE(at + 32);
    const trigramCount = bytes.readUInt32LE(at + 40);
    at += RECORD_FIXED_BYTES - 4;
    if (at + trigramCount * 2 > end) return undefined;
    const trigrams = new Uint16Array(trigramCount);
    if (littleEndian) new Uint8Array(trigrams.buffer).set(bytes.subarray(at, at + trigramCount * 2));
    else for (let hash = 0; hash < trigramCount; hash++) trigrams[hash] = bytes.readUInt16LE(at + hash * 2);
    at += trigramCount * 2;
    records.push([file, { dev, ino, size, mtimeMs, ctimeMs, trigrams }]);
  }
  return at === end ? records : undefined;
}
