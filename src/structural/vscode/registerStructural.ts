import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { workspaceFolderPaths } from '../../workspace/vscode/workspaceFolders';
import { ResourceState } from '../../platform/resources';
import { Runtime } from '../../runtime';
import { StructuralService } from './structuralService';

/** The structural resource is ready when the grammars shipped with the extension are there and a folder is open. */
function structuralResourceState(extensionPath: string): ResourceState {
  if (!fs.existsSync(path.join(extensionPath, 'dist', 'web-tree-sitter.wasm'))) {
    return {
      ready: false,
      reason: 'the tree-sitter runtime is missing from the extension (dist/web-tree-sitter.wasm); rebuild it',
    };
  }
  if (workspaceFolderPaths().length === 0) {
    return { ready: false, reason: 'no folder is open, and results are given relative to the workspace folder' };
  }
  return { ready: true };
}

export const SHOW_STRUCTURAL_MEMORY_COMMAND = 'liveTools.showStructuralMemory';

export function registerStructural(context: vscode.ExtensionContext, runtime: Runtime): StructuralService {
  const update = (): void => runtime.board.set('structural', structuralResourceState(context.extensionPath));
  context.subscriptions.push(vscode.workspace.onDidChangeWorkspaceFolders(update));
  update();
  const service = new StructuralService(context.extensionPath, runtime.log, context.storageUri?.fsPath);
  context.subscriptions.push(service);
  // The engine's memory on request: its first line shown to the human with the rest a click away, the whole returned.
  context.subscriptions.push(
    vscode.commands.registerCommand(SHOW_STRUCTURAL_MEMORY_COMMAND, () => {
      const report = service.memory.report();
      const [first, ...rest] = report.split('\n');
      void vscode.window.showInformationMessage(first, 'Details').then((choice) => {
        if (choice) void vscode.window.showInformationMessage(first, { modal: true, detail: rest.join('\n') });
      });
      return report;
    }),
  );
  return service;
}
