/**
 * What one cell of a kernel produced, in order, bounded: text streams keep a head and a tail with
 * the cut stated in place, a result or an error keeps its own head and tail, images are kept whole,
 * and what the host dropped from the kernel's channel is stated. `formatText` is what a model reads.
 */
import { MAX_MESSAGE_BYTES } from './kernelLimits';

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
 * drops its oldest text, so a flood costs a bounded amount of memory however long it runs. Bytes the
 * host dropped from the kernel's channel are counted and named in a note at the end.
 */
export class OutputCollector {
  private readonly head: KernelPart[] = [];
  private tail: KernelPart[] = [];
  private headChars = 0;
  private tailChars = 0;
  /** Stream text cut between head and tail (the note in place), and text cut out of results and errors. */
  private streamCut = 0;
  private partCut = 0;
  private readonly channel = { tooLong: 0, notMessages: 0, bytes: 0 };

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
    if (part.kind === 'text') return this.addText(part.text, part.stream);
    if (part.kind !== 'image') part = { ...part, text: this.cutMiddle(part.text) };
    if (this.tail.length === 0 && this.streamCut === 0) this.head.push(part);
    else this.tail.push(part);
  }

  /** Characters the kernel dropped itself (it counts them and says so in `done`). */
  addDropped(chars: number): void {
    this.streamCut += chars;
  }

  /** Bytes the host dropped from the kernel's message channel while this cell ran. */
  addDroppedLine(bytes: number, reason: 'too-long' | 'not-a-message'): void {
    if (reason === 'too-long') this.channel.tooLong++;
    else this.channel.notMessages++;
    this.channel.bytes += bytes;
  }

  get cutChars(): number {
    return this.streamCut + this.partCut;
  }

  parts(): KernelPart[] {
    const notes: KernelPart[] = [];
    const { channel } = this;
    if (channel.bytes > 0) {
      const what = [
        channel.tooLong ? `${plural(channel.tooLong, 'line')} over the ${megabytes(MAX_MESSAGE_BYTES)} one message may hold` : '',
        channel.notMessages ? `${plural(channel.notMessages, 'line')} that ${channel.notMessages === 1 ? 'was' : 'were'} no kernel message` : '',
      ];
      notes.push({
        kind: 'text',
        text: `\n[${count(channel.bytes)} bytes on the kernel's message channel (fd 4) were dropped: ${what.filter(Boolean).join(' and ')}. fd 4 belongs to the kernel; print, display() or write to a file instead]\n`,
      });
    }
    if (this.streamCut === 0) return [...this.head, ...this.tail, ...notes];
    const note: KernelPart = { kind: 'text', text: `\n[… ${count(this.streamCut)} characters of output cut …]\n` };
    return [...this.head, note, ...this.tail, ...notes];
  }

  /** A result or an error longer than the text budget keeps its head and tail, the cut stated in place. */
  private cutMiddle(text: string): string {
    if (text.length <= this.headBudget + this.tailBudget) return text;
    const dropped = text.length - this.headBudget - this.tailBudget;
    this.partCut += dropped;
    return `${text.slice(0, this.headBudget)}\n[… ${count(dropped)} characters cut …]\n${text.slice(text.length - this.tailBudget)}`;
  }

  private trimTail(): void {
    let excess = this.tailChars - this.tailBudget;
    const kept: KernelPart[] = [];
    for (const part of this.tail) {
      if (excess > 0 && part.kind === 'text') {
        const drop = Math.min(excess, part.text.length);
        excess -= drop;
        this.tailChars -= drop;
        this.streamCut += drop;
        if (drop < part.text.length) kept.push({ ...part, text: part.text.slice(drop) });
      } else {
        kept.push(part);
      }
    }
    this.tail = kept;
  }
}

function count(n: number): string {
  return n.toLocaleString('en-US');
}

function plural(n: number, noun: string): string {
  return `${count(n)} ${noun}${n === 1 ? '' : 's'}`;
}

function megabytes(bytes: number): string {
  return `${+(bytes / (1024 * 1024)).toFixed(1)} MB`;
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
