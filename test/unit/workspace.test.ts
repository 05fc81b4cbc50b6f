import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  InvalidPath,
  LinkLeavesWorkspace,
  MAX_PATH_BYTES,
  pathTextOf,
  realPathOf,
} from '../../src/workspace/containment';
import { resolveWritePath } from '../../src/writes/targetPath';
import { DeadlineExceeded, withDeadline } from '../../src/async/deadline';
import { DiagnosticsClock, freshnessNote } from '../../src/lsp/freshness';
import {
  AmbiguousFile,
  displayPath,
  FileNotFound,
  NoWorkspaceFolder,
  OutsideWorkspace,
  resolveFileArgument,
} from '../../src/workspace/paths';
import { suiteTempDir } from '../support/tempDir';

const one = [{ name: 'app', path: '/w/app' }];
const two = [
  { name: 'app', path: '/w/app' },
  { name: 'lib', path: '/w/lib' },
];

describe('file arguments and display paths', () => {
  const files = new Set(['/w/app/src/a.ts', '/w/lib/src/a.ts', '/w/lib/only.ts']);
  const exists = (file: string) => files.has(file);

  it('resolves relative and absolute paths inside the workspace', () => {
    assert.equal(resolveFileArgument(one, 'src/a.ts', exists), '/w/app/src/a.ts');
    assert.equal(resolveFileArgument(one, './src/a.ts', exists), '/w/app/src/a.ts');
    assert.equal(resolveFileArgument(one, '/w/app/src/a.ts', exists), '/w/app/src/a.ts');
    assert.equal(resolveFileArgument(one, 'file:///w/app/src/a.ts', exists), '/w/app/src/a.ts');
  });

  it('refuses paths outside the workspace, even through ..', () => {
    assert.throws(() => resolveFileArgument(one, '/etc/passwd', exists), OutsideWorkspace);
    assert.throws(() => resolveFileArgument(one, '../../etc/passwd', exists), OutsideWorkspace);
  });

  it('names where it looked when a file is missing', () => {
    assert.throws(
      () => resolveFileArgument(one, 'src/b.ts', exists),
      (error: unknown) => error instanceof FileNotFound && error.triedPaths.join() === 'src/b.ts',
    );
    assert.throws(() => resolveFileArgument([], 'a.ts', exists), NoWorkspaceFolder);
  });

  it('in a multi-root workspace: folder-name prefixes, and candidates when ambiguous', () => {
    assert.equal(resolveFileArgument(two, 'lib/src/a.ts', exists), '/w/lib/src/a.ts');
    assert.equal(resolveFileArgument(two, 'only.ts', exists), '/w/lib/only.ts');
    assert.throws(
      () => resolveFileArgument(two, 'src/a.ts', exists),
      (error: unknown) => error instanceof AmbiguousFile && error.candidates.join() === 'app/src/a.ts,lib/src/a.ts',
    );
  });

  it('displays workspace-relative paths, prefixed in multi-root, absolute outside', () => {
    assert.equal(displayPath(one, '/w/app/src/a.ts'), 'src/a.ts');
    assert.equal(displayPath(two, '/w/lib/src/a.ts'), 'lib/src/a.ts');
    assert.equal(displayPath(one, '/usr/lib/x.d.ts'), '/usr/lib/x.d.ts');
    assert.equal(
      displayPath(
        [
          { name: 'app', path: '/w/app' },
          { name: 'inner', path: '/w/app/inner' },
        ],
        '/w/app/inner/x.ts',
      ),
      'inner/x.ts',
    );
  });
});

describe('the workspace boundary on the real file system', () => {
  const base = suiteTempDir('live-tools-boundary-');
  let folders: Array<{ name: string; path: string }>;
  let outside: string;
  const onDisk = (file: string): boolean => fs.statSync(file, { throwIfNoEntry: false })?.isFile() === true;

  before(() => {
    const workspace = path.join(base(), 'ws');
    outside = path.join(base(), 'outside');
    fs.mkdirSync(path.join(workspace, 'src'), { recursive: true });
    fs.mkdirSync(outside);
    fs.writeFileSync(path.join(outside, 'secret.txt'), 'secret\n');
    fs.writeFileSync(path.join(workspace, 'src', 'a.ts'), 'a\n');
    fs.symlinkSync(outside, path.join(workspace, 'linkdir'));
    fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(workspace, 'linked.txt'));
    fs.symlinkSync(path.join(outside, 'not-yet.txt'), path.join(workspace, 'dangling.txt'));
    fs.symlinkSync(path.join(workspace, 'src'), path.join(workspace, 'srclink'));
    // The workspace itself opened through a link is fine: only links that leave it count.
    fs.symlinkSync(workspace, path.join(base(), 'ws-alias'));
    folders = [{ name: 'ws', path: path.join(base(), 'ws-alias') }];
  });

  it('refuses a linked folder and a linked file that point outside, naming the link and its target', () => {
    assert.throws(
      () => resolveFileArgument(folders, 'linkdir/secret.txt', onDisk),
      (error: unknown) =>
        error instanceof LinkLeavesWorkspace &&
        error.link === path.join(folders[0].path, 'linkdir') &&
        error.target === outside,
    );
    assert.throws(() => resolveFileArgument(folders, 'linked.txt', onDisk), LinkLeavesWorkspace);
    assert.throws(
      () => resolveFileArgument(folders, path.join(folders[0].path, 'linked.txt'), onDisk),
      LinkLeavesWorkspace,
    );
  });

  it('refuses to create a file through a linked folder or a dangling link', () => {
    assert.throws(() => resolveWritePath(folders, 'linkdir/new.txt', onDisk), LinkLeavesWorkspace);
    assert.throws(() => resolveWritePath(folders, 'linkdir/deeper/new.txt', onDisk), LinkLeavesWorkspace);
    assert.throws(() => resolveWritePath(folders, 'dangling.txt', onDisk), LinkLeavesWorkspace);
    assert.equal(realPathOf(path.join(folders[0].path, 'dangling.txt')), path.join(outside, 'not-yet.txt'));
  });

  it('lets links that stay inside the workspace through', () => {
    assert.equal(resolveFileArgument(folders, 'srclink/a.ts', onDisk), path.join(folders[0].path, 'srclink', 'a.ts'));
    assert.equal(resolveWritePath(folders, 'srclink/new.ts', onDisk), path.join(folders[0].path, 'srclink', 'new.ts'));
    assert.equal(
      resolveWritePath(folders, 'src/new/deeper.ts', onDisk),
      path.join(folders[0].path, 'src', 'new', 'deeper.ts'),
    );
  });

  it('refuses path text that names no workspace file, decoding nothing', () => {
    const invalid = (input: string, reason: RegExp) =>
      assert.throws(
        () => resolveWritePath(folders, input, onDisk),
        (error: unknown) => error instanceof InvalidPath && reason.test(error.reason),
      );
    invalid('src/a.ts\u0000.png', /NUL/);
    invalid(`file://evil.example/${folders[0].path}/src/a.ts`, /host "evil\.example"/);
    invalid(`file://${folders[0].path}/src/a%2e%2e/x.ts`, /percent-encoded/);
    invalid(`src/${'x'.repeat(300)}.ts`, /longer than 255 bytes/);
    invalid(`src/${'abc/'.repeat(MAX_PATH_BYTES / 4)}x.ts`, /longer than 4096 bytes/);
    invalid('   ', /empty/);
    assert.equal(pathTextOf('file://localhost/w/app/a.ts'), '/w/app/a.ts');
    assert.equal(
      resolveFileArgument(folders, `file://${folders[0].path}/src/a.ts`, onDisk),
      path.join(folders[0].path, 'src', 'a.ts'),
    );
  });
});

describe('freshness', () => {
  it('diagnostics are fresh only when published after the last change', () => {
    const clock = new DiagnosticsClock();
    assert.equal(clock.isFresh('a'), false);
    clock.notePublished('a');
    assert.equal(clock.isFresh('a'), true);
    clock.noteChanged('a');
    assert.equal(clock.isFresh('a'), false);
    clock.notePublished('a');
    assert.equal(clock.isFresh('a'), true);
    clock.forget('a');
    assert.equal(clock.isFresh('a'), false);
  });
  it('says OK-worthy only when verified', () => {
    assert.equal(freshnessNote({ kind: 'verified' }), 'checked on the current text');
    assert.equal(freshnessNote({ kind: 'not_verified', why: 'no server' }), 'not verified: no server');
  });
});

describe('deadlines', () => {
  it('passes values and errors through, and times out with what it waited for', async () => {
    assert.equal(await withDeadline(Promise.resolve(3), 1, 'x'), 3);
    await assert.rejects(withDeadline(Promise.reject(new Error('boom')), 1, 'x'), /boom/);
    await assert.rejects(
      withDeadline(new Promise(() => undefined), 0.05, 'the server'),
      (error: unknown) =>
        error instanceof DeadlineExceeded && error.message === 'Timed out after 0.05 s waiting for the server.',
    );
  });
});
