/**
 * Lists the files of a folder as searches and copies see them: everything under a folder except `.git`, what
 * the folder's `.gitignore` files ignore (nested ones apply below themselves), and what the
 * exclude globs (VS Code's `files.exclude` and `search.exclude`, relative to the workspace
 * folder) exclude. Directory symlinks are not followed.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import ignore, { Ignore } from 'ignore';
import picomatch from 'picomatch';

export interface WalkOptions {
  /** The workspace folder the exclude globs are relative to. */
  readonly root: string;
  readonly excludeGlobs: readonly string[];
  readonly useGitignore: boolean;
  /** Only files this accepts are listed (e.g. those a grammar serves). */
  readonly accept: (file: string) => boolean;
  readonly token?: { readonly isCancellationRequested: boolean };
  /** What is thrown when the token is cancelled (default: an Error saying so). */
  readonly cancelled?: () => Error;
}

interface IgnoreScope {
  readonly dir: string;
  readonly rules: Ignore;
}

export async function listFiles(start: string, options: WalkOptions): Promise<string[]> {
  const excluded = options.excludeGlobs.length > 0 ? picomatch([...options.excludeGlobs], { dot: true }) : () => false;
  const isExcluded = (absolute: string): boolean => {
    const relative = path.relative(options.root, absolute).split(path.sep).join('/');
    return relative !== '' && !relative.startsWith('..') && excluded(relative);
  };
  const files: string[] = [];
  const scopes = options.useGitignore ? await gitignoreScopesAbove(options.root, start) : [];

  const visit = async (dir: string, inherited: readonly IgnoreScope[]): Promise<void> => {
    if (options.token?.isCancellationRequested) throw options.cancelled?.() ?? new Error('cancelled');
    let entries;
    try {
      entries = await fs.readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    const own = options.useGitignore ? await readGitignore(dir) : undefined;
    const active = own ? [...inherited, own] : inherited;
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const subdirectories: string[] = [];
    for (const entry of entries) {
      if (entry.name === '.git') continue;
      const absolute = path.join(dir, entry.name);
      const isDirectory = entry.isDirectory();
      if (!isDirectory && !entry.isFile()) continue;
      if (isExcluded(absolute) || isIgnored(active, absolute, isDirectory)) continue;
      if (isDirectory) subdirectories.push(absolute);
      else if (options.accept(absolute)) files.push(absolute);
    }
    for (const subdirectory of subdirectories) await visit(subdirectory, active);
  };

  const stat = await fs.stat(start);
  if (stat.isFile()) return [start];
  await visit(start, scopes);
  return files;
}

function isIgnored(scopes: readonly IgnoreScope[], absolute: string, isDirectory: boolean): boolean {
  for (const scope of scopes) {
    const relative = path.relative(scope.dir, absolute).split(path.sep).join('/');
    if (!relative || relative.startsWith('..')) continue;
    if (scope.rules.ignores(isDirectory ? `${relative}/` : relative)) return true;
  }
  return false;
}

async function readGitignore(dir: string): Promise<IgnoreScope | undefined> {
  try {
    const text = await fs.readFile(path.join(dir, '.gitignore'), 'utf8');
    return { dir, rules: ignore().add(text) };
  } catch {
    return undefined;
  }
}

/** When the search starts below the workspace folder, the .gitignore files between them still apply. */
async function gitignoreScopesAbove(root: string, start: string): Promise<IgnoreScope[]> {
  const scopes: IgnoreScope[] = [];
  const relative = path.relative(root, start);
  if (relative.startsWith('..') || path.isAbsolute(relative)) return scopes;
  let dir = root;
  const parts = relative ? relative.split(path.sep) : [];
  for (let i = 0; i < parts.length; i++) {
    const scope = await readGitignore(dir);
    if (scope) scopes.push(scope);
    dir = path.join(dir, parts[i]);
  }
  return scopes;
}
