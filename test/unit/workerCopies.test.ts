/**
 * A write worker's copy, with real git: a worktree of HEAD carries the human's uncommitted and
 * untracked files (not ignored ones) byte for byte, runs none of the repository's hooks, and its
 * changes — edits, created, deleted and moved files — come back with their exact bytes; a folder
 * outside git is copied (.gitignore and excludes respected, bounded); removal leaves no copy and no
 * worktree registration; a sweep removes the copies of windows that are gone.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  changeCount,
  copyChanges,
  CopyRefused,
  makeWorkerCopy,
  removeWorkerCopy,
  sweepWorkerCopies,
  WorkerCopy,
} from '../../src/vibe/workerCopies';
import { withTempDir } from '../support/tempDir';
import { processLive, processStartTime } from '../../src/process/processLiveness';

const OWNER = { pid: process.pid };

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd, encoding: 'utf8' });
}

function write(root: string, relative: string, content: string | Buffer): void {
  fs.mkdirSync(path.dirname(path.join(root, relative)), { recursive: true });
  fs.writeFileSync(path.join(root, relative), content);
}

/** A repository with a commit, then the human's uncommitted state on top. */
function humanRepository(root: string): void {
  git(root, 'init', '-q');
  write(root, '.gitignore', 'build/\n');
  write(root, '.gitattributes', '*.txt text eol=crlf\n');
  write(root, 'src/a.ts', 'export const a = 1;\n');
  write(root, 'src/gone.ts', 'export const gone = 1;\n');
  write(root, 'notes.txt', 'one\r\ntwo\r\n');
  write(root, 'latin1.dat', Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'base');
  // A hook that would tell if checkout ran it.
  write(root, '.git/hooks/post-checkout', `#!/bin/sh\ntouch "${path.join(root, 'HOOK_RAN')}"\n`);
  fs.chmodSync(path.join(root, '.git/hooks/post-checkout'), 0o755);
  write(root, 'src/a.ts', 'export const a = 2; // unsaved? no: uncommitted\n');
  fs.rmSync(path.join(root, 'src/gone.ts'));
  write(root, 'src/new.ts', 'export const fresh = true;\n');
  write(root, 'build/out.js', 'ignored\n');
}

async function copyOf(storage: string, live: string, id = 'c1'): Promise<WorkerCopy> {
  return makeWorkerCopy({ storage, id, owner: OWNER, folders: [{ name: 'app', path: live }], excludeGlobs: () => [] });
}

describe('worker copies', function () {
  this.timeout(60_000);

  it('a git worktree of HEAD carries the uncommitted and untracked files exactly, not the ignored ones, and runs no hook', () =>
    withTempDir('copy-git-', async (dir) => {
      const live = path.join(dir, 'live');
      fs.mkdirSync(live);
      humanRepository(live);
      const copy = await copyOf(path.join(dir, 'storage'), live);
      const [folder] = copy.folders;
      assert.equal(folder.kind, 'worktree');
      assert.ok(!folder.copy.startsWith(live), 'the copy is outside the workspace');
      const read = (relative: string): Buffer => fs.readFileSync(path.join(folder.copy, relative));
      assert.equal(read('src/a.ts').toString(), 'export const a = 2; // unsaved? no: uncommitted\n');
      assert.equal(read('src/new.ts').toString(), 'export const fresh = true;\n');
      assert.equal(fs.existsSync(path.join(folder.copy, 'src/gone.ts')), false);
      assert.equal(fs.existsSync(path.join(folder.copy, 'build/out.js')), false, 'ignored files stay behind');
      assert.deepEqual(read('latin1.dat'), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
      assert.equal(
        fs.existsSync(path.join(live, 'HOOK_RAN')),
        false,
        "the repository's post-checkout hook did not run",
      );
      assert.match(git(live, 'worktree', 'list'), new RegExp(folder.workTree.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
      assert.equal(
        git(live, 'status', '--porcelain'),
        ' M src/a.ts\n D src/gone.ts\n?? src/new.ts\n',
        "the live repository's state is untouched",
      );
      assert.deepEqual(await copyChanges(copy), { changes: [], skipped: [] }, 'a fresh copy has no changes');

      // The worker's work: an edit, a created file, a deletion, a move, and CRLF bytes kept as they are.
      write(folder.copy, 'src/a.ts', 'export const a = 3;\n');
      write(folder.copy, 'src/created.ts', 'export const c = 1;\n');
      fs.rmSync(path.join(folder.copy, 'latin1.dat'));
      fs.renameSync(path.join(folder.copy, 'src/new.ts'), path.join(folder.copy, 'src/renamed.ts'));
      write(folder.copy, 'notes.txt', 'one\r\ntwo\r\nthree\r\n');
      write(folder.copy, 'build/skip.js', 'ignored\n');
      const { changes } = await copyChanges(copy);
      const seen = changes.map((change) => ({
        path: change.path,
        kind: change.kind,
        from: change.from,
        before: change.before?.toString('latin1'),
        after: change.after?.toString('latin1'),
      }));
      assert.deepEqual(seen, [
        { path: 'latin1.dat', kind: 'deleted', from: undefined, before: 'caf\u00e9\n', after: undefined },
        {
          path: 'notes.txt',
          kind: 'modified',
          from: undefined,
          before: 'one\r\ntwo\r\n',
          after: 'one\r\ntwo\r\nthree\r\n',
        },
        {
          path: 'src/a.ts',
          kind: 'modified',
          from: undefined,
          before: 'export const a = 2; // unsaved? no: uncommitted\n',
          after: 'export const a = 3;\n',
        },
        { path: 'src/created.ts', kind: 'created', from: undefined, before: undefined, after: 'export const c = 1;\n' },
        {
          path: 'src/renamed.ts',
          kind: 'moved',
          from: 'src/new.ts',
          before: 'export const fresh = true;\n',
          after: 'export const fresh = true;\n',
        },
      ]);
      assert.equal(
        fs.readFileSync(path.join(live, 'src/a.ts'), 'utf8'),
        'export const a = 2; // unsaved? no: uncommitted\n',
      );

      await removeWorkerCopy(copy);
      assert.equal(fs.existsSync(copy.dir), false);
      assert.doesNotMatch(git(live, 'worktree', 'list'), /storage/, 'the worktree is no longer registered');
    }));

  it("runs no filter driver of the repository's own configuration, counts the files it carries against the bound, and sees edits to tracked files an ignore rule matches", () =>
    withTempDir('copy-hostile-', async (dir) => {
      const live = path.join(dir, 'live');
      fs.mkdirSync(live);
      humanRepository(live);
      const marker = path.join(dir, 'FILTER_RAN');
      write(live, '.gitattributes', '*.txt text eol=crlf filter=evil\n');
      git(live, 'config', 'filter.evil.smudge', `sh -c 'echo ran >> "${marker}"; cat'`);
      git(live, 'config', 'filter.evil.clean', `sh -c 'echo ran >> "${marker}"; cat'`);
      write(live, 'deps.lock', 'v1\n');
      git(live, 'add', '-f', 'deps.lock', '.gitattributes');
      git(live, 'commit', '-q', '-m', 'lock');
      write(live, '.gitignore', 'build/\n*.lock\n');
      // (The test's own git commands above may run the filter: only what the copy runs counts.)
      fs.rmSync(marker, { force: true });
      const storage = path.join(dir, 'storage');
      await assert.rejects(
        makeWorkerCopy({
          storage,
          id: 'small',
          owner: OWNER,
          folders: [{ name: 'app', path: live }],
          excludeGlobs: () => [],
          limits: { maxFiles: 1000, maxBytes: 100 + fs.statSync(path.join(live, 'src/new.ts')).size },
        }),
        (error: unknown) => error instanceof CopyRefused && /over the bound/.test(error.message),
        'the carried files count too',
      );
      const copy = await copyOf(storage, live);
      assert.equal(fs.existsSync(marker), false, 'no filter of .git/config ran');
      const [folder] = copy.folders;
      write(folder.copy, 'deps.lock', 'v2\n');
      fs.symlinkSync('/etc/hostname', path.join(folder.copy, 'link.txt'));
      const { changes, skipped } = await copyChanges(copy);
      assert.deepEqual(
        changes.map((change) => [change.path, change.kind, change.after?.toString()]),
        [['deps.lock', 'modified', 'v2\n']],
      );
      assert.deepEqual(
        skipped.map((file) => [file.path, file.reason]),
        [['link.txt', 'a symbolic link']],
      );
      assert.equal(await changeCount(copy), 2);
      await removeWorkerCopy(copy);
    }));

  it('a folder in a subfolder of a repository is copied as that folder of a worktree', () =>
    withTempDir('copy-sub-', async (dir) => {
      const repository = path.join(dir, 'repo');
      fs.mkdirSync(repository);
      humanRepository(repository);
      const copy = await copyOf(path.join(dir, 'storage'), path.join(repository, 'src'));
      const [folder] = copy.folders;
      assert.equal(folder.prefix, 'src');
      assert.equal(fs.readFileSync(path.join(folder.copy, 'new.ts'), 'utf8'), 'export const fresh = true;\n');
      write(folder.copy, 'a.ts', 'changed\n');
      assert.deepEqual(
        (await copyChanges(copy)).changes.map((change) => [change.path, change.kind]),
        [['a.ts', 'modified']],
      );
      await removeWorkerCopy(copy);
    }));

  it('a folder the repository around it ignores is copied as a folder, not checked out from HEAD', () =>
    withTempDir('copy-ignored-', async (dir) => {
      const repository = path.join(dir, 'repo');
      fs.mkdirSync(repository);
      humanRepository(repository);
      write(repository, 'build/app/main.py', 'print(1)\n');
      const copy = await copyOf(path.join(dir, 'storage'), path.join(repository, 'build', 'app'));
      assert.equal(copy.folders[0].kind, 'folder');
      assert.equal(fs.readFileSync(path.join(copy.folders[0].copy, 'main.py'), 'utf8'), 'print(1)\n');
      await removeWorkerCopy(copy);
    }));

  it('a folder outside git is copied without what .gitignore or the excludes leave out, and its changes come back', () =>
    withTempDir('copy-plain-', async (dir) => {
      const live = path.join(dir, 'plain');
      write(live, '.gitignore', 'dist/\n');
      write(live, 'main.py', 'print(1)\r\n');
      write(live, 'dist/bundle.js', 'x\n');
      write(live, 'secret/notes.md', 'excluded\n');
      const copy = await makeWorkerCopy({
        storage: path.join(dir, 'storage'),
        id: 'c2',
        owner: OWNER,
        folders: [{ name: 'plain', path: live }],
        excludeGlobs: () => ['secret/**'],
      });
      const [folder] = copy.folders;
      assert.equal(folder.kind, 'folder');
      assert.equal(fs.existsSync(path.join(folder.copy, 'dist')), false);
      assert.equal(fs.existsSync(path.join(folder.copy, 'secret')), false);
      assert.equal(fs.existsSync(path.join(folder.copy, '.git')), false, 'the copy is not made a repository');
      write(folder.copy, 'main.py', 'print(2)\r\n');
      write(folder.copy, 'lib/util.py', 'X = 1\n');
      assert.deepEqual(
        (await copyChanges(copy)).changes.map((change) => [change.path, change.kind, change.after?.toString()]),
        [
          ['lib/util.py', 'created', 'X = 1\n'],
          ['main.py', 'modified', 'print(2)\r\n'],
        ],
      );
      await removeWorkerCopy(copy);
      assert.equal(fs.existsSync(copy.dir), false);
    }));

  it('a folder past the bound is refused with the figures, and nothing is left behind', () =>
    withTempDir('copy-big-', async (dir) => {
      const live = path.join(dir, 'big');
      for (let i = 0; i < 5; i++) write(live, `f${i}.txt`, 'x'.repeat(100));
      const storage = path.join(dir, 'storage');
      await assert.rejects(
        makeWorkerCopy({
          storage,
          id: 'c3',
          owner: OWNER,
          folders: [{ name: 'big', path: live }],
          excludeGlobs: () => [],
          limits: { maxFiles: 4, maxBytes: 1e9 },
        }),
        (error: unknown) =>
          error instanceof CopyRefused &&
          /holds 5 files, .* over the bound of 4 files/.test(error.message) &&
          /isolation "none"/.test(error.message),
      );
      assert.deepEqual(fs.readdirSync(storage), []);
    }));

  it("a sweep with the process check keeps this host's copies and removes one whose pid is alive but started at another time (reused)", () =>
    withTempDir('copy-reused-', async (dir) => {
      const live = path.join(dir, 'plain');
      write(live, 'a.txt', 'a\n');
      const storage = path.join(dir, 'storage');
      const made = (id: string, owner: { pid: number; started?: string }) =>
        makeWorkerCopy({ storage, id, owner, folders: [{ name: 'p', path: live }], excludeGlobs: () => [] });
      const ours = await made('ours', { pid: process.pid, started: processStartTime(process.pid) });
      const reused = await made('reused', { pid: process.pid, started: 'another start' });
      assert.equal(await sweepWorkerCopies(storage, processLive), 1);
      assert.deepEqual([fs.existsSync(ours.dir), fs.existsSync(reused.dir)], [true, false]);
      await removeWorkerCopy(ours);
    }));

  it('a sweep removes the copies whose window is gone, worktree registration included, and keeps the live ones', () =>
    withTempDir('copy-sweep-', async (dir) => {
      const live = path.join(dir, 'live');
      fs.mkdirSync(live);
      humanRepository(live);
      const storage = path.join(dir, 'storage');
      const gone = await makeWorkerCopy({
        storage,
        id: 'gone',
        owner: { pid: 1, started: 'gone' },
        folders: [{ name: 'app', path: live }],
        excludeGlobs: () => [],
      });
      const kept = await copyOf(storage, live, 'kept');
      const removed = await sweepWorkerCopies(storage, (owner) => owner.pid === process.pid);
      assert.equal(removed, 1);
      assert.equal(fs.existsSync(gone.dir), false);
      assert.equal(fs.existsSync(kept.dir), true);
      const list = git(live, 'worktree', 'list');
      assert.ok(!list.includes(gone.folders[0].workTree) && list.includes(kept.folders[0].workTree), list);
      await removeWorkerCopy(kept);
    }));
});
