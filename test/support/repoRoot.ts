/**
 * The repository's root, found from wherever the build put the calling code (out/test/unit,
 * out/test/integration, out/test/harness…): the nearest folder above it that holds esbuild.mjs.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

let found: string | undefined;

export function repoRoot(): string {
  if (found !== undefined) return found;
  let dir = __dirname;
  while (!fs.existsSync(path.join(dir, 'esbuild.mjs'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`Cannot find the repository root (esbuild.mjs) above ${__dirname}.`);
    dir = parent;
  }
  return (found = dir);
}
