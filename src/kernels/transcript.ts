/**
 * What each kernel ran, for the human: per conversation and language, the agent's cells in order
 * with their description, code, outputs (live while the cell runs) and how they ended, and the
 * kernel's restarts. Bounded: the last MAX_CELLS cells, images within MAX_IMAGE_BYTES over all of
 * them (the oldest give theirs up first), a running cell's output as the kernel's own collector
 * bounds it. `toIpynb` writes it as a Jupyter notebook.
 */
import { CellStatus, KernelPart, KernelResult, OutputCollector } from './kernelResult';
import type { EvalLanguage } from './kernelPool';

export const MAX_CELLS = 100;
export const MAX_IMAGE_BYTES = 16 * 1024 * 1024;

export interface TranscriptCell {
  readonly kind: 'cell';
  /** 1-based, per kernel session (a restart starts again at 1), as a notebook's execution order. */
  readonly order: number;
  readonly description: string;
  readonly code: string;
  readonly startedAt: number;
  status: CellStatus | 'running';
  /** The outputs once it ended (`partsOf` reads a running cell's as they are now). */
  parts: readonly KernelPart[];
  /** While it runs: its output so far, bounded as the agent's answer will be. */
  live?: OutputCollector;
  seconds?: number;
  /** Why the agent's answer says it stopped, when it did not end by itself. */
  stoppedBecause?: KernelResult['stoppedBecause'];
  /** Images given up to the transcript's image budget. */
  imagesDropped: number;
}

export interface TranscriptMark {
  readonly kind: 'mark';
  readonly text: string;
  readonly at: number;
}

export type TranscriptEntry = TranscriptCell | TranscriptMark;

export interface Transcript {
  readonly conversation: string;
  readonly language: EvalLanguage;
  readonly entries: readonly TranscriptEntry[];
  /** Cells left out to stay within MAX_CELLS. */
  readonly droppedCells: number;
  /** Changes on every update (the notebook reloads when it does). */
  readonly version: number;
}

interface MutableTranscript {
  readonly conversation: string;
  readonly language: EvalLanguage;
  entries: TranscriptEntry[];
  droppedCells: number;
  version: number;
  nextOrder: number;
}

/** A running cell: its output as it arrives, then how it ended. */
export interface RunningCell {
  output(part: KernelPart): void;
  end(result: KernelResult): void;
}

export class KernelTranscripts {
  private readonly transcripts = new Map<string, MutableTranscript>();
  private readonly listeners = new Set<(conversation: string, language: EvalLanguage) => void>();

  /** The transcripts, newest activity last. */
  all(): Transcript[] {
    return [...this.transcripts.values()];
  }

  get(conversation: string, language: EvalLanguage): Transcript | undefined {
    return this.transcripts.get(keyOf(conversation, language));
  }

  onDidChange(listener: (conversation: string, language: EvalLanguage) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  began(
    conversation: string,
    language: EvalLanguage,
    cell: { readonly description: string; readonly code: string },
  ): RunningCell {
    const transcript = this.transcriptOf(conversation, language);
    const entry: TranscriptCell = {
      kind: 'cell',
      order: transcript.nextOrder++,
      description: cell.description,
      code: cell.code,
      startedAt: Date.now(),
      status: 'running',
      parts: [],
      imagesDropped: 0,
    };
    transcript.entries.push(entry);
    this.trim(transcript);
    this.changed(transcript);
    const live = new OutputCollector();
    entry.live = live;
    return {
      output: (part) => {
        if (entry.status !== 'running') return;
        live.add(part);
        this.changed(transcript);
      },
      end: (result) => {
        entry.status = result.status;
        entry.live = undefined;
        entry.parts = result.parts;
        entry.seconds = result.seconds;
        entry.stoppedBecause = result.stoppedBecause;
        this.keepImagesWithinBudget(transcript);
        this.changed(transcript);
      },
    };
  }

  /** A line between cells: the kernel restarted, was stopped, or was lost. */
  mark(conversation: string, language: EvalLanguage, text: string): void {
    const transcript = this.transcripts.get(keyOf(conversation, language));
    if (!transcript) return;
    transcript.entries.push({ kind: 'mark', text, at: Date.now() });
    transcript.nextOrder = 1;
    this.trim(transcript);
    this.changed(transcript);
  }

  /** A fresh kernel starts: its cells count from 1 again, after a line saying so (unless one already does). */
  newKernel(conversation: string, language: EvalLanguage): void {
    const transcript = this.transcripts.get(keyOf(conversation, language));
    if (!transcript) return;
    if (transcript.entries.at(-1)?.kind !== 'mark') this.mark(conversation, language, 'A fresh kernel started.');
    transcript.nextOrder = 1;
  }

  /** The conversation ended: its transcripts (and its workers') go with its kernels. */
  forget(belongs: (conversation: string) => boolean): void {
    for (const [key, transcript] of this.transcripts) {
      if (!belongs(transcript.conversation)) continue;
      this.transcripts.delete(key);
      this.changed(transcript);
    }
  }

  private transcriptOf(conversation: string, language: EvalLanguage): MutableTranscript {
    const key = keyOf(conversation, language);
    let transcript = this.transcripts.get(key);
    if (!transcript) {
      transcript = { conversation, language, entries: [], droppedCells: 0, version: 0, nextOrder: 1 };
      this.transcripts.set(key, transcript);
    }
    return transcript;
  }

  private trim(transcript: MutableTranscript): void {
    let cells = transcript.entries.filter((entry) => entry.kind === 'cell').length;
    while (cells > MAX_CELLS) {
      const first = transcript.entries.shift();
      if (first?.kind === 'cell') {
        cells--;
        transcript.droppedCells++;
      }
    }
  }

  /** Over the budget, the oldest cells' images are given up (counted in their place). */
  private keepImagesWithinBudget(transcript: MutableTranscript): void {
    const cells = transcript.entries.filter((entry): entry is TranscriptCell => entry.kind === 'cell');
    let bytes = 0;
    for (const cell of cells) for (const part of cell.parts) if (part.kind === 'image') bytes += part.data.byteLength;
    for (const cell of cells) {
      if (bytes <= MAX_IMAGE_BYTES) return;
      const images = cell.parts.filter((part) => part.kind === 'image');
      if (images.length === 0) continue;
      for (const image of images) bytes -= image.data.byteLength;
      cell.parts = cell.parts.filter((part) => part.kind !== 'image');
      cell.imagesDropped += images.length;
    }
  }

  private changed(transcript: MutableTranscript): void {
    transcript.version++;
    for (const listener of this.listeners) listener(transcript.conversation, transcript.language);
  }
}

function keyOf(conversation: string, language: EvalLanguage): string {
  return `${language}\u0000${conversation}`;
}

/** A cell's outputs: as they are now while it runs, its result's once it ended. */
export function partsOf(cell: TranscriptCell): readonly KernelPart[] {
  return cell.live ? cell.live.parts() : cell.parts;
}

/** How a cell ended, in a few words (the notebook's header line and the export's metadata). */
export function cellOutcome(cell: TranscriptCell): string {
  const took =
    cell.seconds === undefined ? '' : ` in ${cell.seconds < 10 ? cell.seconds.toFixed(2) : Math.round(cell.seconds)} s`;
  switch (cell.status) {
    case 'running':
      return 'running…';
    case 'ok':
      return `ran${took}`;
    case 'error':
      return `raised an error${took}`;
    case 'interrupted':
      return cell.stoppedBecause === 'human'
        ? `interrupted by you${took}`
        : cell.stoppedBecause === 'idle-budget'
          ? `interrupted at its time budget${took}`
          : `interrupted${took}`;
    case 'killed':
    case 'crashed':
      return `lost its kernel${took}`;
  }
}

/** The transcript as a Jupyter notebook (nbformat 4): a markdown line per cell's description, the code, its outputs. */
export function toIpynb(transcript: Transcript): string {
  const cells: unknown[] = [];
  for (const entry of transcript.entries) {
    if (entry.kind === 'mark') {
      cells.push({ cell_type: 'markdown', metadata: {}, source: [`*${entry.text}*`] });
      continue;
    }
    cells.push({ cell_type: 'markdown', metadata: {}, source: [`**${entry.description}** — ${cellOutcome(entry)}`] });
    cells.push({
      cell_type: 'code',
      execution_count: entry.order,
      metadata: {},
      source: sourceLines(entry.code),
      outputs: partsOf(entry).map(ipynbOutput),
    });
  }
  const python = transcript.language === 'python';
  return `${JSON.stringify(
    {
      nbformat: 4,
      nbformat_minor: 5,
      metadata: {
        kernelspec: python
          ? { name: 'python3', display_name: 'Python 3', language: 'python' }
          : { name: 'javascript', display_name: 'JavaScript (Node)', language: 'javascript' },
        language_info: { name: transcript.language },
      },
      cells: cells.map((cell, index) => ({ id: `cell-${index + 1}`, ...(cell as object) })),
    },
    null,
    1,
  )}\n`;
}

function ipynbOutput(part: KernelPart): unknown {
  switch (part.kind) {
    case 'text':
      return { output_type: 'stream', name: part.stream ?? 'stdout', text: sourceLines(part.text) };
    case 'result':
      return {
        output_type: 'execute_result',
        execution_count: null,
        metadata: {},
        data: { 'text/plain': sourceLines(part.text) },
      };
    case 'image':
      return {
        output_type: 'display_data',
        metadata: {},
        data: { 'image/png': Buffer.from(part.data).toString('base64') },
      };
    case 'error':
      return { output_type: 'stream', name: 'stderr', text: sourceLines(part.text) };
  }
}

/** Jupyter keeps text as lines, each with its line break. */
function sourceLines(text: string): string[] {
  return text.split(/(?<=\n)/);
}
