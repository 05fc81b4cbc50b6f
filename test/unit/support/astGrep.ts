/**
 * The reference implementation: the `ast-grep` binary of the pinned `@ast-grep/cli` devDependency,
 * run on explicit file lists. Its matches come back as UTF-8 byte ranges.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { onLines } from '../../support/jsonLines';

/**
 * The native binary: npm installs the platform package (an optionalDependency of @ast-grep/cli)
 * whether or not the postinstall that links it into @ast-grep/cli ran; without it,
 * @ast-grep/cli's own `ast-grep` is only a shim that says the postinstall is missing.
 */
export function astGrepBinary(repoRoot: string): string {
  const binary = process.platform === 'win32' ? 'ast-grep.exe' : 'ast-grep';
  const platformPackages: Readonly<Record<string, string>> = {
    'linux-x64': 'cli-linux-x64-gnu',
    'linux-arm64': 'cli-linux-arm64-gnu',
    'darwin-x64': 'cli-darwin-x64',
    'darwin-arm64': 'cli-darwin-arm64',
    'win32-x64': 'cli-win32-x64-msvc',
    'win32-arm64': 'cli-win32-arm64-msvc',
  };
  const platformPackage = platformPackages[`${process.platform}-${process.arch}`];
  const candidates = [
    ...(platformPackage ? [path.join(repoRoot, 'node_modules', '@ast-grep', platformPackage, binary)] : []),
    path.join(repoRoot, 'node_modules', '@ast-grep', 'cli', binary),
  ];
  const found = candidates.find((candidate) => fs.existsSync(candidate) && fs.statSync(candidate).size > 100_000);
  if (!found)
    throw new Error(`No ast-grep binary in ${candidates.join(' or ')}: run npm ci (@ast-grep/cli is a devDependency).`);
  return found;
}

export interface AstGrepMatch {
  readonly file: string;
  /** UTF-8 byte offsets. */
  readonly start: number;
  readonly end: number;
  readonly text: string;
  /** With several patterns, the index of the one that matched. */
  readonly pattern: number;
}

interface AstGrepJson {
  readonly file: string;
  readonly text: string;
  readonly ruleId?: string;
  readonly range: { readonly byteOffset: { readonly start: number; readonly end: number } };
}

/** The matches of one pattern in the given files (absolute paths), from `ast-grep run --json=stream`. */
export function astGrepMatches(
  binary: string,
  language: string,
  pattern: string,
  files: readonly string[],
): Promise<AstGrepMatch[]> {
  return astGrepJson(binary, ['run', '--pattern', pattern, '--lang', language, '--json=stream', ...files]);
}

/**
 * The matches of several patterns in one pass (`ast-grep scan` with one inline rule per pattern,
 * each rule a bare `pattern`, which ast-grep matches exactly as `run --pattern`): every file is
 * parsed once instead of once per pattern.
 */
export function astGrepMatchesOfEach(
  binary: string,
  language: string,
  patterns: readonly string[],
  files: readonly string[],
): Promise<AstGrepMatch[]> {
  const rules = patterns.map((pattern, index) =>
    [`id: p${index}`, `language: ${language}`, 'rule:', `  pattern: ${JSON.stringify(pattern)}`].join('\n'),
  );
  return astGrepJson(binary, ['scan', '--inline-rules', rules.join('\n---\n'), '--json=stream', ...files]);
}

function astGrepJson(binary: string, args: readonly string[]): Promise<AstGrepMatch[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const matches: AstGrepMatch[] = [];
    let stderr = '';
    // One JSON object per line; matches of a bundled file can be megabytes each, so parse as they come.
    onLines(child.stdout, (line) => matches.push(toMatch(line)));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      // Exit code 1 means "no match".
      if (code === 0 || code === 1) resolve(matches);
      else reject(new Error(`ast-grep exited with ${code}: ${stderr}`));
    });
  });
}

function toMatch(line: string): AstGrepMatch {
  const json = JSON.parse(line) as AstGrepJson;
  return {
    file: json.file,
    start: json.range.byteOffset.start,
    end: json.range.byteOffset.end,
    text: json.text,
    pattern: json.ruleId ? Number(json.ruleId.slice(1)) : 0,
  };
}
