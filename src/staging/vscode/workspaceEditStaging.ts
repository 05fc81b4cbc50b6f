import * as vscode from 'vscode';
import { StageRequest } from '../stagedEdit';
import { FileOperationsNotStaged } from '../stagingErrors';
import { fileOperationsOf } from '../../workspace/vscode/workspaceEdits';

/**
 * The files of a staged change from a WorkspaceEdit the editor proposed (a rename): each file's
 * current text (unsaved edits included, which is what the edit's ranges refer to) and its edits
 * as UTF-16 offsets. Refuses edits that would create, delete or rename files.
 */
export async function stagedFilesOf(
  edit: vscode.WorkspaceEdit,
  display: (uri: vscode.Uri) => string,
): Promise<StageRequest['files']> {
  const operations = fileOperationsOf(edit, display);
  if (operations.length > 0) throw new FileOperationsNotStaged(operations);
  const files: StageRequest['files'][number][] = [];
  for (const [uri, edits] of edit.entries()) {
    const document = await vscode.workspace.openTextDocument(uri);
    files.push({
      path: uri.fsPath,
      original: document.getText(),
      edits: edits.map((change) => ({
        start: document.offsetAt(change.range.start),
        end: document.offsetAt(change.range.end),
        text: change.newText,
      })),
    });
  }
  return files;
}
