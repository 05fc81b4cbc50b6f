/**
 * The text the model reads about staged changes: what was proposed, what accepting wrote,
 * what a confirmation promises. Paths go through `display` (workspace-relative in the glue).
 */
import { replacementCount, ResolveAction, StagedEdit } from './stagedEdit';
import type { DriftedFile } from './stagingErrors';

export type DisplayPath = (absolutePath: string) => string;

/** Files listed in an answer; the rest are counted. */
export const STAGED_FILES_CAP = 50;

export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}

/** `12 replacements in 4 files` */
export function sizeOf(edit: Pick<StagedEdit, 'files'>): string {
  return `${plural(replacementCount(edit), 'replacement')} in ${plural(edit.files.length, 'file')}`;
}

/** `src/a.ts: 2 replacements` per file, sorted by path, capped. */
export function fileLines(
  edit: Pick<StagedEdit, 'files'>,
  display: DisplayPath,
  format = (path: string, count: number) => `${path}: ${plural(count, 'replacement')}`,
): string[] {
  const files = edit.files
    .map((file) => ({ path: display(file.path), count: file.edits.length }))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const lines = files.slice(0, STAGED_FILES_CAP).map((file) => format(file.path, file.count));
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
  return [`Accepted ${edit.id} (${edit.summary}): wrote ${sizeOf(edit)}; ${saved}.`, ...fileLines(edit, display)].join(
    '\n',
  );
}

export function discardedAnswer(edit: StagedEdit): string {
  return `Discarded ${edit.id} (${edit.summary}); nothing was written.`;
}

export function driftList(drifted: readonly DriftedFile[], display: DisplayPath): string {
  return drifted
    .map((file) => `${display(file.path)} (${file.kind === 'missing' ? 'no longer exists' : 'changed'})`)
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
  const list = fileLines(edit, display, (path, count) => `- \`${path}\` (${count})`).join('\n');
  if (drifted.length > 0) {
    return (
      `Accept ${what}? It will be **refused and nothing written**: these files changed since it was staged: ` +
      `${driftList(drifted, display)}.\n\n${list}`
    );
  }
  return `Accept ${what}: write ${sizeOf(edit)} in one undoable edit, then save those files:\n\n${list}`;
}
