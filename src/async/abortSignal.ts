/**
 * From a cancellation token (the editor's, or any with the same shape) to an `AbortSignal`, which
 * is what engines wait on: one place that links them, aborts at once for a token already cancelled,
 * and unlinks when the work is done.
 */

/** What is read of a token: whether it is cancelled, and, where it can tell, when it becomes so. */
export interface CancellationSource {
  readonly isCancellationRequested: boolean;
  readonly onCancellationRequested?: (listener: () => void) => { dispose(): void };
}

/** Runs `work` with a signal that aborts when `token` is cancelled. */
export async function withAbortSignal<T>(
  token: CancellationSource | undefined,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const abort = new AbortController();
  const subscription = token?.onCancellationRequested?.(() => abort.abort());
  if (token?.isCancellationRequested) abort.abort();
  try {
    return await work(abort.signal);
  } finally {
    subscription?.dispose();
  }
}

/** The work's outcome, or `cancelled()` as soon as `signal` aborts (the work goes on behind, its failure unheard). */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal, cancelled: () => Error): Promise<T> {
  if (signal.aborted) {
    work.catch(() => undefined);
    return Promise.reject(cancelled());
  }
  return new Promise<T>((resolve, reject) => {
    const abort = (): void => reject(cancelled());
    signal.addEventListener('abort', abort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}
