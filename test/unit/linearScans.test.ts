/**
 * The scanners of text that comes from a model or a file grow linearly: each is timed on
 * an adversarial input and on one eight times larger, and fails when the time grows like the square
 * (64×) instead of the size (8×; up to 24× is allowed for noise on a shared machine).
 */
import * as assert from 'node:assert/strict';
import { lineStarts, linesOfOffsets } from '../../src/edits/lineStarts';
import { applyHunks, HunkNotFound, PatchTooCostly } from '../../src/writes/applyPatch';
import { editsFor, nearMatch, OldStringNotFound, OldStringNotUnique } from '../../src/writes/editMatch';
import { OutputCollector } from '../../src/kernels/kernelResult';
import { relativeSpecifiers } from '../../src/writes/importers';
import { parsePatch } from '../../src/writes/patchParser';
import { LineLimit } from '../../src/mcp/lineLimit';
import { BoundedLineReader } from '../../src/process/boundedLineReader';
import { compilePattern } from '../../src/structural/pattern';
import { mayMatch, RUN_SEARCH_STEPS } from '../../src/structural/prefilter';
import { registry } from './support/structuralEngine';
import { assertLinear } from './support/growth';
import { stripJsonc } from '../../src/platform/jsonc';

describe('linear scans of what a model sends or a file holds (the write tools)', function () {
  this.timeout(120_000);

  it('edit: the lines of a non-unique old_string, and of every replacement', () => {
    assertLinear(
      'lines of each occurrence',
      (size) => {
        assert.throws(() => editsFor('foo();\n'.repeat(size), 'foo', 'bar', false), OldStringNotUnique);
      },
      4000,
    );
    assertLinear(
      'lines of offsets',
      (size) => {
        const text = 'x\r\n'.repeat(size);
        linesOfOffsets(
          text,
          Array.from({ length: size }, (_, index) => index * 3),
        );
      },
      20_000,
    );
    assert.deepEqual(lineStarts('a\r\nb\rc\nd'), [0, 3, 5, 7]);
  });

  it('edit: an old_string over CRLF lines is found without a backtracking pattern', () => {
    assertLinear(
      'multi-line needle over CRLF',
      (size) => {
        const text = 'a\r\n'.repeat(size) + 'b\r\n';
        const needle = `${'a\n'.repeat(size / 2)}b\n`;
        assert.equal(editsFor(text, needle, 'c\n', false).length, 1);
      },
      2000,
    );
  });

  it('edit: the near-match of an old_string of many lines that are not in the file', () => {
    assertLinear(
      'near match',
      (size) => {
        const text = Array.from({ length: size }, (_, index) => `const value${index} = ${index};`).join('\n');
        const oldString = Array.from({ length: size }, (_, index) => `unrelated line number ${index} here`).join('\n');
        nearMatch(text, oldString);
      },
      250,
    );
  });

  it('patch: a million leading blank lines, and seeking a hunk whose context nearly repeats', () => {
    assertLinear(
      'leading blank lines',
      (size) => {
        parsePatch(`${'\n'.repeat(size)}*** Begin Patch\n*** Add File: a.txt\n+x\n*** End Patch`);
      },
      20_000,
    );
    assertLinear(
      'seek',
      (size) => {
        const text = `${'a\n'.repeat(size)}b\n`;
        const hunk = {
          lines: [
            ...Array.from({ length: size / 2 }, () => ({ kind: 'context', text: 'a' }) as const),
            { kind: 'remove', text: 'b' } as const,
          ],
          endOfFile: false,
          patchLine: 1,
        };
        assert.equal(applyHunks('a.txt', text, [hunk]).text, 'a\n'.repeat(size));
      },
      1000,
    );
    assertLinear(
      'many hunks',
      (size) => {
        const text = Array.from({ length: size }, (_, index) => `line ${index}\n`).join('');
        const hunks = Array.from({ length: size / 2 }, (_, index) => ({
          lines: [
            { kind: 'remove', text: `line ${index * 2}` } as const,
            { kind: 'add', text: `LINE ${index * 2}` } as const,
          ],
          endOfFile: false,
          patchLine: 1,
        }));
        applyHunks('a.txt', text, hunks);
      },
      8000,
    );
    assertLinear(
      'many hunks that match only with trailing whitespace ignored (each scans to the end exactly first)',
      (size) => {
        const text = Array.from({ length: size }, (_, index) => `line ${index} \n`).join('');
        const hunks = Array.from({ length: size }, (_, index) => ({
          lines: [{ kind: 'remove', text: `line ${index}` } as const, { kind: 'add', text: `LINE ${index}` } as const],
          endOfFile: false,
          patchLine: 1,
        }));
        // Placed, not refused: the exact pass is skipped where the hunk's first line is nowhere after the cursor.
        assert.equal(applyHunks('a.txt', text, hunks).matches.at(-1), 'trailing whitespace ignored');
      },
      5000,
    );
    assert.throws(
      () => applyHunks('a.txt', 'a\nb\n', [{ lines: [{ kind: 'remove', text: 'c' }], endOfFile: false, patchLine: 1 }]),
      HunkNotFound,
    );
    // Past the budget the patch is refused, naming the hunk and what to do.
    const costly = Array.from({ length: 10 }, (_, index) => ({
      lines: [{ kind: 'remove', text: 'a' } as const, { kind: 'remove', text: `b${index}` } as const],
      endOfFile: false,
      patchLine: 1,
    }));
    const text = `${'a\n'.repeat(1000)}${Array.from({ length: 10 }, (_, index) => `a\nb${index} \n`).join('')}`;
    assert.equal(applyHunks('a.txt', text, costly).matches.length, 10);
    assert.throws(
      () => applyHunks('a.txt', text, costly, 500),
      (error: unknown) =>
        error instanceof PatchTooCostly &&
        /took more than 500 line comparisons \(stopped at hunk \d+\)/.test(error.message),
    );
  });

  it('edit: a long old_string shaped to defeat the engine’s own search (a…ab a…a), and its near-match', () => {
    assertLinear(
      'needle of a…ab a…a',
      (size) => {
        const text = 'a'.repeat(size * 10);
        const needle = `${'a'.repeat(size)}b${'a'.repeat(size)}`;
        assert.throws(() => editsFor(text, needle, 'c', false), OldStringNotFound);
      },
      2000,
    );
    assertLinear(
      'near match of long lines of one length',
      (size) => {
        const text = Array.from(
          { length: size },
          (_, index) => `${'x'.repeat(20_000)}${String(index).padStart(6, '0')}`,
        ).join('\n');
        nearMatch(text, `${'x'.repeat(19_000)} nowhere`);
      },
      60,
    );
  });

  it('importers: import specifiers after runs of blank lines', () => {
    assertLinear(
      'importer scan',
      (size) => {
        // Blank lines, then a line that is no import: every line start of the run used to scan to its end.
        assert.deepEqual(relativeSpecifiers(`${'\n'.repeat(size)}x\nimport './y';\n`), ['./y']);
      },
      5000,
    );
  });
});

describe('linear scans of what a model sends or a file holds (search, framing)', function () {
  this.timeout(120_000);

  it('prefilter: runs of keywords and repeated first texts, and comments that never close', async () => {
    const typeofs = compilePattern(await registry.load('javascript'), 'typeof typeof typeof foo');
    assertLinear('typeof × n', (size) => assert.equal(mayMatch(`${'typeof '.repeat(size)}x foo`, typeofs), false), 200);
    const constructed = compilePattern(await registry.load('javascript'), 'new Foo($$$A)');
    assertLinear('new × n', (size) => assert.equal(mayMatch(`${'new '.repeat(size)}Foo;`, constructed), false), 1500);
    const logged = compilePattern(await registry.load('javascript'), 'console.log($$$A)');
    assertLinear(
      'comments without an end',
      (size) => assert.equal(mayMatch(`console ${'/* // '.repeat(size)}x log(`, logged), false),
      1500,
    );
    const python = compilePattern(await registry.load('python'), 'os.path.join($$$A)');
    assertLinear(
      'python line comments',
      (size) => assert.equal(mayMatch(`os.path ${'# '.repeat(size)}\n y.join(1)`, python), false),
      1500,
    );
  });

  it('prefilter: a pattern of many runs shares one budget; a long required text is found without the engine’s quadratic search', async () => {
    const javascript = await registry.load('javascript');
    const runs = Array.from({ length: 100 }, (_, index) => `x.q, $A${index}`).join(', ');
    const many = compilePattern(javascript, `[${runs}]`);
    assert.ok(many.requiredRuns.length >= 50, `${many.requiredRuns.length} runs`);
    const text = `${'x. q, '.repeat(200_000)}`;
    const stats = { steps: 0 };
    mayMatch(text, many, stats);
    assert.ok(stats.steps <= RUN_SEARCH_STEPS + 100_000, `${stats.steps} steps for ${many.requiredRuns.length} runs`);
    assertLinear(
      'required text of a…ab a…a',
      (size) => {
        const long = compilePattern(javascript, `f("${'a'.repeat(size)}b${'a'.repeat(size)}")`);
        assert.equal(mayMatch(`f("${'a'.repeat(size * 10)}")`, long), false);
      },
      2000,
    );
  });

  it('kernel output: stdout and stderr alternating a character at a time', () => {
    assertLinear(
      'alternating streams',
      (size) => {
        // A tail window that grows with the input: its parts are dropped one by one, never walked again.
        const collector = new OutputCollector({ headChars: 10, tailChars: size / 4 });
        for (let index = 0; index < size; index++) collector.addText('.', index % 2 ? 'stderr' : 'stdout');
        const parts = collector.parts();
        assert.ok(parts.length > 1);
      },
      20_000,
    );
  });

  it('MCP framing: a message sent in many chunks is joined once', () => {
    assertLinear(
      'one line in 1 KiB chunks',
      (size) => {
        const limit = new LineLimit(64 * 1024 * 1024, () => assert.fail('not over the cap'));
        const piece = Buffer.alloc(1024, 0x61);
        let passed = 0;
        limit.on('data', (chunk: Buffer) => (passed += chunk.length));
        for (let index = 0; index < size; index++) limit.write(piece);
        limit.write(Buffer.from('\n'));
        assert.equal(passed, size * 1024 + 1);
      },
      2000,
    );
  });

  it('kernel framing: a long message line in many chunks', () => {
    assertLinear(
      'one line in 1 KiB chunks',
      (size) => {
        let bytes = 0;
        const reader = new BoundedLineReader(
          64 * 1024 * 1024,
          (_line, length) => (bytes = length),
          () => assert.fail('not over the bound'),
        );
        const piece = Buffer.alloc(1024, 0x61);
        for (let index = 0; index < size; index++) reader.push(piece);
        reader.push(Buffer.from('\n'));
        assert.equal(bytes, size * 1024);
      },
      2000,
    );
  });

  it('JSON with comments (a project’s tsconfig.json): comments and strings that never close, trailing commas before long blanks', () => {
    for (const [what, unit] of [
      ['open comments', '/*'],
      ['line comments', '// x\n'],
      ['escapes in an open string', '"a\\"'],
      ['commas before blanks', ',    \n'],
    ] as const) {
      assertLinear(`jsonc ${what}`, (size) => void stripJsonc(`[${unit.repeat(size)}`), 20_000);
    }
  });
});
