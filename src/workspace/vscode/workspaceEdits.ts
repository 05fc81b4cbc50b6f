/**
 * What a WorkspaceEdit touches, beyond what the public API lists: its file operations (rename,
 * create, delete) and every resource of it, so the workspace boundary can be checked on all of them.
 */
import * as vscode from 'vscode';

/** The internal entry shapes of a WorkspaceEdit (see fileOperationsOf). */
interface InternalEntry {
  readonly _type?: number;
  readonly uri?: vscode.Uri;
  readonly from?: vscode.Uri;
  readonly to?: vscode.Uri;
}

/** `_allEntries()` where the editor has it; undefined where it does not (then only `entries()` can be seen). */
function internalEntries(edit: vscode.WorkspaceEdit): readonly (InternalEntry | undefined)[] | undefined {
  const all = (edit as unknown as { _allEntries?: () => readonly (InternalEntry | undefined)[] })._allEntries;
  return typeof all === 'function' ? all.call(edit) : undefined;
}

const FILE_OPERATION = 1;

/**
 * Every resource a WorkspaceEdit touches: the files of its text edits and both ends of its file
 * operations (through the internal `_allEntries()` where present; see fileOperationsOf).
 */
export function resourcesOf(edit: vscode.WorkspaceEdit): vscode.Uri[] {
  const found = new Map<string, vscode.Uri>();
  const add = (uri: vscode.Uri | undefined): void => {
    if (uri) found.set(uri.toString(), uri);
  };
  for (const [uri] of edit.entries()) add(uri);
  for (const entry of internalEntries(edit) ?? []) {
    add(entry?.uri);
    add(entry?.from);
    add(entry?.to);
  }
  return [...found.values()];
}

/** The file operations of a WorkspaceEdit, in order: `from` and `to` for a rename, `to` alone for a create, `from` alone for a delete. */
export function fileOperationEntries(edit: vscode.WorkspaceEdit): { from?: vscode.Uri; to?: vscode.Uri }[] {
  return (internalEntries(edit) ?? [])
    .filter((entry) => entry?._type === FILE_OPERATION)
    .map((entry) => ({ from: entry?.from, to: entry?.to }));
}
