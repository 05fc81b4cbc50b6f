import * as vscode from 'vscode';
import { workspaceFolderPaths } from '../../workspace/vscode/workspaceFolders';
import { describeError, Logger } from '../../log/logger';
import { assertRealPathInside } from '../../workspace/containment';
import { displayPath } from '../../workspace/paths';
import { proposedAnswer } from '../answers';
import { FileMove, keptFiles, Resolver, StagedEdit, StageRequest, WrittenFile } from '../stagedEdit';
import { AcceptRefused, DriftedFile, StaleStagedEdit } from '../stagingErrors';
import { driftOf, StagingStore } from '../stagingStore';
import { currentText, writeTextExactly } from '../../workspace/vscode/fileTexts';
import { documentAt } from '../../workspace/vscode/openDocuments';
import { hasMixedLineBreaks } from '../../edits/textEdits';
import { ChangeJournal } from '../../changes/changeJournal';
import { observedWrites, WriteOfFile } from '../../changes/agentChanges';

/** What accepting wrote: the kept files, the moved one with its move (a moved file without edits, with its text). */
function acceptedWrites(files: readonly WrittenFile[], move: FileMove | undefined, movedText: string | undefined) {
  const written: WriteOfFile[] = files.map((file) => ({
    path: file.path,
    before: file.original,
    after: file.proposed,
    moveTo: file.path === move?.from ? move.to : undefined,
  }));
  if (move && !files.some((file) => file.path === move.from))
    written.push({ path: move.from, before: movedText, after: movedText, moveTo: move.to });
  return observedWrites(written);
}

/** Opens and closes the review of a change (the diff editors); the review UI provides it. */
export interface ReviewPresenter {
  open(edit: StagedEdit): Promise<void>;
}

export interface AcceptOutcome {
  readonly edit: StagedEdit;
  /** Absolute paths of files written into the editor but not saved. */
  readonly unsaved: readonly string[];
}

/**
 * What other tools use to stage a change: `stage` stores it (nothing written), opens the diff
 * for the human and returns the StagedEdit; `proposedAnswer` is the text a tool returns for it.
 * Accepting, from the resolve tool or the review UI, goes through the same drift rule.
 */
export class StagingService {
  readonly store = new StagingStore();
  private presenter: ReviewPresenter | undefined;

  constructor(
    private readonly log: Logger,
    private readonly journal: ChangeJournal,
  ) {}

  setPresenter(presenter: ReviewPresenter): void {
    this.presenter = presenter;
  }

  /** Workspace-relative, as every result names files. */
  display(absolutePath: string): string {
    return displayPath(workspaceFolderPaths(), absolutePath);
  }

  /**
   * Stages a change (typed errors for overlapping or invalid edits; nothing is written) and
   * opens its review. A review that fails to open is logged, not thrown: the change is staged.
   */
  async stage(request: StageRequest): Promise<StagedEdit> {
    const folders = workspaceFolderPaths();
    for (const file of request.files) assertRealPathInside(folders, file.path);
    if (request.move) for (const end of [request.move.from, request.move.to]) assertRealPathInside(folders, end);
    const edit = this.store.stage(request);
    this.log.info(
      'staging.stage',
      `${edit.id} by ${edit.origin} conversation=${edit.conversation}: ${edit.summary} (${edit.files.length} files)`,
    );
    try {
      await this.presenter?.open(edit);
    } catch (error) {
      this.log.warn('staging.review', `could not open the review of ${edit.id}: ${describeError(error)}`);
    }
    return edit;
  }

  /** `(proposed) 3 replacements in 2 files — … call resolve with edit_id "edit_1" …` */
  proposedAnswer(edit: StagedEdit): string {
    return proposedAnswer(edit, (path) => this.display(path));
  }

  /** The files Accept would write (the kept hunks') that changed since the change was staged. */
  async drift(edit: StagedEdit): Promise<DriftedFile[]> {
    const files = keptFiles(edit);
    const texts = new Map<string, string | undefined>();
    for (const file of files) texts.set(file.path, await currentText(file.path));
    return driftOf(files, (path) => texts.get(path));
  }

  /**
   * Accepts a pending change: refuses it whole if any file drifted (StaleStagedEdit), else
   * applies every file in one WorkspaceEdit (one undo step) and saves them.
   */
  async accept(id: string, by: Resolver, conversation?: string): Promise<AcceptOutcome> {
    const pending = this.store.requirePending(id, conversation);
    // A moved file without edits is recorded with its text (Agent Changes can put it back).
    const movedText = pending.move ? await currentText(pending.move.from) : undefined;
    const { edit, written: unsaved } = await this.store.accept(
      id,
      by,
      {
        currentText,
        write: (files, move) => this.write(pending, files, move),
      },
      conversation,
    );
    // Recorded for the conversation that staged it, whoever accepted.
    this.journal.wrote(
      {
        conversation: edit.conversation,
        label: '',
        call: {
          id: this.journal.nextCallId(),
          label: `${edit.origin} ${edit.id} (accepted by the ${by})`,
          at: Date.now(),
        },
      },
      acceptedWrites(keptFiles(edit), edit.move, movedText),
    );
    this.log.info(
      'staging.accept',
      `${edit.id} accepted by ${by}${unsaved.length ? `; not saved: ${unsaved.join(', ')}` : ''}`,
    );
    return { edit, unsaved };
  }

  discard(id: string, by: Resolver, conversation?: string): StagedEdit {
    const edit = this.store.discard(id, by, conversation);
    this.log.info('staging.discard', `${edit.id} discarded by ${by}`);
    return edit;
  }

  /**
   * Applies the proposed edits with ranges taken from the captured text, in one WorkspaceEdit; a file
   * with mixed line breaks (the editor's model would give every line one) is written as bytes after
   * it, as writes do. Returns the files it could not save.
   */
  private async write(edit: StagedEdit, files: readonly WrittenFile[], move?: FileMove): Promise<string[]> {
    // The boundary again, right before writing: a link may have been put in place since staging.
    const folders = workspaceFolderPaths();
    for (const file of files) assertRealPathInside(folders, file.path);
    if (move) {
      for (const end of [move.from, move.to]) assertRealPathInside(folders, end);
      if ((await currentText(move.to)) !== undefined)
        throw new AcceptRefused(edit.id, `${this.display(move.to)} exists now, so the file cannot be moved there`);
    }
    // (The moved file goes through the editor: it is not at its path any more once the edit is applied.)
    const exact = files.filter(
      (file) => file.path !== move?.from && hasMixedLineBreaks(file.original) && !documentAt(file.path)?.isDirty,
    );
    const viaEditor = files.filter((file) => !exact.includes(file));
    for (const file of exact) {
      if ((await currentText(file.path)) !== file.original)
        throw new StaleStagedEdit(edit.id, edit.origin, [{ path: file.path, kind: 'changed' }]);
    }
    const documents = await Promise.all(
      viaEditor.map((file) => vscode.workspace.openTextDocument(vscode.Uri.file(file.path))),
    );
    // The edit is applied to these documents: they must hold exactly the captured text (disk was checked; this is what the editor holds).
    const drifted = viaEditor
      .filter((file, index) => documents[index].getText() !== file.original)
      .map((file) => ({ path: file.path, kind: 'changed' as const }));
    if (drifted.length > 0) throw new StaleStagedEdit(edit.id, edit.origin, drifted);
    const workspaceEdit = new vscode.WorkspaceEdit();
    viaEditor.forEach((file, index) => {
      const document = documents[index];
      for (const change of file.edits) {
        workspaceEdit.replace(
          document.uri,
          new vscode.Range(document.positionAt(change.start), document.positionAt(change.end)),
          change.text,
        );
      }
    });
    // The move comes after the moved file's own edits (they are ranges of its captured text).
    if (move) workspaceEdit.renameFile(vscode.Uri.file(move.from), vscode.Uri.file(move.to), { overwrite: false });
    // (The editor refuses an empty WorkspaceEdit.)
    if ((viaEditor.length > 0 || move) && !(await vscode.workspace.applyEdit(workspaceEdit))) {
      throw new AcceptRefused(edit.id, 'the editor refused to apply the edit (a file may have changed meanwhile)');
    }
    for (const file of exact) await writeTextExactly(file.path, file.original, file.proposed);
    const unsaved: string[] = [];
    for (const [index, opened] of documents.entries()) {
      // The moved file's document is at its new place now.
      const document =
        move && viaEditor[index].path === move.from
          ? await vscode.workspace.openTextDocument(vscode.Uri.file(move.to))
          : opened;
      if (document.getText() !== viaEditor[index].proposed) {
        this.log.warn(
          'staging.accept',
          `${edit.id}: ${viaEditor[index].path} does not read as proposed after the edit`,
        );
      }
      if (document.isDirty && !(await document.save())) unsaved.push(document.uri.fsPath);
    }
    return unsaved;
  }
}
