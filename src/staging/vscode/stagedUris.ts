import * as vscode from 'vscode';

/** The scheme of the proposed text of one file of a staged change (served by the review's content provider). */
export const STAGED_SCHEME = 'live-tools-staged';

/** `live-tools-staged:/abs/path/file.ts?edit=edit_1`: the path keeps the file name, so the language mode is right. */
export function proposedUri(editId: string, absolutePath: string): vscode.Uri {
  return vscode.Uri.from({ scheme: STAGED_SCHEME, path: vscode.Uri.file(absolutePath).path, query: `edit=${editId}` });
}

/**
 * The text a file had when a change was staged (`…?edit=edit_1&side=original`): the left side of a
 * change whose files may have changed since (a worker's, made in its copy), or that creates the file.
 */
export function capturedUri(editId: string, absolutePath: string): vscode.Uri {
  return vscode.Uri.from({
    scheme: STAGED_SCHEME,
    path: vscode.Uri.file(absolutePath).path,
    query: `edit=${editId}&side=original`,
  });
}

/** Whether a staged-scheme URI is the captured (left) side. */
export function isCapturedSide(uri: vscode.Uri): boolean {
  return new URLSearchParams(uri.query).get('side') === 'original';
}

export function editIdOf(uri: vscode.Uri): string | undefined {
  if (uri.scheme !== STAGED_SCHEME) return undefined;
  return new URLSearchParams(uri.query).get('edit') ?? undefined;
}

/**
 * The text diffs a tab shows: one for a diff editor, several for a multi-file diff editor.
 * Measured in VS Code 1.139: the multi-file diff editor that `vscode.changes` opens is keyed by a
 * random `multi-diff-editor:` URI; that URI is its `resourceScheme` and what an editor-title command
 * receives, so which change it shows is read from its tab's `textDiffs`.
 * `TabInputTextMultiDiff` is not in the stable typings of 1.138, so it is recognised by shape.
 */
export function tabDiffs(tab: vscode.Tab | undefined): { original: vscode.Uri; modified: vscode.Uri }[] {
  const input = tab?.input;
  if (input instanceof vscode.TabInputTextDiff) return [{ original: input.original, modified: input.modified }];
  if (isMultiDiffInput(input))
    return input.textDiffs.map((diff) => ({ original: diff.original, modified: diff.modified }));
  return [];
}

export function isMultiDiffInput(input: unknown): input is { textDiffs: vscode.TabInputTextDiff[] } {
  const diffs = (input as { textDiffs?: unknown } | undefined)?.textDiffs;
  return Array.isArray(diffs);
}

/** The staged change a tab reviews, if it is one of ours. */
export function editIdOfTab(tab: vscode.Tab | undefined): string | undefined {
  const input = tab?.input;
  if (input instanceof vscode.TabInputText) return editIdOf(input.uri);
  for (const diff of tabDiffs(tab)) {
    const id = editIdOf(diff.modified);
    if (id) return id;
  }
  return undefined;
}
