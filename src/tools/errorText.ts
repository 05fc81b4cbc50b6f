/**
 * What the model reads when a tool call fails. An engine's error words itself (ModelFacingError's
 * `modelText`, beside its class); anything else is `Error: ` and its message's first line, never a
 * stack trace.
 */
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
import { PatternTooExpensive } from '../structural/matcher';
import { ParsingTimedOut } from '../structural/parsePool';
import { ErrorContext, firstLineText, ModelFacingError } from '../platform/modelFacingError';

export function errorText(error: unknown, context: ErrorContext = {}): string {
  if (error instanceof ModelFacingError) return error.modelText(context);
  return pendingErrorText(error, context) ?? firstLineText(error instanceof Error ? error.message : String(error));
}

/**
 * The lsp and structural errors not yet moved to ModelFacingError (their areas are being restructured;
 * test/unit/errorText.test.ts lists them as PENDING): each becomes its class's `modelText`, text unchanged.
 */
function pendingErrorText(error: unknown, context: ErrorContext): string | undefined {
  const where = context.file ? ` of ${context.file}` : '';
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
  if (error instanceof PatternTooExpensive || error instanceof ParsingTimedOut) {
    // Engine messages name the file by its absolute path; the model reads it relative to the workspace.
    const shown = error.file ? (context.displayPath ?? ((absolutePath: string) => absolutePath))(error.file) : undefined;
    const again = shown ? (error instanceof PatternTooExpensive ? new PatternTooExpensive(error.budget, shown) : new ParsingTimedOut(error.seconds, shown)) : error;
    return `Error: ${again.message} The search stopped there: no matches are reported.`;
  }
  if (error instanceof RenameRefused) {
    const outside = error.outsideFiles.length ? ` Files outside the workspace: ${error.outsideFiles.join(', ')}.` : '';
    return `Error: rename refused: ${error.message.replace(/\.$/, '')}. Nothing was changed.${outside}`;
  }
  if (error instanceof RenameNotSaved) {
    return `Error: the rename was applied, but ${error.path} could not be saved; it is left modified and unsaved in the editor (undo reverts the whole rename).`;
  }
  return undefined;
}
