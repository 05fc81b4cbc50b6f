/**
 * What one cell of a kernel produced, in order, bounded: text streams keep a head and a tail with
 * the cut stated in place, images and results are kept whole. `formatText` is what a model reads.
 */

export type KernelPart =
  | { readonly kind: 'text'; readonly stream?: 'stdout' | 'stderr'; readonly text: string }
  | { readonly kind: 'image'; readonly mime: 'image/png'; readonly data: Uint8Array }
  | { readonly kind: 'result'; readonly text: string }
  | { readonly kind: 'error'; readonly text: string };

/** How the cell ended: ran to its end, raised, was interrupted, or lost its kernel (killed or crashed). */
export type CellStatus = 'ok' | 'error' | 'interrupted' | 'killed' | 'crashed';

export interface KernelResult {
  readonly parts: readonly KernelPart[];
  readonly status: CellStatus;
  /** Why we stopped it, when we did. */
  readonly stoppedBecause?: 'idle-budget' | 'cancelled';
  /** Sentences about the kernel rather than the cell (state lost, a fresh kernel started). */
  readonly notes: readonly string[];
  /** Characters of output left out (by the kernel beyond its hard limit, and here between head and tail). */
  readonly cutChars: number;
  readonly seconds: number;
}

export const OUTPUT_HEAD_CHARS = 10_000;
export const OUTPUT_TAIL_CHARS = 10_000;

/**
 * Collects a cell's parts as they arrive. Text beyond the head budget goes to a tail window that
 * drops its oldest text, so a flood costs a bounded amount of memory however long it runs.
 */
export class OutputCollector {
  private readonly head: KernelPart[] = [];
  private tail: KernelPart[] = [];
  private headChars = 0;
  private tailChars = 0;
  private cut = 0;

  constructor(
    private readonly headBudget = OUTPUT_HEAD_CHARS,
    private readonly tailBudget = OUTPUT_TAIL_CHARS,
  ) {}

  addText(text: string, stream?: 'stdout' | 'stderr'): void {
    if (!text) return;
    if (this.tail.length === 0 && this.headChars < this.headBudget) {
      const taken = text.slice(0, this.headBudget - this.headChars);
      this.headChars += taken.length;
      appendText(this.head, taken, stream);
      text = text.slice(taken.length);
      if (!text) return;
    }
    appendText(this.tail, text, stream);
    this.tailChars += text.length;
    this.trimTail();
  }

  add(part: KernelPart): void {
    if (part.kind === 'text') this.addText(part.text, part.stream);
    else if (this.tail.length === 0 && this.cut === 0) this.head.push(part);
    else this.tail.push(part);
  }

  /** Characters the kernel dropped itself (it counts them and says so in `done`). */
  addDropped(chars: number): void {
    this.cut += chars;
  }

  get cutChars(): number {
    return this.cut;
  }

  parts(): KernelPart[] {
    if (this.cut === 0) return [...this.head, ...this.tail];
    const note: KernelPart = { kind: 'text', text: `\n[… ${this.cut.toLocaleString('en-US')} characters of output cut …]\n` };
    return [...this.head, note, ...this.tail];
  }

  private trimTail(): void {
    let excess = this.tailChars - this.tailBudget;
    const kept: KernelPart[] = [];
    for (const part of this.tail) {
      if (excess > 0 && part.kind === 'text') {
        const drop = Math.min(excess, part.text.length);
        excess -= drop;
        this.tailChars -= drop;
        this.cut += drop;
        if (drop < part.text.length) kept.push({ ...part, text: part.text.slice(drop) });
      } else {
        kept.push(part);
      }
    }
    this.tail = kept;
  }
}

function appendText(parts: KernelPart[], text: string, stream?: 'stdout' | 'stderr'): void {
  if (!text) return;
  const last = parts[parts.length - 1];
  if (last?.kind === 'text' && last.stream === stream) parts[parts.length - 1] = { kind: 'text', stream, text: last.text + text };
  else parts.push(stream ? { kind: 'text', stream, text } : { kind: 'text', text });
}

/** The result as a model reads it: notes first, then the cell's output in order, images named by size. */
export function formatText(result: KernelResult): string {
  const pieces: string[] = [];
  for (const note of result.notes) pieces.push(`[${note}]\n`);
  for (const part of result.parts) {
    switch (part.kind) {
      case 'text':
        pieces.push(part.text);
        break;
      case 'image':
        pieces.push(`${endLine(pieces)}[image ${part.mime}, ${part.data.length.toLocaleString('en-US')} bytes]\n`);
        break;
      case 'result':
        pieces.push(`${endLine(pieces)}${part.text}\n`);
        break;
      case 'error':
        pieces.push(`${endLine(pieces)}${part.text.endsWith('\n') ? part.text : `${part.text}\n`}`);
        break;
    }
  }
  const text = pieces.join('').replace(/\n+$/, '');
  return text || '(no output)';
}

function endLine(pieces: readonly string[]): string {
  const last = pieces[pieces.length - 1];
  return last !== undefined && !last.endsWith('\n') ? '\n' : '';
}
