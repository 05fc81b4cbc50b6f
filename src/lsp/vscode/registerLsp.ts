import * as path from 'node:path';
import * as vscode from 'vscode';
import { ResourceState } from '../../platform/resources';
import { SCRIPT_PROJECT_MARKERS } from '../../project/scriptProjects';
import { Setting } from '../../platform/settings';
import { ToolName } from '../../platform/toolNames';
import { Runtime } from '../../runtime';
import { DiagnosticsTracker } from './diagnosticsTracker';
import { LanguageServerSupervisor } from './languageServerSupervisor';
import { workspaceFolderPaths } from '../../workspace/vscode/workspaceFolders';
import { LspApply } from './lspApply';
import { LspService } from './lspService';
import { readLspSettings } from './lspSettings';

/** The lsp resource is the editor's language features, usable once a folder is open (answers use relative paths). */
function lspResourceState(): ResourceState {
  if (!vscode.workspace.getConfiguration().get<boolean>(Setting.lspEnabled, true)) {
    return { ready: false, reason: `it is turned off by the setting ${Setting.lspEnabled}` };
  }
  if (workspaceFolderPaths().length === 0) {
    return { ready: false, reason: 'no folder is open, and answers are given relative to the workspace folder' };
  }
  return { ready: true };
}

export function registerLsp(
  context: vscode.ExtensionContext,
  runtime: Runtime,
): { lsp: LspService; lspApply: LspApply } {
  const tracker = new DiagnosticsTracker();
  const supervisor = new LanguageServerSupervisor(runtime.log);
  const update = (): void => runtime.board.set('lsp', lspResourceState());
  context.subscriptions.push(
    tracker,
    supervisor,
    vscode.workspace.onDidChangeWorkspaceFolders(update),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration(Setting.lspEnabled)) update();
    }),
  );
  update();
  // MCP and workers read in the descriptions which languages are served now.
  runtime.descriptions.set([ToolName.lsp, ToolName.lspRename, ToolName.lspApply], () =>
    supervisor.servedLanguagesLine(),
  );
  const described = (): void => runtime.descriptions.changed();
  context.subscriptions.push(
    supervisor.onDidChange(described),
    vscode.extensions.onDidChange(described),
    vscode.workspace.onDidChangeWorkspaceFolders(described),
  );
  // Documents already open at activation get their server as if opened now.
  for (const document of vscode.workspace.textDocuments) void supervisor.ensureFor(document).catch(() => undefined);
  const settings = readLspSettings();
  const lsp = new LspService(tracker, settings, supervisor, runtime.log);
  // Before a workspace-wide question the projects are found again once a file or folder was created or deleted,
  // or a project file changed. Not on the project files' creation alone: measured in 1.139, the editor reports a
  // new folder, but not always the files written into it at once.
  const files = vscode.workspace.createFileSystemWatcher('**/*');
  const projectsChanged = (): void => lsp.projectsChanged();
  context.subscriptions.push(
    files,
    files.onDidCreate(projectsChanged),
    files.onDidDelete(projectsChanged),
    files.onDidChange((uri) => {
      if (SCRIPT_PROJECT_MARKERS.includes(path.basename(uri.fsPath))) projectsChanged();
    }),
  );
  const worker = path.join(context.extensionPath, 'dist', 'fileRenameWorker.js');
  return { lsp, lspApply: new LspApply(lsp, worker, () => settings.requestTimeoutSeconds()) };
}
