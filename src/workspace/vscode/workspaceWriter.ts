/**
 * The one writer: every change to workspace files goes through `WorkspaceWriter.apply` — write,
 * edit, patch, accepted staged changes and their moves, renames, language server changes, Agent
 * Changes' reverts, workers' and cells' writes. One set of rules, in this order, for a whole change:
 *
 * 1. Writes to the same files from several callers are serialized (check and write never interleave).
 * 2. The workspace boundary by real path, again right before writing.
 * 3. Each file must hold the text the change was planned on (or the editor's view of it: the same
 *    lines with other line breaks); a whole-file write over a text the conversation has not seen
 *    (someone changed it since, or it holds the human's unsaved typing) is refused, showing that
 *    change. Anything refused refuses the whole change before a byte is written.
 * 4. A file with unsaved changes is changed in the editor and left unsaved (the human's state);
 *    any other file is written as bytes: only the changed ranges, in the file's own encoding, its
 *    byte order mark and every line's own break kept, the new bytes reading back as the text planned
 *    (`edits/byteSplice`). Right before each file is written, its disk size and time (or its unsaved
 *    text's version) must still be as read. Creating, deleting and moving files go through one
 *    WorkspaceEdit (the editor's undo, open tabs follow a move).
 * 5. An editor tab showing a written file is waited for until it shows the new text (the editor's
 *    reload of a changed file is one undo step); the bytes are read back and compared.
 * 6. The change journal is told once; the conversation's seen texts are updated.
 *
 * A unit test fails if any other module writes workspace files or applies a WorkspaceEdit.
 */
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { describeError, Logger } from '../../log/logger';
import { ChangeJournal, observedWrites, WriteSource } from '../../platform/changeJournal';
import { assertRealPathInside, isRealPathInside } from '../containment';
import { displayPath } from '../paths';
import { editorShows, RELOAD_WAIT_MS } from './diskFreshness';
import { currentText, DiskFile, newFileBytes, readDiskFile } from './fileTexts';
import { documentAt, isFileOrOpen } from './openDocuments';
import { workspaceFolderPaths } from './workspaceFolders';
import {
  assertPlannedLines,
  editedText,
  editsOnText,
  NotPlannedText,
  sameLines,
  spliceEdits,
  UnwritableText,
} from '../../edits/byteSplice';
import { changedLines, diffPreview } from '../../edits/diffPreview';
import { PathLocks } from '../../edits/pathLocks';
import { SeenTexts } from '../../edits/seenTexts';
import { diffEdits } from '../../edits/textDiff';
import { TextEdit } from '../../edits/textEdits';
import { StaleCopy, UnsavedChanges, WriteRefused } from '../../edits/writerErrors';

/** One file of a change. `before` undefined: the file is created; `after` undefined: it is deleted. */
export interface FileChange {
  /** Absolute path. */
  readonly path: string;
  /** The text the change was planned on: the file's text (disk or unsaved editor text) or the editor's view of it. */
  readonly before: string | undefined;
  readonly after: string | undefined;
  /** Edits of `before` that make `after`; a diff of the two when absent. */
  readonly edits?: readonly TextEdit[];
  /** Where the file goes after its edits, absolute. */
  readonly moveTo?: string;
}

/**
 * `whole`: texts replaced from the caller's own copy (the write tool): refused over a text the
 * conversation has not seen. `anchored`: edits anchored on text (edit, patch, language server changes,
 * staged changes, reverts): applied, with a note naming the lines others changed since the
 * conversation's last write.
 */
export type WriteKind = 'whole' | 'anchored';

export interface WriteRequest {
  readonly files: readonly FileChange[];
  readonly kind: WriteKind;
  /** Who writes: journaled and remembered for its conversation. Undefined: the human's own action (a revert in Agent Changes). */
  readonly source?: WriteSource;
  readonly token?: vscode.CancellationToken;
}

export interface WrittenFile {
  /** Where the file is now (the new path of a move). */
  readonly path: string;
  /** The text before (the file's text as read here); undefined: created. */
  readonly before: string | undefined;
  /** The text after; undefined: deleted. */
  readonly after: string | undefined;
  /** Changed in the editor's unsaved text and left unsaved (the human had unsaved changes there). */
  readonly unsaved: boolean;
}

export interface WriteResult {
  readonly files: readonly WrittenFile[];
  /** What the model should know: lines others changed since this conversation last wrote a file, a tab not yet showing the new text. */
  readonly notes: readonly string[];
}

/** A file of the change, read and checked, with what will be written. */
interface Planned {
  readonly change: FileChange;
  readonly shown: string;
  readonly document: vscode.TextDocument | undefined;
  /** The editor holds unsaved changes: the edit goes to its text. */
  readonly dirty: boolean;
  readonly disk: DiskFile | undefined;
  /** The text now (the editor's unsaved text, else the disk's). */
  readonly current: string | undefined;
  /** The text after the change (the same view as `current`). */
  readonly after: string | undefined;
  /** Bytes to write (an existing file written on disk, or a created one). */
  readonly bytes?: Uint8Array;
  /** Edits of the editor's unsaved text, and the version of it they were made on. */
  readonly bufferEdits?: readonly TextEdit[];
  readonly version?: number;
}

export class WorkspaceWriter {
  private readonly locks = new PathLocks();

  constructor(
    private readonly log: Logger,
    private readonly journal: ChangeJournal,
    readonly seen: SeenTexts = new SeenTexts(),
  ) {}

  display(absolutePath: string): string {
    return displayPath(workspaceFolderPaths(), absolutePath);
  }

  /**
   * Remembers that a conversation was shown this text of a file (a staged change's original, a
   * refusal's diff), so a later whole-file write from it counts as made on it.
   */
  saw(conversation: string, path: string, text: string | undefined): void {
    this.seen.set(conversation, path, text);
  }

  /**
   * The human's own write of a whole file they asked for (a configuration added, an export): by the
   * rules when it lies in the workspace; a place outside it that the human picked is written as asked.
   */
  async writeForUser(path: string, text: string): Promise<void> {
    if (!isRealPathInside(workspaceFolderPaths(), path)) {
      await fs.promises.writeFile(path, text);
      return;
    }
    await this.apply({ files: [{ path, before: await currentText(path), after: text }], kind: 'anchored' });
  }

  /** Applies a change whole or refuses it whole (typed errors naming the file); see the module's rules. */
  async apply(request: WriteRequest): Promise<WriteResult> {
    try {
      return await this.applyWhole(request);
    } catch (error) {
      this.log.warn(
        'writer.refused',
        `${request.kind} by ${request.source?.conversation ?? 'the user'}: ${describeError(error)}`,
      );
      throw error;
    }
  }

  private async applyWhole(request: WriteRequest): Promise<WriteResult> {
    const paths = request.files.flatMap((file) => (file.moveTo ? [file.path, file.moveTo] : [file.path]));
    return this.locks.run(paths, async () => {
      const folders = workspaceFolderPaths();
      for (const path of paths) assertRealPathInside(folders, path);
      const notes: string[] = [];
      const planned: Planned[] = [];
      for (const change of request.files) planned.push(await this.plan(change, request, notes));
      if (request.token?.isCancellationRequested) throw new vscode.CancellationError();
      await this.write(planned);
      notes.push(...(await this.settle(planned)));
      const files = planned.map((file): WrittenFile => ({
        path: file.change.moveTo ?? file.change.path,
        before: file.current,
        after: file.after,
        unsaved: file.dirty && file.after !== undefined,
      }));
      const { source } = request;
      if (source) {
        this.journal.wrote(
          source,
          observedWrites(
            planned.map((file) => ({
              path: file.change.path,
              before: file.current,
              after: file.after,
              moveTo: file.change.moveTo,
            })),
          ),
        );
        for (const file of planned) {
          if (file.change.moveTo) this.seen.set(source.conversation, file.change.path, undefined);
          this.seen.set(source.conversation, file.change.moveTo ?? file.change.path, file.after);
        }
      }
      this.log.info(
        'writer.apply',
        `${request.kind} by ${source?.conversation ?? 'the user'}: ${planned
          .map((file) => `${file.shown}${file.dirty ? ' (unsaved)' : ''}`)
          .join(', ')}`,
      );
      return { files, notes };
    });
  }

  /** Reads one file, checks it against the plan and the conversation's seen text, and works out what to write. */
  private async plan(change: FileChange, request: WriteRequest, notes: string[]): Promise<Planned> {
    const shown = this.display(change.path);
    const document = documentAt(change.path);
    const dirty = document?.isDirty === true;
    const disk = await readDiskFile(change.path, shown);
    const current = dirty ? document.getText() : disk?.text;
    if (change.moveTo && isFileOrOpen(change.moveTo))
      throw new WriteRefused(
        this.display(change.moveTo),
        'a file exists there now, so nothing can be moved there; nothing was written',
      );
    if (change.before === undefined) {
      if (current !== undefined || isFileOrOpen(change.path))
        throw new WriteRefused(shown, 'the file was created meanwhile; read it and write again; nothing was written');
      const after = change.after ?? '';
      return {
        change,
        shown,
        document,
        dirty: false,
        disk,
        current,
        after,
        bytes: await newFileBytes(change.path, after),
      };
    }
    if (current === undefined) throw new WriteRefused(shown, 'the file no longer exists; nothing was written');
    this.checkSeen(change, request, shown, current, dirty ? disk?.text : undefined, notes);
    const read = { change, shown, document, dirty, disk, current };
    if (change.after === undefined) {
      if (dirty)
        throw new WriteRefused(
          shown,
          'it has unsaved changes in the editor, which deleting it would lose; nothing was written. Ask the user to save or discard them first',
        );
      if (!sameLines(change.before, current)) throw new NotPlannedText(shown);
      return { ...read, after: undefined };
    }
    const edits = change.edits ?? diffEdits(change.before, change.after);
    if (dirty) {
      const version = document.version;
      const bufferEdits = editsOnText(shown, change.before, current, edits);
      const after = editedText(current, bufferEdits);
      assertPlannedLines(shown, change.before, current, edits, after);
      return { ...read, after, bufferEdits, version };
    }
    const file = disk as DiskFile;
    if (!file.codec) return { ...read, ...(await this.reencoded(shown, file, change.before, edits)) };
    const spliced = spliceEdits(shown, file.bytes, file.codec, change.before, edits);
    return { ...read, after: spliced.text, bytes: spliced.edits.length > 0 ? spliced.bytes : undefined };
  }

  /**
   * The seen-text rule: a whole-file write over a text this conversation has not seen (someone else
   * changed it since its last write, or the human has unsaved typing in it) is refused with that
   * change shown, and the conversation counts as having seen it; an anchored write notes the lines.
   */
  private checkSeen(
    change: FileChange,
    request: WriteRequest,
    shown: string,
    current: string,
    savedText: string | undefined,
    notes: string[],
  ): void {
    const conversation = request.source?.conversation;
    if (conversation === undefined) return;
    const seen = this.seen.get(conversation, change.path);
    const known = seen !== undefined && sameLines(seen, current);
    if (request.kind === 'anchored') {
      if (seen !== undefined && !known) {
        const lines = changedLines(seen, current);
        const which = /^\d+$/.test(lines) ? `line ${lines} was` : `lines ${lines} were`;
        notes.push(
          `${shown}: ${which} changed by someone else since your last write to it; your change was applied to the file as it is now.`,
        );
      }
      return;
    }
    if (known) return;
    if (savedText !== undefined) {
      this.seen.set(conversation, change.path, current);
      throw new UnsavedChanges(shown, diffPreview(seen ?? savedText, current));
    }
    if (seen !== undefined) {
      this.seen.set(conversation, change.path, current);
      throw new StaleCopy(shown, diffPreview(seen, current));
    }
  }

  /**
   * A file in an encoding whose bytes are not mapped here (gbk, shiftjis…): written through the
   * editor's encoder only when that is lossless — the file's bytes read back exactly, and the new
   * text reads back as itself.
   */
  private async reencoded(
    shown: string,
    file: DiskFile,
    before: string,
    edits: readonly TextEdit[],
  ): Promise<{ after: string; bytes?: Uint8Array }> {
    const onText = editsOnText(shown, before, file.text, edits);
    if (onText.length === 0) return { after: file.text };
    const encoding = file.encoding;
    const again = await vscode.workspace.encode(file.text, { encoding });
    if (Buffer.compare(Buffer.from(again), Buffer.from(file.bytes)) !== 0)
      throw new WriteRefused(
        shown,
        `it is ${encoding}, and its bytes do not read back exactly in it, so writing it would change bytes outside the change; nothing was written. Ask the user to make this change, or to reopen the file with its real encoding`,
      );
    const after = editedText(file.text, onText);
    assertPlannedLines(shown, before, file.text, edits, after);
    const bytes = await vscode.workspace.encode(after, { encoding });
    if ((await vscode.workspace.decode(bytes, { encoding })) !== after) {
      const inserted = onText.map((edit) => edit.text).join('');
      const unwritable = [...inserted].find((char) => !/[\x00-\x7f]/.test(char)) ?? inserted.slice(0, 1);
      throw new UnwritableText(shown, unwritable, encoding);
    }
    return { after, bytes };
  }

  /**
   * Writes the bytes, then one WorkspaceEdit (unsaved texts, creates, deletes, moves). Right before
   * each, the file must still be as planned: its disk size and time as read, an unsaved text still
   * at the version read. On a failure the bytes written are put back (where nobody wrote since).
   */
  private async write(planned: readonly Planned[]): Promise<void> {
    const written: Planned[] = [];
    const edit = new vscode.WorkspaceEdit();
    let editorWork = false;
    try {
      for (const file of planned) {
        if (!file.bytes || file.change.before === undefined) continue;
        if (!(await this.unchangedOnDisk(file))) throw new NotPlannedText(file.shown);
        await fs.promises.writeFile(file.change.path, file.bytes);
        written.push(file);
      }
      for (const file of planned) {
        const uri = vscode.Uri.file(file.change.path);
        if (file.change.before === undefined) {
          edit.createFile(uri, { overwrite: false, contents: file.bytes ?? new Uint8Array() });
          editorWork = true;
        } else if (file.after === undefined) {
          edit.deleteFile(uri, { ignoreIfNotExists: false });
          editorWork = true;
        }
        if (file.bufferEdits && file.document) {
          const document = file.document;
          // The offsets are of the text read at this version; the human may have typed since (no await from here to applyEdit).
          if (document.version !== file.version) throw new NotPlannedText(file.shown);
          for (const change of file.bufferEdits)
            edit.replace(
              uri,
              new vscode.Range(document.positionAt(change.start), document.positionAt(change.end)),
              change.text,
            );
          editorWork = editorWork || file.bufferEdits.length > 0;
        }
        if (file.change.moveTo) {
          edit.renameFile(uri, vscode.Uri.file(file.change.moveTo), { overwrite: false });
          editorWork = true;
        }
      }
      // (The editor refuses an empty WorkspaceEdit, and `size` does not count file operations.)
      if (editorWork && !(await vscode.workspace.applyEdit(edit)))
        throw new WriteRefused(
          planned.map((file) => file.shown).join(', '),
          'the editor refused the edit (a file may have changed meanwhile); nothing was written',
        );
    } catch (error) {
      for (const file of written) await this.putBack(file);
      if (error instanceof WriteRefused || error instanceof NotPlannedText) throw error;
      throw new WriteRefused(
        planned.map((file) => file.shown).join(', '),
        `${describeError(error)}; nothing was written`,
      );
    }
  }

  /** The file on disk still has the size and modification time it had when its text was read. */
  private async unchangedOnDisk(file: Planned): Promise<boolean> {
    if (!file.disk) return false;
    try {
      const now = await fs.promises.stat(file.change.path, { bigint: true });
      return now.size === BigInt(file.disk.size) && now.mtimeNs === file.disk.mtimeNs;
    } catch {
      return false;
    }
  }

  /** Puts a file's bytes back as they were before this write, unless someone wrote it since. */
  private async putBack(file: Planned): Promise<void> {
    try {
      const now = await fs.promises.readFile(file.change.path);
      if (file.bytes && Buffer.compare(now, Buffer.from(file.bytes)) === 0)
        await fs.promises.writeFile(file.change.path, file.disk?.bytes ?? new Uint8Array());
      else this.log.warn('writer.restore', `${file.shown} changed again since this write: not put back`);
    } catch (error) {
      this.log.error('writer.restore', `${file.shown}: ${describeError(error)}`);
    }
  }

  /** Waits for tabs showing written files to show the new text, and reads the written bytes back; returns what the model should know. */
  private async settle(planned: readonly Planned[]): Promise<string[]> {
    const notes = await Promise.all(planned.map((file) => this.settled(file)));
    return notes.filter((note): note is string => note !== undefined);
  }

  private async settled(file: Planned): Promise<string | undefined> {
    if (!file.bytes || file.change.before === undefined || file.change.moveTo) return undefined;
    const back = await fs.promises.readFile(file.change.path).catch(() => undefined);
    if (!back || Buffer.compare(back, Buffer.from(file.bytes)) !== 0)
      return `${file.shown} changed again right after this write (another program?); read it before relying on it.`;
    if (!file.document || file.document.isClosed || file.after === undefined) return undefined;
    const started = Date.now();
    const shown = await editorShows(file.document, file.after, RELOAD_WAIT_MS);
    this.log.info(
      'writer.reload',
      `${file.shown}: ${shown ? 'shown by the editor' : 'not shown by the editor'} after ${Date.now() - started} ms`,
    );
    return shown ? undefined : `${file.shown} is written, but its editor tab has not shown the new text yet.`;
  }
}
