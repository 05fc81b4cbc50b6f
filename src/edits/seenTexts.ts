/**
 * What each conversation last saw of each file through our tools: the text it wrote, staged, or was
 * told about when a write was refused. The writer compares a file's text now with it: a whole-file
 * write from a copy someone else changed since is refused (showing what changed), an anchored edit
 * says which lines others changed. Bounded in characters (the least recently used go first); a
 * forgotten file has no basis, and is written as before.
 */

/** Default bound, in characters, of every conversation's texts together. */
export const SEEN_TEXTS_MAX_CHARS = 32_000_000;

export class SeenTexts {
  private readonly texts = new Map<string, string>();
  private total = 0;

  constructor(private readonly maxChars = SEEN_TEXTS_MAX_CHARS) {}

  get(conversation: string, path: string): string | undefined {
    return this.texts.get(key(conversation, path));
  }

  /** Remembers `text` as what `conversation` last saw of `path` (undefined: the file is gone for it). */
  set(conversation: string, path: string, text: string | undefined): void {
    const at = key(conversation, path);
    const known = this.texts.get(at);
    if (known !== undefined) {
      this.total -= known.length;
      this.texts.delete(at);
    }
    if (text === undefined) return;
    this.texts.set(at, text);
    this.total += text.length;
    for (const [oldest, oldText] of this.texts) {
      if (this.total <= this.maxChars || oldest === at) break;
      this.texts.delete(oldest);
      this.total -= oldText.length;
    }
  }

  /** Forgets a conversation's texts (it ended). */
  forget(conversation: string): void {
    const prefix = `${conversation}\0`;
    for (const [at, text] of this.texts) {
      if (!at.startsWith(prefix)) continue;
      this.texts.delete(at);
      this.total -= text.length;
    }
  }

  /** Characters held now. */
  get size(): number {
    return this.total;
  }
}

function key(conversation: string, path: string): string {
  return `${conversation}\0${path}`;
}
