/** The `live-ast-grep` command line run in this process: its exit code and the lines it wrote to stdout and stderr. */
import * as path from 'node:path';
import { main } from '../../../src/cli/astGrepCli';
import { repoRoot } from '../../support/repoRoot';

/** The grammars as the build lays them out (dist/grammars). */
const GRAMMARS = path.join(repoRoot(), 'dist', 'grammars');

export interface CliRun {
  readonly code: number;
  readonly out: string[];
  readonly error: string[];
}

export async function runCli(...argv: string[]): Promise<CliRun> {
  const out: string[] = [];
  const error: string[] = [];
  const code = await main(
    argv,
    GRAMMARS,
    (text) => out.push(text),
    (text) => error.push(text),
  );
  return { code, out, error };
}
