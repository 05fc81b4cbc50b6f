/**
 * What the model reads when a tool call fails. An engine's error words itself (ModelFacingError's
 * `modelText`, beside its class); anything else is `Error: ` and its message's first line, never a
 * stack trace.
 */
import { ErrorContext, firstLineText, ModelFacingError } from '../platform/modelFacingError';

export function errorText(error: unknown, context: ErrorContext = {}): string {
  if (error instanceof ModelFacingError) return error.modelText(context);
  return firstLineText(error instanceof Error ? error.message : String(error));
}
