import * as path from 'node:path';
import * as vscode from 'vscode';
import { ResourceState } from '../../platform/resources';
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
  const worker = path.join(context.extensionPath, 'dist', 'fileRenameWorker.js');
  return { lsp, lspApply: new LspApply(lsp, worker, () => settings.requestTimeoutSeconds()) };
}
