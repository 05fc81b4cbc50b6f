/**
 * Temporary folders for tests, made under the system's temp folder and always removed: one for a
 * whole suite (made before its first test, removed after its last) or one for a single piece of work.
 * The path given is the real one (no symbolic link on the way), as the code under test resolves it.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** Call inside `describe`, before the hooks that use it: the suite's folder, read from hooks and tests. */
export function suiteTempDir(prefix: string): () => string {
  let dir: string | undefined;
  before(() => {
    dir = makeTempDir(prefix);
  });
  after(() => {
    if (dir !== undefined) removeTempDir(dir);
  });
  return () => {
    if (dir === undefined) throw new Error(`The ${prefix} folder exists only from the suite's first hook on.`);
    return dir;
  };
}

/** Runs `work` with a fresh folder, removed once `work` settles. */
export async function withTempDir<T>(prefix: string, work: (dir: string) => Promise<T>): Promise<T> {
  const dir = makeTempDir(prefix);
  try {
    return await work(dir);
  } finally {
    removeTempDir(dir);
  }
}

function makeTempDir(prefix: string): string {
  return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
}

function removeTempDir(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
}
