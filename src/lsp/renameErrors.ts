import { ModelFacingError } from '../platform/modelFacingError';

/** Why a rename did not happen (nothing changed). */
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
