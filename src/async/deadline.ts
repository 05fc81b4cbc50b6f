/**
 * Bounds a wait. Language servers and adapters can hang; every wait on them has a deadline
 * and, when it passes, a typed error that says what we were waiting for and for how long.
 */
import { ModelFacingError } from '../platform/modelFacingError';
import { boundedTimeout } from './timers';

export class DeadlineExceeded extends ModelFacingError {
  constructor(
    readonly waitingFor: string,
    readonly seconds: number,
  ) {
    super(`Timed out after ${seconds} s waiting for ${waitingFor}.`);
    this.name = 'DeadlineExceeded';
  }

  override modelText(): string {
    return `Error: timed out after ${this.seconds} s waiting for ${this.waitingFor}. The language server may still be starting or indexing; try again, or check lsp status.`;
  }
}

export function withDeadline<T>(work: PromiseLike<T>, seconds: number, waitingFor: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = boundedTimeout(() => reject(new DeadlineExceeded(waitingFor, seconds)), seconds * 1000);
    Promise.resolve(work).then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
