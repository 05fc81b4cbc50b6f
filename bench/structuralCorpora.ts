/**
 * The real code the structural benchmark searches, all of it on the machine without fetching:
 * TypeScript sources shipped in node_modules (after `npm ci`), Python's standard library and part
 * of Go's, both from Debian packages (`python3`, `golang-go`, which .ci/run installs). A corpus
 * that is not there is named and left out.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { filesUnder } from '../test/support/filesUnder';

export interface Corpus {
  /** Short name, as `--corpus` takes it. */
  readonly name: string;
  readonly language: string;
  /** What it is, for the report. */
  readonly description: string;
  /** Absolute paths, sorted. */
  readonly files: readonly string[];
}

/** The packages of Go's standard library searched: ~900 files of ordinary library code (the whole tree, 4,700 files and 69 MB, takes ast-grep alone 15 s of CPU). */
const GO_PACKAGES = ['net', 'crypto', 'go', 'encoding'];

export function structuralCorpora(repoRoot: string): { corpora: Corpus[]; missing: string[] } {
  const corpora: Corpus[] = [];
  const missing: string[] = [];
  for (const find of [typeScriptSources, pythonStandardLibrary, goStandardLibrary]) {
    const found = find(repoRoot);
    if (typeof found === 'string') missing.push(found);
    else corpora.push(found);
  }
  return { corpora, missing };
}

/** Every .ts file under node_modules that is code, not a declaration file (mostly @azure/msal-* and ajv sources). */
function typeScriptSources(repoRoot: string): Corpus | string {
  const root = path.join(repoRoot, 'node_modules');
  if (!fs.existsSync(root)) return 'ts: no node_modules (run npm ci)';
  const files = filesUnder(root, '.ts').filter((file) => !file.endsWith('.d.ts'));
  if (files.length === 0) return 'ts: no .ts sources under node_modules';
  return {
    name: 'ts',
    language: 'typescript',
    description: 'TypeScript sources shipped in node_modules (.ts, no .d.ts)',
    files,
  };
}

/**
 * Debian's standard library (/usr/lib/python3.N, package python3, without the test suite), else
 * the one `python3` reports; never installed packages, and never the test suite's deliberately
 * broken files (`badsyntax_*`, lib2to3's test data) where a full standard library has them.
 */
function pythonStandardLibrary(): Corpus | string {
  const debian = fs.existsSync('/usr/lib')
    ? fs
        .readdirSync('/usr/lib')
        .filter((name) => /^python3\.\d+$/.test(name) && fs.existsSync(path.join('/usr/lib', name, 'os.py')))
        .sort((a, b) => Number(b.split('.')[1]) - Number(a.split('.')[1]))
        .map((name) => path.join('/usr/lib', name))
    : [];
  const root =
    debian[0] ?? commandOutput('python3', ['-c', 'import sysconfig; print(sysconfig.get_paths()["stdlib"])']);
  if (!root || !fs.existsSync(root)) return 'py: no Python standard library (apt-get install python3)';
  const files = filesUnder(root, '.py').filter((file) => {
    const relative = path.relative(root, file).split(path.sep);
    return (
      !relative.includes('site-packages') &&
      !relative.includes('dist-packages') &&
      !relative.join('/').startsWith('lib2to3/tests/') &&
      !/^(badsyntax_|bad_coding)/.test(relative[relative.length - 1])
    );
  });
  return { name: 'py', language: 'python', description: `Python standard library (${root})`, files };
}

/** Go's standard library: GOROOT from `go env`, else the newest /usr/lib/go-1.N; `testdata` folders left out (inputs of the Go tools' tests, some deliberately invalid). */
function goStandardLibrary(): Corpus | string {
  const fromGo = commandOutput('go', ['env', 'GOROOT']);
  const debian = fs.existsSync('/usr/lib')
    ? fs
        .readdirSync('/usr/lib')
        .filter((name) => /^go-1\.\d+$/.test(name))
        .sort((a, b) => Number(b.split('.')[1]) - Number(a.split('.')[1]))
        .map((name) => path.join('/usr/lib', name))
    : [];
  const goRoot = fromGo || debian[0];
  if (!goRoot || !fs.existsSync(path.join(goRoot, 'src')))
    return 'go: no Go standard library (apt-get install golang-go)';
  // Debian's GOROOT/src is a symbolic link into /usr/share: paths are reported resolved.
  const source = fs.realpathSync(path.join(goRoot, 'src'));
  const files = GO_PACKAGES.flatMap((name) =>
    fs.existsSync(path.join(source, name)) ? filesUnder(path.join(source, name), '.go') : [],
  ).filter((file) => !file.split(path.sep).includes('testdata'));
  if (files.length === 0) return `go: none of ${GO_PACKAGES.join(', ')} under ${source}`;
  return {
    name: 'go',
    language: 'go',
    description: `Go standard library (${source}: ${GO_PACKAGES.join(', ')}; testdata left out)`,
    files,
  };
}

function commandOutput(command: string, args: readonly string[]): string | undefined {
  try {
    return execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() || undefined;
  } catch {
    return undefined;
  }
}
