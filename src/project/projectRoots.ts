/**
 * Where projects of each language are rooted in a workspace folder: a directory holding one of
 * the language's marker files. Found by a bounded walk that skips dependency and build folders;
 * a root's subfolders are not searched again for the same language.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

export const ROOT_SEARCH_DEPTH = 4;
const SKIPPED = new Set([
  'node_modules',
  '.git',
  '.venv',
  'venv',
  'out',
  'dist',
  'build',
  'target',
  '.dart_tool',
  '__pycache__',
  '.vscode-test',
]);

export interface ProjectRoot {
  readonly dir: string;
  /** The markers present there. */
  readonly markers: readonly string[];
}

/** Directories under `folder` (itself included) up to `depth` levels down, parents before children. */
export function candidateDirs(folder: string, depth = ROOT_SEARCH_DEPTH): { dir: string; files: Set<string> }[] {
  const found: { dir: string; files: Set<string> }[] = [];
  const queue: { dir: string; level: number }[] = [{ dir: folder, level: 0 }];
  while (queue.length > 0) {
    const { dir, level } = queue.shift()!;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    found.push({ dir, files: new Set(entries.filter((entry) => !entry.isDirectory()).map((entry) => entry.name)) });
    if (level >= depth) continue;
    for (const entry of entries) {
      if (entry.isDirectory() && !SKIPPED.has(entry.name))
        queue.push({ dir: path.join(dir, entry.name), level: level + 1 });
    }
  }
  return found;
}

export function rootsFor(
  dirs: readonly { dir: string; files: Set<string> }[],
  markers: readonly string[],
): ProjectRoot[] {
  const roots: ProjectRoot[] = [];
  for (const { dir, files } of dirs) {
    const present = markers.filter((marker) => files.has(marker));
    if (present.length === 0) continue;
    if (roots.some((root) => dir.startsWith(root.dir + path.sep))) continue;
    roots.push({ dir, markers: present });
  }
  return roots;
}

/**
 * The root `rootOf(rootsFor(candidateDirs(folder), markers), file)` finds — the outermost folder with a
 * marker on the way from `folder` down to `file`, within the depth, not inside a skipped folder — by a
 * few stats of the file's own folders instead of a walk of the whole folder.
 */
export function rootHolding(
  folder: string,
  file: string,
  markers: readonly string[],
  depth = ROOT_SEARCH_DEPTH,
): ProjectRoot | undefined {
  const relative = path.relative(folder, path.dirname(file));
  if (relative === '..' || relative.startsWith('..' + path.sep) || path.isAbsolute(relative)) return undefined;
  const parts = relative === '' ? [] : relative.split(path.sep);
  let dir = folder;
  for (let level = 0; level <= Math.min(depth, parts.length); level++) {
    if (level > 0) {
      if (SKIPPED.has(parts[level - 1])) return undefined;
      dir = path.join(dir, parts[level - 1]);
      // The walk goes into folders only, never through a link to one.
      if (!lstatOf(dir)?.isDirectory()) return undefined;
    }
    const present = markers.filter((marker) => {
      const stat = lstatOf(path.join(dir, marker));
      return stat !== undefined && !stat.isDirectory();
    });
    if (present.length > 0) return { dir, markers: present };
  }
  return undefined;
}

/** An entry's own kind (a link is a link); undefined when it is not there or cannot be read (as the walk skips it). */
function lstatOf(entry: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(entry, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

/** The deepest root that contains `file`, if any. */
export function rootOf(roots: readonly ProjectRoot[], file: string): ProjectRoot | undefined {
  return roots
    .filter((root) => file === root.dir || file.startsWith(root.dir + path.sep))
    .sort((a, b) => b.dir.length - a.dir.length)[0];
}

/**
 * Servers and checkers may report a file by its real path when the workspace is reached through a
 * symlink (pyright does); such a path is mapped back under the folder the editor opened.
 */
export function underOpenedFolder(file: string, folder: string, realFolder: string): string {
  if (realFolder === folder) return file;
  if (file === realFolder) return folder;
  return file.startsWith(realFolder + path.sep) ? folder + file.slice(realFolder.length) : file;
}

export function realPathOf(dir: string): string {
  try {
    return fs.realpathSync(dir);
  } catch {
    return dir;
  }
}
