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

const TEXT_EDIT = 2;
const FILE_OPERATION = 1;

/**
 * What a WorkspaceEdit does besides plain text edits, described. Measured in VS Code 1.139:
 * `WorkspaceEdit.entries()` lists only text edits, and the public API has no way to list file
 * operations (a rename of a module specifier comes back from the TypeScript server as a file
 * rename plus text edits); only the internal `_allEntries()` shows them. Where that method is
 * absent, nothing beyond `entries()` can be seen.
 */
export function fileOperationsOf(edit: vscode.WorkspaceEdit, display: (uri: vscode.Uri) => string): string[] {
  const operations: string[] = [];
  for (const entry of internalEntries(edit) ?? []) {
    if (!entry || entry._type === TEXT_EDIT) continue;
    if (entry._type === FILE_OPERATION) {
      if (entry.from && entry.to) operations.push(`rename ${display(entry.from)} to ${display(entry.to)}`);
      else if (entry.to) operations.push(`create ${display(entry.to)}`);
      else if (entry.from) operations.push(`delete ${display(entry.from)}`);
    } else {
      operations.push('make snippet or notebook edits');
    }
  }
  return [...new Set(operations)];
}

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
