/** Typed errors of the write tools that are not about matching text (see editMatch, applyPatch, patchParser). */
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
