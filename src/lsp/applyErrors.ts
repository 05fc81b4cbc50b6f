/** Why lsp_apply changed nothing; each error words itself for the model. */
import { ModelFacingError } from '../platform/modelFacingError';

/** The change was refused as a whole (outside the workspace, a target that exists, a server that failed). */
export class ApplyRefused extends ModelFacingError {
  constructor(
    message: string,
    readonly outsideFiles: readonly string[] = [],
  ) {
    super(message);
    this.name = 'ApplyRefused';
  }

  override modelText(): string {
    const outside = this.outsideFiles.length ? ` Files outside the workspace: ${this.outsideFiles.join(', ')}.` : '';
    return `Error: ${this.message.replace(/\.$/, '')}; nothing was changed.${outside}`;
  }
}

/** No code action of that title where the model asked; the offered ones are the candidates. */
export class UnknownCodeAction extends ModelFacingError {
  constructor(
    readonly title: string,
    readonly where: string,
    readonly offered: readonly string[],
  ) {
    super(`No code action titled ${JSON.stringify(title)} is offered at ${where}.`);
    this.name = 'UnknownCodeAction';
  }

  override modelText(): string {
    if (this.offered.length === 0)
      return `Error: no code action titled ${JSON.stringify(this.title)} at ${this.where}: none is offered there now; nothing was changed.`;
    return [
      `Error: no code action titled ${JSON.stringify(this.title)} at ${this.where}; nothing was changed. Offered there (give one title exactly):`,
      ...this.offered.map((title, index) => `${index + 1}. ${title}`),
    ].join('\n');
  }
}

/**
 * An action that runs a command (instead of, or besides, returning its edit): the command's effect
 * is not an edit we can show, check against the workspace boundary and record first.
 */
export class ActionNotCapturable extends ModelFacingError {
  constructor(
    readonly title: string,
    readonly command: string,
    readonly why: string,
  ) {
    super(`"${title}" runs the command ${command}.`);
    this.name = 'ActionNotCapturable';
  }

  override modelText(): string {
    return (
      `Error: "${this.title}" was not applied: it runs the editor command \`${this.command}\`, ${this.why}. ` +
      'Nothing was changed. Make the change with edit, or ask the user to apply it from the Quick Fix menu.'
    );
  }
}
