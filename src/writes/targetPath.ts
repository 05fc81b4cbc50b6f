/**
 * The path a write tool writes to: like a file argument (relative to the workspace folder or
 * absolute inside it), except that it need not exist yet. Outside the workspace is refused, by the
 * path's text and by the real path of its longest existing prefix.
 */
import * as path from 'node:path';
import { assertRealPathInside, pathTextOf } from '../workspace/containment';
import {
  FileNotFound,
  OutsideWorkspace,
  resolveFileArgument,
  WorkspaceFolderPath,
  containingFolder,
  NoWorkspaceFolder,
} from '../workspace/paths';

export function resolveWritePath(
  folders: readonly WorkspaceFolderPath[],
  input: string,
  exists: (absolutePath: string) => boolean,
): string {
  if (folders.length === 0) throw new NoWorkspaceFolder();
  try {
    return resolveFileArgument(folders, input, exists);
  } catch (error) {
    if (!(error instanceof FileNotFound)) throw error;
  }
  const absolute = newFilePath(folders, pathTextOf(input));
  assertRealPathInside(folders, absolute);
  return absolute;
}

function newFilePath(folders: readonly WorkspaceFolderPath[], cleaned: string): string {
  if (path.isAbsolute(cleaned)) return path.normalize(cleaned); // resolveFileArgument checked it is inside by its text
  const relative = cleaned.replace(/^\.\//, '');
  const [head, ...rest] = relative.split('/');
  const named = folders.length > 1 && rest.length > 0 ? folders.find((folder) => folder.name === head) : undefined;
  const absolute = named ? path.join(named.path, ...rest) : path.join(folders[0].path, relative);
  if (!containingFolder(folders, absolute) || absolute === (named ?? folders[0]).path)
    throw new OutsideWorkspace(absolute);
  return absolute;
}
