/**
 * Finds a server's or checker's executable the way a user of the project expects: the project's
 * own tools first (`node_modules/.bin`, `.venv/bin`, `venv/bin` of the root, then of the workspace
 * folder), then the directories of `liveTools.lsp.binDirs`, then PATH. A command with a slash is
 * taken as a path (relative to the root). A miss says every place looked.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

export const PROJECT_BIN_DIRS = ['node_modules/.bin', '.venv/bin', 'venv/bin'] as const;

export type ResolvedVia = 'project' | 'settings' | 'PATH' | 'path';

export type BinaryResolution =
  | { readonly found: true; readonly path: string; readonly via: ResolvedVia }
  | {
      readonly found: false;
      readonly command: string;
      readonly looked: readonly { readonly via: ResolvedVia; readonly dir: string }[];
    };

export interface ResolutionInputs {
  /** The project root (holds the marker). */
  readonly root: string;
  /** The workspace folder the root is in (project-local dirs are looked up here too). */
  readonly workspaceFolder: string;
  /** `liveTools.lsp.binDirs`. */
  readonly settingDirs: readonly string[];
  /** The PATH string. */
  readonly pathVariable: string;
  readonly isExecutable?: (file: string) => boolean;
  /** false: the project's own directories are not looked in (what is there is the project's code). */
  readonly projectDirs?: boolean;
}

export function isExecutableFile(file: string): boolean {
  try {
    if (!fs.statSync(file).isFile()) return false;
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export function resolveBinary(command: string, inputs: ResolutionInputs): BinaryResolution {
  const executable = inputs.isExecutable ?? isExecutableFile;
  if (command.includes('/')) {
    const file = path.resolve(inputs.root, command);
    return executable(file)
      ? { found: true, path: file, via: 'path' }
      : { found: false, command, looked: [{ via: 'path', dir: path.dirname(file) }] };
  }
  const places: { via: ResolvedVia; dir: string }[] = [];
  const projectRoots =
    inputs.projectDirs === false
      ? []
      : inputs.root === inputs.workspaceFolder
        ? [inputs.root]
        : [inputs.root, inputs.workspaceFolder];
  for (const base of projectRoots)
    for (const dir of PROJECT_BIN_DIRS) places.push({ via: 'project', dir: path.join(base, dir) });
  for (const dir of inputs.settingDirs)
    places.push({ via: 'settings', dir: path.resolve(inputs.workspaceFolder, dir) });
  for (const dir of inputs.pathVariable.split(path.delimiter)) if (dir) places.push({ via: 'PATH', dir });
  for (const place of places) {
    const file = path.join(place.dir, command);
    if (executable(file)) return { found: true, path: file, via: place.via };
  }
  return { found: false, command, looked: places };
}

/** "found at X (project-local)" / "not found (looked in …)" for status lines. */
export function describeResolution(
  resolution: BinaryResolution,
  shortPath: (file: string) => string = (file) => file,
): string {
  if (resolution.found) {
    const via = {
      project: 'project-local',
      settings: 'from liveTools.lsp.binDirs',
      PATH: 'on PATH',
      path: 'as configured',
    }[resolution.via];
    return `${resolution.path} (${via})`;
  }
  const groups: string[] = [];
  const project = resolution.looked.filter((place) => place.via === 'project').map((place) => shortPath(place.dir));
  const settings = resolution.looked.filter((place) => place.via === 'settings').map((place) => place.dir);
  const onPath = resolution.looked.filter((place) => place.via === 'PATH').map((place) => place.dir);
  const given = resolution.looked.filter((place) => place.via === 'path').map((place) => place.dir);
  if (given.length > 0) groups.push(`the configured path in ${given.join(', ')}`);
  if (project.length > 0) groups.push(`project: ${project.join(', ')}`);
  groups.push(`liveTools.lsp.binDirs: ${settings.length > 0 ? settings.join(', ') : '(none set)'}`);
  if (given.length === 0) groups.push(`PATH: ${onPath.length > 0 ? onPath.join(', ') : '(empty)'}`);
  return `\`${resolution.command}\` not found (looked in ${groups.join('; ')})`;
}
