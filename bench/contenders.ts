/**
 * The two command lines the structural benchmarks compare, run on the same paths: ours
 * (`node dist/cli.js` with its shebang's V8 flags) and ast-grep's.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { astGrepBinary } from '../test/unit/support/astGrep';
import { shebangFlags } from './timedRun';

/** How the command line and ast-grep are run on a list of files or folders. */
export interface Contenders {
  readonly root: string;
  readonly astGrep: string;
  /** Node's arguments up to our command line's own (its V8 flags, then dist/cli.js). */
  readonly cli: readonly string[];
  ours(language: string, pattern: string, paths: readonly string[], extra?: readonly string[]): string[];
  theirs(language: string, pattern: string, paths: readonly string[], extra?: readonly string[]): string[];
}

export function contenders(root: string): Contenders {
  const cli = path.join(root, 'dist', 'cli.js');
  if (!fs.existsSync(cli)) throw new Error(`${cli} is missing: run node esbuild.mjs first.`);
  const flags = shebangFlags(cli);
  return {
    root,
    astGrep: astGrepBinary(root),
    cli: [...flags, cli],
    ours: (language, pattern, paths, extra = []) => [
      ...flags,
      cli,
      '--lang',
      language,
      '--pattern',
      pattern,
      '--json',
      ...extra,
      ...paths,
    ],
    theirs: (language, pattern, paths, extra = []) => [
      'run',
      '--pattern',
      pattern,
      '--lang',
      language,
      '--json=stream',
      ...extra,
      ...paths,
    ],
  };
}
