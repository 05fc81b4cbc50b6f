/**
 * Turns the engines' typed errors into what the model should do next: what was wrong, what
 * to send instead, candidates when ambiguous. Never a stack trace.
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
import { driftList } from '../staging/answers';
import {
  AcceptRefused,
  AlreadyResolved,
  FileOperationsNotStaged,
  InvalidStagedChange,
  ResolutionInProgress,
  StagedInOtherConversation,
  StaleStagedEdit,
  UnknownStagedEdit,
} from '../staging/stagingErrors';
import { InvalidEdit, OverlappingEdits } from '../edits/textEdits';
import { HunkNotFound, hunkText } from '../writes/applyPatch';
import { NothingToEdit, OldStringNotFound, OldStringNotUnique } from '../writes/editMatch';
import { PatchSyntaxError } from '../writes/patchParser';
import { WriteRefused } from '../writes/writeErrors';
import { ErrorContext, firstLineText, ModelFacingError } from '../platform/modelFacingError';

export type { ErrorContext };

export function errorText(error: unknown, context: ErrorContext = {}): string {
  if (error instanceof ModelFacingError) return error.modelText(context);
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
  const writes = writeErrorText(error, context.file ? ` in ${context.file}` : '');
  if (writes) return writes;
  const staging = stagingErrorText(error, context.displayPath ?? ((absolutePath) => absolutePath));
  if (staging) return staging;
  return firstLineText(error instanceof Error ? error.message : String(error));
}

function stagingErrorText(error: unknown, display: (absolutePath: string) => string): string | undefined {
  if (error instanceof UnknownStagedEdit) {
    const pending = error.pending.length
      ? ` Pending staged edits: ${error.pending.map((edit) => `${edit.id} (${edit.summary})`).join(', ')}.`
      : ' No staged edit is pending.';
    return `Error: there is no staged edit ${JSON.stringify(error.id)} in this window (ids look like "edit_1").${pending}`;
  }
  if (error instanceof AlreadyResolved) {
    const { action, by } = error.resolution;
    const outcome =
      action === 'accept'
        ? 'its changes are written.'
        : by === 'user'
          ? 'nothing was written. The user chose not to apply it; ask before proposing it again.'
          : 'nothing was written.';
    return `Error: ${error.message.replace(/\.$/, '')}; ${outcome}`;
  }
  if (error instanceof StaleStagedEdit) {
    return (
      `Error: ${error.id} was not accepted: ${error.drifted.length === 1 ? 'a file' : `${error.drifted.length} files`} changed since it was staged — ` +
      `${driftList(error.drifted, display)}. Nothing was written; ${error.id} stays pending. ` +
      `Re-run ${error.origin} on the current text to stage a fresh edit, then discard ${error.id}.`
    );
  }
  if (error instanceof StagedInOtherConversation) {
    return `Error: ${error.id} was staged in another conversation (${error.conversation}); nothing was written. Only that conversation, or the human in its review, can accept or discard it.`;
  }
  if (error instanceof ResolutionInProgress) {
    return `Error: ${error.id} is being accepted or discarded right now (the user may have just clicked in the diff view); call resolve again in a moment to see the outcome.`;
  }
  if (error instanceof AcceptRefused) {
    return `Error: ${error.id} was not accepted: ${error.message.replace(/\.$/, '')}. Nothing was written; ${error.id} stays pending.`;
  }
  if (error instanceof FileOperationsNotStaged) {
    return `Error: this change cannot be staged: it would also ${error.operations.join(', ')}, and only text edits can be staged. Nothing was changed. Run it without stage to apply it directly.`;
  }
  if (error instanceof InvalidStagedChange || error instanceof InvalidEdit || error instanceof OverlappingEdits) {
    return `Error: could not stage the change: ${error.message.replace(/\.$/, '')}. Nothing was staged or written.`;
  }
  return undefined;
}

function writeErrorText(error: unknown, where: string): string | undefined {
  if (error instanceof OldStringNotFound) {
    const near = error.closest
      ? ` Closest: line ${error.closest.line}: ${JSON.stringify(clipLineText(error.closest.text))} (${error.closest.how}).`
      : ' Nothing similar is in the file.';
    return `Error: old_string was not found${where}; nothing was written.${near} Read the file and copy old_string exactly, whitespace included.`;
  }
  if (error instanceof OldStringNotUnique) {
    return `Error: old_string occurs ${error.lines.length} times${where} (lines ${error.lines.join(', ')}); nothing was written. Include more surrounding lines to make it unique, or set replace_all to change every occurrence.`;
  }
  if (error instanceof NothingToEdit) return `Error: ${error.reason}; nothing was written.`;
  if (error instanceof PatchSyntaxError) {
    return `Error: the patch is not in the expected format: ${error.message}. Nothing was written. Expected "*** Begin Patch", then "*** Add File: p" / "*** Update File: p" / "*** Delete File: p" sections, then "*** End Patch".`;
  }
  if (error instanceof HunkNotFound) {
    const what = error.missing === 'header' ? `its @@ line ${JSON.stringify(error.hunk.header)} is not in the file after the previous hunk` : 'its context and removed lines are not in the file (after the previous hunk)';
    const near = error.closest ? ` Closest line ${error.closest.line}: ${JSON.stringify(clipLineText(error.closest.text))}.` : '';
    return `Error: hunk ${error.hunkIndex + 1} of ${error.path} does not apply: ${what}.${near} Nothing was written (no file of the patch). The hunk:\n${hunkText(error.hunk)}`;
  }
  if (error instanceof WriteRefused) return `Error: ${error.path}: ${error.reason}.`;
  return undefined;
}
