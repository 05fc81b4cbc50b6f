/** Typed errors of the write tools that are not about matching text (see editMatch, applyPatch, patchParser). */

export class WriteRefused extends Error {
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`${path}: ${reason}`);
    this.name = 'WriteRefused';
  }
}
