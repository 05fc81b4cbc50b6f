import { ModelFacingError } from '../platform/modelFacingError';

/** Why a rename did not happen (nothing changed), or happened but could not be saved. */
export class RenameRefused extends ModelFacingError {
  constructor(
    message: string,
    readonly outsideFiles: readonly string[] = [],
  ) {
    super(message);
    this.name = 'RenameRefused';
  }

  override modelText(): string {
    const outside = this.outsideFiles.length ? ` Files outside the workspace: ${this.outsideFiles.join(', ')}.` : '';
    return `Error: rename refused: ${this.message.replace(/\.$/, '')}. Nothing was changed.${outside}`;
  }
}

export class RenameNotSaved extends ModelFacingError {
  constructor(readonly path: string) {
    super(`The rename was applied but ${path} could not be saved.`);
    this.name = 'RenameNotSaved';
  }

  override modelText(): string {
    return `Error: the rename was applied, but ${this.path} could not be saved; it is left modified and unsaved in the editor (undo reverts the whole rename).`;
  }
}
