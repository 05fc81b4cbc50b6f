/**
 * The debug engine's errors. A refusal's message is what the model reads (worded in answers.ts
 * or by the host); a cancelled call says the session goes on.
 */
import { ModelFacingError } from '../platform/modelFacingError';

/** The call cannot be done as asked; the message says why and what to send instead. */
export class DebugRefusal extends ModelFacingError {
  constructor(message: string) {
    super(message);
    this.name = 'DebugRefusal';
  }
}

/** A breakpoint's line text (or symbol) is on no line of the file: the lines around the given one follow. */
export class BreakpointTextNotFound extends ModelFacingError {
  constructor(message: string) {
    super(message);
    this.name = 'BreakpointTextNotFound';
  }

  override modelText(): string {
    return `Error: ${this.message}`;
  }
}

/** The caller cancelled the call; the session (if any) goes on as it was. */
export class DebugCancelled extends ModelFacingError {
  constructor(readonly op: string) {
    super(`op "${op}" was cancelled; the session goes on (op "status" says where it is).`);
    this.name = 'DebugCancelled';
  }
}
