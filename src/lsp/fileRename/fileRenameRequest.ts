/**
 * TypeScript's edits for moving a file, computed on a thread of its own (fileRenameWorker.ts):
 * bounded in time and memory, stopped on cancellation, never on the extension host's thread.
 */
import { Worker } from 'node:worker_threads';
import { boundedTimeout } from '../../async/timers';
import { TextEdit } from '../../edits/textEdits';

export interface FileRenameRequest {
  /** The typescript.js to load (the editor's bundled one). */
  readonly typescript: string;
  readonly oldPath: string;
  readonly newPath: string;
  /** The tsconfig.json/jsconfig.json of the moved file's project; without one, `rootFiles` are the program. */
  readonly configPath?: string;
  readonly rootFiles: readonly string[];
  /** Texts of files open with unsaved changes, by absolute path: what the edits are computed on. */
  readonly overrides: Readonly<Record<string, string>>;
}

export interface FileRenameResult {
  /** Each changed file with the text its edits refer to (UTF-16 offsets, sorted as TypeScript gives them). */
  readonly files: readonly { readonly path: string; readonly text: string; readonly edits: readonly TextEdit[] }[];
}

/** The thread's heap bound: a large project's program fits; a runaway one ends the thread, not the editor. */
const OLD_GENERATION_MB = 2048;

export async function editsForFileRename(
  script: string,
  request: FileRenameRequest,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<FileRenameResult> {
  const worker = new Worker(script, {
    workerData: request,
    resourceLimits: { maxOldGenerationSizeMb: OLD_GENERATION_MB },
  });
  try {
    return await new Promise<FileRenameResult>((resolve, reject) => {
      const timer = boundedTimeout(
        () =>
          reject(new Error(`TypeScript did not compute the import updates within ${Math.round(timeoutMs / 1000)} s`)),
        timeoutMs,
      );
      const abort = (): void => reject(signal.reason ?? new Error('cancelled'));
      signal.addEventListener('abort', abort, { once: true });
      const settle = (): void => {
        clearTimeout(timer);
        signal.removeEventListener('abort', abort);
      };
      worker.once('message', (message: { ok: boolean; result?: FileRenameResult; message?: string }) => {
        settle();
        if (message.ok && message.result) resolve(message.result);
        else reject(new Error(`TypeScript failed to compute the import updates: ${message.message ?? 'no answer'}`));
      });
      worker.once('error', (error) => {
        settle();
        reject(new Error(`TypeScript failed to compute the import updates: ${error.message}`));
      });
      worker.once('exit', (code) => {
        settle();
        reject(new Error(`TypeScript's thread ended (code ${code}) before it computed the import updates`));
      });
    });
  } finally {
    void worker.terminate();
  }
}
