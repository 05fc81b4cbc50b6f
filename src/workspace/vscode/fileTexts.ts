/**
 * A file's text as the editor sees it, and writing a text exactly as planned where the editor's
 * model cannot hold it (a file with mixed line breaks).
 */
import * as fs from 'node:fs';
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
  return (await diskText(path))?.text;
}

async function diskText(path: string): Promise<{ text: string; bytes: Uint8Array } | undefined> {
  const uri = vscode.Uri.file(path);
  let bytes: Uint8Array;
  try {
    bytes = await fs.promises.readFile(path);
  } catch {
    return undefined;
  }
  return { text: plainUtf8(bytes, uri) ?? (await vscode.workspace.decode(bytes, { uri })), bytes };
}

/** The UTF-16 a byte order mark says, which the editor reads by the mark whatever the settings say. */
function utf16Of(bytes: Uint8Array): 'le' | 'be' | undefined {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'be';
  return undefined;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The text of bytes the editor would read as UTF-8 anyway (its encoding setting utf8, no guessing,
 * valid UTF-8 without NULs or a UTF-16 byte order mark), decoded here; else undefined, and the
 * editor decodes (a round trip to the workbench: 8–50 ms in code-server, measured on a debug stop).
 */
function plainUtf8(bytes: Uint8Array, uri: vscode.Uri): string | undefined {
  const files = vscode.workspace.getConfiguration('files', uri);
  if (files.get<string>('encoding', 'utf8') !== 'utf8' || files.get<boolean>('autoGuessEncoding', false))
    return undefined;
  // A language's own value (`"[python]": { "files.encoding": … }`) applies by the file's language, unknown here.
  if (['encoding', 'autoGuessEncoding'].some((key) => (files.inspect(key)?.languageIds?.length ?? 0) > 0))
    return undefined;
  if (utf16Of(bytes)) return undefined;
  if (bytes.includes(0)) return undefined;
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * Writes `after` as the file's bytes (in the file's own encoding), once its text is still exactly
 * `before`: for a text the editor's model would change (mixed line breaks), where the file is not
 * open with unsaved changes. Throws a plain Error naming why otherwise; the caller words it.
 */
export async function writeTextExactly(path: string, before: string, after: string): Promise<void> {
  if (documentAt(path)?.isDirty) throw new Error('the file has unsaved changes in the editor');
  const disk = await diskText(path);
  if (disk?.text !== before) throw new Error('the file changed while the write was prepared');
  const uri = vscode.Uri.file(path);
  // `encode` follows the settings for a file the editor has not open: a UTF-16 file keeps its own mark and order.
  const utf16 = utf16Of(disk.bytes);
  const bytes = utf16 ? utf16Bytes(after, utf16) : await vscode.workspace.encode(after, { uri });
  await vscode.workspace.fs.writeFile(uri, bytes);
}

function utf16Bytes(text: string, order: 'le' | 'be'): Uint8Array {
  const body = Buffer.from(text, 'utf16le');
  if (order === 'be') body.swap16();
  return Buffer.concat([Buffer.from(order === 'le' ? [0xff, 0xfe] : [0xfe, 0xff]), body]);
}
