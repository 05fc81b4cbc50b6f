/**
 * The workspace boundary on the file system, not in the text of a path: a path is inside when
 * the real path of its longest existing prefix (every symbolic link resolved, dangling ones too)
 * lies inside the real path of a workspace folder. Path text a model sends is checked first:
 * no NUL, no over-long path or name, no file URI of another host or with escapes to decode.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { displayPathOf, ErrorContext, ModelFacingError } from '../platform/modelFacingError';
import type { WorkspaceFolderPath } from './paths';

/** Linux's PATH_MAX and NAME_MAX (bytes); macOS and Windows allow less, never more. */
export const MAX_PATH_BYTES = 4096;
export const MAX_NAME_BYTES = 255;
/** Links followed in one path before giving up (Linux's ELOOP bound). */
const MAX_LINKS = 40;

/** Path text that names no file this tool may use: the reason says what to send instead. */
export class InvalidPath extends ModelFacingError {
  constructor(
    readonly input: string,
    readonly reason: string,
  ) {
    super(`Invalid path ${JSON.stringify(input.slice(0, 200))}: ${reason}`);
    this.name = 'InvalidPath';
  }

  override modelText(): string {
    return `Error: ${this.message}. Nothing was read or written.`;
  }
}

/** A path inside the workspace by its text that leads outside through a symbolic link. */
export class LinkLeavesWorkspace extends ModelFacingError {
  constructor(
    /** The absolute path as named. */
    readonly absolutePath: string,
    /** The link on the way (absolute), and where it points (absolute, resolved). */
    readonly link: string,
    readonly target: string,
  ) {
    super(`${absolutePath} leads outside the workspace through the symbolic link ${link} → ${target}.`);
    this.name = 'LinkLeavesWorkspace';
  }

  override modelText(context: ErrorContext = {}): string {
    const display = displayPathOf(context);
    return (
      `Error: ${display(this.absolutePath)} is refused: the symbolic link ${display(this.link)} points to ${this.target}, ` +
      'outside the workspace. Nothing was read or written. Only files whose real location is inside the workspace folder can be used.'
    );
  }
}

/**
 * The path text of a tool argument, checked: a plain path is returned as given (trimmed); a
 * `file:` URI must name this machine (`file:///abs` or `file://localhost/abs`) and carry no
 * percent-escape (nothing is decoded behind the model's back).
 */
export function pathTextOf(input: string): string {
  const text = input.trim();
  if (text.includes('\u0000')) throw new InvalidPath(input, 'it contains a NUL character; send the path as plain text');
  if (text === '') throw new InvalidPath(input, 'it is empty; give a path relative to the workspace folder');
  let plain = text;
  if (/^file:/i.test(text)) {
    const match = /^file:\/\/([^/]*)(\/.*)?$/i.exec(text);
    if (!match)
      throw new InvalidPath(
        input,
        'it is a file URI without an absolute path; give a path relative to the workspace folder',
      );
    const host = match[1];
    if (host !== '' && host.toLowerCase() !== 'localhost') {
      throw new InvalidPath(
        input,
        `it is a file URI of the host "${host}", not a file of this workspace; give a path relative to the workspace folder`,
      );
    }
    plain = match[2] ?? '/';
    if (/%[0-9a-f]{2}/i.test(plain))
      throw new InvalidPath(input, 'it is a percent-encoded file URI; give the path itself, unencoded');
  }
  if (Buffer.byteLength(plain) > MAX_PATH_BYTES)
    throw new InvalidPath(input, `it is longer than ${MAX_PATH_BYTES} bytes`);
  const long = plain.split(/[\\/]/).find((name) => Buffer.byteLength(name) > MAX_NAME_BYTES);
  if (long !== undefined)
    throw new InvalidPath(input, `a name in it is longer than ${MAX_NAME_BYTES} bytes (${long.slice(0, 40)}…)`);
  return plain;
}

/**
 * The real path of an absolute path: its longest existing prefix with every link resolved, the
 * rest appended. A dangling link is followed to where it points (writing through it would create
 * its target). Throws InvalidPath on a loop of links.
 */
export function realPathOf(absolutePath: string, linksLeft = MAX_LINKS): string {
  const missing: string[] = [];
  let existing = path.resolve(absolutePath);
  for (;;) {
    try {
      return path.join(fs.realpathSync.native(existing), ...missing);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ELOOP') throw new InvalidPath(absolutePath, 'it goes through a loop of symbolic links');
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
    }
    const dangling = linkTarget(existing);
    if (dangling !== undefined) {
      if (linksLeft <= 0) throw new InvalidPath(absolutePath, 'it goes through too many symbolic links');
      return path.join(realPathOf(dangling, linksLeft - 1), ...missing);
    }
    const parent = path.dirname(existing);
    if (parent === existing) return path.join(existing, ...missing);
    missing.unshift(path.basename(existing));
    existing = parent;
  }
}

/** Where a symbolic link points, absolute; undefined when the path is not a link. */
function linkTarget(file: string): string | undefined {
  try {
    if (!fs.lstatSync(file).isSymbolicLink()) return undefined;
    return path.resolve(path.dirname(file), fs.readlinkSync(file));
  } catch {
    return undefined;
  }
}

/** Whether `candidate` is `folder` or below it, by the text of two absolute paths. */
export function isInside(folder: string, candidate: string): boolean {
  const relative = path.relative(folder, candidate);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/** Whether the real path of `absolutePath` lies inside the real path of a workspace folder. */
export function isRealPathInside(folders: readonly WorkspaceFolderPath[], absolutePath: string): boolean {
  const real = realPathOf(absolutePath);
  return folders.some((folder) => isInside(realPathOf(folder.path), real));
}

/**
 * Throws LinkLeavesWorkspace unless the real path of `absolutePath` lies inside the real path
 * of a workspace folder. Called when a path argument is resolved and again right before a write.
 */
export function assertRealPathInside(folders: readonly WorkspaceFolderPath[], absolutePath: string): void {
  if (isRealPathInside(folders, absolutePath)) return;
  const real = realPathOf(absolutePath);
  const link = firstLinkOn(folders, absolutePath) ?? absolutePath;
  throw new LinkLeavesWorkspace(absolutePath, link, link === absolutePath ? real : realPathOf(link));
}

/**
 * The first symbolic link on the way to `absolutePath`: below the folder that holds it by its
 * text (the folder itself may be reached through links, which is fine), else from the root.
 */
function firstLinkOn(folders: readonly WorkspaceFolderPath[], absolutePath: string): string | undefined {
  const target = path.resolve(absolutePath);
  const holder = folders
    .map((folder) => path.resolve(folder.path))
    .filter((folder) => isInside(folder, target))
    .sort((a, b) => b.length - a.length)[0];
  let prefix = holder ?? path.parse(target).root;
  for (const part of path.relative(prefix, target).split(path.sep).filter(Boolean)) {
    prefix = path.join(prefix, part);
    if (linkTarget(prefix) !== undefined) return prefix;
  }
  return undefined;
}
