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

/** Who made a copy: a window's extension host, by pid and, where the system says, when it started (`processStartTime`). */
export interface CopyOwner {
  readonly pid: number;
  readonly started?: string;
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
  // --force: a file the repository tracks although an ignore rule matches it (a committed lock file) is in it too.
  await git(folder.workTree, baseline(folder, ['add', '--all', '--force', '--', folder.prefix || '.']), { signal });
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
  // The repository's own filter drivers (its .git/config) would run on checkout and status: each is emptied.
  const noFilters = await filtersOff(repository.top, signal);
  const status = await git(
    live.path,
    [
      ...noFilters,
      'status',
      '--porcelain=v1',
      '-z',
      '--untracked-files=all',
      '--no-renames',
      '--ignore-submodules=all',
      '--',
      '.',
    ],
    { signal },
  );
  const carried: { relative: string; size: number | undefined }[] = [];
  for (const relative of nulFields(status.stdout)
    .map((entry) => entry.slice(3))
    .filter((name) => name !== '' && !name.endsWith('/'))) {
    const stat = await fs.lstat(path.join(repository.top, relative)).catch(() => undefined);
    carried.push({ relative, size: stat?.size });
    bytes += stat?.size ?? 0;
  }
  const refused = overLimits(files + carried.length, bytes, limits, `the repository at ${repository.top}`);
  if (refused) throw refused;
  await git(repository.top, [...noFilters, 'worktree', 'add', '--detach', '--quiet', tree, 'HEAD'], { signal });
  for (const { relative, size } of carried) {
    const to = path.join(tree, relative);
    if (size !== undefined) await copyEntry(path.join(repository.top, relative), to);
    else await fs.rm(to, { force: true, recursive: true });
  }
  return { files: files + carried.length, bytes };
}

/**
 * `-c filter.<name>.smudge= …` for every filter driver the repository's own configuration (`.git/config`
 * and what it includes) names: it can name a command that checkout and status would run. Reading the
 * configuration runs nothing. Drivers of the user's own configuration (git-lfs) still run.
 */
async function filtersOff(top: string, signal: AbortSignal | undefined): Promise<string[]> {
  const listed = await git(top, ['config', '--local', '--includes', '--name-only', '--get-regexp', '^filter\\.'], {
    allowFailure: true,
    signal,
  });
  const drivers = new Set(
    listed.stdout
      .split('\n')
      .map((line) => /^filter\.(.+)\.[^.]+$/.exec(line.trim())?.[1])
      .filter((name): name is string => name !== undefined),
  );
  return [...drivers].flatMap((name) =>
    ['smudge=', 'clean=', 'process=', 'required=false'].flatMap((setting) => ['-c', `filter.${name}.${setting}`]),
  );
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
  const refusedCount = overLimits(files.length, 0, limits, `the folder ${live.path}`);
  if (refusedCount) throw refusedCount;
  let bytes = 0;
  await inParallel(files, async (file) => {
    bytes += (await fs.stat(file)).size;
  });
  const refused = overLimits(files.length, bytes, limits, `the folder ${live.path}`);
  if (refused) throw refused;
  // Each folder made once, then the files copied a few at a time (one at a time, most of the time is waiting).
  const folders = new Set(files.map((file) => path.dirname(path.join(tree, path.relative(live.path, file)))));
  for (const folder of [...folders].sort()) await fs.mkdir(folder, { recursive: true });
  await inParallel(files, async (file) => {
    if (signal?.aborted) throw new CopyRefused('it was cancelled');
    await fs.copyFile(file, path.join(tree, path.relative(live.path, file)));
  });
  return { files: files.length, bytes };
}

/** Runs `work` on every item, at most COPY_CONCURRENCY at once; the first failure rejects. */
async function inParallel<T>(items: readonly T[], work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(COPY_CONCURRENCY, items.length) }, lane));
}

/** Files copied or stated at once: the disk's queue kept busy without opening thousands of files. */
const COPY_CONCURRENCY = 16;

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

/** A file the worker changed that does not come back, and why (a link, too large, not a file). */
export interface SkippedChange {
  readonly folder: CopiedFolder;
  readonly path: string;
  readonly reason: string;
}

/** The most one file may weigh to come back (what the tools read whole), and all of them together. */
export const CHANGE_LIMITS = { fileBytes: 50 * 1024 * 1024, totalBytes: 256 * 1024 * 1024 };

interface NamedChange {
  readonly folder: CopiedFolder;
  readonly status: string;
  /** Relative to the work tree (`from` for a move's old path). */
  readonly relative: string;
  readonly from?: string;
}

/** The names of what changed in each folder of the copy (the baseline told of the copy as it is now). */
async function changedNames(copy: Pick<WorkerCopy, 'folders'>, signal?: AbortSignal): Promise<NamedChange[]> {
  const named: NamedChange[] = [];
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
    for (let at = 0; at < fields.length;) {
      const status = fields[at++];
      if (status.startsWith('R')) {
        const from = fields[at++];
        named.push({ folder, status: 'R', from, relative: fields[at++] });
      } else named.push({ folder, status, relative: fields[at++] });
    }
  }
  return named;
}

/** How many files the worker changed in its copy (names only: nothing is read). */
export async function changeCount(copy: Pick<WorkerCopy, 'folders'>, signal?: AbortSignal): Promise<number> {
  return (await changedNames(copy, signal)).length;
}

/**
 * Everything the worker changed in its copy, folder by folder, in path order, with its bytes; files git
 * ignores are not part of it. Links and special files (a link could lead out of the copy), files over
 * `CHANGE_LIMITS.fileBytes`, and what passes `totalBytes` are named in `skipped`, not read.
 */
export async function copyChanges(
  copy: Pick<WorkerCopy, 'folders'>,
  signal?: AbortSignal,
): Promise<{ changes: CopyChange[]; skipped: SkippedChange[] }> {
  const changes: CopyChange[] = [];
  const skipped: SkippedChange[] = [];
  let total = 0;
  for (const { folder, status, relative, from } of await changedNames(copy, signal)) {
    const inFolder = (name: string): string => (folder.prefix ? name.slice(folder.prefix.length + 1) : name);
    const skip = (reason: string): void => void skipped.push({ folder, path: inFolder(relative), reason });
    /** The bytes as copied, or a reason they are not read. */
    const before = async (name: string): Promise<Buffer | string> => {
      const object = `${folder.baseTree}:${name}`;
      const size = Number(
        (await git(folder.workTree, ['--git-dir', folder.baseGitDir, 'cat-file', '-s', object], { signal })).stdout,
      );
      if (size > CHANGE_LIMITS.fileBytes) return `over ${CHANGE_LIMITS.fileBytes / 1024 ** 2} MiB`;
      if ((total += size) > CHANGE_LIMITS.totalBytes)
        return `past ${CHANGE_LIMITS.totalBytes / 1024 ** 2} MiB of changes`;
      const blob = await git(folder.workTree, ['--git-dir', folder.baseGitDir, 'cat-file', 'blob', object], {
        binary: true,
        signal,
      });
      return blob.stdoutBytes ?? Buffer.alloc(0);
    };
    /** The bytes now, or a reason they are not read (checked without following a link). */
    const after = async (name: string): Promise<Buffer | string> => {
      const stat = await fs.lstat(path.join(folder.workTree, name));
      if (stat.isSymbolicLink()) return 'a symbolic link';
      if (!stat.isFile()) return 'not a regular file';
      if (stat.size > CHANGE_LIMITS.fileBytes) return `over ${CHANGE_LIMITS.fileBytes / 1024 ** 2} MiB`;
      if ((total += stat.size) > CHANGE_LIMITS.totalBytes)
        return `past ${CHANGE_LIMITS.totalBytes / 1024 ** 2} MiB of changes`;
      return fs.readFile(path.join(folder.workTree, name));
    };
    const was = status === 'A' ? undefined : await before(from ?? relative);
    const now = status === 'D' ? undefined : await after(relative);
    if (typeof was === 'string') skip(was);
    else if (typeof now === 'string') skip(now);
    else if (status === 'R')
      changes.push({
        folder,
        path: inFolder(relative),
        from: inFolder(from ?? relative),
        kind: 'moved',
        before: was,
        after: now,
      });
    else if (status === 'A') changes.push({ folder, path: inFolder(relative), kind: 'created', after: now });
    else if (status === 'D') changes.push({ folder, path: inFolder(relative), kind: 'deleted', before: was });
    // A change of mode alone (or a type change to the same bytes) is not a change of text.
    else if (was && now && !was.equals(now))
      changes.push({ folder, path: inFolder(relative), kind: 'modified', before: was, after: now });
  }
  return { changes, skipped };
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
