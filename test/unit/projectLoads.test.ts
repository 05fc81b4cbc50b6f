import * as assert from 'node:assert/strict';
import { DeadlineExceeded } from '../../src/async/deadline';
import { nullLogger } from '../../src/log/logger';
import { Freshness } from '../../src/lsp/freshness';
import { PROJECT_LOADS_CAP, PROJECTS_FOUND_FOR_MS, ProjectLoader, ProjectLoads } from '../../src/lsp/projectLoads';
import { ScriptProject } from '../../src/project/scriptProjects';

const folder = { name: 'w', path: '/w' };
const project = (dir: string): ScriptProject => ({
  dir: `/w/${dir}`,
  marker: 'tsconfig.json',
  entry: `/w/${dir}/index.ts`,
});

class Cancelled extends Error {}

/**
 * Stands in for the editor and its TypeScript server: a load opens the file and answers as the test
 * says (at once, never, or when released); closing a file is the editor disposing a document it held.
 */
class Editor implements ProjectLoader {
  readonly loaded: string[] = [];
  readonly open = new Set<string>();
  answer: (entry: string) => Promise<boolean> = async () => true;

  load(entry: string): Promise<boolean> {
    this.loaded.push(entry);
    this.open.add(entry);
    return this.answer(entry);
  }

  isOpen(entry: string): boolean {
    return this.open.has(entry);
  }
}

function setUp(projects: ScriptProject[], now = () => 0) {
  const editor = new Editor();
  let finds = 0;
  const find = () => {
    finds++;
    return projects;
  };
  const logged: string[] = [];
  const log = { ...nullLogger, info: (tag: string, message: string) => logged.push(`${tag} ${message}`) };
  const loads = new ProjectLoads(find, editor, log, now);
  const ensure = (seconds = 5, signal = new AbortController().signal): Promise<Freshness> =>
    loads.ensure([folder], seconds, signal, () => new Cancelled());
  return { editor, loads, ensure, finds: () => finds, logged };
}

describe('loading the projects of the workspace before a workspace-wide question', () => {
  it('loads each project once; a second question finds them loaded while their files stay open', async () => {
    const { editor, ensure, logged } = setUp([project('a'), project('b')]);
    assert.deepEqual(await ensure(), { kind: 'verified' });
    assert.deepEqual(editor.loaded, ['/w/a/index.ts', '/w/b/index.ts']);
    assert.deepEqual(await ensure(), { kind: 'verified' });
    assert.equal(editor.loaded.length, 2);
    assert.deepEqual(logged, ['lsp.projects loaded a/tsconfig.json, b/tsconfig.json in 0 ms']);
  });

  it('loads a project again once the editor has closed the file that loaded it', async () => {
    const { editor, ensure } = setUp([project('a'), project('b')]);
    await ensure();
    editor.open.delete('/w/b/index.ts');
    assert.deepEqual(await ensure(), { kind: 'verified' });
    assert.deepEqual(editor.loaded, ['/w/a/index.ts', '/w/b/index.ts', '/w/b/index.ts']);
  });

  it('names the projects that could not be loaded, and tries them again at the next question', async () => {
    const { editor, ensure } = setUp([project('a'), project('b'), { dir: '/w/c', marker: 'tsconfig.json' }]);
    editor.answer = async (entry) => entry !== '/w/b/index.ts';
    assert.deepEqual(await ensure(), {
      kind: 'not_verified',
      why: 'the TypeScript server could not be asked to load b/tsconfig.json; no source file of c/tsconfig.json was found to open',
    });
    editor.answer = async () => true;
    assert.deepEqual(await ensure(), {
      kind: 'not_verified',
      why: 'no source file of c/tsconfig.json was found to open',
    });
    assert.deepEqual(editor.loaded, ['/w/a/index.ts', '/w/b/index.ts', '/w/b/index.ts']);
  });

  it(`loads at most ${PROJECT_LOADS_CAP} projects, and says how many were left`, async () => {
    const many = Array.from({ length: PROJECT_LOADS_CAP + 2 }, (_, index) => project(`p${index}`));
    const { editor, ensure } = setUp(many);
    assert.deepEqual(await ensure(), {
      kind: 'not_verified',
      why: `only the first ${PROJECT_LOADS_CAP} of ${PROJECT_LOADS_CAP + 2} TypeScript/JavaScript projects were loaded`,
    });
    assert.equal(editor.loaded.length, PROJECT_LOADS_CAP);
  });

  it('a workspace without a project: not verified, and nothing is opened', async () => {
    const { editor, ensure } = setUp([]);
    const answer = await ensure();
    assert.equal(answer.kind, 'not_verified');
    assert.match((answer as { why: string }).why, /^no tsconfig\.json, jsconfig\.json or package\.json was found/);
    assert.equal(editor.loaded.length, 0);
  });

  it('the deadline names the project it passed in, starts no further load, and the load under way is not started twice', async () => {
    const { editor, ensure } = setUp([project('a'), project('slow'), project('c')]);
    let release!: (loaded: boolean) => void;
    editor.answer = async (entry) =>
      entry === '/w/slow/index.ts' ? new Promise<boolean>((resolve) => (release = resolve)) : true;
    assert.deepEqual(await ensure(0.05), {
      kind: 'timed_out',
      seconds: 0.05,
      waitingFor: 'the TypeScript server to load the project of slow/tsconfig.json',
    });
    release(true);
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(editor.loaded, ['/w/a/index.ts', '/w/slow/index.ts']);
    assert.deepEqual(await ensure(), { kind: 'verified' });
    assert.deepEqual(editor.loaded, ['/w/a/index.ts', '/w/slow/index.ts', '/w/c/index.ts']);
  });

  it("the server's own request deadline ends the wait the same way", async () => {
    const { editor, ensure } = setUp([project('a')]);
    editor.answer = () => Promise.reject(new DeadlineExceeded('the TypeScript server', 5));
    assert.deepEqual(await ensure(), {
      kind: 'timed_out',
      seconds: 5,
      waitingFor: 'the TypeScript server to load the project of a/tsconfig.json',
    });
    editor.answer = async () => true;
    assert.deepEqual(await ensure(), { kind: 'verified' });
  });

  it('cancellation ends the wait at once; the load goes on and a later question waits on the same one', async () => {
    const { editor, ensure } = setUp([project('a')]);
    let release!: (loaded: boolean) => void;
    editor.answer = () => new Promise<boolean>((resolve) => (release = resolve));
    const abort = new AbortController();
    const cancelled = ensure(5, abort.signal);
    abort.abort();
    await assert.rejects(cancelled, Cancelled);
    const later = ensure();
    release(true);
    assert.deepEqual(await later, { kind: 'verified' });
    assert.equal(editor.loaded.length, 1);
    const already = new AbortController();
    already.abort();
    await assert.rejects(ensure(5, already.signal), Cancelled);
  });

  it('two questions at once share each load', async () => {
    const { editor, ensure } = setUp([project('a')]);
    let release!: (loaded: boolean) => void;
    editor.answer = () => new Promise<boolean>((resolve) => (release = resolve));
    const both = Promise.all([ensure(), ensure()]);
    await new Promise((resolve) => setImmediate(resolve));
    release(true);
    assert.deepEqual(await both, [{ kind: 'verified' }, { kind: 'verified' }]);
    assert.equal(editor.loaded.length, 1);
  });

  it('after a restart of the server (forget) every project is loaded again', async () => {
    const { editor, loads, ensure } = setUp([project('a')]);
    await ensure();
    loads.forget();
    await ensure();
    assert.equal(editor.loaded.length, 2);
  });

  it(`finds the projects again when a project file changes, after ${PROJECTS_FOUND_FOR_MS / 1000} s, or for other folders`, async () => {
    let now = 0;
    const { loads, ensure, finds } = setUp([project('a')], () => now);
    await ensure();
    await ensure();
    assert.equal(finds(), 1);
    loads.refind();
    await ensure();
    assert.equal(finds(), 2);
    now += PROJECTS_FOUND_FOR_MS;
    await ensure();
    assert.equal(finds(), 3);
    await loads.ensure([{ name: 'copy', path: '/copy' }], 5, new AbortController().signal, () => new Cancelled());
    assert.equal(finds(), 4);
  });

  it('a project in two folders (one inside the other) is loaded once', async () => {
    const editor = new Editor();
    const loads = new ProjectLoads(() => [project('a')], editor, nullLogger);
    const folders = [folder, { name: 'a', path: '/w/a' }];
    assert.deepEqual(await loads.ensure(folders, 5, new AbortController().signal, () => new Cancelled()), {
      kind: 'verified',
    });
    assert.deepEqual(editor.loaded, ['/w/a/index.ts']);
  });
});
