import * as assert from 'node:assert/strict';
import { DeadlineExceeded, withDeadline } from '../../src/async/deadline';
import { DiagnosticsClock, freshnessNote } from '../../src/lsp/freshness';
import { AmbiguousFile, displayPath, FileNotFound, NoWorkspaceFolder, OutsideWorkspace, resolveFileArgument } from '../../src/workspace/paths';

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
    assert.equal(displayPath([{ name: 'app', path: '/w/app' }, { name: 'inner', path: '/w/app/inner' }], '/w/app/inner/x.ts'), 'inner/x.ts');
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
      (error: unknown) => error instanceof DeadlineExceeded && error.message === 'Timed out after 0.05 s waiting for the server.',
    );
  });
});
