/**
 * Nothing is skipped in silence: a file a search does not parse (over the size cap, binary,
 * unreadable) is named with its reason and how to include it, in the tool's answer, the command
 * line's text and its JSON; and a real 2–5 MB bundle is under the cap, searched whole on a parsing
 * thread whose limits hold for it, in the editor's engine and the command line alike.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { batchSearch, MAX_MATCHES_PER_FILE } from '../../src/cli/batchSearch';
import { runCli as cli } from './support/cliRun';
import { AnswerContext, searchAnswer, SKIPPED_LIST_CAP } from '../../src/structural/answers';
import { asText, InlineMatcher, readTextFile } from '../../src/structural/fileMatcher';
import { LARGE_TEXT_LENGTH, ParsePool, RETIRE_AFTER_LENGTH } from '../../src/structural/parsePool';
import { MAX_SEARCHED_FILE_LENGTH, StructuralSearch } from '../../src/structural/search';
import { SourceCache } from '../../src/structural/sourceCache';
import { registry } from './support/structuralEngine';
import { suiteTempDir } from '../support/tempDir';
import { repoRoot } from '../support/repoRoot';

const SCRIPT = path.join(repoRoot(), 'dist', 'parseWorker.js');
const CLI = path.join(repoRoot(), 'dist', 'cli.js');
/** A real minified bundle of ~3 M characters (a dev dependency, pinned by the lock file). */
const BUNDLE = path.join(repoRoot(), 'node_modules', 'pyright', 'dist', 'pyright-internal.js');

/** A TypeScript text with one `foo(…)` call, just over `length` characters: one long name (a small tree, should it be parsed). */
function textOver(length: number): string {
  return `foo(big);\n${'x'.repeat(length)}\n`;
}

const context: AnswerContext = {
  display: (file) => path.basename(file),
  sizeCapHint: (largest, count) =>
    `Raise the setting to ${largest.toLocaleString('en-US')} or more to search ${count === 1 ? 'it' : 'them'}.`,
};

describe('skipped files are named with their reason', function () {
  this.timeout(60_000);
  const dir = suiteTempDir('skipped-files-');
  let small: string;
  let big: string;
  let binary: string;
  let missing: string;

  before(() => {
    fs.mkdirSync(path.join(dir(), 'src'));
    small = path.join(dir(), 'src', 'small.ts');
    fs.writeFileSync(small, 'foo(small);\n');
    big = path.join(dir(), 'src', 'big.ts');
    fs.writeFileSync(big, textOver(MAX_SEARCHED_FILE_LENGTH));
    binary = path.join(dir(), 'src', 'clip.ts');
    fs.writeFileSync(binary, 'foo(clip);\u0000\n');
    missing = path.join(dir(), 'src', 'gone.ts');
  });

  function bigLength(): number {
    return fs.readFileSync(big, 'utf8').length;
  }

  it('the editor search and the batch run (threads or this thread) list each skipped file with its reason, in file order', async () => {
    const files = [small, big, binary, missing];
    const request = { pattern: 'foo($A)', language: 'typescript', files, maxResults: 50 };
    const expected = [
      { file: big, reason: 'too large', length: bigLength() },
      { file: binary, reason: 'binary' },
      { file: missing, reason: 'unreadable' },
    ];
    const edited = await new StructuralSearch(registry, async (file) => readTextFile(file)).search(request);
    assert.deepEqual(edited.skippedFiles, expected);
    assert.equal(edited.matchCount, 1);
    const pool = new ParsePool({ script: SCRIPT, size: 2 });
    try {
      for (const matcher of [pool, new InlineMatcher(registry)]) {
        const run = await batchSearch(registry, async (file) => readTextFile(file), matcher, {
          ...request,
          maxFileLength: MAX_SEARCHED_FILE_LENGTH,
          withSources: false,
          onFile: () => undefined,
        });
        assert.deepEqual(run.skippedFiles, expected);
        assert.equal(run.matchCount, 1);
      }
    } finally {
      pool.dispose();
    }
  });

  it('the answer names each skipped file with its reason, the size and the cap, and how to include it', async () => {
    const search = new StructuralSearch(registry, async (file) => readTextFile(file));
    const result = await search.search({
      pattern: 'foo($A)',
      language: 'typescript',
      files: [small, big, binary, missing],
      maxResults: 50,
    });
    const length = bigLength().toLocaleString('en-US');
    assert.deepEqual(searchAnswer('foo($A)', result, context, 50).split('\n').slice(2), [
      `Not searched: 1 file over the size cap of 8 M characters: big.ts (${length} characters). Raise the setting to ${length} or more to search it.`,
      'Not searched: 1 binary file (it holds a NUL character): clip.ts.',
      'Not searched: 1 file that could not be read (missing, or no permission): gone.ts.',
    ]);
  });

  it(`names the first ${SKIPPED_LIST_CAP} skipped files of a reason, says how many more, and states the cap`, async () => {
    const texts = new Map<string, string>();
    for (let i = 0; i < SKIPPED_LIST_CAP + 3; i++) texts.set(`/w/bin${String(i).padStart(2, '0')}.ts`, 'foo(1);\u0000');
    const search = new StructuralSearch(registry, async (file) => asText(texts.get(file) as string));
    const result = await search.search({ pattern: 'foo($A)', files: [...texts.keys()], maxResults: 50 });
    assert.equal(result.skippedFiles.length, SKIPPED_LIST_CAP + 3);
    const names = [...texts.keys()].slice(0, SKIPPED_LIST_CAP).map((file) => path.basename(file));
    assert.equal(
      searchAnswer('foo($A)', result, context, 50).split('\n').at(-1),
      `Not searched: ${SKIPPED_LIST_CAP + 3} binary files (they hold a NUL character; the first ${SKIPPED_LIST_CAP} named): ${names.join(', ')} and 3 more.`,
    );
  });

  it('the command line names skipped files on stderr, with the flag that includes them, and counts them in its summary', async () => {
    const { code, out, error } = await cli('--lang', 'ts', '-p', 'foo($A)', path.join(dir(), 'src'));
    assert.equal(code, 0);
    assert.match(out[0], /small\.ts:1: foo\(small\)$/);
    assert.equal(out[1], '1 matches in 1 files (1 parsed of 3; 2 not searched).');
    const length = bigLength();
    const shown = path.relative(process.cwd(), big);
    assert.deepEqual(error, [
      `Not searched: 1 file over the size cap of 8 M characters: ${shown} (${length.toLocaleString('en-US')} characters). Pass --max-file-chars ${length} to search it.`,
      `Not searched: 1 binary file (it holds a NUL character): ${path.relative(process.cwd(), binary)}.`,
    ]);
    const raised = await cli(
      '--lang',
      'ts',
      '-p',
      'foo($A)',
      '--max-file-chars',
      String(length),
      path.join(dir(), 'src'),
    );
    assert.equal(raised.out.at(-1), '2 matches in 2 files (2 parsed of 3; 1 not searched).');
  });

  it('with --json, stdout holds only match objects (as ast-grep --json=stream) and stderr one JSON record per skipped file', async () => {
    const { code, out, error } = await cli('--lang', 'ts', '-p', 'foo($A)', '--json', path.join(dir(), 'src'));
    assert.equal(code, 0);
    assert.deepEqual(
      out.map((line) => Object.keys(JSON.parse(line))),
      [['file', 'line', 'column', 'endLine', 'start', 'end', 'text', 'captures']],
    );
    const length = bigLength();
    assert.deepEqual(
      error.map((line) => JSON.parse(line)),
      [
        {
          skipped: path.relative(process.cwd(), big),
          reason: 'too large',
          characters: length,
          maxFileChars: MAX_SEARCHED_FILE_LENGTH,
          include: `--max-file-chars ${length}`,
        },
        { skipped: path.relative(process.cwd(), binary), reason: 'binary' },
      ],
    );
  });

  it('a file more than three bytes per character of the cap is not read, and is named with its bytes', async () => {
    const folder = path.join(dir(), 'unread');
    fs.mkdirSync(folder);
    // A NUL at its end: read, the file would be named binary.
    const huge = path.join(folder, 'huge.ts');
    fs.writeFileSync(huge, `foo(huge);\n${'x'.repeat(400)}\u0000`);
    // Over the cap in characters but not surely in bytes: read, and named with its characters.
    const long = path.join(folder, 'long.ts');
    fs.writeFileSync(long, `foo(long);\n${'é'.repeat(100)}\n`);
    const request = {
      pattern: 'foo($A)',
      language: 'typescript',
      files: [huge, long],
      maxResults: 50,
      maxFileLength: 100,
    };
    const expected = [
      { file: huge, reason: 'too large', bytes: fs.statSync(huge).size },
      { file: long, reason: 'too large', length: fs.readFileSync(long, 'utf8').length },
    ];
    const cache = new SourceCache();
    for (const read of [
      (file: string, max: number) => cache.read(file, max),
      async (file: string, max: number) => readTextFile(file, max),
    ]) {
      const result = await new StructuralSearch(registry, read).search(request);
      assert.deepEqual(result.skippedFiles, expected);
      assert.equal(
        searchAnswer('foo($A)', result, context, 50).split('\n').at(-1),
        `Not searched: 2 files over the size cap of 100 characters: huge.ts (${expected[0].bytes} bytes), long.ts (${expected[1].length} characters). Raise the setting to ${expected[0].bytes} or more to search them.`,
      );
    }
    const json = await cli('--lang', 'ts', '-p', 'foo($A)', '--json', '--max-file-chars', '100', folder);
    assert.deepEqual(JSON.parse(json.error[0]), {
      skipped: path.relative(process.cwd(), huge),
      reason: 'too large',
      bytes: expected[0].bytes,
      maxFileChars: 100,
      include: `--max-file-chars ${expected[0].bytes}`,
    });
  });

  it('the command line names languages the pattern does not parse in, in text and JSON', async () => {
    const folder = path.join(dir(), 'mixed');
    fs.mkdirSync(folder);
    fs.writeFileSync(path.join(folder, 'a.ts'), 'let x: number = 1;\n');
    fs.writeFileSync(path.join(folder, 'b.py'), 'x = 1\n');
    const text = await cli('-p', 'let $A: $T = $B', folder);
    assert.equal(text.code, 0);
    assert.match(text.error.join('\n'), /^Not searched: 1 python file — the pattern does not parse as python\.$/);
    const json = await cli('-p', 'let $A: $T = $B', '--json', folder);
    assert.deepEqual(
      json.error.map((line) => {
        const { skippedLanguage, files } = JSON.parse(line);
        return { skippedLanguage, files };
      }),
      [{ skippedLanguage: 'python', files: 1 }],
    );
  });
});

describe('a 2–5 MB file is searched', function () {
  this.timeout(120_000);
  const dir = suiteTempDir('large-file-');
  let bundle: string;
  let expected: number;

  before(async () => {
    bundle = path.join(dir(), 'bundle', 'pyright-internal.js');
    fs.mkdirSync(path.dirname(bundle));
    fs.copyFileSync(BUNDLE, bundle);
    fs.writeFileSync(path.join(dir(), 'bundle', 'small.js'), 'a.b(1);\n');
    const text = readTextFile(bundle) as string;
    assert.ok(text.length > 2_500_000 && text.length < MAX_SEARCHED_FILE_LENGTH, `${text.length} characters`);
    // The count on this thread (its heap is not bounded as a parsing thread's is).
    expected = (
      await new InlineMatcher(registry).match({
        language: 'javascript',
        pattern: '$A.$B($$$C)',
        text,
        limit: Number.POSITIVE_INFINITY,
      })
    ).length;
    assert.ok(expected > 10_000, `${expected} matches`);
  });

  it('the editor engine parses it on a parsing thread and finds its matches up to the cap', async () => {
    const pool = new ParsePool({ script: SCRIPT, size: 2 });
    try {
      const search = new StructuralSearch(registry, async (file) => readTextFile(file), { pool });
      const result = await search.search({ pattern: '$A.$B($$$C)', files: [bundle], maxResults: 1000 });
      assert.deepEqual([result.skippedFiles, result.matchCount, result.truncated], [[], 1000, true]);
    } finally {
      pool.dispose();
    }
  });

  it('the command line, run through its shebang, finds every match of a broad pattern in it (in a folder and named alone)', () => {
    for (const target of [path.dirname(bundle), bundle]) {
      const ran = spawnSync(CLI, ['--lang', 'js', '-p', '$A.$B($$$C)', target], {
        encoding: 'utf8',
        maxBuffer: 256 * 1024 * 1024,
      });
      assert.equal(ran.status, 0, ran.stderr.slice(0, 500));
      assert.equal(ran.stderr, '');
      const files = target === bundle ? 1 : 2;
      assert.match(
        ran.stdout.trim().split('\n').at(-1) as string,
        new RegExp(`^${expected + files - 1} matches in ${files} files \\(${files} parsed of ${files}\\)\\.$`),
      );
    }
  });
});

describe('the parsing thread for large texts', function () {
  this.timeout(60_000);

  it('after it retires, the next large text starts a fresh one, though the other threads are idle and enough in number', async () => {
    const pool = new ParsePool({ script: SCRIPT, size: 2 });
    try {
      await pool.describe('javascript', 'foo($A)');
      assert.equal(pool.threads, 2);
      const job = (length: number) => ({
        language: 'javascript',
        pattern: 'foo($A)',
        text: `foo(1);\n${'x'.repeat(length)}\n`,
        limit: 10,
      });
      // Over RETIRE_AFTER_LENGTH: its thread is retired once it answers.
      assert.equal((await pool.match(job(RETIRE_AFTER_LENGTH + 1))).length, 1);
      assert.equal(pool.threads, 1);
      const next = pool.match(job(LARGE_TEXT_LENGTH * 2));
      const stalled = new Promise<string>((resolve) => setTimeout(() => resolve('no answer in 20 s'), 20_000).unref());
      assert.equal(await Promise.race([next.then((matches) => `${matches.length} match`), stalled]), '1 match');
    } finally {
      pool.dispose();
    }
  });
});

describe('the command line bounds what one file sends back', function () {
  this.timeout(60_000);
  const dir = suiteTempDir('many-matches-');

  it(`past ${MAX_MATCHES_PER_FILE.toLocaleString('en-US')} matches in one file it stops with what to do, naming the file; --max below that answers`, async () => {
    const folder = path.join(dir(), 'src');
    fs.mkdirSync(folder);
    // Two named nodes a line (the statement and its name): more than the cap in ~90 K characters.
    fs.writeFileSync(path.join(folder, 'names.js'), 'a;\n'.repeat(MAX_MATCHES_PER_FILE * 0.6));
    fs.writeFileSync(path.join(folder, 'small.js'), 'b;\n');
    const all = await cli('--lang', 'js', '-p', '$A', folder);
    assert.equal(all.code, 2);
    assert.deepEqual(all.error, [
      `error: More than ${MAX_MATCHES_PER_FILE.toLocaleString('en-US')} matches in one file (${path.relative(process.cwd(), path.join(folder, 'names.js'))}): narrow the pattern (a bare $A matches every node), or stop at fewer with --max.`,
    ]);
    const capped = await cli('--lang', 'js', '-p', '$A', '--max', String(MAX_MATCHES_PER_FILE), folder);
    assert.equal(capped.code, 0);
    assert.equal(capped.out.at(-1), `${MAX_MATCHES_PER_FILE}+ matches in 1 files (1 parsed of 2).`);
  });
});
