/**
 * A file's text as the editor sees it, and its bytes with the encoding they are read in. Files are
 * read here (not through the workbench, a round trip of 8–50 ms in code-server) and decoded by the
 * codecs of `edits/textCodecs`, in the encoding the editor uses for the file: its open document's,
 * else the byte order mark's, else the settings' (asking the editor to open the document only when
 * the settings leave it open: guessing, a language's own value, NUL bytes). The writer splices the
 * same bytes with the same codec, so a text planned here is exactly what it checks against.
 */
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import {
  bomOf,
  codecFor,
  encodingOfBom,
  SINGLE_BYTE_ENCODINGS,
  singleByteCodec,
  TextCodec,
} from '../../edits/textCodecs';
import { UnreadableFile } from '../paths';
import { documentAt } from './openDocuments';

/** The most a file may weigh for the tools to read it whole (the editor itself turns to a large-file mode near here). */
export const MAX_TEXT_FILE_BYTES = 50 * 1024 * 1024;

/** A file's bytes as they are on disk, the codec they are read with, and the text they read as. */
export interface DiskFile {
  readonly bytes: Uint8Array;
  /** Undefined for an encoding whose bytes this extension does not map (multi-byte code pages): read by the editor, written by its encoder only when that is lossless. */
  readonly codec: TextCodec | undefined;
  readonly encoding: string;
  readonly text: string;
  /** Size and modification time (ns) when read. */
  readonly size: number;
  readonly mtimeNs: bigint;
}

/**
 * The text of a file as the editor sees it: an open document's unsaved text, else what is on
 * disk, undefined when it no longer exists. Disk is read even when a clean document is open: the
 * editor may not have reloaded an outside change yet.
 */
export async function currentText(path: string): Promise<string | undefined> {
  const open = documentAt(path);
  if (open?.isDirty) return open.getText();
  return (await readDiskFile(path))?.text;
}

/** The file on disk (size checked before reading), or undefined when there is none. Throws UnreadableFile past the cap. */
export async function readDiskFile(path: string, shown = path): Promise<DiskFile | undefined> {
  let stat: fs.BigIntStats;
  try {
    stat = await fs.promises.stat(path, { bigint: true });
  } catch {
    return undefined;
  }
  if (!stat.isFile()) return undefined;
  if (stat.size > BigInt(MAX_TEXT_FILE_BYTES))
    throw new UnreadableFile(
      shown,
      `is ${stat.size} bytes, over the ${MAX_TEXT_FILE_BYTES}-byte cap of what the tools read whole`,
    );
  let bytes: Uint8Array;
  try {
    bytes = await fs.promises.readFile(path);
  } catch {
    return undefined;
  }
  const uri = vscode.Uri.file(path);
  const encoding = await encodingFor(uri, bytes, shown);
  const codec = await codecOf(encoding);
  const text = codec
    ? codec.decode(bytes.subarray(bomOf(bytes, codec)))
    : await vscode.workspace.decode(bytes, { encoding });
  return { bytes, codec, encoding, text, size: Number(stat.size), mtimeNs: stat.mtimeNs };
}

/**
 * The encoding the editor reads this file in: an open document's; a byte order mark's (the editor
 * reads by the mark whatever the settings say); the `files.encoding` setting when nothing else can
 * apply; else the editor is asked (it opens the document in memory).
 */
async function encodingFor(uri: vscode.Uri, bytes: Uint8Array, shown: string): Promise<string> {
  const open = documentAt(uri.fsPath);
  if (open) return open.encoding;
  const marked = encodingOfBom(bytes);
  if (marked) return marked;
  const files = vscode.workspace.getConfiguration('files', uri);
  const settled =
    !files.get<boolean>('autoGuessEncoding', false) &&
    // A language's own value (`"[python]": { "files.encoding": … }`) applies by the file's language, unknown here.
    !['encoding', 'autoGuessEncoding'].some((key) => (files.inspect(key)?.languageIds?.length ?? 0) > 0) &&
    // NUL bytes: the editor may take the file for UTF-16 without a mark, or for binary.
    !bytes.subarray(0, 512).includes(0);
  if (settled) return files.get<string>('encoding', 'utf8');
  try {
    return (await vscode.workspace.openTextDocument(uri)).encoding;
  } catch (error) {
    throw new UnreadableFile(
      shown,
      `cannot be read as text (${error instanceof Error ? error.message : String(error)})`,
    );
  }
}

const codePages = new Map<string, Promise<TextCodec | undefined>>();

/** The codec of an encoding; a code page's table is the editor's own decoding of its 256 bytes, asked once. */
function codecOf(encoding: string): Promise<TextCodec | undefined> {
  const known = codecFor(encoding);
  if (known) return Promise.resolve(known);
  if (!SINGLE_BYTE_ENCODINGS.has(encoding)) return Promise.resolve(undefined);
  let codec = codePages.get(encoding);
  if (!codec) {
    // Byte 0 is NUL in every code page; the editor would take a buffer holding it for binary.
    const bytes = Uint8Array.from({ length: 255 }, (_, index) => index + 1);
    codec = Promise.resolve(vscode.workspace.decode(bytes, { encoding })).then(
      (decoded) => (decoded.length === 255 ? singleByteCodec(encoding, `\0${decoded}`) : undefined),
      () => undefined,
    );
    codePages.set(encoding, codec);
  }
  return codec;
}

/**
 * Bytes read as the editor would read them at `path` (its open document's encoding, else the mark's,
 * else the settings'): a worker's copy of a file, decoded as its live file is.
 */
export async function textOfBytes(path: string, bytes: Uint8Array): Promise<string> {
  const uri = vscode.Uri.file(path);
  // A file that does not exist yet (a worker created it) cannot be opened to ask: its mark, else the settings.
  const encoding =
    documentAt(path) || fs.existsSync(path)
      ? await encodingFor(uri, bytes, path)
      : (encodingOfBom(bytes) ?? vscode.workspace.getConfiguration('files', uri).get<string>('encoding', 'utf8'));
  const codec = await codecOf(encoding);
  return codec ? codec.decode(bytes.subarray(bomOf(bytes, codec))) : vscode.workspace.decode(bytes, { encoding });
}

/** The bytes of a new file's text, in the encoding the settings give it. */
export async function newFileBytes(path: string, text: string): Promise<Uint8Array> {
  return vscode.workspace.encode(text, { uri: vscode.Uri.file(path) });
}
