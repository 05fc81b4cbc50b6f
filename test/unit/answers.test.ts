import * as assert from 'node:assert/strict';
import {
  callsAnswer,
  codeActionsAnswer,
  diagnosticsAnswer,
  documentSymbolsAnswer,
  hoverAnswer,
  HOVER_TEXT_CAP,
  locationsAnswer,
  renameAnswer,
  withIndexingNote,
  withProjectsNote,
  workspaceSymbolsAnswer,
} from '../../src/lsp/answers';
import { DiagnosticItem, formatCodeLines } from '../../src/lsp/format';

const line = (path: string, n: number, text = `line ${n}`) => ({ path, line: n, text });

describe('lsp answers', () => {
  it('locations: heading with counts, sorted, deduplicated, line text trimmed', () => {
    const text = locationsAnswer('references', 'greet', [
      line('src/b.ts', 9, '    greet();  '),
      line('src/a.ts', 3, 'export function greet() {'),
      line('src/b.ts', 9, 'greet();'),
      line('src/a.ts', 1, "import { greet } from './x';"),
    ]);
    assert.equal(
      text,
      [
        '3 references of "greet" in 2 files:',
        "src/a.ts:1: import { greet } from './x';",
        'src/a.ts:3: export function greet() {',
        'src/b.ts:9: greet();',
      ].join('\n'),
    );
  });

  it('locations: nothing found says what to try', () => {
    assert.match(locationsAnswer('definition', 'x', []), /^No definition found for "x"\. .*lsp symbols/);
    assert.match(locationsAnswer('references', 'x', []), /^No references found for "x"\./);
  });

  it('locations: the cap is stated with the number left out', () => {
    const items = Array.from({ length: 57 }, (_, index) => line('src/a.ts', index + 1));
    const lines = locationsAnswer('references', 'x', items).split('\n');
    assert.equal(lines.length, 52);
    assert.equal(lines[51], '… 7 more not shown (cap 50).');
  });

  it('long line text is cut with an ellipsis', () => {
    const text = formatCodeLines('h', [line('a.ts', 1, 'x'.repeat(500))], 10);
    assert.equal(text.split('\n')[1].length, 'a.ts:1: '.length + 160);
    assert.ok(text.endsWith('…'));
  });

  it('hover: parts joined, empty says so, long text capped', () => {
    assert.equal(
      hoverAnswer('x', ['```ts\nconst x: number\n```', '', 'Docs.']),
      '```ts\nconst x: number\n```\n\nDocs.',
    );
    assert.equal(hoverAnswer('x', ['  ']), 'No hover information for "x".');
    const long = hoverAnswer('x', ['y'.repeat(HOVER_TEXT_CAP + 10)]);
    assert.ok(long.endsWith(`… hover text cut at ${HOVER_TEXT_CAP} characters.`));
  });

  it('document symbols: nested outline, filtered flat by query, capped at 200', () => {
    const entries = [
      { depth: 0, line: 1, kind: 'class', name: 'Greeter' },
      { depth: 1, line: 2, kind: 'method', name: 'greet', detail: '(name: string)' },
    ];
    assert.equal(
      documentSymbolsAnswer('a.ts', entries),
      '2 symbols in a.ts (line: kind name):\n1: class Greeter\n  2: method greet — (name: string)',
    );
    assert.equal(
      documentSymbolsAnswer('a.ts', entries, 'GREET'),
      '2 symbols in a.ts matching "GREET" (line: kind name):\n1: class Greeter\n2: method greet — (name: string)',
    );
    assert.equal(documentSymbolsAnswer('a.ts', entries, 'zzz'), 'No symbol in a.ts matches "zzz".');
    const many = Array.from({ length: 230 }, (_, index) => ({
      depth: 0,
      line: index + 1,
      kind: 'variable',
      name: `v${index}`,
    }));
    assert.ok(documentSymbolsAnswer('a.ts', many).endsWith('… 30 more not shown (cap 200).'));
  });

  it('workspace symbols: kind, name, container, place; capped at 100', () => {
    assert.equal(
      workspaceSymbolsAnswer('Gree', [
        { kind: 'class', name: 'Greeter', container: 'mod', path: 'src/a.ts', line: 4, text: 'class Greeter {' },
      ]),
      '1 symbol matching "Gree":\nclass Greeter (in mod) — src/a.ts:4: class Greeter {',
    );
    const many = Array.from({ length: 120 }, (_, index) => ({
      kind: 'function',
      name: `f${index}`,
      path: 'a.ts',
      line: index + 1,
      text: '',
    }));
    assert.ok(workspaceSymbolsAnswer('f', many).endsWith('… 20 more not shown (cap 100).'));
    assert.match(workspaceSymbolsAnswer('zz', []), /^No symbol matches "zz" in the workspace\./);
  });

  it('code actions: numbered, kinds and files, never applied; caveats stated', () => {
    const text = codeActionsAnswer(
      'a.ts:3',
      [
        { title: 'Add import', kind: 'quickfix', preferred: true, files: ['a.ts'] },
        { title: 'Extract', kind: 'refactor.extract', preferred: false, disabledReason: 'no selection', files: [] },
      ],
      true,
    );
    assert.equal(
      text,
      '2 code actions at a.ts:3 (listed, not applied):\n1. Add import [quickfix, preferred] — edits a.ts\n2. Extract [refactor.extract] (disabled: no selection)',
    );
    assert.match(codeActionsAnswer('a.ts:3', [], false), /^No code actions are offered at a\.ts:3\.\nNot verified: /);
  });

  it('calls: one line per call site with the other end', () => {
    assert.equal(
      callsAnswer('callers', 'greet', [{ path: 'b.ts', line: 2, text: 'greet()', other: 'main' }]),
      'Calls to "greet" on 1 line (call site, then the calling function):\nb.ts:2: greet()  ← main',
    );
    assert.equal(callsAnswer('callers', 'greet', []), 'No callers of "greet" found.');
    assert.equal(callsAnswer('callees', 'greet', []), '"greet" calls nothing the language server knows of.');
  });

  it('diagnostics: OK only when verified; otherwise the freshness is stated', () => {
    assert.equal(
      diagnosticsAnswer('a.ts', [], { kind: 'verified' }),
      'OK: no problems in a.ts (checked on the current text).',
    );
    assert.equal(
      diagnosticsAnswer('a.ts', [], { kind: 'timed_out', seconds: 5, waitingFor: 'a server' }),
      'No problems known for a.ts — timed out after 5 s waiting for a server; not verified.',
    );
    const items: DiagnosticItem[] = [
      {
        path: 'a.ts',
        line: 3,
        text: ' let x: string = 1;',
        severity: 'warning',
        message: 'unused',
        source: 'ts',
        code: '6133',
      },
      {
        path: 'a.ts',
        line: 3,
        text: ' let x: string = 1;',
        severity: 'error',
        message: 'Type\n  mismatch',
        source: 'ts',
        code: '2322',
      },
    ];
    assert.equal(
      diagnosticsAnswer('a.ts', items, { kind: 'verified' }),
      [
        'a.ts: 1 error, 1 warning (checked on the current text):',
        'a.ts:3: error ts 2322: Type mismatch',
        '    let x: string = 1;',
        'a.ts:3: warning ts 6133: unused',
        '    let x: string = 1;',
      ].join('\n'),
    );
  });

  it('answers that need a loaded project say so when that is unknown', () => {
    assert.equal(withIndexingNote('2 references.', true), '2 references.');
    assert.equal(
      withIndexingNote('2 references.', false),
      '2 references.\n(Not verified: it is not known whether the language server has finished indexing, so this may be incomplete.)',
    );
  });

  it('a workspace-wide answer says which project was not loaded, or none when every one was', () => {
    const answer = '1 symbol matching "add":\nfunction add — src/util.ts:1: export function add() {';
    assert.equal(withProjectsNote(answer, { kind: 'verified' }), answer);
    assert.equal(
      withProjectsNote(answer, { kind: 'not_verified', why: 'no source file of lib/tsconfig.json was found to open' }),
      `${answer}\n(Not verified: no source file of lib/tsconfig.json was found to open, so this may be incomplete.)`,
    );
    assert.equal(
      withProjectsNote(answer, {
        kind: 'timed_out',
        seconds: 30,
        waitingFor: 'the TypeScript server to load the project of big/tsconfig.json',
      }),
      `${answer}\n(Not verified: timed out after 30 s waiting for the TypeScript server to load the project of big/tsconfig.json, so this may be incomplete.)`,
    );
  });

  it('rename: totals and per-file counts, sorted', () => {
    assert.equal(
      renameAnswer('a', 'b', [
        { path: 'src/z.ts', edits: 2 },
        { path: 'src/a.ts', edits: 1 },
      ]),
      'Renamed "a" → "b": 3 edits in 2 files; all saved.\nsrc/a.ts: 1 edit\nsrc/z.ts: 2 edits',
    );
  });
});
