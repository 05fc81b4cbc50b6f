/**
 * The text the model reads about staged changes: what was proposed, what accepting wrote,
 * what a confirmation promises. Paths go through `display` (workspace-relative in the glue).
 */
import {
  droppedHunks,
  hunkPreview,
  isShaped,
  keptFiles,
  replacementCount,
  ResolveAction,
  StagedEdit,
  StagedFile,
} from './stagedEdit';
import type { DriftedFile } from './stagingErrors';
import { plural } from '../platform/wording';

export type DisplayPath = (absolutePath: string) => string;

/** Files listed in an answer; the rest are counted. */
export const STAGED_FILES_CAP = 50;

/** `12 replacements in 4 files` */
export function sizeOf(edit: Pick<StagedEdit, 'files'>): string {
  return `${plural(replacementCount(edit), 'replacement')} in ${plural(edit.files.length, 'file')}`;
}

/** What Accept writes: `12 replacements in 4 files`, or `9 of 10 replacements in 3 files` once the human dropped some. */
export function keptSize(edit: Pick<StagedEdit, 'files' | 'dropped'>): string {
  if (!isShaped(edit)) return sizeOf(edit);
  const kept = keptFiles(edit);
  return `${replacementCount({ files: kept })} of ${plural(replacementCount(edit), 'replacement')} in ${plural(kept.length, 'file')}`;
}

/** `src/a.ts:12 (let a = 1 → let alpha = 1)` per dropped hunk, capped. */
export function droppedLines(edit: Pick<StagedEdit, 'files' | 'dropped'>, display: DisplayPath): string[] {
  const dropped = droppedHunks(edit);
  const lines = dropped
    .slice(0, STAGED_FILES_CAP)
    .map(({ path, hunk, file }) => `${display(path)}:${hunk.line} (${hunkPreview(file, hunk)})`);
  if (dropped.length > STAGED_FILES_CAP)
    lines.push(`… ${dropped.length - STAGED_FILES_CAP} more dropped changes not shown (cap ${STAGED_FILES_CAP}).`);
  return lines;
}

/** The sentence naming what the human dropped, or '' when nothing was. */
export function droppedSentence(edit: Pick<StagedEdit, 'files' | 'dropped'>, display: DisplayPath): string {
  const lines = droppedLines(edit, display);
  if (lines.length === 0) return '';
  return `The user dropped ${plural(droppedHunks(edit).length, 'change')} in the review (not written): ${lines.join('; ')}.`;
}

/** `src/a.ts: 2 replacements` per file, sorted by path, capped. */
export function fileLines(
  edit: { readonly files: readonly Pick<StagedFile, 'path' | 'edits' | 'lifecycle'>[] },
  display: DisplayPath,
  format = (path: string, count: number, lifecycle?: string) => `${path}: ${lifecycle ?? plural(count, 'replacement')}`,
): string[] {
  const files = edit.files
    .map((file) => ({
      path: display(file.path),
      count: file.edits.length,
      lifecycle: file.lifecycle === 'create' ? 'created' : file.lifecycle === 'delete' ? 'deleted' : undefined,
    }))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const lines = files.slice(0, STAGED_FILES_CAP).map((file) => format(file.path, file.count, file.lifecycle));
  if (files.length > STAGED_FILES_CAP)
    lines.push(`… ${files.length - STAGED_FILES_CAP} more files not shown (cap ${STAGED_FILES_CAP}).`);
  return lines;
}

/**
 * What a producer answers after staging. Starts with `(proposed) 12 replacements in 4 files`
 * and ends by telling the model to call resolve with the edit_id.
 */
export function proposedAnswer(edit: StagedEdit, display: DisplayPath): string {
  return [
    `(proposed) ${sizeOf(edit)} — ${edit.summary}. Nothing is written yet; staged as ${edit.id}:`,
    ...fileLines(edit, display),
    `The user sees the diff and can accept or discard it there. Call resolve with edit_id "${edit.id}" and action ` +
      `"accept" to write it (refused as a whole if any of these files changes first), or "discard" to drop it.`,
  ].join('\n');
}

export function acceptedAnswer(edit: StagedEdit, display: DisplayPath, unsaved: readonly string[] = []): string {
  const saved =
    unsaved.length === 0
      ? 'all saved'
      : `saved except ${unsaved.map(display).join(', ')}, left modified and unsaved in the editor`;
  const dropped = droppedSentence(edit, display);
  return [
    `Accepted ${edit.id} (${edit.summary}): wrote ${keptSize(edit)}; ${saved}.`,
    ...fileLines({ files: keptFiles(edit) }, display),
    ...(dropped ? [dropped] : []),
  ].join('\n');
}

export function discardedAnswer(edit: StagedEdit): string {
  return `Discarded ${edit.id} (${edit.summary}); nothing was written.`;
}

export function driftList(drifted: readonly DriftedFile[], display: DisplayPath): string {
  return drifted
    .map(
      (file) =>
        `${display(file.path)} (${file.kind === 'missing' ? 'no longer exists' : file.kind === 'created' ? 'now exists with other text' : 'changed'})`,
    )
    .join(', ');
}

/** The confirmation of `resolve`: exactly what the call will do, in Markdown. */
export function resolveConfirmation(
  edit: StagedEdit,
  action: ResolveAction,
  drifted: readonly DriftedFile[],
  display: DisplayPath,
): string {
  const what = `${edit.id} — ${edit.summary}, staged by ${edit.origin}`;
  if (action === 'discard') return `Discard ${what} (${sizeOf(edit)})? Nothing is written.`;
  const list = fileLines(
    { files: keptFiles(edit) },
    display,
    (path, count, lifecycle) => `- \`${path}\` (${lifecycle ?? count})`,
  ).join('\n');
  const dropped = droppedSentence(edit, display);
  const shaped = dropped ? `\n\n${dropped}` : '';
  if (drifted.length > 0) {
    return (
      `Accept ${what}? It will be **refused and nothing written**: these files changed since it was staged: ` +
      `${driftList(drifted, display)}.\n\n${list}${shaped}`
    );
  }
  return `Accept ${what}: write ${keptSize(edit)} in one undoable edit, then save those files:\n\n${list}${shaped}`;
}
