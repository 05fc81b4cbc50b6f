import * as assert from 'node:assert/strict';
import { applyHunks, HunkNotFound } from '../../src/writes/applyPatch';
import { DiskChangeLog } from '../../src/writes/diskChangeLog';
import { DiagnosticRegistry, WriteDiagnostic } from '../../src/writes/diagnosticRegistry';
import { editsFor, OldStringNotFound, OldStringNotUnique, NothingToEdit } from '../../src/writes/editMatch';
import { importsFile, relativeSpecifiers } from '../../src/writes/importers';
import { parsePatch, PatchSyntaxError, PatchOperation } from '../../src/writes/patchParser';
import { resolveWritePath } from '../../src/writes/targetPath';
import { applyEdits } from '../../src/edits/textEdits';
import { OutsideWorkspace } from '../../src/workspace/paths';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { changePreview, diagnosticsSection, executableWarning, executedPaths } from '../../src/writes/answers';
import { withTempDir } from '../support/tempDir';

const patch = (...body: string[]) => ['*** Begin Patch', ...body, '*** End Patch'].join('\n');

function update(operations: PatchOperation[]): Extract<PatchOperation, { kind: 'update' }> {
  const found = operations.find((operation) => operation.kind === 'update');
  if (!found || found.kind !== 'update') throw new Error('no update');
  return found;
}

describe('patch parser', () => {
  it('reads add, update with move and hunks, and delete', () => {
    const operations = parsePatch(
      patch(
        '*** Add File: src/new.ts',
        '+export const a = 1;',
        '+',
        '*** Update File: src/old.ts',
        '*** Move to: src/renamed.ts',
        '@@ function f() {',
        ' const x = 1;',
        '-return x;',
        '+return x + 1;',
        '@@',
        ' tail',
        '+more',
        '*** End of File',
        '*** Delete File: src/gone.ts',
      ),
    );
    assert.deepEqual(operations[0], { kind: 'add', path: 'src/new.ts', content: 'export const a = 1;\n\n' });
    const updated = update(operations);
    assert.equal(updated.path, 'src/old.ts');
    assert.equal(updated.moveTo, 'src/renamed.ts');
    assert.equal(updated.hunks.length, 2);
    assert.equal(updated.hunks[0].header, 'function f() {');
    assert.deepEqual(
      updated.hunks[0].lines.map((line) => line.kind),
      ['context', 'remove', 'add'],
    );
    assert.equal(updated.hunks[1].endOfFile, true);
    assert.deepEqual(operations[2], { kind: 'delete', path: 'src/gone.ts' });
  });

  it('tolerates a heredoc wrapper, CRLF and surrounding blank lines; a first hunk without @@', () => {
    const text = `\n\napply_patch <<'EOF'\r\n${patch('*** Update File: a.ts', ' x', '-y', '+z').replace(/\n/g, '\r\n')}\r\nEOF\n`;
    const updated = update(parsePatch(text));
    assert.equal(updated.hunks.length, 1);
    assert.equal(updated.hunks[0].header, undefined);
  });

  const errors: [string, string, RegExp][] = [
    ['no begin', '*** Update File: a\n-x\n+y\n*** End Patch', /must start with "\*\*\* Begin Patch"/],
    ['no end', '*** Begin Patch\n*** Update File: a\n-x\n+y', /must end with "\*\*\* End Patch"/],
    ['bad hunk line', patch('*** Update File: a', '-x', 'oops'), /line 4: a hunk line must start with/],
    [
      'added file line without +',
      patch('*** Add File: a', 'x'),
      /line 3: every line of an added file must start with "\+"/,
    ],
    ['unknown section', patch('*** Rename File: a'), /line 2: expected/],
    ['update that changes nothing', patch('*** Update File: a', ' x'), /has no hunk that changes anything/],
    ['empty patch', patch(), /changes no file/],
  ];
  for (const [name, text, message] of errors) {
    it(`refuses: ${name}`, () => {
      assert.throws(
        () => parsePatch(text),
        (error: unknown) => error instanceof PatchSyntaxError && message.test(error.message),
      );
    });
  }
});

describe('applying hunks', () => {
  const source = [
    'function f() {',
    '  const x = 1;',
    '  return x;',
    '}',
    '',
    'function g() {',
    '  const x = 1;',
    '  return x;',
    '}',
    '',
  ].join('\n');
  const hunksOf = (...body: string[]) => update(parsePatch(patch('*** Update File: a.ts', ...body))).hunks;

  it('replaces by context; @@ picks the second of two identical blocks', () => {
    const { text, matches } = applyHunks(
      'a.ts',
      source,
      hunksOf('@@ function g() {', '   const x = 1;', '-  return x;', '+  return x * 2;'),
    );
    assert.equal(text, source.replace(/return x;\n}\n$/, 'return x * 2;\n}\n'));
    assert.deepEqual(matches, ['exact']);
  });

  it('hunks apply in order, each after the previous', () => {
    const { text } = applyHunks(
      'a.ts',
      source,
      hunksOf(' function f() {', '-  const x = 1;', '+  const x = 2;', '@@', '-  const x = 1;', '+  const x = 3;'),
    );
    assert.match(text, /f\(\) \{\n {2}const x = 2;[\s\S]*g\(\) \{\n {2}const x = 3;/);
  });

  it('falls back to ignoring trailing whitespace, then indentation and typographic quotes', () => {
    const trailing = applyHunks('a.ts', 'a  \nb\n', hunksOf(' a', '-b', '+c'));
    assert.deepEqual([trailing.text, trailing.matches], ['a  \nc\n', ['trailing whitespace ignored']]);
    const indented = applyHunks('a.ts', '    say("hi");\n', hunksOf('-say(“hi”);', '+    say("ho");'));
    assert.deepEqual([indented.text, indented.matches], ['    say("ho");\n', ['whitespace ignored']]);
  });

  it('keeps CRLF and a missing final line break; pure insertion appends', () => {
    assert.equal(applyHunks('a.ts', 'a\r\nb\r\n', hunksOf(' a', '-b', '+c')).text, 'a\r\nc\r\n');
    assert.equal(applyHunks('a.ts', 'a\nb', hunksOf(' a', '-b', '+c')).text, 'a\nc');
    assert.equal(applyHunks('a.ts', 'a\n', hunksOf('+b')).text, 'a\nb\n');
  });

  it('on a file with mixed line breaks, every line keeps its own; a replacing line takes the one it replaces, a new line the usual one', () => {
    assert.equal(applyHunks('a.ts', 'b\nc\r\nd\n', hunksOf(' b', '-c', '+c2', '+c3', ' d')).text, 'b\nc2\r\nc3\nd\n');
    const mixed = 'a\r\nb\nc\r\nd\r\n';
    assert.equal(applyHunks('a.ts', mixed, hunksOf(' b', '-c', '+C', '+C2')).text, 'a\r\nb\nC\r\nC2\r\nd\r\n');
    assert.equal(applyHunks('a.ts', 'a\nb\r\nc\n', hunksOf(' a', '+x', ' b')).text, 'a\nx\nb\r\nc\n');
    assert.equal(applyHunks('a.ts', 'a\r\nb', hunksOf(' b', '+c')).text, 'a\r\nb\r\nc');
  });

  it('End of File anchors the hunk at the end', () => {
    const { text } = applyHunks('a.ts', 'x\ny\nx\n', hunksOf(' x', '+z', '*** End of File'));
    assert.equal(text, 'x\ny\nx\nz\n');
  });

  it('a hunk that does not match names itself and the closest line', () => {
    assert.throws(
      () =>
        applyHunks(
          'a.ts',
          source,
          hunksOf(' function f() {', '-  const y = 1;', '+  const y = 2;', '@@', '-  retrun x;', '+  return 0;'),
        ),
      (error: unknown) =>
        error instanceof HunkNotFound &&
        error.hunkIndex === 0 &&
        error.missing === 'lines' &&
        error.closest?.line === 2,
    );
    assert.throws(
      () => applyHunks('a.ts', source, hunksOf('@@ function h() {', '-  return x;', '+  return 1;')),
      (error: unknown) => error instanceof HunkNotFound && error.missing === 'header',
    );
  });
});

describe('edit: finding old_string', () => {
  const text = 'const a = 1;\nfunction f() {\n    return a;\n}\nconst b = a;\n';

  it('one occurrence → one edit; replace_all → every one', () => {
    assert.equal(
      applyEdits(text, editsFor(text, 'return a;', 'return a + 1;', false)),
      text.replace('return a;', 'return a + 1;'),
    );
    assert.equal(editsFor(text, 'a', 'z', true).length, text.split('a').length - 1);
  });

  it('not unique: the line of each occurrence', () => {
    assert.throws(
      () => editsFor(text, ' = ', ' := ', false),
      (error: unknown) => error instanceof OldStringNotUnique && error.lines.join() === '1,5',
    );
  });

  it('missing: the closest near-match, whitespace-insensitive first', () => {
    assert.throws(
      () => editsFor(text, 'function f() {\n  return a;\n}', 'x', false),
      (error: unknown) =>
        error instanceof OldStringNotFound && error.closest?.line === 2 && /whitespace/.test(error.closest.how),
    );
    assert.throws(
      () => editsFor(text, 'retrun a;', 'x', false),
      (error: unknown) =>
        error instanceof OldStringNotFound && error.closest?.line === 3 && /closest line/.test(error.closest.how),
    );
    assert.throws(
      () => editsFor(text, 'zzzzqqqq', 'x', false),
      (error: unknown) => error instanceof OldStringNotFound && !error.closest,
    );
  });

  it('line breaks are layout: an LF old_string matches a CRLF file and the other way round', () => {
    const crlf = 'const a = 1;\r\nfunction f() {\r\n    return a;\r\n}\r\n';
    const edits = editsFor(crlf, 'function f() {\n    return a;\n}', 'function f() {\n    return 2;\n}', false);
    assert.deepEqual(
      edits.map(({ start, end }) => crlf.slice(start, end)),
      ['function f() {\r\n    return a;\r\n}'],
    );
    assert.equal(editsFor(text, 'function f() {\r\n    return a;', 'x', false).length, 1);
    assert.throws(
      () => editsFor(`${crlf}${crlf}`, 'const a = 1;\nfunction', 'x', false),
      (error: unknown) => error instanceof OldStringNotUnique && error.lines.join() === '1,5',
    );
  });

  it('empty or identical strings are refused', () => {
    assert.throws(() => editsFor(text, '', 'x', false), NothingToEdit);
    assert.throws(() => editsFor(text, 'a', 'a', false), NothingToEdit);
  });
});

describe('diagnostic registry', () => {
  const error = (line: number, message: string, code = '2322', path = 'a.ts'): WriteDiagnostic => ({
    path,
    line,
    severity: 'error',
    message,
    code,
  });
  const E = error(3, "Type 'string' is not assignable to type 'number'.");

  it('introduce → reported once; moved → not again; fixed → counted; reintroduced → reported again', () => {
    const registry = new DiagnosticRegistry();
    const introduce = registry.observe('c1', { path: 'a.ts', before: [], after: [E] });
    assert.deepEqual([introduce.introduced, introduce.fixed], [[E], 0]);
    const moved = registry.observe('c1', { path: 'a.ts', before: [E], after: [{ ...E, line: 7 }] });
    assert.deepEqual([moved.introduced, moved.fixed], [[], 0]);
    const fixed = registry.observe('c1', { path: 'a.ts', before: [{ ...E, line: 7 }], after: [] });
    assert.deepEqual([fixed.introduced, fixed.fixed], [[], 1]);
    assert.deepEqual(registry.observe('c1', { path: 'a.ts', before: [], after: [E] }).introduced, [E]);
  });

  it('already reported in this conversation is suppressed even when the baseline missed it; other conversations still hear it', () => {
    const registry = new DiagnosticRegistry();
    registry.observe('c1', { path: 'a.ts', before: [], after: [E] });
    assert.deepEqual(registry.observe('c1', { path: 'a.ts', before: [], after: [{ ...E, line: 9 }] }).introduced, []);
    assert.deepEqual(registry.observe('c2', { path: 'a.ts', before: [], after: [E] }).introduced, [E]);
  });

  it('counts: a second identical error is new; a different code or severity is a different diagnostic', () => {
    const registry = new DiagnosticRegistry();
    assert.deepEqual(registry.observe('c', { path: 'a.ts', before: [E], after: [E, { ...E, line: 9 }] }).introduced, [
      { ...E, line: 9 },
    ]);
    const other = { ...E, code: '2345' };
    const warning = { ...E, severity: 'warning' as const };
    assert.deepEqual(
      registry.observe('c', { path: 'a.ts', before: [E, E], after: [E, E, other, warning] }).introduced,
      [other, warning],
    );
  });

  it('pending keeps the older baseline, so what that write broke is reported by the next answer', () => {
    const registry = new DiagnosticRegistry();
    assert.equal(registry.observe('c', { path: 'a.ts', before: [], after: undefined }).pending, true);
    assert.deepEqual(registry.observe('c', { path: 'a.ts', before: [E], after: [E] }).introduced, [E]);
  });

  it('a baseline not known in time: compared with what the conversation last saw; with none, what the file has is told, not called new', () => {
    const registry = new DiagnosticRegistry();
    const unknown = registry.observe('c', { path: 'a.ts', before: undefined, after: [E] });
    assert.deepEqual([unknown.introduced, unknown.notCompared, unknown.pending], [[], [E], false]);
    // It is now what the conversation has seen: the next write's late baseline is compared with it.
    const other = error(8, "Cannot find name 'x'.", '2304');
    const next = registry.observe('c', { path: 'a.ts', before: undefined, after: [E, other] });
    assert.deepEqual([next.introduced, next.notCompared], [[other], undefined]);
    // Neither known: pending; the next write's known baseline already holds what that write did, so the
    // file is told as not compared, not as clean.
    assert.equal(registry.observe('d', { path: 'a.ts', before: undefined, after: undefined }).pending, true);
    const after = registry.observe('d', { path: 'a.ts', before: [E], after: [E] });
    assert.deepEqual([after.introduced, after.notCompared], [[], [E]]);
    // A look after such a write is a first look.
    registry.observe('e', { path: 'a.ts', before: undefined, after: undefined });
    assert.equal(registry.sinceLastSeen('e', 'a.ts', [E]).firstLook, true);
  });

  it('since last seen: a first look tells all and is the baseline; an edit elsewhere is then compared with it', () => {
    const registry = new DiagnosticRegistry();
    const first = registry.sinceLastSeen('c', 'a.ts', [E]);
    assert.deepEqual([first.firstLook, first.introduced, first.present], [true, [], [E]]);
    const other = error(8, "Cannot find name 'x'.", '2304');
    const edited = registry.sinceLastSeen('c', 'a.ts', [{ ...E, line: 4 }, other]);
    assert.deepEqual([edited.firstLook, edited.introduced, edited.fixed], [false, [other], 0]);
    const fixed = registry.sinceLastSeen('c', 'a.ts', [{ ...E, line: 4 }]);
    assert.deepEqual([fixed.introduced, fixed.fixed, fixed.present.length], [[], 1, 1]);
    // Another conversation has seen nothing of it.
    assert.equal(registry.sinceLastSeen('d', 'a.ts', [E]).firstLook, true);
  });

  it('a baseline before an edit: the next comparison reports what the edit did; a pending answer is kept, a missing file starts from nothing', () => {
    const registry = new DiagnosticRegistry();
    const other = error(8, "Cannot find name 'x'.", '2304');
    registry.baseline('c', 'a.ts', [E]);
    assert.deepEqual(registry.sinceLastSeen('c', 'a.ts', [E, other]).introduced, [other]);
    // Pending after an edit: the next edit's baseline does not swallow what the first one did.
    registry.baseline('c', 'a.ts', []);
    assert.equal(registry.sinceLastSeen('c', 'a.ts', undefined).pending, true);
    registry.baseline('c', 'a.ts', [other]);
    assert.deepEqual(registry.sinceLastSeen('c', 'a.ts', [other, E]).introduced, [other, E]);
    // A file about to be created.
    registry.baseline('c', 'new.ts', []);
    const created = registry.sinceLastSeen('c', 'new.ts', [E]);
    assert.deepEqual([created.firstLook, created.introduced], [false, [E]]);
  });

  it("since last seen compares with a write's answer, keeps a pending baseline, and forgets with the conversation", () => {
    const registry = new DiagnosticRegistry();
    registry.observe('c', { path: 'a.ts', before: [], after: [] });
    assert.deepEqual(registry.sinceLastSeen('c', 'a.ts', [E]).introduced, [E]);
    assert.equal(registry.sinceLastSeen('c', 'b.ts', undefined).pending, true);
    // Still a first look once the server answers: there was nothing to compare with.
    assert.equal(registry.sinceLastSeen('c', 'b.ts', [E]).firstLook, true);
    registry.look('c', 'a.ts', []);
    assert.equal(registry.sinceLastSeen('c', 'a.ts', [E]).introduced.length, 1);
    assert.equal(registry.sinceLastSeen('c', 'a.ts', undefined).pending, true);
    assert.deepEqual(registry.sinceLastSeen('c', 'a.ts', []).fixed, 1);
    registry.forget('c');
    assert.equal(registry.sinceLastSeen('c', 'a.ts', [E]).firstLook, true);
  });
});

describe('disk change log', () => {
  /** What a conversation is told, its cursor moved on as an answered call does. */
  const take = (log: DiskChangeLog, conversation: string) => {
    const { paths, dropped, firstCall, through } = log.since(conversation);
    log.advance(conversation, through);
    return { paths, dropped, firstCall };
  };

  it('gives each conversation the files changed since its last answered call, once each, the latest change last', () => {
    const log = new DiskChangeLog();
    log.record('/w/a.ts');
    log.record('/w/b.ts');
    assert.deepEqual(take(log, 'c'), { paths: ['/w/a.ts', '/w/b.ts'], dropped: false, firstCall: true });
    log.record('/w/b.ts');
    log.record('/w/c.ts');
    log.record('/w/b.ts');
    // A call that was not answered (cancelled) leaves them for the next.
    assert.deepEqual(log.since('c').paths, ['/w/c.ts', '/w/b.ts']);
    assert.deepEqual(take(log, 'c'), { paths: ['/w/c.ts', '/w/b.ts'], dropped: false, firstCall: false });
    assert.deepEqual(take(log, 'c').paths, []);
    // Another conversation has its own cursor.
    assert.deepEqual(take(log, 'd').paths, ['/w/a.ts', '/w/c.ts', '/w/b.ts']);
    log.forget('c');
    assert.equal(take(log, 'c').firstCall, true);
  });

  it('skips .git and node_modules; past its cap drops the oldest and says so to a conversation that missed them', () => {
    const log = new DiskChangeLog(2);
    take(log, 'c');
    log.record('/w/.git/index');
    log.record('/w/node_modules/x/index.js');
    assert.equal(log.lastRecordedAt, 0);
    log.record('/w/a.ts');
    assert.ok(log.lastRecordedAt > 0);
    log.record('/w/b.ts');
    assert.deepEqual(take(log, 'd'), { paths: ['/w/a.ts', '/w/b.ts'], dropped: false, firstCall: true });
    log.record('/w/c.ts');
    assert.deepEqual(take(log, 'c'), { paths: ['/w/b.ts', '/w/c.ts'], dropped: true, firstCall: false });
    assert.deepEqual(take(log, 'd'), { paths: ['/w/c.ts'], dropped: false, firstCall: false });
  });
});

describe('write answers', () => {
  it('lists new problems with importers named, fixed counts and pending files', () => {
    const item = {
      path: 'src/main.ts',
      line: 4,
      text: 'foo(1)',
      severity: 'error' as const,
      message: 'Expected 0 arguments, but got 1.',
      code: '2554',
      source: 'ts',
    };
    const text = diagnosticsSection(
      [
        { verdict: { path: 'src/a.ts', pending: false, introduced: [], fixed: 2 }, written: true },
        { verdict: { path: 'src/main.ts', pending: false, introduced: [item], fixed: 0 }, written: false },
        { verdict: { path: 'src/b.ts', pending: true, introduced: [], fixed: 0 }, written: false },
      ],
      10,
    );
    assert.equal(
      text,
      [
        'Diagnostics: 1 new problem (also checked 1 importing file). This write fixed 2 problems.',
        'This write broke 1 file that imports it: src/main.ts.',
        'src/main.ts:4: error ts 2554: Expected 0 arguments, but got 1.\n    foo(1)',
        'Pending for src/b.ts: no answer from the language server within 10 s; not verified — ask lsp diagnostics for those files later (what they report then, new to this conversation, is reported by the next write too).',
      ].join('\n'),
    );
  });

  it('a written file whose diagnostics before the write were not known: what it has now, not called new', () => {
    const item = {
      path: 'src/big.ts',
      line: 9,
      text: 'let n: number = "x";',
      severity: 'error' as const,
      message: "Type 'string' is not assignable to type 'number'.",
      code: '2322',
      source: 'ts',
    };
    const text = diagnosticsSection(
      [
        {
          verdict: { path: 'src/big.ts', pending: false, introduced: [], fixed: 0, notCompared: [item] },
          written: true,
        },
      ],
      10,
    );
    assert.equal(
      text,
      [
        'Diagnostics: not compared.',
        'src/big.ts: not compared (the language server did not answer for the text before this write within 10 s): 1 error now:',
        "src/big.ts:9: error ts 2322: Type 'string' is not assignable to type 'number'.\n    let n: number = \"x\";",
      ].join('\n'),
    );
  });

  it('some files compared, one not: the headline says so', () => {
    const text = diagnosticsSection(
      [
        { verdict: { path: 'src/a.ts', pending: false, introduced: [], fixed: 0 }, written: true },
        { verdict: { path: 'src/b.ts', pending: false, introduced: [], fixed: 0, notCompared: [] }, written: false },
      ],
      10,
    );
    assert.equal(
      text,
      'Diagnostics: no new problems; 1 file not compared.\n' +
        'src/b.ts: not compared (the language server did not answer for the text before this write within 10 s): no problems now.',
    );
  });

  it('a preview shows only the changed lines', () => {
    assert.equal(changePreview('a\nb\nc\n', 'a\nB\nc\n'), '@@ line 2\n-b\n+B');
    assert.equal(changePreview(undefined, 'x\n'), '@@ line 1\n+x');
  });
});

describe('importers and write paths', () => {
  it('finds relative import specifiers that name the file', () => {
    const text =
      "import { a } from './format';\nexport * from \"../lib/b.js\";\nconst c = require('./c');\nimport 'lodash';\n";
    assert.deepEqual(relativeSpecifiers(text), ['./format', '../lib/b.js', './c']);
    assert.equal(importsFile('/w/src/main.ts', text, '/w/src/format.ts'), true);
    assert.equal(importsFile('/w/src/main.ts', text, '/w/lib/b.ts'), true);
    assert.equal(importsFile('/w/src/main.ts', text, '/w/src/formatter.ts'), false);
    assert.equal(importsFile('/w/src/main.ts', "import x from './util';", '/w/src/util/index.ts'), true);
  });

  it('write paths may be new but never outside the workspace', () => {
    const folders = [{ name: 'app', path: '/w/app' }];
    assert.equal(
      resolveWritePath(folders, 'src/new.ts', () => false),
      '/w/app/src/new.ts',
    );
    assert.throws(() => resolveWritePath(folders, '../evil.ts', () => false), OutsideWorkspace);
    assert.throws(() => resolveWritePath(folders, '/etc/passwd', () => false), OutsideWorkspace);
  });
});

describe('write confirmations', () => {
  it('name the files later tool calls execute or read as instructions, and only those', () => {
    const shown = (file: string) => file.replace(/^\/ws\//, '');
    const under = (files: string[]) => files.map((file) => `/ws/${file}`);
    const executed = [
      '.vscode/launch.json',
      'web/node_modules/.bin/tsc',
      '.venv/bin/python',
      'venv/bin/pip',
      '.git/hooks/pre-commit',
      'crates/x/Cargo.toml',
      'rust-toolchain.toml',
    ];
    const warning = executableWarning(executedPaths(under(['src/a.ts', ...executed]), shown));
    assert.match(warning, /^\n\n\*\*Warning:\*\* this writes files that later tool calls can execute:/);
    for (const file of executed) assert.ok(warning.includes(`\`${file}\``), file);
    assert.ok(!warning.includes('src/a.ts'));
    assert.equal(
      executableWarning(executedPaths(under(['src/a.ts', 'docs/vscode/notes.md', 'bin/run.sh']), shown)),
      '',
    );
  });

  it('name a file written through a symbolic link by where it leads (a dangling one too), whatever its case', () =>
    withTempDir('executed-links', async (temp) => {
      const dir = fs.realpathSync(temp);
      fs.writeFileSync(path.join(dir, 'build.rs'), 'fn main() {}\n');
      fs.symlinkSync(path.join(dir, 'build.rs'), path.join(dir, 'notes.rs'));
      fs.mkdirSync(path.join(dir, 'sub'));
      // A link to a build script not written yet: writing through it creates sub/build.rs.
      fs.symlinkSync(path.join(dir, 'sub', 'build.rs'), path.join(dir, 'later.rs'));
      const shown = (file: string) => path.relative(dir, file);
      const [buildScript] = executedPaths([path.join(dir, 'build.rs')], shown);
      assert.deepEqual(
        executedPaths(
          ['notes.rs', 'main.rs', 'later.rs', 'BUILD.RS'].map((name) => path.join(dir, name)),
          shown,
        ),
        [
          { path: 'notes.rs', why: `a link to \`build.rs\`: ${buildScript.why}` },
          { path: 'later.rs', why: `a link to \`sub/build.rs\`: ${buildScript.why}` },
          { path: 'BUILD.RS', why: buildScript.why },
        ],
      );
    }));
});
