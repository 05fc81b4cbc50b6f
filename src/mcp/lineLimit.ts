/**
 * Whole lines (one JSON-RPC message each) out of a stream, capped: the MCP session reads what a
 * client sends through it, and the hook what the window answers. No `vscode`, no SDK here (the
 * bridge's bundle has it too).
 */
import { Transform, TransformCallback } from 'node:stream';

/**
 * Passes what a client sends on as whole lines (one message each), and calls `exceeded` (once, then
 * passes nothing more) when a line grows past `max` bytes. Whole lines: the SDK's reader appends
 * each chunk to the bytes it holds by copying them all (`Buffer.concat`), which for a message of many
 * chunks is quadratic; here a line's chunks are kept apart and joined once.
 */
export class LineLimit extends Transform {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private over = false;

  constructor(
    private readonly max: number,
    private readonly exceeded: () => void,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    if (this.over) return done();
    let from = 0;
    for (let newline = chunk.indexOf(0x0a); newline !== -1; newline = chunk.indexOf(0x0a, from)) {
      if (!this.hold(chunk.subarray(from, newline + 1), newline - from)) return done();
      this.push(this.pending.length === 1 ? this.pending[0] : Buffer.concat(this.pending, this.pendingBytes));
      this.pending = [];
      this.pendingBytes = 0;
      from = newline + 1;
    }
    if (from < chunk.length && !this.hold(chunk.subarray(from), chunk.length - from)) return done();
    done();
  }

  /** Holds a piece of the current line (`length` bytes of it count: its newline does not); false once the line is past the cap. */
  private hold(piece: Buffer, length: number): boolean {
    if (this.pendingBytes + length > this.max) {
      this.over = true;
      this.pending = [];
      this.exceeded();
      return false;
    }
    this.pending.push(piece);
    this.pendingBytes += piece.length;
    return true;
  }
}
