/**
 * Whole lines out of a runner's stdout as it comes (go test -json, libtest's JSON, cargo's messages),
 * bounded: a line longer than `maxLine` characters is skipped (counted, never held), and once
 * `maxTotal` characters have come nothing more is split (counted). Each character is looked at once.
 */
export class StreamLines {
  private partial: string[] = [];
  private partialLength = 0;
  private skipping = false;
  private total = 0;
  /** Lines skipped for their length, and characters past the total cap. */
  longLines = 0;
  charactersPastCap = 0;

  constructor(
    private readonly maxLine: number,
    private readonly maxTotal: number,
  ) {}

  /** Calls `line` for each whole line the chunk completes (without its newline or a trailing "\r"). */
  push(chunk: string, line: (text: string) => void): void {
    const room = Math.max(0, this.maxTotal - this.total);
    if (chunk.length > room) {
      this.charactersPastCap += chunk.length - room;
      chunk = chunk.slice(0, room);
    }
    this.total += chunk.length;
    let from = 0;
    for (let newline = chunk.indexOf('\n'); newline !== -1; newline = chunk.indexOf('\n', from)) {
      this.hold(chunk.slice(from, newline));
      if (!this.skipping) line(this.take());
      this.skipping = false;
      this.partial = [];
      this.partialLength = 0;
      from = newline + 1;
    }
    if (from < chunk.length) this.hold(chunk.slice(from));
  }

  /** The last line, when the stream ended without a newline. */
  end(line: (text: string) => void): void {
    if (!this.skipping && this.partialLength > 0) line(this.take());
    this.partial = [];
    this.partialLength = 0;
  }

  private hold(piece: string): void {
    if (this.skipping) return;
    if (this.partialLength + piece.length > this.maxLine) {
      this.skipping = true;
      this.longLines++;
      this.partial = [];
      this.partialLength = 0;
      return;
    }
    this.partial.push(piece);
    this.partialLength += piece.length;
  }

  private take(): string {
    const text = this.partial.length === 1 ? this.partial[0] : this.partial.join('');
    return text.endsWith('\r') ? text.slice(0, -1) : text;
  }
}

/** A JSON object of one line, or undefined (not JSON, not an object). */
export function jsonObject(line: string): Record<string, unknown> | undefined {
  if (!line.startsWith('{')) return undefined;
  try {
    const value: unknown = JSON.parse(line);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
