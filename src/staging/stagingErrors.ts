/** Why a staged change cannot be staged, found, accepted or discarded. Worded for the model in tools/errorText.ts. */
import { Resolution } from './stagedEdit';

export class UnknownStagedEdit extends Error {
  constructor(
    readonly id: string,
    /** Ids still pending, to name as candidates. */
    readonly pending: readonly { readonly id: string; readonly summary: string }[],
  ) {
    super(`There is no staged edit ${id} in this window.`);
    this.name = 'UnknownStagedEdit';
  }
}

export class AlreadyResolved extends Error {
  constructor(
    readonly id: string,
    readonly resolution: Resolution,
  ) {
    super(`${id} was already ${resolution.action === 'accept' ? 'accepted' : 'discarded'} by the ${resolution.by}.`);
    this.name = 'AlreadyResolved';
  }
}

/** A change staged by another conversation: only that conversation, or the human in the review, may resolve it. */
export class StagedInOtherConversation extends Error {
  constructor(
    readonly id: string,
    readonly conversation: string,
  ) {
    super(`${id} was staged in another conversation (${conversation}).`);
    this.name = 'StagedInOtherConversation';
  }
}

/** Another accept or discard of the same change is still running (the human clicked while the agent resolved it). */
export class ResolutionInProgress extends Error {
  constructor(readonly id: string) {
    super(`${id} is being resolved right now.`);
    this.name = 'ResolutionInProgress';
  }
}

export type DriftKind = 'changed' | 'missing';

export interface DriftedFile {
  /** Absolute path. */
  readonly path: string;
  readonly kind: DriftKind;
}

/** Some files of the change differ from what was captured when it was staged: nothing was written. */
export class StaleStagedEdit extends Error {
  constructor(
    readonly id: string,
    readonly origin: string,
    readonly drifted: readonly DriftedFile[],
  ) {
    super(`${id} is stale: ${drifted.length} of its files changed since it was staged.`);
    this.name = 'StaleStagedEdit';
  }
}

/** A change that cannot be staged as given (no files, a file twice, no edit at all). */
export class InvalidStagedChange extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'InvalidStagedChange';
  }
}

/** The checks passed but the editor refused to apply the edit; nothing was written. */
export class AcceptRefused extends Error {
  constructor(
    readonly id: string,
    reason: string,
  ) {
    super(reason);
    this.name = 'AcceptRefused';
  }
}

/** A change that would also create, delete or rename files: only text edits can be staged. */
export class FileOperationsNotStaged extends Error {
  constructor(
    /** What the change would do besides editing text, e.g. `rename src/a.ts to src/b.ts`. */
    readonly operations: readonly string[],
  ) {
    super(`Only text edits can be staged; this change would also ${operations.join(', ')}.`);
    this.name = 'FileOperationsNotStaged';
  }
}
