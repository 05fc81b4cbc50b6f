/**
 * Which test runner a project's tests run under, found from a few small files (markers, the nearest
 * package.json's test script) and starting nothing. Shared by `debug launch test` (debug/testLaunch.ts)
 * and the `test` tool (testing/): each words its own refusal from the `RunnerSearch` it gets back.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

export type TestRunnerId = 'pytest' | 'go test' | 'node --test' | 'jest' | 'mocha' | 'vitest' | 'cargo test';

/** Files that mark a pytest project's root. */
export const PYTEST_MARKERS = [
  'pytest.ini',
  'pyproject.toml',
  'setup.cfg',
  'tox.ini',
  'conftest.py',
  'setup.py',
  'requirements.txt',
];

export const JAVASCRIPT_TEST_EXTENSIONS = ['.js', '.mjs', '.cjs', '.ts', '.mts', '.cts', '.jsx', '.tsx'];

/** A runner found (Go: with the package's folder as `root`), or why none was. */
export type RunnerSearch =
  | { readonly id: TestRunnerId; readonly root?: string }
  | { readonly unknownExtension: string }
  | { readonly several: readonly TestRunnerId[]; readonly dir: string }
  | { readonly none: string };

/** A test file's runner, by its extension (a JavaScript file's by its package's test script). */
export function runnerForFile(file: string, workspaceFolder: string): RunnerSearch {
  const extension = path.extname(file).toLowerCase();
  if (extension === '.py') return { id: 'pytest' };
  if (extension === '.go') return { id: 'go test' };
  if (extension === '.rs') return { id: 'cargo test' };
  if (JAVASCRIPT_TEST_EXTENSIONS.includes(extension)) return javaScriptRunner(path.dirname(file), workspaceFolder);
  return { unknownExtension: path.basename(file) };
}

/** No file: the nearest project from `start` up to the workspace folder says which runner. */
export function runnerForFolder(start: string, workspaceFolder: string): RunnerSearch {
  for (let dir = start; ; dir = path.dirname(dir)) {
    const fits: TestRunnerId[] = [];
    if (fs.existsSync(path.join(dir, 'go.mod')) || hasFileEnding(dir, '_test.go')) fits.push('go test');
    if (fs.existsSync(path.join(dir, 'Cargo.toml'))) fits.push('cargo test');
    if (PYTEST_MARKERS.some((marker) => fs.existsSync(path.join(dir, marker)))) fits.push('pytest');
    const script = testScript(dir);
    if (script !== undefined) fits.push(scriptRunnerName(script) ?? 'node --test');
    if (fits.length === 1) return fits[0] === 'go test' ? { id: fits[0], root: dir } : { id: fits[0] };
    if (fits.length > 1) return { several: fits, dir };
    if (dir === workspaceFolder || !dir.startsWith(workspaceFolder + path.sep)) break;
  }
  return { none: start };
}

/** A JavaScript test file's runner: the one the nearest package.json's test script runs, else Node's own. */
export function javaScriptRunner(dir: string, workspaceFolder: string): { id: TestRunnerId } {
  const project = nearestWith(dir, workspaceFolder, ['package.json']);
  const script = project ? testScript(project) : undefined;
  return { id: (script === undefined ? undefined : scriptRunnerName(script)) ?? 'node --test' };
}

function testScript(dir: string): string | undefined {
  try {
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
      scripts?: Record<string, unknown>;
    };
    const script = manifest.scripts?.test;
    return typeof script === 'string' ? script : undefined;
  } catch {
    return undefined;
  }
}

function scriptRunnerName(script: string): 'jest' | 'mocha' | 'vitest' | undefined {
  return /\b(jest|mocha|vitest)\b/.exec(script)?.[1] as 'jest' | 'mocha' | 'vitest' | undefined;
}

/** The nearest folder from `start` up to the workspace folder that holds one of the markers. */
export function nearestWith(start: string, workspaceFolder: string, markers: readonly string[]): string | undefined {
  for (let dir = start; ; dir = path.dirname(dir)) {
    if (markers.some((marker) => fs.existsSync(path.join(dir, marker)))) return dir;
    if (dir === workspaceFolder || !dir.startsWith(workspaceFolder + path.sep)) return undefined;
  }
}

function hasFileEnding(dir: string, ending: string): boolean {
  try {
    return fs.readdirSync(dir).some((entry) => entry.endsWith(ending));
  } catch {
    return false;
  }
}

/** A word as a shell would need it: quoted unless it holds only characters that need no quoting. */
export function shellWord(word: string): string {
  return /^[\w./:=@%+,-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`;
}

/** A relative path as a runner's positional argument: one starting with "-" is made `./-…`, never an option. */
export function positional(relative: string): string {
  return relative.startsWith('-') ? `./${relative}` : relative;
}

/** A name as a regular expression matching it literally (Node, jest, mocha, vitest take names as patterns). */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/**
 * go test's -run for one test: each level (Parent/sub) matched exactly; a name holding a regular
 * expression's characters is taken as the pattern it is.
 */
export function goRunPattern(test: string): string {
  if (/[\^$|*+?()[\]{}\\]/.test(test)) return test;
  return test
    .split('/')
    .map((level) => `^${level.replace(/\./g, '\\.')}$`)
    .join('/');
}
