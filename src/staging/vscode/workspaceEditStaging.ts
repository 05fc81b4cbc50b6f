import * as vscode from 'vscode';
import { StageRequest } from '../stagedEdit';
import { FileOperationsNotStaged } from '../stagingErrors';

/** The internal entry shapes of a WorkspaceEdit (see fileOperationsOf). */
interface InternalEntry {
  readonly _type?: number;
  readonly from?: vscode.Uri;
  readonly to?: vscode.Uri;
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
  const all = (edit as unknown as { _allEntries?: () => readonly (InternalEntry | undefined)[] })._allEntries;
  if (typeof all !== 'function') return [];
  const operations: string[] = [];
  for (const entry of all.call(edit)) {
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
 * The files of a staged change from a WorkspaceEdit the editor proposed (a rename): each file's
 * current text (unsaved edits included, which is what the edit's ranges refer to) and its edits
 * as UTF-16 offsets. Refuses edits that would create, delete or rename files.
 */
export async function stagedFilesOf(edit: vscode.WorkspaceEdit, display: (uri: vscode.Uri) => string): Promise<StageRequest['files']> {
  const operations = fileOperationsOf(edit, display);
  if (operations.length > 0) throw new FileOperationsNotStaged(operations);
  const files: StageRequest['files'][number][] = [];
  for (const [uri, edits] of edit.entries()) {
    const document = await vscode.workspace.openTextDocument(uri);
    files.push({
      path: uri.fsPath,
      original: document.getText(),
      edits: edits.map((change) => ({ start: document.offsetAt(change.range.start), end: document.offsetAt(change.range.end), text: change.newText })),
    });
  }
  return files;
}
