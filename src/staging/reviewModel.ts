/**
 * The human's review of staged changes, as data: the rows of the Staged Edits view (a change, the
 * file it moves, its files, their hunks, each kept or dropped), the lenses on the proposed side,
 * which change a command is about, and the words the person who clicked reads. The editor glue
 * (`vscode/stagingReview.ts`) turns these into tree items, lenses and notifications.
 */
import * as path from 'node:path';
import { plural } from '../platform/wording';
import { DisplayPath, driftList, keptSize, sizeOf } from './answers';
import { Hunk, keptEdits } from './hunks';
import { droppedHunks, hunkPreview, StagedEdit, StagedFile } from './stagedEdit';
import {
  AlreadyResolved,
  MergeRefused,
  NothingKept,
  ResolutionInProgress,
  StaleStagedEdit,
  UnknownStagedEdit,
} from './stagingErrors';

/** Tree nodes: a staged change, the file it moves, its files, and their hunks (which the human keeps or drops). */
export type ReviewNode =
  | { readonly kind: 'edit'; readonly id: string }
  | { readonly kind: 'move'; readonly id: string }
  | { readonly kind: 'file'; readonly id: string; readonly path: string }
  | { readonly kind: 'hunk'; readonly id: string; readonly path: string; readonly hunk: number };

export function isReviewNode(value: unknown): value is ReviewNode {
  const node = value as Partial<ReviewNode> | undefined;
  return (
    typeof node === 'object' &&
    node !== null &&
    (node.kind === 'edit' || node.kind === 'move' || node.kind === 'file' || node.kind === 'hunk') &&
    typeof node.id === 'string'
  );
}

/** Above this many hunks in a change, its files start collapsed in the view. */
export const EXPANDED_HUNKS_CAP = 30;

/** One row of the Staged Edits view, as the glue shows it. */
export interface ReviewRow {
  readonly id: string;
  readonly label: string;
  readonly description?: string;
  /** Markdown for a change's row, plain text otherwise. */
  readonly tooltip: string;
  readonly tooltipIsMarkdown?: boolean;
  readonly contextValue: 'stagedEdit' | 'stagedMove' | 'stagedFile' | 'stagedHunk';
  readonly icon: 'diff' | 'go-to-file' | 'file' | undefined;
  readonly collapsible: 'expanded' | 'collapsed' | 'none';
  /** A file row shows its file (its icon and the resource's decorations). */
  readonly resource?: string;
  /** Kept (checked) or dropped, with what a click would do. */
  readonly checkbox?: { readonly kept: boolean; readonly tooltip: string };
  /** A click opens the file's diff. */
  readonly opensDiff: boolean;
}

/** The children of a node (the roots: every pending change, oldest first). */
export function reviewChildren(
  node: ReviewNode | undefined,
  pending: () => readonly StagedEdit[],
  get: (id: string) => StagedEdit | undefined,
): ReviewNode[] {
  if (!node) return pending().map((edit) => ({ kind: 'edit', id: edit.id }));
  const edit = get(node.id);
  if (node.kind === 'edit')
    return [
      ...(edit?.move ? [{ kind: 'move' as const, id: node.id }] : []),
      ...(edit?.files ?? []).map((file) => ({ kind: 'file' as const, id: node.id, path: file.path })),
    ];
  if (node.kind === 'file') {
    const file = edit?.files.find((candidate) => candidate.path === node.path);
    return (file?.hunks ?? []).map((hunk) => ({
      kind: 'hunk' as const,
      id: node.id,
      path: node.path,
      hunk: hunk.index,
    }));
  }
  return [];
}

/** How a node's row reads, from its change (absent: resolved meanwhile). */
export function reviewRow(node: ReviewNode, edit: StagedEdit | undefined, display: DisplayPath): ReviewRow {
  if (node.kind === 'edit') {
    return {
      id: node.id,
      label: node.id,
      description: edit?.summary,
      tooltip: edit
        ? `**${edit.id}** — ${edit.summary}\n\n${sizeOf(edit)}, staged by \`${edit.origin}\` at ${new Date(edit.stagedAt).toLocaleTimeString()}` +
          `${edit.conversation === 'window' ? '' : ' in a chat session'}.`
        : node.id,
      tooltipIsMarkdown: true,
      contextValue: 'stagedEdit',
      icon: 'diff',
      collapsible: 'expanded',
      opensDiff: false,
    };
  }
  if (node.kind === 'move') {
    const from = edit?.move ? display(edit.move.from) : '?';
    const to = edit?.move ? display(edit.move.to) : '?';
    return {
      id: `${node.id}:move`,
      label: `moves ${path.basename(from)} → ${path.basename(to)}`,
      description: `${from} → ${to}`,
      tooltip: `Accept moves ${from} to ${to} (after the edits below); the move is part of the change and is not dropped alone.`,
      contextValue: 'stagedMove',
      icon: 'go-to-file',
      collapsible: 'none',
      opensDiff: false,
    };
  }
  const file = edit?.files.find((candidate) => candidate.path === node.path);
  const dropped = new Set(edit?.dropped[node.path] ?? []);
  const shown = display(node.path);
  if (node.kind === 'hunk') {
    const hunk = file?.hunks[node.hunk];
    const preview = file && hunk ? hunkPreview(file, hunk) : '';
    const kept = !dropped.has(node.hunk);
    return {
      id: `${node.id}:${node.path}:${node.hunk}`,
      label: `line ${hunk?.line ?? '?'}`,
      description: preview,
      tooltip: `${shown}:${hunk?.line ?? '?'} (${preview})`,
      contextValue: 'stagedHunk',
      icon: undefined,
      collapsible: 'none',
      checkbox: {
        kept,
        tooltip: kept
          ? 'Kept: Accept writes it. Uncheck to drop it.'
          : 'Dropped: Accept leaves it out. Check to keep it.',
      },
      opensDiff: true,
    };
  }
  const total = file?.hunks.length ?? 0;
  const hunkTotal = edit?.files.reduce((sum, candidate) => sum + candidate.hunks.length, 0) ?? 0;
  const folder = path.posix.dirname(shown);
  const replacements = file?.edits.length ?? 0;
  const kept = file && edit ? keptEdits(file.edits, file.hunks, edit.dropped[node.path]).length : 0;
  const count = file?.lifecycle
    ? `${file.lifecycle === 'create' ? 'created' : 'deleted'}${dropped.size > 0 ? ' (dropped)' : ''}`
    : dropped.size === 0
      ? plural(replacements, 'replacement')
      : `${kept} of ${plural(replacements, 'replacement')} kept`;
  const anyKept = dropped.size < total;
  return {
    id: `${node.id}:${node.path}`,
    label: path.basename(node.path),
    description: `${folder === '.' ? '' : `${folder} · `}${count}`,
    tooltip: `${shown} — open the diff of ${node.id}`,
    contextValue: 'stagedFile',
    icon: 'file',
    collapsible: hunkTotal <= EXPANDED_HUNKS_CAP ? 'expanded' : 'collapsed',
    resource: node.path,
    checkbox: {
      kept: anyKept,
      tooltip: anyKept ? 'Uncheck to drop every change of this file.' : 'Check to keep every change of this file.',
    },
    opensDiff: true,
  };
}

/** The tab label of a one-file review (the multi-file editor adds "(N files)" to its own). */
export function diffTitle(edit: Pick<StagedEdit, 'id'>, file: string): string {
  return `${path.basename(file)} ↔ proposed (${edit.id})`;
}

/**
 * Which change a command is about: an id, a tree node, else the change the active tab reviews,
 * else the only pending one; `pick` when several are pending and the human must choose.
 */
export function commandTarget(
  argument: unknown,
  active: string | undefined,
  pending: readonly Pick<StagedEdit, 'id'>[],
): string | 'pick' | undefined {
  if (typeof argument === 'string') return argument;
  if (isReviewNode(argument)) return argument.id;
  if (active) return active;
  if (pending.length <= 1) return pending[0]?.id;
  return 'pick';
}

/** What the person who clicked Accept reads. */
export function acceptedMessage(edit: StagedEdit, unsaved: readonly string[], display: DisplayPath): string {
  const notSaved = unsaved.length ? ` Not saved: ${unsaved.map(display).join(', ')}.` : '';
  const dropped = droppedHunks(edit).length;
  return `Accepted ${edit.id}: wrote ${keptSize(edit)}${dropped ? `; left out the ${plural(dropped, 'change')} you dropped` : ''}.${notSaved}`;
}

/** The same outcomes the model reads, worded for the person who clicked; `warning` for a drift (nothing wrong with the click). */
export function uiErrorText(
  error: unknown,
  display: DisplayPath,
): { readonly text: string; readonly warning: boolean } {
  if (error instanceof StaleStagedEdit) {
    return {
      text: `${error.id} was not accepted because files changed since it was staged: ${driftList(error.drifted, display)}. Nothing was written; discard it and ask the agent to redo the change.`,
      warning: true,
    };
  }
  if (error instanceof MergeRefused) {
    const where = error.conflicts
      .map((conflict) => `${display(conflict.path)} line ${conflict.lines.map((range) => range.line).join(', ')}`)
      .join('; ');
    return {
      text: `${error.id} was not accepted: changes you kept meet edits made since it was staged, at ${where} (in the file now). Nothing was written; uncheck those changes in the Staged Edits view and accept again.`,
      warning: true,
    };
  }
  const text =
    error instanceof AlreadyResolved
      ? error.message
      : error instanceof UnknownStagedEdit
        ? `There is no staged edit ${error.id}.`
        : error instanceof ResolutionInProgress
          ? `${error.id} is being accepted or discarded already.`
          : error instanceof NothingKept
            ? `${error.id} was not accepted: you dropped every change of it. Check a change in the Staged Edits view to keep it, or discard ${error.id}.`
            : `Could not resolve the staged edit: ${error instanceof Error ? error.message : String(error)}`;
  return { text, warning: false };
}

/** A lens on the proposed side: the 0-based line, and whether a click drops the hunk or takes it back. */
export interface HunkLens {
  readonly line: number;
  readonly hunk: number;
  readonly drop: boolean;
  readonly title: string;
}

/** The lenses of a pending change's file on its proposed side. */
export function hunkLenses(edit: StagedEdit, file: StagedFile): HunkLens[] {
  if (edit.state !== 'pending') return [];
  const dropped = new Set(edit.dropped[file.path] ?? []);
  return file.hunks.map((hunk) => {
    const drop = !dropped.has(hunk.index);
    return {
      line: proposedLineOf(edit, file, hunk),
      hunk: hunk.index,
      drop,
      title: drop ? 'Drop this change' : 'Take this change back',
    };
  });
}

/** 0-based line of the proposed side where `hunk` starts: its captured line, moved by the line breaks the kept hunks before it add or remove. */
export function proposedLineOf(edit: Pick<StagedEdit, 'dropped'>, file: StagedFile, hunk: Hunk): number {
  const dropped = new Set(edit.dropped[file.path] ?? []);
  let shift = 0;
  for (const before of file.hunks.slice(0, hunk.index)) {
    if (dropped.has(before.index)) continue;
    for (const change of file.edits.slice(before.first, before.first + before.count))
      shift += lineBreaks(change.text) - lineBreaks(file.original.slice(change.start, change.end));
  }
  return Math.max(0, hunk.line - 1 + shift);
}

function lineBreaks(text: string): number {
  let count = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) count++;
  return count;
}
