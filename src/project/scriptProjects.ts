/**
 * The TypeScript/JavaScript projects of a workspace folder as the TypeScript server sees them, each with
 * one source file whose opening makes the server load that project: every folder with a tsconfig.json or
 * jsconfig.json (nested ones are projects of their own), and the outermost package.json folders outside
 * and above none of those (the server infers a project from the file opened there).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseJsonc } from '../platform/jsonc';
import { candidateDirs } from './projectRoots';

export type ScriptProjectMarker = 'tsconfig.json' | 'jsconfig.json' | 'package.json';
export const SCRIPT_PROJECT_MARKERS: readonly string[] = ['tsconfig.json', 'jsconfig.json', 'package.json'];

export interface ScriptProject {
  readonly dir: string;
  readonly marker: ScriptProjectMarker;
  /** A source file of the project (absolute); undefined when none was found within the search depth. */
  readonly entry?: string;
}

/** What `candidateDirs` lists: folders, parents before children, with the names of their files. */
export type DirListing = readonly { readonly dir: string; readonly files: ReadonlySet<string> }[];

const TS_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts'];
const JS_EXTENSIONS = ['.js', '.jsx', '.mjs', '.cjs'];
const DECLARATION = /\.d\.[mc]?ts$/;
const GLOB_CHARACTERS = /[*?[\]{}]/;

export function findScriptProjects(folder: string): ScriptProject[] {
  return scriptProjectsIn(candidateDirs(folder), readTextFile);
}

/** The projects in a listing, parents before children; `readText` reads a marker file (undefined when it cannot). */
export function scriptProjectsIn(listing: DirListing, readText: (file: string) => string | undefined): ScriptProject[] {
  const configDirs = listing
    .filter(({ files }) => files.has('tsconfig.json') || files.has('jsconfig.json'))
    .map(({ dir }) => dir);
  const packageDirs: string[] = [];
  for (const { dir, files } of listing) {
    if (!files.has('package.json')) continue;
    if (configDirs.some((config) => isAtOrUnder(dir, config) || isAtOrUnder(config, dir))) continue;
    if (packageDirs.some((outer) => isAtOrUnder(dir, outer))) continue;
    packageDirs.push(dir);
  }
  const projectDirs = [...configDirs, ...packageDirs];
  const owner = (dir: string): string | undefined =>
    projectDirs.filter((project) => isAtOrUnder(dir, project)).sort((a, b) => b.length - a.length)[0];
  return listing
    .filter(({ dir }) => projectDirs.includes(dir))
    .map(({ dir, files }) => {
      const marker: ScriptProjectMarker = files.has('tsconfig.json')
        ? 'tsconfig.json'
        : files.has('jsconfig.json')
          ? 'jsconfig.json'
          : 'package.json';
      return { dir, marker, entry: entryOf(dir, marker, listing, owner, readText) };
    });
}

/**
 * A file the project holds: one its config names (`files`, or package.json's `main`), else the first
 * source file, parents before children and by name, under the folders `include` starts from (the
 * project's folder without it), in no nested project (the server would load that one instead).
 */
function entryOf(
  dir: string,
  marker: ScriptProjectMarker,
  listing: DirListing,
  owner: (dir: string) => string | undefined,
  readText: (file: string) => string | undefined,
): string | undefined {
  const config = readConfig(readText(path.join(dir, marker)));
  const options = config.compilerOptions as Record<string, unknown> | undefined;
  const extensions =
    marker === 'tsconfig.json' && options?.allowJs !== true ? TS_EXTENSIONS : [...TS_EXTENSIONS, ...JS_EXTENSIONS];
  const isSource = (name: string) =>
    extensions.some((extension) => name.endsWith(extension)) && !DECLARATION.test(name);
  const listed = (file: string) =>
    listing.some((entry) => entry.dir === path.dirname(file) && entry.files.has(path.basename(file)));
  const ownedSource = (file: string) => isSource(file) && owner(path.dirname(file)) === dir && listed(file);

  const named = marker === 'package.json' ? [config.main] : Array.isArray(config.files) ? config.files : [];
  for (const name of named) {
    if (typeof name !== 'string') continue;
    const file = path.resolve(dir, name);
    if (ownedSource(file)) return file;
  }
  const include = marker !== 'package.json' && Array.isArray(config.include) ? config.include : undefined;
  const starts = include
    ? include.filter((pattern): pattern is string => typeof pattern === 'string').map(staticPrefix)
    : [''];
  for (const start of starts) {
    const from = path.resolve(dir, start);
    if (ownedSource(from)) return from;
    for (const entry of listing) {
      if (!isAtOrUnder(entry.dir, from) || owner(entry.dir) !== dir) continue;
      const name = [...entry.files].sort().find(isSource);
      if (name) return path.join(entry.dir, name);
    }
  }
  return undefined;
}

/** The part of an include pattern before its first wildcard segment (`src/**\/*.ts` → `src`). */
export function staticPrefix(pattern: string): string {
  const segments = pattern.split(/[\\/]/);
  const wild = segments.findIndex((segment) => GLOB_CHARACTERS.test(segment));
  return (wild === -1 ? segments : segments.slice(0, wild)).join('/');
}

function readConfig(text: string | undefined): Record<string, unknown> {
  if (text === undefined) return {};
  try {
    const parsed = parseJsonc(text);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : {};
  } catch {
    return {}; // An unreadable config: its folder is still the project, searched from the top.
  }
}

function isAtOrUnder(dir: string, ancestor: string): boolean {
  return dir === ancestor || dir.startsWith(ancestor + path.sep);
}

function readTextFile(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}
