/**
 * A staged change: several files, each with the text captured when it was staged and the
 * edits proposed for it. Nothing is written until it is accepted; it is resolved once, by the
 * agent (the resolve tool) or by the user (the review UI).
 */
import { applyEdits, TextEdit } from '../edits/textEdits';
import { Hunk, keptEdits } from './hunks';

/** What resolving a staged change does: write it (after the drift check) or drop it. */
export const RESOLVE_ACTIONS = ['accept', 'discard'] as const;

export type ResolveAction = (typeof RESOLVE_ACTIONS)[number];

export type Resolver = 'agent' | 'user';

export interface Resolution {
  readonly action: ResolveAction;
  readonly by: Resolver;
  /** Milliseconds since the epoch. */
  readonly at: number;
}

export interface StagedFile {
  /** Absolute file-system path. */
  readonly path: string;
  /** The file's text when the change was staged, as the editor saw it (unsaved edits included). */
  readonly original: string;
  /** Sorted, non-overlapping, in UTF-16 offsets into `original`. */
  readonly edits: readonly TextEdit[];
  /** `original` with every edit applied (what Accept writes when the human dropped nothing). */
  readonly proposed: string;
  /** The edits grouped as the diff shows them; the human may drop any. */
  readonly hunks: readonly Hunk[];
  /** `create`: the file did not exist (`original` is empty); `delete`: Accept removes it (`proposed` is empty). */
  readonly lifecycle?: FileLifecycle;
}

export type FileLifecycle = 'create' | 'delete';

/**
 * A file as Accept writes it: the captured text and the kept edits. `current`: the file's text now,
 * when Accept merged the kept edits into what changed there since (`proposed` is then that merge).
 */
export type WrittenFile = Pick<StagedFile, 'path' | 'original' | 'edits' | 'proposed' | 'lifecycle'> & {
  readonly current?: string;
};

export type StagedState = 'pending' | 'accepted' | 'discarded';

export interface StagedEdit {
  /** `edit_1`, `edit_2`… numbered per window. */
  readonly id: string;
  /** The conversation whose tool call staged it (see platform/conversation.ts). */
  readonly conversation: string;
  /** The tool that staged it (`ast_edit`, `lsp_rename`). */
  readonly origin: string;
  /** One line saying what the change does, e.g. `rename "a" → "b"`. */
  readonly summary: string;
  readonly files: readonly StagedFile[];
  /** A file the change moves (absolute paths), after its edits: the move is written with the kept hunks, never dropped alone. */
  readonly move?: FileMove;
  /**
   * `three-way`: files changed since staging are merged with the kept hunks where they do not meet
   * (a worker's change, made in its copy while others went on); absent: any change refuses the whole.
   */
  readonly merge?: 'three-way';
  /** Who made it, as Agent Changes names the accepted change (`Worker "tidy" (w1)`); absent: the conversation's name. */
  readonly author?: string;
  /** Hunks the human dropped in the review, by file path (sorted indexes); absent files keep all. */
  readonly dropped: Readonly<Record<string, readonly number[]>>;
  readonly stagedAt: number;
  readonly state: StagedState;
  /** Set once the change is accepted or discarded. */
  readonly resolution?: Resolution;
}

/** What a producer hands in: absolute paths, captured texts and edits. */
export interface StageRequest {
  readonly conversation: string;
  readonly origin: string;
  readonly summary: string;
  readonly files: readonly {
    readonly path: string;
    readonly original: string;
    readonly edits: readonly TextEdit[];
    readonly lifecycle?: FileLifecycle;
  }[];
  readonly move?: FileMove;
  readonly merge?: 'three-way';
  readonly author?: string;
}

export interface FileMove {
  readonly from: string;
  readonly to: string;
}

export function replacementCount(edit: { readonly files: readonly Pick<StagedFile, 'edits'>[] }): number {
  return edit.files.reduce((sum, file) => sum + file.edits.length, 0);
}

/** Whether the human dropped any hunk (a change nobody shaped is written whole). */
export function isShaped(edit: Pick<StagedEdit, 'dropped'>): boolean {
  return Object.values(edit.dropped).some((indexes) => indexes.length > 0);
}

/** The files as Accept writes them: the kept edits of each, files with every hunk dropped left out. */
export function keptFiles(edit: Pick<StagedEdit, 'files' | 'dropped'>): WrittenFile[] {
  const kept: WrittenFile[] = [];
  for (const file of edit.files) {
    const dropped = edit.dropped[file.path] ?? [];
    if (dropped.length === 0) {
      kept.push(file);
      continue;
    }
    const edits = keptEdits(file.edits, file.hunks, dropped);
    if (edits.length > 0) kept.push({ ...file, edits, proposed: applyEdits(file.original, edits) });
  }
  return kept;
}

/** The text the review shows on the proposed side of `file`: the captured text with its kept hunks. */
export function shownText(edit: Pick<StagedEdit, 'dropped'>, file: StagedFile): string {
  const dropped = edit.dropped[file.path] ?? [];
  return dropped.length === 0 ? file.proposed : applyEdits(file.original, keptEdits(file.edits, file.hunks, dropped));
}

export interface DroppedHunk {
  readonly path: string;
  readonly hunk: Hunk;
  readonly file: StagedFile;
}

/** Every dropped hunk, in file order. */
export function droppedHunks(edit: Pick<StagedEdit, 'files' | 'dropped'>): DroppedHunk[] {
  return edit.files.flatMap((file) =>
    (edit.dropped[file.path] ?? []).map((index) => ({ path: file.path, hunk: file.hunks[index], file })),
  );
}

/** `const a = 1 → const alpha = 1`: the hunk's first line before and after, trimmed and cut. */
export function hunkPreview(file: Pick<StagedFile, 'original' | 'edits'>, hunk: Hunk, width = 60): string {
  const edits = file.edits.slice(hunk.first, hunk.first + hunk.count);
  const from = file.original.lastIndexOf('\n', edits[0].start - 1) + 1;
  const last = edits[edits.length - 1].end;
  const lineEnd = file.original.indexOf('\n', last);
  const to = lineEnd === -1 ? file.original.length : lineEnd;
  const before = file.original.slice(from, to);
  const after = applyEdits(
    before,
    edits.map((edit) => ({ start: edit.start - from, end: Math.min(edit.end, to) - from, text: edit.text })),
  );
  const firstLine = (text: string): string => {
    const line = (text.split('\n').find((candidate) => candidate.trim() !== '') ?? '').trim();
    return line.length > width ? `${line.slice(0, width - 1)}…` : line;
  };
  return `${firstLine(before)} → ${firstLine(after)}`;
}
