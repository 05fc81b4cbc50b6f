/**
 * A rename through the language server: planned (the server's WorkspaceEdit, refused when it
 * reaches outside the workspace, captured as edits of each file's text now), then applied by the
 * one writer, so what is written is exactly the plan that was shown.
 */
import * as vscode from 'vscode';
import { DeadlineExceeded } from '../../async/deadline';
import { applyEdits } from '../../edits/textEdits';
import { FileChange } from '../../workspace/vscode/workspaceWriter';
import { isRealPathInside } from '../../workspace/containment';
import { containingFolder } from '../../workspace/paths';
import { fileOperationEntries, resourcesOf } from '../../workspace/vscode/workspaceEdits';
import { pathOf, workspaceFolderPaths } from '../../workspace/vscode/workspaceFolders';
import { RenamedFile } from '../answers';
import { RenameRefused } from '../renameErrors';
import { LanguageFeatures } from './languageFeatures';
import { Target } from './target';

export interface RenamePlan {
  /** The server's edit (staging takes its files from it). */
  readonly edit: vscode.WorkspaceEdit;
  readonly files: RenamedFile[];
  /** The edit as changes of each file's text when it was planned (a moved file carries its move). */
  readonly changes: FileChange[];
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
  const moves = new Map<string, string>();
  for (const operation of fileOperationEntries(edit)) {
    if (!operation.from || !operation.to)
      throw new RenameRefused(
        `the language server's rename would also ${operation.from ? 'delete' : 'create'} ${pathOf((operation.from ?? operation.to) as vscode.Uri)}, which a rename does not do here`,
      );
    moves.set(operation.from.fsPath, operation.to.fsPath);
  }
  const changes: FileChange[] = [];
  for (const [uri, edits] of entries) {
    if ([...moves.values()].includes(uri.fsPath))
      throw new RenameRefused(
        `the language server's rename edits ${pathOf(uri)} after moving it there; use lsp_apply rename_file to move the file`,
      );
    const document = await vscode.workspace.openTextDocument(uri);
    const before = document.getText();
    const offsets = edits.map((change) => ({
      start: document.offsetAt(change.range.start),
      end: document.offsetAt(change.range.end),
      text: change.newText,
    }));
    changes.push({
      path: uri.fsPath,
      before,
      after: applyEdits(before, offsets),
      edits: offsets,
      moveTo: moves.get(uri.fsPath),
    });
  }
  for (const [from, to] of moves) {
    if (changes.some((change) => change.path === from)) continue;
    const document = await vscode.workspace.openTextDocument(vscode.Uri.file(from));
    changes.push({ path: from, before: document.getText(), after: document.getText(), edits: [], moveTo: to });
  }
  return { edit, files: entries.map(([uri, edits]) => ({ path: pathOf(uri), edits: edits.length })), changes };
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
