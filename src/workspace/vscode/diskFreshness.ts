/**
 * Whether the editor's text of a file is the text on disk now. A document the editor holds without
 * unsaved changes is compared with the disk (size and modification time, then content); when the disk
 * changed and the editor has not taken it in yet (its file watcher reloads it a moment later), the
 * reload is waited for, boundedly. What a tool then checks is the text on disk now, or it says not.
 */
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { sameLines } from '../../edits/byteSplice';
import { boundedTimeout } from '../../async/timers';
import { readDiskFile } from './fileTexts';

export type DiskFreshness = { readonly fresh: true } | { readonly fresh: false; readonly why: string };

/** How long the editor's reload of a file changed on disk is waited for. */
export const RELOAD_WAIT_MS = 3000;

/** Per document: the disk's size and time, and the document's version, when the two were last seen equal. */
const agreed = new Map<string, { readonly size: bigint; readonly mtimeNs: bigint; readonly version: number }>();
/** Documents remembered at most (past it the memory starts afresh: each is compared again once). */
const AGREED_CAP = 5000;

/**
 * Fresh when `document` holds what its file holds on disk (or has unsaved changes: then its text is
 * what counts), after waiting up to `waitMs` for the editor to reload a file changed on disk; else why not.
 */
export async function editorHoldsDisk(
  document: vscode.TextDocument,
  shown: string,
  waitMs = RELOAD_WAIT_MS,
): Promise<DiskFreshness> {
  if (document.uri.scheme !== 'file' || document.isDirty) return { fresh: true };
  const key = document.uri.toString();
  let stat: fs.BigIntStats;
  try {
    stat = await fs.promises.stat(document.uri.fsPath, { bigint: true });
  } catch {
    return { fresh: true };
  }
  const known = agreed.get(key);
  if (known && known.size === stat.size && known.mtimeNs === stat.mtimeNs && known.version === document.version)
    return { fresh: true };
  let disk;
  try {
    disk = await readDiskFile(document.uri.fsPath, shown);
  } catch (error) {
    return { fresh: false, why: error instanceof Error ? error.message : String(error) };
  }
  if (!disk) return { fresh: true };
  const started = Date.now();
  if (sameLines(document.getText(), disk.text) || (await editorShows(document, disk.text, waitMs))) {
    if (agreed.size >= AGREED_CAP) agreed.clear();
    agreed.set(key, { size: stat.size, mtimeNs: stat.mtimeNs, version: document.version });
    return { fresh: true };
  }
  return {
    fresh: false,
    why: `${shown} changed on disk and the editor had not taken the new text in after ${Date.now() - started} ms`,
  };
}

/** True once `document` holds `text` (line breaks aside), waiting up to `ms` for the editor to reload it. */
export function editorShows(document: vscode.TextDocument, text: string, ms: number): Promise<boolean> {
  if (sameLines(document.getText(), text)) return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (shown: boolean): void => {
      subscription.dispose();
      clearTimeout(timer);
      resolve(shown);
    };
    const subscription = vscode.workspace.onDidChangeTextDocument((event) => {
      if (event.document === document && sameLines(document.getText(), text)) done(true);
    });
    const timer = boundedTimeout(() => done(sameLines(document.getText(), text)), ms);
  });
}
