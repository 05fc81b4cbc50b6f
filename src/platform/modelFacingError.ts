/**
 * The base of every error an engine throws for the model to read. Each error class carries its own
 * wording, beside its definition: `modelText` says what was wrong and what to send instead, with
 * candidates when ambiguous, never a stack trace. The default is the first line of the message, for
 * errors whose message is already worded for the model; classes with more to say override it.
 */

/** What the tool runner knows about the call, for the wording of an error. */
export interface ErrorContext {
  /** The file argument as the model gave it, to name it back. */
  readonly file?: string;
  /** Files with the same name elsewhere in the workspace, for a FileNotFound. */
  readonly similarFiles?: readonly string[];
  /** Absolute path → what results show (workspace-relative); identity when absent. */
  readonly displayPath?: (absolutePath: string) => string;
}

export abstract class ModelFacingError extends Error {
  /** What the model reads: `Error: …`, one paragraph (candidates may follow on their own lines). */
  modelText(_context: ErrorContext = {}): string {
    return firstLineText(this.message);
  }
}

/** `Error: ` and the first line of a message: what the model reads of an error nobody worded for it. */
export function firstLineText(message: string): string {
  return `Error: ${message.split('\n')[0]}`;
}

/** Absolute path → what the model reads, from the context (identity when absent). */
export function displayPathOf(context: ErrorContext): (absolutePath: string) => string {
  return context.displayPath ?? ((absolutePath) => absolutePath);
}
