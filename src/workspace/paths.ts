/**
 * File arguments in, display paths out. A model names files relative to the workspace folder
 * (or absolute inside it); results name them the same way, so the model can pass them back.
 * Multi-root workspaces prefix relative paths with the folder name, like VS Code does.
 */
import * as path from 'node:path';
import { ErrorContext, ModelFacingError } from '../platform/modelFacingError';
import { assertRealPathInside, isInside, pathTextOf } from './containment';

export interface WorkspaceFolderPath {
  readonly name: string;
  /** Absolute file-system path of the folder. */
  readonly path: string;
}

export class NoWorkspaceFolder extends ModelFacingError {
  constructor() {
    super('No folder is open in this window.');
    this.name = 'NoWorkspaceFolder';
  }

  override modelText(): string {
    return 'Error: no folder is open in this window, and paths are resolved against the workspace folder. Ask the user to open the project folder.';
  }
}

export class FileNotFound extends ModelFacingError {
  constructor(
    readonly input: string,
    readonly triedPaths: readonly string[],
  ) {
    super(`File not found: ${input}`);
    this.name = 'FileNotFound';
  }

  /** With `similarFiles`: the files of that name the tool runner found elsewhere in the workspace. */
  override modelText(context: ErrorContext = {}): string {
    const similar = context.similarFiles?.length
      ? ` Files with that name: ${context.similarFiles.join(', ')}.`
      : ' Use lsp symbols with a query, or list the folder, to find the right path.';
    return `Error: file not found: ${this.input} (looked for ${this.triedPaths.join(', ')}).${similar}`;
  }
}

export class AmbiguousFile extends ModelFacingError {
  constructor(
    readonly input: string,
    readonly candidates: readonly string[],
  ) {
    super(`"${input}" exists in more than one workspace folder.`);
    this.name = 'AmbiguousFile';
  }

  override modelText(): string {
    return `Error: ${this.input} exists in several workspace folders; name one of: ${this.candidates.join(', ')}.`;
  }
}

export class OutsideWorkspace extends ModelFacingError {
  constructor(readonly absolutePath: string) {
    super(`${absolutePath} is outside the workspace.`);
    this.name = 'OutsideWorkspace';
  }

  override modelText(): string {
    return `Error: ${this.absolutePath} is outside the workspace; only files inside the workspace folder can be used.`;
  }
}

export { isInside };

export function containingFolder(
  folders: readonly WorkspaceFolderPath[],
  absolutePath: string,
): WorkspaceFolderPath | undefined {
  // The deepest folder wins when folders nest.
  return [...folders]
    .filter((folder) => isInside(folder.path, absolutePath))
    .sort((a, b) => b.path.length - a.path.length)[0];
}

/** Workspace-relative path with forward slashes; absolute when outside every folder. */
export function displayPath(folders: readonly WorkspaceFolderPath[], absolutePath: string): string {
  const folder = containingFolder(folders, absolutePath);
  if (!folder) return absolutePath;
  const relative = path.relative(folder.path, absolutePath).split(path.sep).join('/');
  if (folders.length > 1) return relative ? `${folder.name}/${relative}` : folder.name;
  return relative || '.';
}

/**
 * Resolves a file argument to an absolute path inside the workspace, by its text and by its real
 * path (a link out of the workspace is refused: LinkLeavesWorkspace). `exists` says whether a
 * path names a file (on disk or open in the editor).
 */
export function resolveFileArgument(
  folders: readonly WorkspaceFolderPath[],
  input: string,
  exists: (absolutePath: string) => boolean,
): string {
  if (folders.length === 0) throw new NoWorkspaceFolder();
  const cleaned = pathTextOf(input);
  if (path.isAbsolute(cleaned)) {
    const absolute = path.normalize(cleaned);
    if (!containingFolder(folders, absolute)) throw new OutsideWorkspace(absolute);
    if (!exists(absolute)) throw new FileNotFound(input, [absolute]);
    assertRealPathInside(folders, absolute);
    return absolute;
  }
  const relative = cleaned.replace(/^\.\//, '');
  const tried: string[] = [];
  const found: string[] = [];
  for (const folder of folders) {
    const candidates = [path.join(folder.path, relative)];
    const [head, ...rest] = relative.split('/');
    if (folders.length > 1 && head === folder.name && rest.length > 0)
      candidates.unshift(path.join(folder.path, ...rest));
    for (const candidate of candidates) {
      if (!isInside(folder.path, candidate)) continue;
      tried.push(candidate);
      if (exists(candidate) && !found.includes(candidate)) found.push(candidate);
    }
  }
  if (found.length === 1) {
    assertRealPathInside(folders, found[0]);
    return found[0];
  }
  if (found.length > 1)
    throw new AmbiguousFile(
      input,
      found.map((candidate) => displayPath(folders, candidate)),
    );
  if (tried.length === 0) throw new OutsideWorkspace(path.resolve(folders[0].path, relative));
  throw new FileNotFound(
    input,
    tried.map((candidate) => displayPath(folders, candidate)),
  );
}

/** A file too big to read whole, or not text. Named with what to do instead. */
export class UnreadableFile extends ModelFacingError {
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`${path} ${reason}`);
    this.name = 'UnreadableFile';
  }

  override modelText(): string {
    return `Error: ${this.message}; nothing was read or written.`;
  }
}
