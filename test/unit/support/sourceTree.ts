/**
 * The extension's source tree as the layering sees it: engines (plain TypeScript) and editor glue
 * (`vscode/` folders, src/tools/, the entry files). Shared by the tests that check the layers.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from '../../support/repoRoot';

export const srcRoot = path.join(repoRoot(), 'src');

/** Engines are plain TypeScript: only files under a `vscode/` folder, src/tools/ and the entry glue may import 'vscode'. */
export function isGlue(relative: string): boolean {
  const parts = relative.split(path.sep);
  return parts.includes('vscode') || parts[0] === 'tools' || relative === 'extension.ts' || relative === 'runtime.ts';
}

/** Every .ts file under src/, relative to it. */
export function sourceFiles(): string[] {
  return fs
    .readdirSync(srcRoot, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => path.relative(srcRoot, path.join(entry.parentPath, entry.name)));
}
