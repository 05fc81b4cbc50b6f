/**
 * File text kept between searches, keyed by path and checked against size and mtime, so a
 * second search in the same process reads only what changed. Bounded by total characters.
 */
import { promises as fs } from 'node:fs';
import { asText, FileText, surelyOverCap } from './fileMatcher';

interface Entry {
  readonly size: number;
  readonly mtimeMs: number;
  readonly text: string;
}

export class SourceCache {
  private readonly entries = new Map<string, Entry>();
  private characters = 0;

  constructor(private readonly maxCharacters = 64 * 1024 * 1024) {}

  /**
   * The file's text from disk (cached while unchanged), or why it has none (unreadable, binary, or
   * surely longer than `maxLength`: then it is not read).
   */
  async read(file: string, maxLength = Number.POSITIVE_INFINITY): Promise<FileText> {
    let stat;
    try {
      stat = await fs.stat(file);
    } catch {
      this.forget(file);
      return { notText: 'unreadable' };
    }
    if (surelyOverCap(stat.size, maxLength)) {
      this.forget(file);
      return { notText: 'too large', bytes: stat.size };
    }
    const cached = this.entries.get(file);
    if (cached && cached.size === stat.size && cached.mtimeMs === stat.mtimeMs) return cached.text;
    let read: string;
    try {
      read = await fs.readFile(file, 'utf8');
    } catch {
      this.forget(file);
      return { notText: 'unreadable' };
    }
    const text = asText(read);
    this.forget(file);
    if (typeof text !== 'string') return text;
    if (text.length <= this.maxCharacters / 4) {
      this.entries.set(file, { size: stat.size, mtimeMs: stat.mtimeMs, text });
      this.characters += text.length;
      this.evict();
    }
    return text;
  }

  private forget(file: string): void {
    const cached = this.entries.get(file);
    if (!cached) return;
    this.characters -= cached.text.length;
    this.entries.delete(file);
  }

  private evict(): void {
    for (const [file] of this.entries) {
      if (this.characters <= this.maxCharacters) return;
      this.forget(file);
    }
  }
}
