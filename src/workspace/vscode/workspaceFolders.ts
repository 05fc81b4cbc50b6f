/**
 * The window's workspace folders as plain paths, a tool's file argument resolved inside them,
 * and a URI named the way answers name files (relative to its folder).
 */
import * as vscode from 'vscode';
import { displayPath, resolveFileArgument, WorkspaceFolderPath } from '../paths';
import { isFileOrOpen } from './openDocuments';
import { viewedFolders } from '../folderView';

/** The workspace folders on disk (other schemes are left out); within a worker's call in its copy, the copy's. */
export function workspaceFolderPaths(): WorkspaceFolderPath[] {
  const viewed = viewedFolders();
  if (viewed) return [...viewed];
  return windowFolderPaths();
}

/** The window's own workspace folders on disk, whatever call is running. */
export function windowFolderPaths(): WorkspaceFolderPath[] {
  return (vscode.workspace.workspaceFolders ?? [])
    .filter((folder) => folder.uri.scheme === 'file')
    .map((folder) => ({ name: folder.name, path: folder.uri.fsPath }));
}

/** The file argument of a tool, resolved inside the workspace (typed errors otherwise). */
export function resolveWorkspaceFile(input: string): vscode.Uri {
  return vscode.Uri.file(resolveFileArgument(workspaceFolderPaths(), input, isFileOrOpen));
}

/** A URI as answers show it: relative to its workspace folder for a file, the whole URI otherwise. */
export function pathOf(uri: vscode.Uri): string {
  return uri.scheme === 'file' ? displayPath(workspaceFolderPaths(), uri.fsPath) : uri.toString(true);
}
