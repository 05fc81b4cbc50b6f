/**
 * A staged change: several files, each with the text captured when it was staged and the
 * edits proposed for it. Nothing is written until it is accepted; it is resolved once, by the
 * agent (the resolve tool) or by the user (the review UI).
 */
import { TextEdit } from '../edits/textEdits';

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
  /** `original` with `edits` applied: exactly what accepting writes. */
  readonly proposed: string;
}

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
  readonly files: readonly { readonly path: string; readonly original: string; readonly edits: readonly TextEdit[] }[];
}

export function replacementCount(edit: Pick<StagedEdit, 'files'>): number {
  return edit.files.reduce((sum, file) => sum + file.edits.length, 0);
}
