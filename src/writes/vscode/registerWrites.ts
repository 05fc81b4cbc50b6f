import * as vscode from 'vscode';
import { LspService } from '../../lsp/vscode/lspService';
import { workspaceFolderPaths } from '../../workspace/vscode/workspaceFolders';
import { ResourceState } from '../../platform/resources';
import { Runtime } from '../../runtime';
import { WriteService } from './writeService';

/** The workspace resource: files can be written once a folder is open (paths are relative to it). */
function workspaceState(): ResourceState {
  return workspaceFolderPaths().length > 0
    ? { ready: true }
    : { ready: false, reason: 'no folder is open, and files are written inside the workspace folder only' };
}

export function registerWrites(context: vscode.ExtensionContext, runtime: Runtime, lsp: LspService): WriteService {
  const update = (): void => runtime.board.set('workspace', workspaceState());
  context.subscriptions.push(vscode.workspace.onDidChangeWorkspaceFolders(update));
  update();
  const writes = new WriteService(lsp, runtime.writer);
  // Every file that changes on disk in the workspace, whoever changed it: `lsp diagnostics` with
  // `changed_on_disk` answers for those changed since a conversation's last such call.
  const watcher = vscode.workspace.createFileSystemWatcher('**/*');
  const record = (uri: vscode.Uri): void => {
    if (uri.scheme === 'file') writes.changes.record(uri.fsPath);
  };
  context.subscriptions.push(
    watcher,
    watcher.onDidChange(record),
    watcher.onDidCreate(record),
    watcher.onDidDelete(record),
  );
  return writes;
}
