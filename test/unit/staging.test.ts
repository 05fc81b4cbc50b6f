import * as assert from 'node:assert/strict';
import { seededRandom } from '../support/seededRandom';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { acceptedAnswer, discardedAnswer, proposedAnswer, resolveConfirmation } from '../../src/staging/answers';
import { FileMove, isShaped, shownText, StagedEdit, StagedFile, WrittenFile } from '../../src/staging/stagedEdit';
import {
  AlreadyResolved,
  FileOperationsNotStaged,
  InvalidStagedChange,
  MergeRefused,
  NothingKept,
  ResolutionInProgress,
  StaleStagedEdit,
  UnknownStagedEdit,
} from '../../src/staging/stagingErrors';
import { AcceptIo, driftOf, StagingStore } from '../../src/staging/stagingStore';
import { applyEdits, InvalidEdit, OverlappingEdits, TextEdit } from '../../src/edits/textEdits';
import { errorText } from '../../src/tools/errorText';
import { suiteTempDir } from '../support/tempDir';

/** The edit replacing the `occurrence`-th (1-based) `find` in `text` by `by`. */
function replace(text: string, find: string, by: string, occurrence = 1): TextEdit {
  let start = -1;
  for (let seen = 0; seen < occurrence; seen++) start = text.indexOf(find, start + 1);
  assert.ok(start >= 0, `"${find}" #${occurrence} is not in the text`);
  return { start, end: start + find.length, text: by };
}

/** The edit replacing the `occurrence`-th (1-based) whole-word `word` in `text` by `by`. */
function replaceWord(text: string, word: string, by: string, occurrence = 1): TextEdit {
  const match = [...text.matchAll(new RegExp(`\\b${word}\\b`, 'g'))][occurrence - 1];
  assert.ok(match?.index !== undefined, `word "${word}" #${occurrence} is not in the text`);
  return { start: match.index, end: match.index + word.length, text: by };
}

describe('applyEdits', () => {
  it('applies edits given in any order, offsets all in the original text', () => {
    const text = 'let a = 1;\nlet b = a + a;\n';
    const edits = [replace(text, 'a', 'alpha', 3), replace(text, 'a', 'alpha', 1), replace(text, 'a', 'alpha', 2)];
    assert.equal(applyEdits(text, edits), 'let alpha = 1;\nlet b = alpha + alpha;\n');
  });

  it('insertions, deletions and touching edits', () => {
    assert.equal(
      applyEdits('abcdef', [
        { start: 0, end: 0, text: '>' },
        { start: 6, end: 6, text: '<' },
      ]),
      '>abcdef<',
    );
    assert.equal(
      applyEdits('abcdef', [
        { start: 1, end: 3, text: '' },
        { start: 3, end: 5, text: 'XY' },
      ]),
      'aXYf',
    );
    // An insertion at the start of a replacement goes first.
    assert.equal(
      applyEdits('abcdef', [
        { start: 2, end: 4, text: '34' },
        { start: 2, end: 2, text: '+' },
      ]),
      'ab+34ef',
    );
    assert.equal(applyEdits('abc', []), 'abc');
  });

  it('counts offsets in UTF-16 code units: accents, CJK, astral emoji', () => {
    const text = 'const café = "😀 中文 😀";\nconsole.log(café);\n';
    // 😀 is two UTF-16 units: the second café sits 2 units further right than its code-point index.
    const second = text.lastIndexOf('café');
    assert.equal(second, [...text].join('').lastIndexOf('café'));
    assert.notEqual(
      second,
      [...text].findLastIndex((_, index, chars) => chars.slice(index, index + 4).join('') === 'café'),
    );
    const edits = [
      replace(text, 'café', 'crème', 1),
      { start: second, end: second + 4, text: 'crème' },
      replace(text, '😀', '🎉', 2),
    ];
    assert.equal(applyEdits(text, edits), 'const crème = "😀 中文 🎉";\nconsole.log(crème);\n');
  });

  it('refuses overlapping edits with the two edits named', () => {
    const overlapping: [TextEdit, TextEdit][] = [
      [
        { start: 0, end: 4, text: 'x' },
        { start: 3, end: 6, text: 'y' },
      ],
      [
        { start: 2, end: 8, text: 'x' },
        { start: 3, end: 4, text: 'y' },
      ],
      [
        { start: 2, end: 5, text: 'x' },
        { start: 2, end: 5, text: 'y' },
      ],
      [
        { start: 2, end: 5, text: 'x' },
        { start: 3, end: 3, text: 'inside' },
      ],
      [
        { start: 4, end: 4, text: 'a' },
        { start: 4, end: 4, text: 'b' },
      ], // which insertion first would be a guess
    ];
    for (const [first, second] of overlapping) {
      for (const edits of [
        [first, second],
        [second, first],
      ]) {
        assert.throws(
          () => applyEdits('0123456789', edits),
          (error: unknown) =>
            error instanceof OverlappingEdits &&
            [error.first, error.second].includes(first) &&
            [error.first, error.second].includes(second),
          JSON.stringify(edits),
        );
      }
    }
  });

  it('refuses edits outside the text or splitting a character or a CRLF', () => {
    const invalid: [string, TextEdit, RegExp][] = [
      ['abc', { start: -1, end: 1, text: '' }, /starts before the text/],
      ['abc', { start: 2, end: 1, text: '' }, /ends before it starts/],
      ['abc', { start: 1, end: 4, text: '' }, /past the end of the text \(3 UTF-16 units\)/],
      ['abc', { start: 0.5, end: 1, text: '' }, /whole numbers/],
      ['a😀b', { start: 2, end: 3, text: '' }, /splits a surrogate pair/],
      ['a\r\nb', { start: 2, end: 2, text: 'x' }, /splits a CRLF line break/],
    ];
    for (const [text, edit, reason] of invalid) {
      assert.throws(
        () => applyEdits(text, [edit]),
        (error: unknown) => error instanceof InvalidEdit && reason.test(error.message),
      );
    }
  });
});

/** Writes to and reads from a map of path → text, like a tiny file system. */
function memoryIo(files: Map<string, string>): AcceptIo<string[]> & { writes: number } {
  const io = {
    writes: 0,
    currentText: (file: string) => files.get(file),
    write: async (staged: readonly WrittenFile[], move?: FileMove) => {
      io.writes++;
      for (const file of staged) files.set(file.path, file.proposed);
      if (move) {
        files.set(move.to, files.get(move.from) as string);
        files.delete(move.from);
      }
      return staged.map((file) => file.path);
    },
  };
  return io;
}

const display = (file: string) => file.replace(/^\/w\//, '');

describe('staging store', () => {
  const original = { a: 'export const a = 1;\n', b: 'import { a } from "./a";\nexport const b = a + a;\n' };

  it('a change that moves a file: staged with no edits of its own, accepted after its edits, refused when the file is gone', async () => {
    const store = new StagingStore();
    const files = new Map([
      ['/w/util.ts', 'export const u = 1;\n'],
      ['/w/user.ts', "import { u } from './util';\n"],
    ]);
    const stageMove = () =>
      store.stage({
        conversation: 'window',
        origin: 'lsp_apply',
        summary: 'Move util.ts to lib/util.ts',
        files: [
          {
            path: '/w/user.ts',
            original: files.get('/w/user.ts') as string,
            edits: [{ start: 19, end: 25, text: './lib/util' }],
          },
        ],
        move: { from: '/w/util.ts', to: '/w/lib/util.ts' },
      });
    const moved = stageMove();
    assert.deepEqual(moved.move, { from: '/w/util.ts', to: '/w/lib/util.ts' });
    // Every edit dropped: the move is still something to accept.
    store.setDropped(moved.id, '/w/user.ts', undefined, true);
    const io = memoryIo(files);
    await store.accept(moved.id, 'agent', io);
    assert.equal(files.get('/w/lib/util.ts'), 'export const u = 1;\n');
    assert.equal(files.has('/w/util.ts'), false);
    assert.equal(files.get('/w/user.ts'), "import { u } from './util';\n");
    // The file to move is gone when the next one is accepted: stale, nothing written.
    const again = store.stage({
      conversation: 'window',
      origin: 'lsp_apply',
      summary: 'Move util.ts to b.ts',
      files: [],
      move: { from: '/w/util.ts', to: '/w/b.ts' },
    });
    await assert.rejects(store.accept(again.id, 'agent', io), (error: unknown) => {
      assert.ok(error instanceof StaleStagedEdit);
      assert.deepEqual(error.drifted, [{ path: '/w/util.ts', kind: 'missing' }]);
      return true;
    });
    assert.equal(io.writes, 1);
    assert.throws(
      () => store.stage({ conversation: 'window', origin: 'lsp_apply', summary: 'nothing', files: [] }),
      InvalidStagedChange,
    );
  });

  function stageRename(store: StagingStore, conversation = 'window'): StagedEdit {
    return store.stage({
      conversation,
      origin: 'lsp_rename',
      summary: 'rename "a" → "first"',
      files: [
        { path: '/w/a.ts', original: original.a, edits: [replaceWord(original.a, 'a', 'first')] },
        {
          path: '/w/b.ts',
          original: original.b,
          edits: [
            replaceWord(original.b, 'a', 'first', 1),
            replaceWord(original.b, 'a', 'first', 3),
            replaceWord(original.b, 'a', 'first', 4),
          ],
        },
      ],
    });
  }

  it('stages with per-window ids, the conversation, the origin and the proposed texts; writes nothing', () => {
    const store = new StagingStore(() => 1000);
    const seen: string[] = [];
    store.onDidChange((edit) => seen.push(`${edit.id}:${edit.state}`));
    const first = stageRename(store, 'chat-1');
    const second = stageRename(store, 'chat-2');
    assert.equal(first.id, 'edit_1');
    assert.equal(second.id, 'edit_2');
    assert.equal(first.state, 'pending');
    assert.equal(first.conversation, 'chat-1');
    assert.equal(first.origin, 'lsp_rename');
    assert.equal(first.stagedAt, 1000);
    assert.deepEqual(
      first.files.map((file) => file.proposed),
      ['export const first = 1;\n', 'import { first } from "./a";\nexport const b = first + first;\n'],
    );
    assert.deepEqual(
      store.pending().map((edit) => edit.id),
      ['edit_1', 'edit_2'],
    );
    assert.deepEqual(
      store.pending('chat-2').map((edit) => edit.id),
      ['edit_2'],
    );
    assert.deepEqual(seen, ['edit_1:pending', 'edit_2:pending']);
  });

  it('accept checks every file, writes them all at once and records who accepted', async () => {
    const store = new StagingStore(() => 7);
    const files = new Map([
      ['/w/a.ts', original.a],
      ['/w/b.ts', original.b],
    ]);
    const edit = stageRename(store);
    const io = memoryIo(files);
    const { edit: accepted, written } = await store.accept(edit.id, 'agent', io);
    assert.deepEqual(written, ['/w/a.ts', '/w/b.ts']);
    assert.equal(io.writes, 1);
    assert.equal(files.get('/w/b.ts'), 'import { first } from "./a";\nexport const b = first + first;\n');
    assert.equal(accepted.state, 'accepted');
    assert.deepEqual(accepted.resolution, { action: 'accept', by: 'agent', at: 7 });
    assert.deepEqual(store.pending(), []);
    await assert.rejects(
      store.accept(edit.id, 'agent', io),
      (error: unknown) =>
        error instanceof AlreadyResolved && error.message === 'edit_1 was already accepted by the agent.',
    );
  });

  it('a discard by the user is what a later accept or discard reports', async () => {
    const store = new StagingStore();
    const edit = stageRename(store);
    const discarded = store.discard(edit.id, 'user');
    assert.equal(discarded.state, 'discarded');
    const io = memoryIo(
      new Map([
        ['/w/a.ts', original.a],
        ['/w/b.ts', original.b],
      ]),
    );
    await assert.rejects(
      store.accept(edit.id, 'agent', io),
      (error: unknown) =>
        error instanceof AlreadyResolved &&
        error.resolution.by === 'user' &&
        error.message === 'edit_1 was already discarded by the user.',
    );
    assert.throws(() => store.discard(edit.id, 'agent'), AlreadyResolved);
    assert.equal(io.writes, 0);
  });

  it('unknown ids name the pending ones', async () => {
    const store = new StagingStore();
    stageRename(store);
    assert.throws(
      () => store.discard('edit_9', 'agent'),
      (error: unknown) =>
        error instanceof UnknownStagedEdit &&
        error.id === 'edit_9' &&
        error.pending.map((edit) => edit.id).join() === 'edit_1',
    );
    await assert.rejects(store.accept('nope', 'agent', memoryIo(new Map())), UnknownStagedEdit);
  });

  it('refuses to stage nothing, a file twice, or overlapping edits', () => {
    const store = new StagingStore();
    const request = { conversation: 'window', origin: 'ast_edit', summary: 's' };
    assert.throws(() => store.stage({ ...request, files: [] }), InvalidStagedChange);
    assert.throws(
      () => store.stage({ ...request, files: [{ path: '/w/a.ts', original: 'x', edits: [] }] }),
      /nothing to stage/,
    );
    const file = { path: '/w/a.ts', original: 'abc', edits: [{ start: 0, end: 1, text: 'A' }] };
    assert.throws(() => store.stage({ ...request, files: [file, file] }), /listed twice/);
    assert.throws(
      () =>
        store.stage({
          ...request,
          files: [
            {
              path: '/w/a.ts',
              original: 'abc',
              edits: [
                { start: 0, end: 2, text: 'A' },
                { start: 1, end: 3, text: 'B' },
              ],
            },
          ],
        }),
      OverlappingEdits,
    );
    assert.deepEqual(store.pending(), []);
    // A failed stage does not use up an id.
    assert.equal(store.stage({ ...request, files: [file] }).id, 'edit_1');
  });

  it('inserted line breaks follow the file: what is proposed is what the editor will write', () => {
    const store = new StagingStore();
    const edit = store.stage({
      conversation: 'window',
      origin: 'ast_edit',
      summary: 's',
      files: [
        { path: '/w/crlf.ts', original: 'a;\r\nb;\r\n', edits: [{ start: 2, end: 2, text: '\n// one\n// two' }] },
        { path: '/w/lf.ts', original: 'a;\nb;\n', edits: [{ start: 2, end: 2, text: '\r\n// one' }] },
      ],
    });
    assert.deepEqual(
      edit.files.map((file) => file.proposed),
      ['a;\r\n// one\r\n// two\r\nb;\r\n', 'a;\n// one\nb;\n'],
    );
  });

  it('drift lists changed and missing files', () => {
    const store = new StagingStore();
    const edit = stageRename(store);
    assert.deepEqual(
      driftOf(edit.files, (file) => (file === '/w/a.ts' ? original.a : original.b)),
      [],
    );
    assert.deepEqual(
      driftOf(edit.files, (file) => (file === '/w/a.ts' ? `${original.a} ` : undefined)),
      [
        { path: '/w/a.ts', kind: 'changed' },
        { path: '/w/b.ts', kind: 'missing' },
      ],
    );
  });

  it('a stale change is refused whole, nothing written, and stays pending until the files are back', async () => {
    const store = new StagingStore();
    const edit = stageRename(store);
    const files = new Map([
      ['/w/a.ts', original.a],
      ['/w/b.ts', `${original.b}// typed by the user\n`],
    ]);
    const io = memoryIo(files);
    await assert.rejects(
      store.accept(edit.id, 'agent', io),
      (error: unknown) =>
        error instanceof StaleStagedEdit &&
        error.origin === 'lsp_rename' &&
        JSON.stringify(error.drifted) === JSON.stringify([{ path: '/w/b.ts', kind: 'changed' }]),
    );
    assert.equal(io.writes, 0);
    assert.equal(files.get('/w/a.ts'), original.a);
    assert.equal(store.get(edit.id)?.state, 'pending');
    files.set('/w/b.ts', original.b);
    assert.equal((await store.accept(edit.id, 'user', io)).edit.resolution?.by, 'user');
  });

  it('a second resolve while an accept is writing is told so, and nothing is written twice', async () => {
    const store = new StagingStore();
    const edit = stageRename(store);
    const files = new Map([
      ['/w/a.ts', original.a],
      ['/w/b.ts', original.b],
    ]);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slow = memoryIo(files);
    const io: AcceptIo<string[]> = {
      currentText: slow.currentText,
      write: async (staged) => (await gate, slow.write(staged)),
    };
    const first = store.accept(edit.id, 'user', io);
    await new Promise((resolve) => setImmediate(resolve));
    await assert.rejects(store.accept(edit.id, 'agent', io), ResolutionInProgress);
    assert.throws(() => store.discard(edit.id, 'agent'), ResolutionInProgress);
    release();
    assert.equal((await first).edit.state, 'accepted');
    assert.equal(slow.writes, 1);
  });

  it('a writer that refuses leaves the change pending', async () => {
    const store = new StagingStore();
    const edit = stageRename(store);
    const files = new Map([
      ['/w/a.ts', original.a],
      ['/w/b.ts', original.b],
    ]);
    const io: AcceptIo<void> = {
      currentText: (file) => files.get(file),
      write: async () => Promise.reject(new Error('refused')),
    };
    await assert.rejects(store.accept(edit.id, 'agent', io), /refused/);
    assert.equal(store.get(edit.id)?.state, 'pending');
  });
});

describe("a worker's change (three-way): merged into what others changed since, refused where they meet", () => {
  const base = 'line 1\nline 2\nline 3\nline 4\nline 5\nline 6\nline 7\n';
  /** The worker changed lines 2 and 6, created new.ts and deleted old.ts in its copy. */
  const stageWorker = (store: StagingStore) =>
    store.stage({
      conversation: 'window#worker-w1',
      origin: 'worker w1 "tidy"',
      summary: 'w1 "tidy": 3 files',
      merge: 'three-way',
      files: [
        {
          path: '/w/a.txt',
          original: base,
          edits: [replace(base, 'line 2', 'LINE 2'), replace(base, 'line 6', 'LINE 6')],
        },
        { path: '/w/new.ts', original: '', edits: [{ start: 0, end: 0, text: 'export {};\n' }], lifecycle: 'create' },
        { path: '/w/old.ts', original: 'gone\n', edits: [{ start: 0, end: 5, text: '' }], lifecycle: 'delete' },
      ],
    });
  const written = (files: Map<string, string>) => ({
    currentText: (file: string) => files.get(file),
    write: async (staged: readonly WrittenFile[]) => {
      for (const file of staged) {
        if (file.lifecycle === 'delete') files.delete(file.path);
        else files.set(file.path, file.proposed);
      }
      return staged;
    },
  });

  it('the human typed elsewhere in the file: the kept hunks land around the typing, which stays', async () => {
    const store = new StagingStore();
    const edit = stageWorker(store);
    assert.deepEqual(
      edit.files.map((file) => [file.path, file.lifecycle, file.hunks.length]),
      [
        ['/w/a.txt', undefined, 2],
        ['/w/new.ts', 'create', 1],
        ['/w/old.ts', 'delete', 1],
      ],
    );
    const files = new Map([
      ['/w/a.txt', base.replace('line 4', 'line 4 typed by the human')],
      ['/w/old.ts', 'gone\n'],
    ]);
    store.setDropped(edit.id, '/w/a.txt', 1, true); // the human drops the line 6 hunk
    const { written: out } = await store.accept(edit.id, 'user', written(files));
    assert.equal(files.get('/w/a.txt'), 'line 1\nLINE 2\nline 3\nline 4 typed by the human\nline 5\nline 6\nline 7\n');
    assert.equal(files.get('/w/new.ts'), 'export {};\n');
    assert.equal(files.has('/w/old.ts'), false);
    assert.equal(
      out.find((file) => file.path === '/w/a.txt')?.current,
      base.replace('line 4', 'line 4 typed by the human'),
      'planned on the text now',
    );
    assert.equal(store.get(edit.id)?.state, 'accepted');
  });

  it('a kept hunk that meets the typing refuses the whole change, naming the lines; dropping it lets the rest land', async () => {
    const store = new StagingStore();
    const edit = stageWorker(store);
    const typed = base.replace('line 6', 'line 6 typed');
    const files = new Map([
      ['/w/a.txt', typed],
      ['/w/old.ts', 'gone\n'],
    ]);
    await assert.rejects(
      store.accept(edit.id, 'user', written(files)),
      (error: unknown) =>
        error instanceof MergeRefused &&
        /^Error: edit_1 was not accepted: its kept changes meet edits made since it was staged, at a\.txt line 6 \(in the file now\)\. Nothing was written; edit_1 stays pending\. Ask the human to uncheck those hunks/.test(
          errorText(error, { displayPath: display }),
        ),
    );
    assert.equal(files.get('/w/a.txt'), typed);
    assert.equal(files.has('/w/new.ts'), false, 'nothing of the change was written');
    store.setDropped(edit.id, '/w/a.txt', 1, true);
    await store.accept(edit.id, 'user', written(files));
    assert.equal(files.get('/w/a.txt'), typed.replace('line 2', 'LINE 2'));
  });

  it('a created file keeps its text as the worker wrote it (CRLF, a lone CR): the empty original has no breaks to follow', () => {
    const store = new StagingStore();
    const text = '@echo off\r\necho hi\r\nx\ry\n';
    const edit = store.stage({
      conversation: 'window#worker-w1',
      origin: 'worker w1',
      summary: 'w1',
      merge: 'three-way',
      files: [{ path: '/w/run.cmd', original: '', edits: [{ start: 0, end: 0, text }], lifecycle: 'create' }],
    });
    assert.equal(edit.files[0].proposed, text);
  });

  it('a created file that exists now with other text, or a deleted one that changed, is named and nothing is written', async () => {
    const store = new StagingStore();
    const edit = stageWorker(store);
    const files = new Map([
      ['/w/a.txt', base],
      ['/w/new.ts', 'someone else made it\n'],
      ['/w/old.ts', 'gone, then edited\n'],
    ]);
    await assert.rejects(
      store.accept(edit.id, 'user', written(files)),
      (error: unknown) =>
        error instanceof StaleStagedEdit &&
        /new\.ts \(now exists with other text\), old\.ts \(changed\)\. Nothing was written; edit_1 stays pending\. It cannot be redone on them: discard it, then start a new worker/.test(
          errorText(error, { displayPath: display }),
        ),
    );
    assert.equal(files.get('/w/a.txt'), base);
  });
});

describe('staging answers', () => {
  const store = new StagingStore();
  const edit = store.stage({
    conversation: 'window',
    origin: 'ast_edit',
    summary: 'console.log($X) → logger.debug($X)',
    files: [
      { path: '/w/src/z.ts', original: 'console.log(1)', edits: [{ start: 0, end: 11, text: 'logger.debug' }] },
      {
        path: '/w/src/a.ts',
        original: 'console.log(1); console.log(2)',
        edits: [
          { start: 0, end: 11, text: 'logger.debug' },
          { start: 16, end: 27, text: 'logger.debug' },
        ],
      },
    ],
  });

  it('proposed: counts first, files sorted, then how to resolve', () => {
    assert.equal(
      proposedAnswer(edit, display),
      [
        '(proposed) 3 replacements in 2 files — console.log($X) → logger.debug($X). Nothing is written yet; staged as edit_1:',
        'src/a.ts: 2 replacements',
        'src/z.ts: 1 replacement',
        'The user sees the diff and can accept or discard it there. Call resolve with edit_id "edit_1" and action "accept" to write it ' +
          '(refused as a whole if any of these files changes first), or "discard" to drop it.',
      ].join('\n'),
    );
  });

  it('accepted and discarded', () => {
    assert.equal(
      acceptedAnswer(edit, display),
      'Accepted edit_1 (console.log($X) → logger.debug($X)): wrote 3 replacements in 2 files; all saved.\nsrc/a.ts: 2 replacements\nsrc/z.ts: 1 replacement',
    );
    assert.match(
      acceptedAnswer(edit, display, ['/w/src/z.ts']),
      /; saved except src\/z\.ts, left modified and unsaved in the editor\./,
    );
    assert.equal(discardedAnswer(edit), 'Discarded edit_1 (console.log($X) → logger.debug($X)); nothing was written.');
  });

  it('the confirmation says what accept will write, or that it will be refused', () => {
    assert.equal(
      resolveConfirmation(edit, 'accept', [], display),
      'Accept edit_1 — console.log($X) → logger.debug($X), staged by ast_edit: write 3 replacements in 2 files in one undoable edit, then save those files:\n\n- `src/a.ts` (2)\n- `src/z.ts` (1)',
    );
    assert.match(
      resolveConfirmation(edit, 'accept', [{ path: '/w/src/a.ts', kind: 'missing' }], display),
      /\*\*refused and nothing written\*\*: these files changed since it was staged: src\/a\.ts \(no longer exists\)\./,
    );
    assert.equal(
      resolveConfirmation(edit, 'discard', [], display),
      'Discard edit_1 — console.log($X) → logger.debug($X), staged by ast_edit (3 replacements in 2 files)? Nothing is written.',
    );
  });
});

describe('shaping a staged change: hunks the human drops and takes back', () => {
  const source = ['let a = 1;', 'let b = a;', '', '', 'use(a);', '', '', 'log(a, a);', ''].join('\n');
  const renameA = (text: string): TextEdit[] =>
    [...text.matchAll(/\ba\b/g)].map((match) => ({ start: match.index, end: match.index + 1, text: 'alpha' }));

  function stageShaped(store: StagingStore): StagedEdit {
    return store.stage({
      conversation: 'chat-1',
      origin: 'lsp_rename',
      summary: 'rename "a" → "alpha"',
      files: [
        { path: '/w/src/a.ts', original: source, edits: renameA(source) },
        { path: '/w/src/b.ts', original: 'a();\n', edits: renameA('a();\n') },
      ],
    });
  }

  it('groups edits on the same or adjacent lines into one hunk, 1-based lines of the captured text', () => {
    const file = stageShaped(new StagingStore()).files[0];
    assert.deepEqual(
      file.hunks.map(({ line, count }) => ({ line, count })),
      [
        { line: 1, count: 2 },
        { line: 5, count: 1 },
        { line: 8, count: 2 },
      ],
    );
  });

  it('accept writes only the kept hunks, says what was dropped, and a later resolve tells the agent', async () => {
    const store = new StagingStore(() => 5);
    const edit = stageShaped(store);
    const seen: number[] = [];
    store.onDidChange((changed) => seen.push(Object.values(changed.dropped).flat().length));
    store.setDropped(edit.id, '/w/src/a.ts', 1, true);
    store.setDropped(edit.id, '/w/src/b.ts', undefined, true);
    store.setDropped(edit.id, '/w/src/b.ts', 0, false);
    const shaped = store.setDropped(edit.id, '/w/src/b.ts', undefined, true);
    assert.deepEqual(shaped.dropped, { '/w/src/a.ts': [1], '/w/src/b.ts': [0] });
    assert.deepEqual(seen, [1, 2, 1, 2]);
    assert.equal(
      shownText(shaped, shaped.files[0]),
      ['let alpha = 1;', 'let b = alpha;', '', '', 'use(a);', '', '', 'log(alpha, alpha);', ''].join('\n'),
    );
    assert.equal(
      resolveConfirmation(shaped, 'accept', [], display).split('\n')[0].includes('write 4 of 6 replacements in 1 file'),
      true,
    );

    const files = new Map([
      ['/w/src/a.ts', source],
      // A manual edit in a file whose every hunk was dropped does not make the change stale: it is not written.
      ['/w/src/b.ts', 'b();\n'],
    ]);
    const { edit: accepted } = await store.accept(edit.id, 'user', memoryIo(files));
    assert.equal(files.get('/w/src/a.ts'), shownText(shaped, shaped.files[0]));
    assert.equal(files.get('/w/src/b.ts'), 'b();\n');
    const answer = acceptedAnswer(accepted, display);
    assert.equal(
      answer,
      [
        'Accepted edit_1 (rename "a" → "alpha"): wrote 4 of 6 replacements in 1 file; all saved.',
        'src/a.ts: 4 replacements',
        'The user dropped 2 changes in the review (not written): src/a.ts:5 (use(a); → use(alpha);); src/b.ts:1 (a(); → alpha();).',
      ].join('\n'),
    );
    await assert.rejects(store.accept(edit.id, 'agent', memoryIo(files), 'chat-1'), (error: unknown) => {
      assert.equal(
        errorText(error, { displayPath: display }),
        'Error: edit_1 was already accepted by the user; it wrote 4 of 6 replacements in 1 file. The user dropped 2 changes in the review (not written): src/a.ts:5 (use(a); → use(alpha);); src/b.ts:1 (a(); → alpha();).',
      );
      return true;
    });
    assert.throws(() => store.setDropped(edit.id, '/w/src/a.ts', 0, true), AlreadyResolved);
  });

  it('with every hunk dropped Accept writes nothing and says so; a change nobody shaped is written whole', async () => {
    const store = new StagingStore();
    const edit = stageShaped(store);
    store.setDropped(edit.id, '/w/src/a.ts', undefined, true);
    store.setDropped(edit.id, '/w/src/b.ts', undefined, true);
    const files = new Map([
      ['/w/src/a.ts', source],
      ['/w/src/b.ts', 'a();\n'],
    ]);
    const io = memoryIo(files);
    await assert.rejects(store.accept(edit.id, 'user', io), (error: unknown) => {
      assert.ok(error instanceof NothingKept);
      assert.match(
        errorText(error),
        /^Error: edit_1 was not accepted: the user dropped every change of it in the review; nothing was written/,
      );
      return true;
    });
    assert.equal(io.writes, 0);
    assert.equal(store.get(edit.id)?.state, 'pending');
    assert.throws(() => store.setDropped(edit.id, '/w/src/c.ts', 0, true), /not a file of edit_1/);
    assert.throws(() => store.setDropped(edit.id, '/w/src/a.ts', 9, true), /has no hunk 9/);

    const whole = stageShaped(store);
    await store.accept(whole.id, 'agent', memoryIo(files), 'chat-1');
    assert.equal(files.get('/w/src/b.ts'), 'alpha();\n');
    assert.equal(files.get('/w/src/a.ts'), whole.files[0].proposed);
  });
});

describe('randomized trial of hunk subsets × drift × manual edits: accept writes exactly the kept hunks, or changes nothing', () => {
  const SEED = 20261202;
  const TRIALS = 1000;
  const alphabet = ['a', 'b', 'x', ' ', '\n', 'é', '中', '😀', ';', '(', ')'];
  const dir = suiteTempDir('staging-trial-');

  it(`${TRIALS} trials from seed ${SEED}`, async () => {
    const random = seededRandom(SEED);
    const int = (below: number) => Math.floor(random() * below);
    const pick = <T>(items: readonly T[]): T => items[int(items.length)];
    const randomText = (length: number) => Array.from({ length }, () => pick(alphabet)).join('');
    /** Offsets that do not split a surrogate pair. */
    const boundaries = (text: string) =>
      [...Array(text.length + 1).keys()].filter(
        (offset) =>
          !(
            offset > 0 &&
            offset < text.length &&
            text.charCodeAt(offset) >= 0xdc00 &&
            text.charCodeAt(offset) <= 0xdfff
          ),
      );
    const randomEdits = (text: string): TextEdit[] => {
      const cuts = boundaries(text);
      const chosen = [...new Set(Array.from({ length: 2 + int(10) }, () => pick(cuts)))].sort((a, b) => a - b);
      const edits: TextEdit[] = [];
      for (let index = 0; index + 1 < chosen.length; index += 2)
        edits.push({ start: chosen[index], end: chosen[index + 1], text: randomText(int(5)) });
      return edits;
    };
    const read = (file: string): string | undefined =>
      fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
    const fsIo: AcceptIo<void> = {
      currentText: read,
      write: async (files) => {
        for (const file of files) fs.writeFileSync(file.path, file.proposed);
      },
    };
    /** The edits of the hunks the human kept, read from the record (not through the code under test). */
    const keptOf = (edit: StagedEdit, file: StagedFile): TextEdit[] => {
      const dropped = new Set(edit.dropped[file.path] ?? []);
      return file.hunks
        .filter((hunk) => !dropped.has(hunk.index))
        .flatMap((hunk) => file.edits.slice(hunk.first, hunk.first + hunk.count));
    };
    /** The naive reference: splice the kept edits from the end. */
    const expectedText = (edit: StagedEdit, file: StagedFile) =>
      keptOf(edit, file)
        .sort((a, b) => b.start - a.start)
        .reduce((text, change) => text.slice(0, change.start) + change.text + text.slice(change.end), file.original);
    /** Hunks cover every edit once, in order, and edits of different hunks are at least a line apart. */
    const checkHunks = (file: StagedFile, trial: number) => {
      const lineOf = (offset: number) => file.original.slice(0, offset).split('\n').length - 1;
      assert.deepEqual(
        file.hunks.flatMap((hunk) => Array.from({ length: hunk.count }, (_, index) => hunk.first + index)),
        file.edits.map((_, index) => index),
        `trial ${trial}: hunks partition the edits`,
      );
      for (let index = 1; index < file.hunks.length; index++) {
        const previous = file.edits[file.hunks[index].first - 1];
        const next = file.edits[file.hunks[index].first];
        const previousEnd = lineOf(previous.end > previous.start ? previous.end - 1 : previous.end);
        assert.ok(lineOf(next.start) > previousEnd + 1, `trial ${trial}: hunks ${index - 1} and ${index} are apart`);
        assert.equal(file.hunks[index].line, lineOf(next.start) + 1);
      }
    };

    let accepted = 0;
    let acceptedShaped = 0;
    let refused = 0;
    let shapingSteps = 0;
    for (let trial = 0; trial < TRIALS; trial++) {
      const trialDir = path.join(dir(), `t${trial}`);
      fs.mkdirSync(trialDir);
      const paths = Array.from({ length: 2 + int(4) }, (_, index) => path.join(trialDir, `f${index}.ts`));
      const initial = new Map(paths.map((file) => [file, randomText(20 + int(100))]));
      for (const [file, text] of initial) fs.writeFileSync(file, text);

      const store = new StagingStore();
      const staged: StagedEdit[] = [];
      for (let count = 1 + int(3); count > 0; count--) {
        const chosen = paths.filter(() => random() < 0.6);
        const files = (chosen.length ? chosen : [pick(paths)]).map((file) => ({
          path: file,
          original: read(file)!,
          edits: randomEdits(read(file)!),
        }));
        if (files.every((file) => file.edits.length === 0)) continue;
        const edit = store.stage({ conversation: 'window', origin: 'ast_edit', summary: `trial ${trial}`, files });
        for (const file of edit.files) checkHunks(file, trial);
        staged.push(edit);
      }

      for (let step = 0; step < 10; step++) {
        const action = random();
        const file = pick(paths);
        if (action < 0.25 && staged.length > 0) {
          // The human drops or takes back a hunk, or a whole file, of a pending change.
          const edit = store.get(pick(staged).id)!;
          if (edit.state !== 'pending') continue;
          const target = pick(edit.files);
          const hunk = random() < 0.2 ? undefined : int(target.hunks.length);
          const shaped = store.setDropped(edit.id, target.path, hunk, random() < 0.7);
          const dropped = shaped.dropped[target.path] ?? [];
          assert.deepEqual(
            dropped,
            [...new Set(dropped)].sort((a, b) => a - b),
            `trial ${trial}: sorted, once each`,
          );
          shaped.files.forEach((other) => {
            if (other.path !== target.path)
              assert.deepEqual(
                shaped.dropped[other.path],
                edit.dropped[other.path],
                `trial ${trial}: other files kept`,
              );
          });
          shapingSteps++;
        } else if (action < 0.4) {
          fs.writeFileSync(file, randomText(5 + int(30)));
        } else if (action < 0.47) {
          fs.rmSync(file, { force: true });
        } else if (action < 0.65) {
          fs.writeFileSync(file, initial.get(file)!);
        } else if (staged.length > 0) {
          const edit = store.get(pick(staged).id)!;
          const before = new Map(paths.map((candidate) => [candidate, read(candidate)]));
          const written = edit.files.filter((staged) => keptOf(edit, staged).length > 0);
          const nothingKept = written.length === 0;
          const shouldSucceed = !nothingKept && written.every((staged) => before.get(staged.path) === staged.original);
          const wasPending = edit.state === 'pending';
          try {
            await store.accept(edit.id, 'agent', fsIo);
            assert.ok(
              wasPending && shouldSucceed,
              `trial ${trial}: ${edit.id} was accepted although it should not have been`,
            );
            for (const candidate of paths) {
              const stagedFile = written.find((staged) => staged.path === candidate);
              assert.equal(
                read(candidate),
                stagedFile ? expectedText(edit, stagedFile) : before.get(candidate),
                `trial ${trial}: ${candidate}`,
              );
            }
            accepted++;
            if (isShaped(edit)) acceptedShaped++;
          } catch (error) {
            for (const candidate of paths)
              assert.equal(read(candidate), before.get(candidate), `trial ${trial}: partial write to ${candidate}`);
            if (!wasPending) {
              assert.ok(error instanceof AlreadyResolved, `trial ${trial}: ${String(error)}`);
              continue;
            }
            if (nothingKept) {
              assert.ok(error instanceof NothingKept, `trial ${trial}: ${String(error)}`);
              continue;
            }
            assert.ok(error instanceof StaleStagedEdit, `trial ${trial}: ${String(error)}`);
            assert.ok(!shouldSucceed, `trial ${trial}: refused although no kept file drifted`);
            const expectedDrift = written
              .filter((staged) => before.get(staged.path) !== staged.original)
              .map((staged) => ({
                path: staged.path,
                kind: before.get(staged.path) === undefined ? 'missing' : 'changed',
              }));
            assert.deepEqual(error.drifted, expectedDrift, `trial ${trial}`);
            refused++;
          }
        }
      }
    }
    // The trial is only meaningful if it exercised every outcome many times.
    assert.ok(
      accepted > 200 && refused > 200 && acceptedShaped > 100 && shapingSteps > 500,
      `accepted ${accepted} (${acceptedShaped} shaped), refused ${refused}, shaping steps ${shapingSteps}`,
    );
  });
});

describe('staging errors, worded for the model', () => {
  const text = (error: unknown) => errorText(error, { displayPath: display });

  it('unknown, already resolved, in progress', () => {
    assert.equal(
      text(new UnknownStagedEdit('edit_9', [])),
      'Error: there is no staged edit "edit_9" in this window (ids look like "edit_1"). No staged edit is pending.',
    );
    assert.equal(
      text(new UnknownStagedEdit('edit_9', [{ id: 'edit_2', summary: 'rename "a" → "b"' }])),
      'Error: there is no staged edit "edit_9" in this window (ids look like "edit_1"). Pending staged edits: edit_2 (rename "a" → "b").',
    );
    assert.equal(
      text(new AlreadyResolved('edit_3', { action: 'accept', by: 'user', at: 0 })),
      'Error: edit_3 was already accepted by the user; its changes are written.',
    );
    assert.equal(
      text(new AlreadyResolved('edit_3', { action: 'discard', by: 'user', at: 0 })),
      'Error: edit_3 was already discarded by the user; nothing was written. The user chose not to apply it; ask before proposing it again.',
    );
    assert.equal(
      text(new AlreadyResolved('edit_3', { action: 'discard', by: 'agent', at: 0 })),
      'Error: edit_3 was already discarded by the agent; nothing was written.',
    );
    assert.match(
      text(new ResolutionInProgress('edit_3')),
      /^Error: edit_3 is being accepted or discarded right now .*call resolve again in a moment/,
    );
  });

  it('stale: which files, that nothing was written, what to do', () => {
    assert.equal(
      text(
        new StaleStagedEdit('edit_4', 'ast_edit', [
          { path: '/w/src/a.ts', kind: 'changed' },
          { path: '/w/src/b.ts', kind: 'missing' },
        ]),
      ),
      'Error: edit_4 was not accepted: 2 files changed since it was staged — src/a.ts (changed), src/b.ts (no longer exists). ' +
        'Nothing was written; edit_4 stays pending. Re-run ast_edit on the current text to stage a fresh edit, then discard edit_4.',
    );
  });

  it('what cannot be staged', () => {
    assert.equal(
      text(new OverlappingEdits({ start: 0, end: 4, text: 'x' }, { start: 2, end: 6, text: 'y' })),
      'Error: could not stage the change: Edits 0–4 and 2–6 overlap. Nothing was staged or written.',
    );
    assert.equal(
      text(new FileOperationsNotStaged(['rename src/a.ts to src/b.ts'])),
      'Error: this change cannot be staged: it would also rename src/a.ts to src/b.ts, and only text edits can be staged. Nothing was changed. Run it without stage to apply it directly.',
    );
  });
});
