/**
 * A rename through the language server: planned (the server's WorkspaceEdit, refused when it
 * reaches outside the workspace), then applied as one WorkspaceEdit (one undo step) and saved.
 */
import * as vscode from 'vscode';
import { DeadlineExceeded } from '../../async/deadline';
import { isRealPathInside } from '../../workspace/containment';
import { containingFolder } from '../../workspace/paths';
import { resourcesOf } from '../../workspace/vscode/workspaceEdits';
import { pathOf, workspaceFolderPaths } from '../../workspace/vscode/workspaceFolders';
import { RenamedFile } from '../answers';
import { ObservedWrite } from '../../changes/agentChanges';
import { RenameNotSaved, RenameRefused } from '../renameErrors';
import { LanguageFeatures } from './languageFeatures';
import { Target } from './target';

export interface RenamePlan {
  readonly edit: vscode.WorkspaceEdit;
  readonly files: RenamedFile[];
}

/** The rename the language server proposes, checked to stay inside the workspace; nothing is applied. */
export async function planRename(features: LanguageFeatures, target: Target, newName: string): Promise<RenamePlan> {
  let edit: vscode.WorkspaceEdit | undefined;
  try {
    edit = await features.rename(target.uri, target.position, newName);
  } catch (error) {
    if (error instanceof vscode.CancellationError || error instanceof DeadlineExceeded) throw error;
    throw new RenameRefused(error instanceof Error ? error.message : String(error));
  }
  const entries = edit?.entries() ?? [];
  if (!edit || entries.length === 0) {
    throw new RenameRefused(`the language server offers no rename for "${target.location.symbol}" here`);
  }
  assertEditInsideWorkspace(edit);
  return { edit, files: entries.map(([uri, edits]) => ({ path: pathOf(uri), edits: edits.length })) };
}

/** Applies a planned rename as one WorkspaceEdit and saves every changed file. */
export async function applyRename(
  { edit, files }: RenamePlan,
  token: vscode.CancellationToken,
  onWritten?: (writes: ObservedWrite[]) => void,
): Promise<RenamedFile[]> {
  if (token.isCancellationRequested) throw new vscode.CancellationError();
  // Again right before writing: a link may have been put in place meanwhile.
  assertEditInsideWorkspace(edit);
  const before = new Map<string, string>();
  for (const [uri] of edit.entries()) before.set(uri.fsPath, (await vscode.workspace.openTextDocument(uri)).getText());
  if (!(await vscode.workspace.applyEdit(edit))) {
    throw new RenameRefused('the editor refused to apply the edit (a file may have changed meanwhile)');
  }
  const written: ObservedWrite[] = [];
  for (const [uri] of edit.entries()) {
    const document = await vscode.workspace.openTextDocument(uri);
    written.push({ path: uri.fsPath, before: before.get(uri.fsPath), after: document.getText() });
  }
  // Recorded before saving: an unsaved file is written all the same.
  onWritten?.(written);
  for (const [uri] of edit.entries()) {
    const document = await vscode.workspace.openTextDocument(uri);
    if (document.isDirty && !(await document.save())) {
      throw new RenameNotSaved(pathOf(uri));
    }
  }
  return files;
}

/** Refuses (RenameRefused, naming them) an edit that touches a resource outside the workspace. */
function assertEditInsideWorkspace(edit: vscode.WorkspaceEdit): void {
  const outside = outsideWorkspace(resourcesOf(edit));
  if (outside.length > 0) throw new RenameRefused('the rename would change files outside the workspace', outside);
}

/**
 * The resources (text edits and both ends of file operations) that are not inside the workspace
 * by their real path, as shown to the model; empty when all are inside.
 */
export function outsideWorkspace(uris: readonly vscode.Uri[]): string[] {
  const folders = workspaceFolderPaths();
  return uris
    .filter(
      (uri) =>
        uri.scheme !== 'file' || !containingFolder(folders, uri.fsPath) || !isRealPathInside(folders, uri.fsPath),
    )
    .map((uri) => (uri.scheme === 'file' ? uri.fsPath : uri.toString(true)));
}
