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

export function registerStructural(context: vscode.ExtensionContext, runtime: Runtime): StructuralService {
  const update = (): void => runtime.board.set('structural', structuralResourceState(context.extensionPath));
  context.subscriptions.push(vscode.workspace.onDidChangeWorkspaceFolders(update));
  update();
  const service = new StructuralService(context.extensionPath, runtime.log, context.storageUri?.fsPath);
  context.subscriptions.push(service);
  return service;
}
