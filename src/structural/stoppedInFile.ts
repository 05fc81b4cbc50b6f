/**
 * An error that stopped a search at one file (a pattern too expensive there, a parse past the
 * deadline). The engine names the file by its absolute path; the model reads it as results name it
 * (relative to the workspace), and that no matches are reported.
 */
import { displayPathOf, ErrorContext, ModelFacingError } from '../platform/modelFacingError';

export abstract class StoppedInFile extends ModelFacingError {
  abstract readonly file?: string;

  /** The same error, naming `file`. */
  abstract inFile(file: string): StoppedInFile;

  override modelText(context: ErrorContext = {}): string {
    const shown = this.file ? displayPathOf(context)(this.file) : undefined;
    return `Error: ${(shown ? this.inFile(shown) : this).message} The search stopped there: no matches are reported.`;
  }
}
