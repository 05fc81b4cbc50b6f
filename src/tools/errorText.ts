/**
 * Turns the engines' typed errors into what the model should do next: what was wrong, what
 * to send instead, candidates when ambiguous. Never a stack trace.
 */
import { DeadlineExceeded } from '../async/deadline';
import { clipLineText } from '../lsp/format';
import { RenameNotSaved, RenameRefused } from '../lsp/renameErrors';
import {
  AmbiguousSymbol,
  InvalidSymbol,
  LineOutOfRange,
  markOccurrence,
  OccurrenceOutOfRange,
  SymbolNotOnLine,
} from '../lsp/symbolLocation';
import { InputError } from '../registry/inputValidation';
import { AmbiguousFile, FileNotFound, NoWorkspaceFolder, OutsideWorkspace } from '../workspace/paths';

export interface ErrorContext {
  /** The file argument as the model gave it, to name it back. */
  readonly file?: string;
  /** Files with the same name elsewhere in the workspace, for a FileNotFound. */
  readonly similarFiles?: readonly string[];
}

export function errorText(error: unknown, context: ErrorContext = {}): string {
  const where = context.file ? ` of ${context.file}` : '';
  if (error instanceof InputError) {
    return `Error: ${error.problems.join(' ')}${error.hint ? ` ${error.hint}` : ''}`;
  }
  if (error instanceof NoWorkspaceFolder) {
    return 'Error: no folder is open in this window, and paths are resolved against the workspace folder. Ask the user to open the project folder.';
  }
  if (error instanceof FileNotFound) {
    const similar = context.similarFiles?.length
      ? ` Files with that name: ${context.similarFiles.join(', ')}.`
      : ' Use lsp symbols with a query, or list the folder, to find the right path.';
    return `Error: file not found: ${error.input} (looked for ${error.triedPaths.join(', ')}).${similar}`;
  }
  if (error instanceof AmbiguousFile) {
    return `Error: ${error.input} exists in several workspace folders; name one of: ${error.candidates.join(', ')}.`;
  }
  if (error instanceof OutsideWorkspace) {
    return `Error: ${error.absolutePath} is outside the workspace; only files inside the workspace folder can be used.`;
  }
  if (error instanceof LineOutOfRange) {
    return `Error: line ${error.line} is outside the file${where}, which has ${error.lineCount} lines (lines are 1-based).`;
  }
  if (error instanceof SymbolNotOnLine) {
    const nearby = error.nearbyLines.length
      ? ` "${error.symbol}" is found on line ${error.nearbyLines.join(', line ')}; call again with that line.`
      : ` It is not on the nearby lines either; check the line number, or find the symbol with lsp symbols.`;
    return `Error: "${error.symbol}" is not on line ${error.line}${where}. Line ${error.line} is: ${JSON.stringify(clipLineText(error.lineText))}.${nearby}`;
  }
  if (error instanceof AmbiguousSymbol) {
    const choices = error.occurrences.map(
      (offset, index) => `  ${index + 1}: ${markOccurrence(error.lineText, offset, error.symbol.length)}`,
    );
    return [
      `Error: "${error.symbol}" occurs ${error.occurrences.length} times on line ${error.line}${where}; say which with occurrence (1-based) or "${error.symbol}#N":`,
      ...choices,
    ].join('\n');
  }
  if (error instanceof OccurrenceOutOfRange) {
    return `Error: occurrence ${error.occurrence} of "${error.symbol}" was asked for, but line ${error.line}${where} has only ${error.count}.`;
  }
  if (error instanceof InvalidSymbol) return `Error: ${error.message}`;
  if (error instanceof DeadlineExceeded) {
    return `Error: timed out after ${error.seconds} s waiting for ${error.waitingFor}. The language server may still be starting or indexing; try again, or check lsp status.`;
  }
  if (error instanceof RenameRefused) {
    const outside = error.outsideFiles.length ? ` Files outside the workspace: ${error.outsideFiles.join(', ')}.` : '';
    return `Error: rename refused: ${error.message.replace(/\.$/, '')}. Nothing was changed.${outside}`;
  }
  if (error instanceof RenameNotSaved) {
    return `Error: the rename was applied, but ${error.path} could not be saved; it is left modified and unsaved in the editor (undo reverts the whole rename).`;
  }
  const message = error instanceof Error ? error.message : String(error);
  return `Error: ${message.split('\n')[0]}`;
}
