/**
 * Splits a child's byte stream into lines, looking at each byte once: a chunk is scanned for line
 * breaks and nothing already held is scanned again. A line longer than `maxBytes` is never held:
 * from the moment it passes the bound its bytes are only counted, and at its end `onOversized` says
 * how many there were. Line breaks are bytes (0x0a never occurs inside a UTF-8 sequence), so a line
 * is decoded once, whole.
 */
export class BoundedLineReader {
  private parts: Buffer[] = [];
  private held = 0;
  /** Bytes of the current line seen so far, once it is over the bound (its bytes are no longer kept). */
  private skipped: number | undefined;

  constructor(
    private readonly maxBytes: number,
    private readonly onLine: (line: string, bytes: number) => void,
    private readonly onOversized: (bytes: number) => void,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    for (let newline = chunk.indexOf(0x0a); newline !== -1; newline = chunk.indexOf(0x0a, start)) {
      this.take(chunk.subarray(start, newline));
      this.endLine();
      start = newline + 1;
    }
    if (start < chunk.length) this.take(chunk.subarray(start));
  }

  /** The stream ended: what was left without a line break is a last line. */
  end(): void {
    if (this.held > 0 || this.skipped !== undefined) this.endLine();
  }

  private take(piece: Buffer): void {
    if (piece.length === 0) return;
    if (this.skipped !== undefined) {
      this.skipped += piece.length;
    } else if (this.held + piece.length > this.maxBytes) {
      this.skipped = this.held + piece.length;
      this.parts = [];
      this.held = 0;
    } else {
      this.parts.push(piece);
      this.held += piece.length;
    }
  }

  private endLine(): void {
    if (this.skipped !== undefined) {
      const bytes = this.skipped;
      this.skipped = undefined;
      this.onOversized(bytes);
      return;
    }
    const line =
      this.parts.length === 1 ? this.parts[0].toString('utf8') : Buffer.concat(this.parts, this.held).toString('utf8');
    const bytes = this.held;
    this.parts = [];
    this.held = 0;
    this.onLine(line, bytes);
  }
}
