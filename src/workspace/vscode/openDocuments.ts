/**
 * The documents the editor holds: the one open for a path or URI (unsaved text included), and
 * opening one in memory once the extensions of its language are ready to answer for it.
 */
import * as fs from 'node:fs';
import * as vscode from 'vscode';

/** The document open in the editor for this file-system path, if any. */
export function documentAt(path: string): vscode.TextDocument | undefined {
  return vscode.workspace.textDocuments.find(
    (document) => document.uri.scheme === 'file' && document.uri.fsPath === path,
  );
}

/** The document open in the editor for this URI (any scheme), if any. */
export function documentFor(uri: vscode.Uri): vscode.TextDocument | undefined {
  const key = uri.toString();
  return vscode.workspace.textDocuments.find((document) => document.uri.toString() === key);
}

/** A file on disk, or a document the editor holds for that path (possibly not saved yet). */
export function isFileOrOpen(path: string): boolean {
  if (documentAt(path)) return true;
  try {
    return fs.statSync(path).isFile();
  } catch {
    return false;
  }
}

const activations = new Map<string, Promise<void>>();

/**
 * Whether an installed extension starts for this language, so may serve it: it declares
 * `onLanguage:<id>`, or it has code and contributes the language (since VS Code 1.74 that implies
 * the event without declaring it; a grammar-only extension has no code).
 */
export function activatesOn(languageId: string): boolean {
  const event = `onLanguage:${languageId}`;
  return vscode.extensions.all.some((extension) => {
    const manifest = extension.packageJSON as
      | { activationEvents?: unknown; main?: unknown; browser?: unknown; contributes?: { languages?: unknown } }
      | undefined;
    const events = manifest?.activationEvents;
    if (Array.isArray(events) && events.includes(event)) return true;
    const languages = manifest?.contributes?.languages;
    return (
      (manifest?.main !== undefined || manifest?.browser !== undefined) &&
      Array.isArray(languages) &&
      languages.some((language: { id?: unknown }) => language?.id === languageId)
    );
  });
}

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
  // One the editor holds already is taken as it is: asking again costs a round trip on every lsp call.
  const document = documentFor(uri) ?? (await vscode.workspace.openTextDocument(uri));
  await languageExtensionsReady(document.languageId);
  return document;
}
