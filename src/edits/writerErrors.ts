/**
 * The refusals of the one writer (`workspace/vscode/workspaceWriter`) and of the write tools: each names
 * the file, says nothing was written, and what to do instead. Shown lines are the writer's own diff.
 */
import { ModelFacingError } from '../platform/modelFacingError';

export class WriteRefused extends ModelFacingError {
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`${path}: ${reason}`);
    this.name = 'WriteRefused';
  }

  override modelText(): string {
    return `Error: ${this.path}: ${this.reason}.`;
  }
}

/** A whole-file write from a copy of a file someone else changed since this conversation last saw it. */
export class StaleCopy extends ModelFacingError {
  constructor(
    readonly path: string,
    /** The other party's change, as diffPreview shows it (from what this conversation saw to the file now). */
    readonly change: string,
  ) {
    super(`${path} changed since you last wrote or saw it; this whole-file write would undo that change.`);
    this.name = 'StaleCopy';
  }

  override modelText(): string {
    return (
      `Error: ${this.path} was changed by someone else since you last wrote or saw it, and this write replaces ` +
      `the whole file from your older copy, which would undo their change; nothing was written. What changed:\n` +
      `${this.change}\nRead the file again and write it with their change kept (or use edit for your part only).`
    );
  }
}

/** A whole-file write over a file the human has unsaved changes in. */
export class UnsavedChanges extends ModelFacingError {
  constructor(
    readonly path: string,
    /** The unsaved change, as diffPreview shows it (from the file on disk to the editor's text). */
    readonly change: string,
  ) {
    super(`${path} has unsaved changes in the editor that this whole-file write would replace.`);
    this.name = 'UnsavedChanges';
  }

  override modelText(): string {
    return (
      `Error: ${this.path} has unsaved changes in the editor (the user's typing) that this write would replace; ` +
      `nothing was written. The unsaved lines:\n${this.change}\nRead the file again (its unsaved text counts) and ` +
      `write it with those lines kept, use edit for your part only, or ask the user to save or discard them.`
    );
  }
}
