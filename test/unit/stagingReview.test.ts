import * as assert from 'node:assert/strict';
import {
  acceptedMessage,
  commandTarget,
  diffTitle,
  EXPANDED_HUNKS_CAP,
  hunkLenses,
  reviewChildren,
  reviewRow,
  uiErrorText,
} from '../../src/staging/reviewModel';
import { StagedEdit } from '../../src/staging/stagedEdit';
import { NothingKept, ResolutionInProgress, StaleStagedEdit, UnknownStagedEdit } from '../../src/staging/stagingErrors';
import { StagingStore } from '../../src/staging/stagingStore';

const display = (file: string) => file.replace(/^\/w\//, '');
const SHAPE = 'export function area(w: number) {\n  return w;\n}\n\nexport const unit = area(1);\n';
const USER = "import { area } from './shape';\nexport const two = area(2);\n";

/** A change of two files (three hunks) that also moves a third, staged in a fresh store. */
function staged(): { store: StagingStore; edit: StagedEdit } {
  const store = new StagingStore(() => Date.UTC(2026, 11, 5, 12));
  const at = (text: string, find: string, occurrence = 1) => {
    let start = -1;
    for (let seen = 0; seen < occurrence; seen++) start = text.indexOf(find, start + 1);
    return { start, end: start + find.length };
  };
  const edit = store.stage({
    conversation: 'window',
    origin: 'lsp_rename',
    summary: 'rename "area" → "surface"',
    files: [
      {
        path: '/w/src/shape.ts',
        original: SHAPE,
        edits: [
          { ...at(SHAPE, 'area'), text: 'surface' },
          { ...at(SHAPE, 'area', 2), text: 'surface' },
        ],
      },
      { path: '/w/src/user.ts', original: USER, edits: [{ ...at(USER, 'area', 2), text: 'surface' }] },
    ],
    move: { from: '/w/src/old.ts', to: '/w/src/new.ts' },
  });
  return { store, edit };
}

describe('staging review model: the rows the human shapes a change with', () => {
  it('a change lists its move, then its files, then each file its hunks', () => {
    const { store, edit } = staged();
    const get = (id: string) => store.get(id);
    const roots = reviewChildren(undefined, () => store.pending(), get);
    assert.deepEqual(roots, [{ kind: 'edit', id: edit.id }]);
    assert.deepEqual(
      reviewChildren(roots[0], () => store.pending(), get),
      [
        { kind: 'move', id: edit.id },
        { kind: 'file', id: edit.id, path: '/w/src/shape.ts' },
        { kind: 'file', id: edit.id, path: '/w/src/user.ts' },
      ],
    );
    assert.deepEqual(
      reviewChildren({ kind: 'file', id: edit.id, path: '/w/src/shape.ts' }, () => store.pending(), get).map(
        (node) => node.kind === 'hunk' && node.hunk,
      ),
      [0, 1],
    );
    assert.deepEqual(
      reviewChildren({ kind: 'move', id: edit.id }, () => store.pending(), get),
      [],
    );
  });

  it('rows say what each is, kept or dropped, and what a click does', () => {
    const { store, edit } = staged();
    const change = reviewRow({ kind: 'edit', id: edit.id }, edit, display);
    assert.equal(change.label, edit.id);
    assert.equal(change.description, 'rename "area" → "surface"');
    assert.match(
      change.tooltip,
      /^\*\*edit_1\*\* — rename "area" → "surface"\n\n3 replacements in 2 files, staged by `lsp_rename` at /,
    );
    const move = reviewRow({ kind: 'move', id: edit.id }, edit, display);
    assert.equal(move.label, 'moves old.ts → new.ts');
    assert.equal(move.description, 'src/old.ts → src/new.ts');
    const file = reviewRow({ kind: 'file', id: edit.id, path: '/w/src/shape.ts' }, edit, display);
    assert.deepEqual(
      [file.label, file.description, file.resource, file.collapsible, file.checkbox?.kept, file.opensDiff],
      ['shape.ts', 'src · 2 replacements', '/w/src/shape.ts', 'expanded', true, true],
    );
    const shaped = store.setDropped(edit.id, '/w/src/shape.ts', 1, true);
    const hunk = reviewRow({ kind: 'hunk', id: edit.id, path: '/w/src/shape.ts', hunk: 1 }, shaped, display);
    assert.deepEqual([hunk.label, hunk.checkbox?.kept], ['line 5', false]);
    assert.match(hunk.checkbox?.tooltip ?? '', /^Dropped: Accept leaves it out/);
    assert.equal(
      reviewRow({ kind: 'file', id: edit.id, path: '/w/src/shape.ts' }, shaped, display).description,
      'src · 1 of 2 replacements kept',
    );
    // A change resolved meanwhile still has a row (the view refreshes after).
    assert.equal(
      reviewRow({ kind: 'file', id: edit.id, path: '/w/src/shape.ts' }, undefined, display).label,
      'shape.ts',
    );
    assert.ok(EXPANDED_HUNKS_CAP >= 3);
    assert.equal(diffTitle(edit, '/w/src/shape.ts'), 'shape.ts ↔ proposed (edit_1)');
  });

  it("a worker's created and deleted files say so on their rows, and a dropped one says it is dropped", () => {
    const store = new StagingStore();
    const edit = store.stage({
      conversation: 'window#worker-w1',
      origin: 'worker w1',
      summary: 'w1 "tidy": 2 files (1 created, 1 deleted)',
      merge: 'three-way',
      files: [
        { path: '/w/src/new.ts', original: '', edits: [{ start: 0, end: 0, text: 'x\n' }], lifecycle: 'create' },
        { path: '/w/src/old.ts', original: 'y\n', edits: [{ start: 0, end: 2, text: '' }], lifecycle: 'delete' },
      ],
    });
    const row = (file: string, change: StagedEdit) =>
      reviewRow({ kind: 'file', id: change.id, path: file }, change, display).description;
    assert.deepEqual([row('/w/src/new.ts', edit), row('/w/src/old.ts', edit)], ['src · created', 'src · deleted']);
    assert.equal(row('/w/src/old.ts', store.setDropped(edit.id, '/w/src/old.ts', 0, true)), 'src · deleted (dropped)');
  });

  it('lenses on the proposed side sit on each hunk, moved by the line breaks of the kept hunks before it', () => {
    const store = new StagingStore();
    const original = 'a\nb\nc\n';
    const edit = store.stage({
      conversation: 'window',
      origin: 'ast_edit',
      summary: 'grow',
      files: [
        {
          path: '/w/x.txt',
          original,
          edits: [
            { start: 0, end: 1, text: 'a1\na2\na3' },
            { start: 4, end: 5, text: 'C' },
          ],
        },
      ],
    });
    const [file] = edit.files;
    assert.deepEqual(
      hunkLenses(edit, file).map((lens) => [lens.line, lens.title]),
      [
        [0, 'Drop this change'],
        [4, 'Drop this change'],
      ],
    );
    const shaped = store.setDropped(edit.id, '/w/x.txt', 0, true);
    assert.deepEqual(
      hunkLenses(shaped, shaped.files[0]).map((lens) => [lens.line, lens.title]),
      [
        [0, 'Take this change back'],
        [2, 'Drop this change'],
      ],
    );
  });

  it('a command is about the change it names, else the active review, else the only pending one, else a pick', () => {
    const pending = [{ id: 'edit_1' }, { id: 'edit_2' }];
    assert.equal(commandTarget('edit_7', 'edit_1', pending), 'edit_7');
    assert.equal(commandTarget({ kind: 'file', id: 'edit_2', path: '/w/a' }, 'edit_1', pending), 'edit_2');
    assert.equal(commandTarget(undefined, 'edit_1', pending), 'edit_1');
    assert.equal(commandTarget(undefined, undefined, [{ id: 'edit_3' }]), 'edit_3');
    assert.equal(commandTarget(undefined, undefined, []), undefined);
    assert.equal(commandTarget(undefined, undefined, pending), 'pick');
  });

  it('the person who clicked reads the outcome in their words', async () => {
    const { store, edit } = staged();
    const shaped = store.setDropped(edit.id, '/w/src/user.ts', undefined, true);
    assert.equal(
      acceptedMessage(shaped, ['/w/src/shape.ts'], display),
      'Accepted edit_1: wrote 2 of 3 replacements in 1 file; left out the 1 change you dropped. Not saved: src/shape.ts.',
    );
    const stale = uiErrorText(
      new StaleStagedEdit('edit_1', 'lsp_rename', [{ path: '/w/src/user.ts', kind: 'changed' }]),
      display,
    );
    assert.equal(stale.warning, true);
    assert.match(stale.text, /^edit_1 was not accepted because files changed since it was staged: src\/user\.ts/);
    assert.deepEqual(uiErrorText(new UnknownStagedEdit('edit_9', []), display), {
      text: 'There is no staged edit edit_9.',
      warning: false,
    });
    assert.equal(
      uiErrorText(new ResolutionInProgress('edit_1'), display).text,
      'edit_1 is being accepted or discarded already.',
    );
    assert.match(uiErrorText(new NothingKept('edit_1'), display).text, /you dropped every change of it/);
    assert.equal(uiErrorText(new Error('disk full'), display).text, 'Could not resolve the staged edit: disk full');
  });
});
