import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { resolveFileArgument, WorkspaceFolderPath } from '../../workspace/paths';
import { LineSource } from '../symbolLocation';

export function workspaceFolderPaths(): WorkspaceFolderPath[] {
  return (vscode.workspace.workspaceFolders ?? [])
    .filter((folder) => folder.uri.scheme === 'file')
    .map((folder) => ({ name: folder.name, path: folder.uri.fsPath }));
}

function openDocumentAt(fsPath: string): vscode.TextDocument | undefined {
  return vscode.workspace.textDocuments.find((doc) => doc.uri.scheme === 'file' && doc.uri.fsPath === fsPath);
}

function isFileOrOpen(fsPath: string): boolean {
  if (openDocumentAt(fsPath)) return true;
  try {
    return fs.statSync(fsPath).isFile();
  } catch {
    return false;
  }
}

/** The file argument of a tool, resolved inside the workspace (typed errors otherwise). */
export function resolveWorkspaceFile(input: string): vscode.Uri {
  return vscode.Uri.file(resolveFileArgument(workspaceFolderPaths(), input, isFileOrOpen));
}

export function documentLines(document: vscode.TextDocument): LineSource {
  return { lineCount: document.lineCount, lineText: (index) => document.lineAt(index).text };
}

const activations = new Map<string, Promise<void>>();

/**
 * Waits until every extension that activates on this language has finished activating, so
 * its providers are registered before we ask them. Event-driven: no sleeps.
 */
export function languageExtensionsReady(languageId: string): Promise<void> {
  let ready = activations.get(languageId);
  if (!ready) {
    const event = `onLanguage:${languageId}`;
    const extensions = vscode.extensions.all.filter((extension) => {
      const events: unknown = extension.packageJSON?.activationEvents;
      return Array.isArray(events) && events.includes(event);
    });
    ready = Promise.allSettled(extensions.map((extension) => extension.activate())).then(() => undefined);
    activations.set(languageId, ready);
  }
  return ready;
}

/** Opens (in memory, not in an editor) the document the editor holds for this file, unsaved edits included. */
export async function openWorkspaceDocument(uri: vscode.Uri): Promise<vscode.TextDocument> {
  const document = await vscode.workspace.openTextDocument(uri);
  await languageExtensionsReady(document.languageId);
  return document;
}

/**
 * Line texts for result locations. Uses the open document when there is one (unsaved text),
 * otherwise reads the file once; never opens documents, which would start more work in servers.
 */
export class LineTexts {
  private readonly files = new Map<string, string[] | undefined>();

  text(uri: vscode.Uri, line0: number): string {
    const open = vscode.workspace.textDocuments.find((doc) => doc.uri.toString() === uri.toString());
    if (open) return line0 < open.lineCount ? open.lineAt(line0).text : '';
    const key = uri.toString();
    if (!this.files.has(key)) {
      let lines: string[] | undefined;
      try {
        lines = uri.scheme === 'file' ? fs.readFileSync(uri.fsPath, 'utf8').split(/\r?\n/) : undefined;
      } catch {
        lines = undefined;
      }
      this.files.set(key, lines);
    }
    return this.files.get(key)?.[line0] ?? '';
  }
}
