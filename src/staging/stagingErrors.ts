/** Why a staged change cannot be staged, found, accepted or discarded; each error words itself for the model. */
import { displayPathOf, ErrorContext, ModelFacingError } from '../platform/modelFacingError';
import { driftList, droppedSentence, keptSize } from './answers';
import { isShaped, type Resolution, type StagedEdit } from './stagedEdit';

export class UnknownStagedEdit extends ModelFacingError {
  constructor(
    readonly id: string,
    /** Ids still pending, to name as candidates. */
    readonly pending: readonly { readonly id: string; readonly summary: string }[],
  ) {
    super(`There is no staged edit ${id} in this window.`);
    this.name = 'UnknownStagedEdit';
  }

  override modelText(): string {
    const pending = this.pending.length
      ? ` Pending staged edits: ${this.pending.map((edit) => `${edit.id} (${edit.summary})`).join(', ')}.`
      : ' No staged edit is pending.';
    return `Error: there is no staged edit ${JSON.stringify(this.id)} in this window (ids look like "edit_1").${pending}`;
  }
}

export class AlreadyResolved extends ModelFacingError {
  constructor(
    readonly id: string,
    readonly resolution: Resolution,
    /** The change as resolved: what was kept and dropped. */
    readonly edit?: Pick<StagedEdit, 'files' | 'dropped'>,
  ) {
    super(`${id} was already ${resolution.action === 'accept' ? 'accepted' : 'discarded'} by the ${resolution.by}.`);
    this.name = 'AlreadyResolved';
  }

  override modelText(context: ErrorContext = {}): string {
    const { action, by } = this.resolution;
    const shaped = action === 'accept' && this.edit && isShaped(this.edit) ? this.edit : undefined;
    const outcome = shaped
      ? `it wrote ${keptSize(shaped)}. ${droppedSentence(shaped, displayPathOf(context))}`
      : action === 'accept'
        ? 'its changes are written.'
        : by === 'user'
          ? 'nothing was written. The user chose not to apply it; ask before proposing it again.'
          : 'nothing was written.';
    return `Error: ${this.message.replace(/\.$/, '')}; ${outcome}`;
  }
}

/** A change staged by another conversation: only that conversation, or the human in the review, may resolve it. */
export class StagedInOtherConversation extends ModelFacingError {
  constructor(
    readonly id: string,
    readonly conversation: string,
  ) {
    super(`${id} was staged in another conversation (${conversation}).`);
    this.name = 'StagedInOtherConversation';
  }

  override modelText(): string {
    return `Error: ${this.id} was staged in another conversation (${this.conversation}); nothing was written. Only that conversation, or the human in its review, can accept or discard it.`;
  }
}

/** Another accept or discard of the same change is still running (the human clicked while the agent resolved it). */
export class ResolutionInProgress extends ModelFacingError {
  constructor(readonly id: string) {
    super(`${id} is being resolved right now.`);
    this.name = 'ResolutionInProgress';
  }

  override modelText(): string {
    return `Error: ${this.id} is being accepted or discarded right now (the user may have just clicked in the diff view); call resolve again in a moment to see the outcome.`;
  }
}

/** `created`: a file the change creates exists now, with other text. */
export type DriftKind = 'changed' | 'missing' | 'created';

export interface DriftedFile {
  /** Absolute path. */
  readonly path: string;
  readonly kind: DriftKind;
}

/** Some files of the change differ from what was captured when it was staged: nothing was written. */
export class StaleStagedEdit extends ModelFacingError {
  constructor(
    readonly id: string,
    readonly origin: string,
    readonly drifted: readonly DriftedFile[],
    /** What to do instead, when re-running its producer is not the way (a worker's change). */
    readonly redo?: string,
  ) {
    super(`${id} is stale: ${drifted.length} of its files changed since it was staged.`);
    this.name = 'StaleStagedEdit';
  }

  /** Paths go through the context's `displayPath` (workspace-relative in the tool runner). */
  override modelText(context: ErrorContext = {}): string {
    return (
      `Error: ${this.id} was not accepted: ${this.drifted.length === 1 ? 'a file' : `${this.drifted.length} files`} changed since it was staged — ` +
      `${driftList(this.drifted, displayPathOf(context))}. Nothing was written; ${this.id} stays pending. ` +
      (this.redo
        ? `${this.redo.charAt(0).toUpperCase()}${this.redo.slice(1)}.`
        : `Re-run ${this.origin} on the current text to stage a fresh edit, then discard ${this.id}.`)
    );
  }
}

/** A file where kept hunks meet changes made since staging: its lines (1-based, in the file now) where they meet. */
export interface MergeConflict {
  readonly path: string;
  readonly lines: readonly { readonly line: number; readonly count: number }[];
}

/** A three-way change whose kept hunks meet what changed since (or that drifted otherwise): nothing was written. */
export class MergeRefused extends ModelFacingError {
  constructor(
    readonly id: string,
    readonly conflicts: readonly MergeConflict[],
    readonly drifted: readonly DriftedFile[],
  ) {
    super(`${id} was not accepted: kept changes meet edits made since in ${conflicts.length} file(s).`);
    this.name = 'MergeRefused';
  }

  override modelText(context: ErrorContext = {}): string {
    const display = displayPathOf(context);
    const where = this.conflicts
      .map(
        (conflict) =>
          `${display(conflict.path)} ${conflict.lines
            .map((range) =>
              range.count > 1 ? `lines ${range.line}–${range.line + range.count - 1}` : `line ${range.line}`,
            )
            .join(', ')}`,
      )
      .join('; ');
    const drifted = this.drifted.length ? ` Also changed since: ${driftList(this.drifted, display)}.` : '';
    return (
      `Error: ${this.id} was not accepted: its kept changes meet edits made since it was staged, at ${where} (in the file now).${drifted} ` +
      `Nothing was written; ${this.id} stays pending. Ask the human to uncheck those hunks in the Staged Edits view (only the human can) and accept again, or discard ${this.id}.`
    );
  }
}

/** A change that cannot be staged as given (no files, a file twice, no edit at all). */
export class InvalidStagedChange extends ModelFacingError {
  constructor(reason: string) {
    super(reason);
    this.name = 'InvalidStagedChange';
  }

  override modelText(): string {
    return `Error: could not stage the change: ${this.message.replace(/\.$/, '')}. Nothing was staged or written.`;
  }
}

/** The human dropped every hunk of a change in the review: accepting it would write nothing. */
export class NothingKept extends ModelFacingError {
  constructor(readonly id: string) {
    super(`every change of ${id} was dropped in the review, so there is nothing to write.`);
    this.name = 'NothingKept';
  }

  override modelText(): string {
    return `Error: ${this.id} was not accepted: the user dropped every change of it in the review; nothing was written and ${this.id} stays pending. Discard it, or ask the user which changes they want.`;
  }
}

/** The checks passed but the editor refused to apply the edit; nothing was written. */
export class AcceptRefused extends ModelFacingError {
  constructor(
    readonly id: string,
    reason: string,
  ) {
    super(reason);
    this.name = 'AcceptRefused';
  }

  override modelText(): string {
    return `Error: ${this.id} was not accepted: ${this.message.replace(/\.$/, '')}. Nothing was written; ${this.id} stays pending.`;
  }
}

/** A change that would also create, delete or rename files: only text edits can be staged. */
export class FileOperationsNotStaged extends ModelFacingError {
  constructor(
    /** What the change would do besides editing text, e.g. `rename src/a.ts to src/b.ts`. */
    readonly operations: readonly string[],
  ) {
    super(`Only text edits can be staged; this change would also ${operations.join(', ')}.`);
    this.name = 'FileOperationsNotStaged';
  }

  override modelText(): string {
    return `Error: this change cannot be staged: it would also ${this.operations.join(', ')}, and only text edits can be staged. Nothing was changed. Run it without stage to apply it directly.`;
  }
}
