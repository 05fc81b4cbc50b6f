/**
 * A write worker's private copy of the workspace, outside it: for a folder in a git repository a
 * worktree of HEAD with the human's uncommitted changes and untracked (not ignored) files carried
 * over, else a copy of the folder's files (.gitignore and the exclude globs respected, bounded).
 * Each copy has a baseline of its own — a bare git directory beside it whose attributes turn every
 * filter and line-ending conversion off, so its blobs are the bytes as copied — and what the worker
 * changed is the copy now against that baseline: edits, created, deleted and moved files, with
 * their bytes before and after. Nothing here writes inside the live workspace; a worktree's
 * registration in the live repository is made and removed with git's own commands, hooks off.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { listFiles } from '../workspace/fileWalker';
import type { WorkspaceFolderPath } from '../workspace/paths';
import { ModelFacingError } from '../platform/modelFacingError';
import { CompletedProcess, runToCompletion } from '../process/childProcess';

/** What a copy may hold at most (files and bytes copied or checked out), past which it is refused. */
export interface CopyLimits {
  readonly maxFiles: number;
  readonly maxBytes: number;
}

export const DEFAULT_COPY_LIMITS: CopyLimits = { maxFiles: 100_000, maxBytes: 2 * 1024 ** 3 };

/** The record each copy keeps beside it, so a later window can tell whether the window that made it is gone. */
export const COPY_RECORD = 'copy.json';

export interface CopiedFolder {
  /** The workspace folder's name (the copy's answers name files the same way). */
  readonly name: string;
  /** The live workspace folder. */
  readonly live: string;
  /** The folder as the worker sees it, inside the copy. */
  readonly copy: string;
  /** `worktree`: a git worktree of HEAD, changes carried; `folder`: a copy of the folder's files. */
  readonly kind: 'worktree' | 'folder';
  /** The tree the baseline tracks: the worktree's top, or the copied folder. */
  readonly workTree: string;
  /** The folder inside `workTree`, with forward slashes ('' when it is the top). */
  readonly prefix: string;
  /** The live repository's top (where the worktree is registered). */
  readonly repository?: string;
  /** The baseline: its git directory and the tree of the copy as made. */
  readonly baseGitDir: string;
  readonly baseTree: string;
}

export interface WorkerCopy {
  readonly id: string;
  /** The copy's own directory under the storage folder. */
  readonly dir: string;
  readonly folders: readonly CopiedFolder[];
  /** Files and bytes copied, carried or checked out, and how long making the copy took. */
  readonly files: number;
  readonly bytes: number;
  readonly milliseconds: number;
}

/** Who made a copy: a window's extension host, by pid and the time it started. */
export interface CopyOwner {
  readonly pid: number;
  readonly startedAt: number;
}

export interface CopyRecord {
  readonly owner: CopyOwner;
  readonly folders: readonly CopiedFolder[];
}

export interface MakeCopyOptions {
  /** The folder copies live in (the extension's storage). */
  readonly storage: string;
  readonly id: string;
  readonly owner: CopyOwner;
  readonly folders: readonly WorkspaceFolderPath[];
  /** The exclude globs of a folder (files.exclude), relative to it: a folder copy leaves them out. */
  readonly excludeGlobs: (folder: WorkspaceFolderPath) => readonly string[];
  readonly limits?: CopyLimits;
  readonly signal?: AbortSignal;
}

/** One file the worker changed in its copy. */
export interface CopyChange {
  readonly folder: CopiedFolder;
  /** Relative to the folder, forward slashes (for a move, the new path). */
  readonly path: string;
  readonly kind: 'modified' | 'created' | 'deleted' | 'moved';
  /** A move's old path, relative to the folder. */
  readonly from?: string;
  /** The bytes as copied (absent for a created file) and now (absent for a deleted one). */
  readonly before?: Buffer;
  readonly after?: Buffer;
}

/** A copy could not be made; `reason` says why and what to do instead. */
export class CopyRefused extends ModelFacingError {
  constructor(readonly reason: string) {
    super(`the worker's copy of the workspace was not made: ${reason}`);
    this.name = 'CopyRefused';
  }

  override modelText(): string {
    return `Error: ${this.message}. Nothing was started.`;
  }
}

/**
 * git with hooks and the file-system monitor off: nothing of the project's runs. Line endings follow the
 * user's settings, so a worktree is checked out as the live folder was.
 */
const GIT_SAFE = ['-c', 'core.hooksPath=/dev/null', '-c', 'core.fsmonitor=false'];
/** The baseline reads every file as bytes: no filter, no line-ending or encoding conversion, whatever .gitattributes say. */
const RAW_ATTRIBUTES = '* -text -filter -ident -working-tree-encoding -eol\n';

async function git(
  cwd: string,
  args: readonly string[],
  options: { readonly allowFailure?: boolean; readonly binary?: boolean; readonly signal?: AbortSignal } = {},
): Promise<CompletedProcess> {
  let cancel: (() => void) | undefined;
  const onAbort = (): void => cancel?.();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  let result: CompletedProcess;
  try {
    result = await runToCompletion('git', [...GIT_SAFE, ...args], {
      cwd,
      env: { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0' },
      timeoutSeconds: 600,
      binaryStdout: options.binary,
      maxOutputChars: 512 * 1024 * 1024,
      onCancel: (stop) => (cancel = stop),
    });
  } catch (error) {
    throw new CopyRefused(
      `git could not be run (${error instanceof Error ? error.message : String(error)}); install git, or spawn the worker with isolation "none"`,
    );
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
  }
  if (options.signal?.aborted) throw new CopyRefused('it was cancelled');
  if (result.exitCode !== 0 && !options.allowFailure)
    throw new CopyRefused(
      `git ${args
        .filter((arg) => !arg.startsWith('-'))
        .slice(0, 2)
        .join(' ')} failed: ${result.stderr.trim().split('\n').slice(-3).join(' ')}`,
    );
  return result;
}

/** git run on a copy's baseline: its git directory, the copy's tree as work tree. */
function baseline(folder: Pick<CopiedFolder, 'baseGitDir' | 'workTree'>, args: readonly string[]): readonly string[] {
  return [
    '--git-dir',
    folder.baseGitDir,
    '--work-tree',
    folder.workTree,
    '-c',
    'core.bare=false',
    '-c',
    'core.autocrlf=false',
    ...args,
  ];
}

function nulFields(output: string): string[] {
  const fields = output.split('\0');
  if (fields[fields.length - 1] === '') fields.pop();
  return fields;
}

/**
 * The live repository's top and the folder's place in it, or undefined when the folder is in none, HEAD
 * has no commit, or the repository ignores the folder (a checkout of HEAD would not hold it).
 */
async function repositoryOf(folder: string): Promise<{ top: string; prefix: string } | undefined> {
  const top = await git(folder, ['rev-parse', '--show-toplevel'], { allowFailure: true });
  if (top.exitCode !== 0) return undefined;
  const head = await git(folder, ['rev-parse', '--verify', '--quiet', 'HEAD'], { allowFailure: true });
  if (head.exitCode !== 0) return undefined;
  const realTop = await fs.realpath(top.stdout.trim());
  const prefix = path
    .relative(realTop, await fs.realpath(folder))
    .split(path.sep)
    .join('/');
  if (prefix !== '') {
    const ignored = await git(realTop, ['check-ignore', '--quiet', '--', prefix], { allowFailure: true });
    if (ignored.exitCode === 0) return undefined;
  }
  return { top: realTop, prefix };
}

function overLimits(files: number, bytes: number, limits: CopyLimits, what: string): CopyRefused | undefined {
  if (files <= limits.maxFiles && bytes <= limits.maxBytes) return undefined;
  return new CopyRefused(
    `${what} holds ${files.toLocaleString('en-US')} files, ${(bytes / 1024 ** 2).toFixed(0)} MiB, over the bound of ` +
      `${limits.maxFiles.toLocaleString('en-US')} files and ${(limits.maxBytes / 1024 ** 2).toFixed(0)} MiB for a worker's copy; ` +
      'spawn the worker with read access, or with isolation "none" to work in the live workspace',
  );
}

async function copyEntry(from: string, to: string): Promise<number> {
  const stat = await fs.lstat(from);
  await fs.mkdir(path.dirname(to), { recursive: true });
  await fs.rm(to, { force: true, recursive: true });
  if (stat.isSymbolicLink()) {
    await fs.symlink(await fs.readlink(from), to);
    return 0;
  }
  await fs.copyFile(from, to);
  return stat.size;
}

/** Makes the baseline of a copied folder: a bare git directory whose tree is the copy as it is now. */
async function makeBaseline(
  folder: Omit<CopiedFolder, 'baseTree'>,
  exclude: string | undefined,
  signal: AbortSignal | undefined,
): Promise<string> {
  await git(folder.workTree, ['init', '--quiet', '--bare', folder.baseGitDir], { signal });
  await fs.mkdir(path.join(folder.baseGitDir, 'info'), { recursive: true });
  await fs.writeFile(path.join(folder.baseGitDir, 'info', 'attributes'), RAW_ATTRIBUTES);
  if (exclude !== undefined) await fs.writeFile(path.join(folder.baseGitDir, 'info', 'exclude'), exclude);
  await git(folder.workTree, baseline(folder, ['add', '--all', '--', folder.prefix || '.']), { signal });
  return (await git(folder.workTree, baseline(folder, ['write-tree']), { signal })).stdout.trim();
}

/** A git worktree of HEAD at `tree`, with the folder's uncommitted and untracked (not ignored) files carried over. */
async function makeWorktree(
  live: WorkspaceFolderPath,
  repository: { top: string; prefix: string },
  tree: string,
  limits: CopyLimits,
  signal: AbortSignal | undefined,
): Promise<{ files: number; bytes: number }> {
  const listing = await git(repository.top, ['ls-tree', '-r', '-l', '-z', '--full-tree', 'HEAD'], { signal });
  let files = 0;
  let bytes = 0;
  for (const entry of nulFields(listing.stdout)) {
    const size = Number(/^\S+ blob \S+\s+(\d+)\t/.exec(entry)?.[1] ?? 0);
    files++;
    bytes += size;
  }
  const status = await git(
    live.path,
    ['status', '--porcelain=v1', '-z', '--untracked-files=all', '--no-renames', '--ignore-submodules=all', '--', '.'],
    { signal },
  );
  const carried = nulFields(status.stdout)
    .map((entry) => entry.slice(3))
    .filter((relative) => relative !== '' && !relative.endsWith('/'));
  const refused = overLimits(files + carried.length, bytes, limits, `the repository at ${repository.top}`);
  if (refused) throw refused;
  await git(repository.top, ['worktree', 'add', '--detach', '--quiet', tree, 'HEAD'], { signal });
  for (const relative of carried) {
    const from = path.join(repository.top, relative);
    const to = path.join(tree, relative);
    const exists = await fs.lstat(from).then(
      () => true,
      () => false,
    );
    if (exists) bytes += await copyEntry(from, to);
    else await fs.rm(to, { force: true, recursive: true });
  }
  return { files: files + carried.length, bytes };
}

/** A copy of the folder's files (.gitignore and the exclude globs respected; links and special files left out). */
async function makeFolderCopy(
  live: WorkspaceFolderPath,
  tree: string,
  excludeGlobs: readonly string[],
  limits: CopyLimits,
  signal: AbortSignal | undefined,
): Promise<{ files: number; bytes: number }> {
  const token = {
    get isCancellationRequested() {
      return signal?.aborted === true;
    },
  };
  const files = await listFiles(live.path, {
    root: live.path,
    excludeGlobs,
    useGitignore: true,
    accept: () => true,
    token,
    cancelled: () => new CopyRefused('it was cancelled'),
  });
  let bytes = 0;
  const sizes: number[] = [];
  for (const file of files) {
    const size = (await fs.stat(file)).size;
    sizes.push(size);
    bytes += size;
    const refused = overLimits(sizes.length, bytes, limits, `the folder ${live.path}`);
    if (refused) throw refused;
  }
  await fs.mkdir(tree, { recursive: true });
  for (const file of files) {
    if (signal?.aborted) throw new CopyRefused('it was cancelled');
    await copyEntry(file, path.join(tree, path.relative(live.path, file)));
  }
  return { files: files.length, bytes };
}

/**
 * Makes the copy of every folder under `storage/<id>`, with its record. Refused (and nothing left
 * behind) when git cannot run, a folder passes the limits, or the signal aborts.
 */
export async function makeWorkerCopy(options: MakeCopyOptions): Promise<WorkerCopy> {
  const started = Date.now();
  const limits = options.limits ?? DEFAULT_COPY_LIMITS;
  const dir = path.join(options.storage, options.id);
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  const folders: CopiedFolder[] = [];
  let files = 0;
  let bytes = 0;
  const record = async (): Promise<void> =>
    fs.writeFile(path.join(dir, COPY_RECORD), JSON.stringify({ owner: options.owner, folders } satisfies CopyRecord));
  try {
    await record();
    for (const [index, live] of options.folders.entries()) {
      const own = path.join(dir, `${index}`);
      const repository = await repositoryOf(live.path);
      const baseGitDir = path.join(own, 'base.git');
      if (repository) {
        const workTree = path.join(own, 'tree');
        // Registered in the live repository before anything is checked out: a failure later still finds it to remove.
        const partial = {
          name: live.name,
          live: live.path,
          kind: 'worktree' as const,
          workTree,
          prefix: repository.prefix,
          repository: repository.top,
          baseGitDir,
          copy: path.join(workTree, repository.prefix),
        };
        folders.push({ ...partial, baseTree: '' });
        await record();
        const made = await makeWorktree(live, repository, workTree, limits, options.signal);
        files += made.files;
        bytes += made.bytes;
        const commonDir = (
          await git(repository.top, ['rev-parse', '--path-format=absolute', '--git-common-dir'])
        ).stdout.trim();
        const exclude = await fs.readFile(path.join(commonDir, 'info', 'exclude'), 'utf8').catch(() => undefined);
        folders[folders.length - 1] = { ...partial, baseTree: await makeBaseline(partial, exclude, options.signal) };
      } else {
        const workTree = path.join(own, 'tree');
        const made = await makeFolderCopy(live, workTree, options.excludeGlobs(live), limits, options.signal);
        files += made.files;
        bytes += made.bytes;
        const partial = {
          name: live.name,
          live: live.path,
          kind: 'folder' as const,
          workTree,
          prefix: '',
          baseGitDir,
          copy: workTree,
        };
        folders.push({ ...partial, baseTree: await makeBaseline(partial, undefined, options.signal) });
      }
      await record();
    }
  } catch (error) {
    await removeWorkerCopy({ dir, folders });
    throw error;
  }
  return { id: options.id, dir, folders, files, bytes, milliseconds: Date.now() - started };
}

/** Everything the worker changed in its copy, folder by folder, in path order. Files git ignores are not part of it. */
export async function copyChanges(copy: Pick<WorkerCopy, 'folders'>, signal?: AbortSignal): Promise<CopyChange[]> {
  const changes: CopyChange[] = [];
  for (const folder of copy.folders) {
    const scope = folder.prefix || '.';
    await git(folder.workTree, baseline(folder, ['add', '--all', '--', scope]), { signal });
    const diff = await git(
      folder.workTree,
      baseline(folder, [
        'diff-index',
        '--cached',
        '-z',
        '-M',
        '--name-status',
        '--no-ext-diff',
        folder.baseTree,
        '--',
        scope,
      ]),
      { signal },
    );
    const fields = nulFields(diff.stdout);
    const inFolder = (relative: string): string =>
      folder.prefix ? relative.slice(folder.prefix.length + 1) : relative;
    const before = async (relative: string): Promise<Buffer> =>
      (
        await git(
          folder.workTree,
          ['--git-dir', folder.baseGitDir, 'cat-file', 'blob', `${folder.baseTree}:${relative}`],
          { binary: true, signal },
        )
      ).stdoutBytes ?? Buffer.alloc(0);
    const after = (relative: string): Promise<Buffer> => fs.readFile(path.join(folder.workTree, relative));
    for (let at = 0; at < fields.length;) {
      const status = fields[at++];
      if (status.startsWith('R')) {
        const from = fields[at++];
        const to = fields[at++];
        changes.push({
          folder,
          path: inFolder(to),
          from: inFolder(from),
          kind: 'moved',
          before: await before(from),
          after: await after(to),
        });
        continue;
      }
      const relative = fields[at++];
      if (status === 'A')
        changes.push({ folder, path: inFolder(relative), kind: 'created', after: await after(relative) });
      else if (status === 'D')
        changes.push({ folder, path: inFolder(relative), kind: 'deleted', before: await before(relative) });
      else {
        const was = await before(relative);
        const now = await after(relative);
        // A change of mode alone (or a type change to the same bytes) is not a change of text.
        if (!was.equals(now))
          changes.push({ folder, path: inFolder(relative), kind: 'modified', before: was, after: now });
      }
    }
  }
  return changes;
}

/** Removes a copy: each worktree's registration in its live repository (git's own command), then the files. */
export async function removeWorkerCopy(copy: Pick<WorkerCopy, 'dir' | 'folders'>): Promise<void> {
  for (const folder of copy.folders) {
    if (folder.kind !== 'worktree' || !folder.repository) continue;
    await git(folder.repository, ['worktree', 'remove', '--force', '--force', folder.workTree], {
      allowFailure: true,
    }).catch(() => undefined);
    await fs.rm(folder.workTree, { recursive: true, force: true });
    await git(folder.repository, ['worktree', 'prune'], { allowFailure: true }).catch(() => undefined);
  }
  await fs.rm(copy.dir, { recursive: true, force: true });
}

/**
 * Removes the copies under `storage` whose window is gone (`alive` says of a record's owner); returns
 * how many. A directory without a readable record is left alone unless it is older than a day.
 */
export async function sweepWorkerCopies(storage: string, alive: (owner: CopyOwner) => boolean): Promise<number> {
  let entries: string[];
  try {
    entries = await fs.readdir(storage);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const entry of entries) {
    const dir = path.join(storage, entry);
    let record: CopyRecord | undefined;
    try {
      record = JSON.parse(await fs.readFile(path.join(dir, COPY_RECORD), 'utf8')) as CopyRecord;
    } catch {
      record = undefined;
    }
    if (record ? alive(record.owner) : Date.now() - (await fs.stat(dir)).mtimeMs < 86_400_000) continue;
    await removeWorkerCopy({ dir, folders: record?.folders ?? [] });
    removed++;
  }
  return removed;
}
