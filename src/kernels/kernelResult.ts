/**
 * What one cell of a kernel produced, in order, bounded: text streams keep a head and a tail with
 * the cut stated in place, a result or an error keeps its own head and tail, images are kept whole
 * up to a count and a size per cell, and what was dropped is stated. `formatText` is what a model reads.
 */
import { MAX_MESSAGE_BYTES } from './kernelLimits';
import { groupedPlural } from '../platform/wording';

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
  /** Why we stopped it, when we did: its idle budget, the caller cancelled, the human interrupted it (the transcript). */
  readonly stoppedBecause?: 'idle-budget' | 'cancelled' | 'human';
  /** Sentences about the kernel rather than the cell (state lost, a fresh kernel started). */
  readonly notes: readonly string[];
  /** Characters of output left out (by the kernel beyond its hard limit, and here between head and tail). */
  readonly cutChars: number;
  readonly seconds: number;
}

export const OUTPUT_HEAD_CHARS = 10_000;
export const OUTPUT_TAIL_CHARS = 10_000;

/**
 * Images one cell may show. Every image stays in the conversation and goes with each later request:
 * Anthropic's API takes 32 MB per request and 100 images, and scales each image down to ~1,600
 * tokens (1.15 megapixels). A matplotlib figure measured 20–200 KB: ten cover a grid of plots and
 * 5 MB ten 300-dpi figures, leaving room for other cells; more is a loop that should write files.
 */
export const MAX_IMAGES_PER_CELL = 10;
export const MAX_IMAGE_BYTES_PER_CELL = 5 * 1024 * 1024;
/**
 * Results (a cell's value, each display()) a cell shows, each cut to head and tail, and together at
 * most the text budget (head and tail) before the next is left out; and errors (a cell has one). More
 * come from a loop of display() or a cell writing kernel messages itself (20,000 forged results once
 * held 2.2 GB in the host): they are counted, not kept.
 */
export const MAX_RESULTS_PER_CELL = 100;
export const MAX_ERRORS_PER_CELL = 10;

export interface OutputBounds {
  readonly headChars: number;
  readonly tailChars: number;
  readonly images: number;
  readonly imageBytes: number;
  readonly results: number;
  readonly errors: number;
}

const DEFAULT_BOUNDS: OutputBounds = {
  headChars: OUTPUT_HEAD_CHARS,
  tailChars: OUTPUT_TAIL_CHARS,
  images: MAX_IMAGES_PER_CELL,
  imageBytes: MAX_IMAGE_BYTES_PER_CELL,
  results: MAX_RESULTS_PER_CELL,
  errors: MAX_ERRORS_PER_CELL,
};

/**
 * Collects a cell's parts as they arrive. Text beyond the head budget goes to a tail window that
 * drops its oldest text, so a flood costs a bounded amount of memory however long it runs. An image
 * is kept while the cell's count and bytes allow (a later, smaller one may still fit); the others
 * are counted and named in a note at the end, like bytes the host dropped from the kernel's channel.
 */
export class OutputCollector {
  private readonly head: KernelPart[] = [];
  /** The tail window; a text part dropped whole leaves a hole (undefined) until the holes are swept. */
  private tail: Array<KernelPart | undefined> = [];
  /** Where the tail's first text part still held is: what comes before is holes or other parts, kept. */
  private firstText = 0;
  private holes = 0;
  private headChars = 0;
  private tailChars = 0;
  /** Stream text cut between head and tail (the note in place), and text cut out of results and errors. */
  private streamCut = 0;
  private partCut = 0;
  private readonly bounds: OutputBounds;
  private readonly images = { kept: 0, keptBytes: 0, dropped: 0, droppedBytes: 0 };
  private readonly results = { kept: 0, keptChars: 0, dropped: 0, droppedChars: 0 };
  private readonly errors = { kept: 0, keptChars: 0, dropped: 0, droppedChars: 0 };
  private readonly channel = { tooLong: 0, notMessages: 0, bytes: 0 };

  constructor(bounds: Partial<OutputBounds> = {}) {
    this.bounds = { ...DEFAULT_BOUNDS, ...bounds };
  }

  addText(text: string, stream?: 'stdout' | 'stderr'): void {
    if (!text) return;
    if (this.tail.length === 0 && this.headChars < this.bounds.headChars) {
      const taken = text.slice(0, this.bounds.headChars - this.headChars);
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
    if (part.kind === 'image') {
      const size = part.data.length;
      if (this.images.kept >= this.bounds.images || this.images.keptBytes + size > this.bounds.imageBytes) {
        this.images.dropped++;
        this.images.droppedBytes += size;
        return;
      }
      this.images.kept++;
      this.images.keptBytes += size;
    } else {
      const tally = part.kind === 'error' ? this.errors : this.results;
      const full =
        part.kind === 'error'
          ? tally.kept >= this.bounds.errors
          : tally.kept >= this.bounds.results || tally.keptChars >= this.bounds.headChars + this.bounds.tailChars;
      if (full) {
        tally.dropped++;
        tally.droppedChars += part.text.length;
        return;
      }
      part = { ...part, text: this.cutMiddle(part.text) };
      tally.kept++;
      tally.keptChars += part.text.length;
    }
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
    const { images, channel } = this;
    if (images.dropped > 0) {
      notes.push({
        kind: 'text',
        text: `\n[${count(images.dropped)} of ${count(images.kept + images.dropped)} images not shown (${count(images.droppedBytes)} bytes): a cell shows at most ${this.bounds.images} images and ${megabytes(this.bounds.imageBytes)} of images in all; save the others to files, or show them in later cells]\n`,
      });
    }
    if (this.results.dropped > 0) {
      notes.push({
        kind: 'text',
        text: `\n[${groupedPlural(this.results.dropped, 'more result', 'more results')} not shown (${count(this.results.droppedChars)} characters): a cell shows at most ${this.bounds.results} results (its value and each display()) and ${count(this.bounds.headChars + this.bounds.tailChars)} characters of them; save the others to a file]\n`,
      });
    }
    if (this.errors.dropped > 0) {
      notes.push({
        kind: 'text',
        text: `\n[${groupedPlural(this.errors.dropped, 'more error', 'more errors')} not shown (${count(this.errors.droppedChars)} characters): a cell shows at most ${this.bounds.errors}]\n`,
      });
    }
    if (channel.bytes > 0) {
      const what = [
        channel.tooLong
          ? `${groupedPlural(channel.tooLong, 'line')} over the ${megabytes(MAX_MESSAGE_BYTES)} one message may hold`
          : '',
        channel.notMessages
          ? `${groupedPlural(channel.notMessages, 'line')} that ${channel.notMessages === 1 ? 'was' : 'were'} no kernel message`
          : '',
      ];
      notes.push({
        kind: 'text',
        text: `\n[${count(channel.bytes)} bytes on the kernel's message channel (fd 4) were dropped: ${what.filter(Boolean).join(' and ')}. fd 4 belongs to the kernel; print, display() or write to a file instead]\n`,
      });
    }
    const tail = this.tail.filter((part): part is KernelPart => part !== undefined);
    if (this.streamCut === 0) return [...this.head, ...tail, ...notes];
    const note: KernelPart = { kind: 'text', text: `\n[… ${count(this.streamCut)} characters of output cut …]\n` };
    return [...this.head, note, ...tail, ...notes];
  }

  /** A result or an error longer than the text budget keeps its head and tail, the cut stated in place. */
  private cutMiddle(text: string): string {
    const { headChars, tailChars } = this.bounds;
    if (text.length <= headChars + tailChars) return text;
    const dropped = text.length - headChars - tailChars;
    this.partCut += dropped;
    return `${text.slice(0, headChars)}\n[… ${count(dropped)} characters cut …]\n${text.slice(text.length - tailChars)}`;
  }

  /**
   * Drops the oldest tail text past the window. Each part is dropped once, from where the last drop
   * stopped: the cost is the parts dropped (alternating streams make a part per message), never the
   * whole tail again; the holes are swept once they outnumber what is held.
   */
  private trimTail(): void {
    let excess = this.tailChars - this.bounds.tailChars;
    for (let at = this.firstText; excess > 0 && at < this.tail.length; at++) {
      const part = this.tail[at];
      if (part?.kind !== 'text') {
        // A hole, or a part kept whole: never looked at again.
        this.firstText = at + 1;
        continue;
      }
      const drop = Math.min(excess, part.text.length);
      excess -= drop;
      this.tailChars -= drop;
      this.streamCut += drop;
      if (drop < part.text.length) {
        this.tail[at] = { ...part, text: part.text.slice(drop) };
        this.firstText = at;
        break;
      }
      this.tail[at] = undefined;
      this.holes++;
      this.firstText = at + 1;
    }
    if (this.holes > 1024 && this.holes * 2 > this.tail.length) {
      const firstHeld = this.tail[this.firstText];
      this.tail = this.tail.filter((part) => part !== undefined);
      this.firstText = firstHeld === undefined ? this.tail.length : this.tail.indexOf(firstHeld);
      this.holes = 0;
    }
  }
}

function count(n: number): string {
  return n.toLocaleString('en-US');
}

function megabytes(bytes: number): string {
  return `${+(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

function appendText(parts: Array<KernelPart | undefined>, text: string, stream?: 'stdout' | 'stderr'): void {
  if (!text) return;
  const last = parts[parts.length - 1];
  if (last?.kind === 'text' && last.stream === stream)
    parts[parts.length - 1] = { kind: 'text', stream, text: last.text + text };
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
