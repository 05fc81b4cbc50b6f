/** Why a rename did not happen (nothing changed), or happened but could not be saved. */
export class RenameRefused extends Error {
  constructor(
    message: string,
    readonly outsideFiles: readonly string[] = [],
  ) {
    super(message);
    this.name = 'RenameRefused';
  }
}

export class RenameNotSaved extends Error {
  constructor(readonly path: string) {
    super(`The rename was applied but ${path} could not be saved.`);
    this.name = 'RenameNotSaved';
  }
}
