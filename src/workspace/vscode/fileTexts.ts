/**
 * A file's text as the editor sees it, and writing a text exactly as planned where the editor's
 * model cannot hold it (a file with mixed line breaks).
 */
import * as vscode from 'vscode';
import { documentAt } from './openDocuments';

/**
 * The text of a file as the editor sees it: an open document's unsaved text, else what is on
 * disk (decoded as the editor would), undefined when it no longer exists. Disk is read even when
 * a clean document is open: the editor may not have reloaded an outside change yet.
 */
export async function currentText(path: string): Promise<string | undefined> {
  const open = documentAt(path);
  if (open?.isDirty) return open.getText();
  const uri = vscode.Uri.file(path);
  let bytes: Uint8Array;
  try {
    bytes = await vscode.workspace.fs.readFile(uri);
  } catch {
    return undefined;
  }
  return vscode.workspace.decode(bytes, { uri });
}

/**
 * Writes `after` as the file's bytes (in the file's own encoding), once its text is still exactly
 * `before`: for a text the editor's model would change (mixed line breaks), where the file is not
 * open with unsaved changes. Throws a plain Error naming why otherwise; the caller words it.
 */
export async function writeTextExactly(path: string, before: string, after: string): Promise<void> {
  if (documentAt(path)?.isDirty) throw new Error('the file has unsaved changes in the editor');
  if ((await currentText(path)) !== before) throw new Error('the file changed while the write was prepared');
  const uri = vscode.Uri.file(path);
  await vscode.workspace.fs.writeFile(uri, await vscode.workspace.encode(after, { uri }));
}
