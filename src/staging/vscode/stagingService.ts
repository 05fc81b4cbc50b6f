import * as path from 'node:path';
import { workspaceFolderPaths } from '../../workspace/vscode/workspaceFolders';
import { describeError, Logger } from '../../log/logger';
import { assertRealPathInside } from '../../workspace/containment';
import { displayPath } from '../../workspace/paths';
import { proposedAnswer } from '../answers';
import { FileMove, keptFiles, Resolver, StagedEdit, StageRequest, WrittenFile } from '../stagedEdit';
import { DriftedFile, MergeRefused, ResolutionInProgress, StaleStagedEdit } from '../stagingErrors';
import { driftOf, mergedFiles, StagingStore } from '../stagingStore';
import { currentText } from '../../workspace/vscode/fileTexts';
import { ChangeJournal } from '../../platform/changeJournal';
import { FileChange, WorkspaceWriter } from '../../workspace/vscode/workspaceWriter';

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
    private readonly writer: WorkspaceWriter,
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
    // The conversation has seen these texts: a later whole-file write of it is made on them.
    for (const file of request.files) this.writer.saw(request.conversation, file.path, file.original);
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
    if (edit.merge !== 'three-way') return driftOf(files, (path) => texts.get(path));
    // A three-way change is refused only where its kept hunks meet what changed since.
    try {
      mergedFiles(edit, files, (path) => texts.get(path));
      return [];
    } catch (error) {
      if (error instanceof MergeRefused)
        return [
          ...error.conflicts.map((conflict) => ({ path: conflict.path, kind: 'changed' as const })),
          ...error.drifted,
        ];
      if (error instanceof StaleStagedEdit) return [...error.drifted];
      throw error;
    }
  }

  /**
   * Accepts a pending change: refuses it whole if any file drifted (StaleStagedEdit), else
   * applies every file in one WorkspaceEdit (one undo step) and saves them.
   */
  async accept(id: string, by: Resolver, conversation?: string): Promise<AcceptOutcome> {
    const pending = this.store.requirePending(id, conversation);
    const movedText = pending.move ? await currentText(pending.move.from) : undefined;
    const { edit, written: unsaved } = await this.store.accept(
      id,
      by,
      {
        currentText,
        write: (files, move) => this.write(pending, by, files, move, movedText),
      },
      conversation,
    );
    this.log.info(
      'staging.accept',
      `${edit.id} accepted by ${by}${unsaved.length ? `; not saved: ${unsaved.join(', ')}` : ''}`,
    );
    return { edit, unsaved };
  }

  /**
   * Withdraws a pending change for its producer (a worker that continues and will stage its work anew):
   * true when discarded; false when it was resolved first (an accept in flight is waited for).
   */
  async withdraw(id: string): Promise<boolean> {
    for (;;) {
      const edit = this.store.get(id);
      if (edit?.state !== 'pending') return false;
      try {
        this.discard(id, 'agent');
        return true;
      } catch (error) {
        if (!(error instanceof ResolutionInProgress)) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  }

  /** Discards a conversation's pending changes of files inside `folders` (a worker's copy that is going away). */
  discardInside(conversation: string, folders: readonly string[]): void {
    const inside = (file: string): boolean => folders.some((folder) => file.startsWith(folder + path.sep));
    for (const edit of this.store.pending())
      if (edit.conversation === conversation && edit.files.length > 0 && edit.files.every((file) => inside(file.path)))
        this.discard(edit.id, 'agent');
  }

  discard(id: string, by: Resolver, conversation?: string): StagedEdit {
    const edit = this.store.discard(id, by, conversation);
    this.log.info('staging.discard', `${edit.id} discarded by ${by}`);
    return edit;
  }

  /**
   * Has the one writer apply the kept edits (ranges of the captured text) and the move, as one change
   * for the conversation that staged it; returns the files left unsaved (the human's unsaved text there).
   */
  private async write(
    edit: StagedEdit,
    by: Resolver,
    files: readonly WrittenFile[],
    move: FileMove | undefined,
    movedText: string | undefined,
  ): Promise<string[]> {
    const changes: FileChange[] = files.map((file) => ({
      path: file.path,
      // Created: nothing before; deleted: nothing after. Merged into the text now: planned on that text.
      before: file.lifecycle === 'create' ? undefined : (file.current ?? file.original),
      after: file.lifecycle === 'delete' ? undefined : file.proposed,
      edits: file.current === undefined && !file.lifecycle ? file.edits : undefined,
      moveTo: file.path === move?.from ? move.to : undefined,
    }));
    // A moved file without edits of its own is moved with its text (Agent Changes can put it back).
    if (move && !files.some((file) => file.path === move.from))
      changes.push({ path: move.from, before: movedText, after: movedText, edits: [], moveTo: move.to });
    const written = await this.writer.apply({
      files: changes,
      kind: 'anchored',
      // Recorded for the conversation that staged it, whoever accepted.
      source: {
        conversation: edit.conversation,
        label: edit.author ?? '',
        call: {
          id: this.journal.nextCallId(),
          label: `${edit.origin} ${edit.id} (accepted by the ${by})`,
          at: Date.now(),
        },
      },
    });
    return written.files.filter((file) => file.unsaved).map((file) => file.path);
  }
}
