/**
 * Parsing on worker threads (src/structural/parsePool.ts) and the match cache of
 * src/structural/search.ts: the same answers as this thread, in file order, caps honoured, a
 * dying thread reported and replaced, idle threads stopped, cached matches only for unchanged text.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PatternError } from '../../src/structural/pattern';
import { StructuralSearch } from '../../src/structural/search';
import { fileOutcomeFromWire, fileOutcomeToWire } from '../../src/structural/workerProtocol';
import { SourceCache } from '../../src/structural/sourceCache';
import { ParsePool, ParsingThreadFailed } from '../../src/structural/parsePool';
import { registry, writeLogFiles } from './support/structuralEngine';
import { repoRoot } from '../support/repoRoot';
import { suiteTempDir } from '../support/tempDir';

const SCRIPT = path.join(repoRoot(), 'dist', 'parseWorker.js');

const readFile = async (file: string): Promise<string> => fs.promises.readFile(file, 'utf8');

function summary(result: Awaited<ReturnType<StructuralSearch['search']>>): string[] {
  return result.files.flatMap((file) =>
    file.matches.map(
      (match) =>
        `${path.basename(file.file)}:${match.startRow + 1} ${match.text} ${[...match.captures].map(([name, capture]) => `${name}=${capture.text}`).join(' ')}`,
    ),
  );
}

describe('structural search on worker threads', function () {
  this.timeout(30_000);
  const dir = suiteTempDir('worker-pool-');
  let files: string[];
  let pool: ParsePool;

  before(() => {
    files = writeLogFiles(dir());
  });

  beforeEach(() => (pool = new ParsePool({ script: SCRIPT, size: 2 })));
  afterEach(() => pool.dispose());

  it('answers exactly as this thread does, in file order, in every language', async () => {
    const request = { pattern: 'log($A)', files, maxResults: Number.POSITIVE_INFINITY };
    const inline = summary(await new StructuralSearch(registry, readFile).search(request));
    const pooled = summary(await new StructuralSearch(registry, readFile, { pool }).search(request));
    assert.equal(inline.length, 20);
    assert.deepEqual(pooled, inline);
    assert.ok(
      pooled.includes('file00.ts:3 log(x0) A=x0') &&
        pooled.includes('file01.py:3 log(x1) A=x1') &&
        pooled.includes('file02.go:4 log(x2) A=x2'),
    );
  });

  it('stops at the cap with the first matches in file order (files grouped by language)', async () => {
    const result = await new StructuralSearch(registry, readFile, { pool }).search({
      pattern: 'log($$$A)',
      files,
      maxResults: 5,
    });
    assert.equal(result.truncated, true);
    assert.deepEqual(summary(result), [
      "file00.ts:2 log(0, 'a') A=0, 'a'",
      'file00.ts:3 log(x0) A=x0',
      "file03.ts:2 log(3, 'a') A=3, 'a'",
      'file03.ts:3 log(x3) A=x3',
      "file06.ts:2 log(6, 'a') A=6, 'a'",
    ]);
  });

  it('reports an error raised in a thread with its type and message; a pattern error stays a PatternError', async () => {
    await assert.rejects(pool.match({ language: 'javascript', pattern: 'foo(', text: 'foo(1)', limit: 10 }), {
      name: 'PatternError',
    });
    await assert.rejects(
      pool.describe('javascript', 'foo('),
      (error: Error) => error instanceof PatternError && /in any context tried/.test(error.message),
    );
    const { gapWords, ...summary } = await pool.describe('javascript', 'log($A, "a")');
    assert.deepEqual(summary, {
      language: 'javascript',
      context: 'statement',
      requiredTexts: ['log', 'a'],
      requiredRuns: [
        ['log', '('],
        ['a', '"'],
      ],
      metavariables: new Map([['A', { multi: false }]]),
    });
    assert.ok(gapWords.includes('async') && gapWords.includes('function') && !gapWords.includes('log'));
  });

  it('starts every thread on a pattern, so each loads its grammar before the files come', async () => {
    assert.equal(pool.threads, 0);
    assert.deepEqual((await pool.describe('python', 'f($A)')).requiredTexts, ['f']);
    assert.equal(pool.threads, 2);
  });

  it('gives a free thread the longest text waiting first', async () => {
    const single = new ParsePool({ script: SCRIPT, size: 1 });
    try {
      const answered: string[] = [];
      const job = (name: string, text: string): Promise<void> =>
        single
          .match({ language: 'javascript', pattern: 'f($A)', text, limit: 10 })
          .then(() => void answered.push(name));
      // The first is large: the thread gets nothing more until it answers, so the others wait together.
      const large = job('large', `f(0);\n${'x;\n'.repeat(150_000)}`);
      await Promise.all([
        large,
        job('short', 'f(1);'),
        job('medium', 'f(2);\n'.repeat(100)),
        job('long', 'f(3);\n'.repeat(10_000)),
      ]);
      assert.deepEqual(answered, ['large', 'long', 'medium', 'short']);
    } finally {
      single.dispose();
    }
  });

  it('sends matches with their own texts, or as offsets into the text when that copies less', () => {
    const text = 'function a() { function b() {} }';
    const outer = {
      start: 0,
      end: text.length,
      startRow: 0,
      startColumn: 0,
      endRow: 0,
      text,
      captures: new Map([['F', { text: 'a', start: 9, end: 10 }]]),
      coveredStart: 0,
      coveredEnd: text.length,
    };
    const inner = {
      start: 15,
      end: 30,
      startRow: 0,
      startColumn: 15,
      endRow: 0,
      text: text.slice(15, 30),
      captures: new Map(),
      coveredStart: 15,
      coveredEnd: 30,
    };
    const sliced = fileOutcomeToWire({ parsed: true, matches: [outer, inner], source: text }, false);
    assert.equal(sliced.source, text);
    assert.deepEqual(fileOutcomeFromWire(sliced, false), { parsed: true, matches: [outer, inner] });
    const own = fileOutcomeToWire({ parsed: true, matches: [inner], source: text }, false);
    assert.deepEqual(own, { parsed: true, matches: [inner] });
    assert.deepEqual(
      fileOutcomeFromWire(fileOutcomeToWire({ parsed: true, matches: [inner], source: text }, true), true),
      { parsed: true, matches: [inner], source: text },
    );
  });

  it('reports a thread that dies, and the next job gets a fresh thread', async () => {
    // A fault only a stand-in can produce on demand: a thread that exits on its first job.
    const dying = path.join(dir(), 'dying.js');
    fs.writeFileSync(dying, "require('node:worker_threads').parentPort.on('message', () => process.exit(7));\n");
    const faulty = new ParsePool({ script: dying, size: 1 });
    try {
      const job = { language: 'javascript', pattern: 'f()', text: 'f()', limit: 10 };
      await assert.rejects(
        faulty.match(job),
        (error: Error) => error instanceof ParsingThreadFailed && /exited with code 7/.test(error.message),
      );
      assert.equal(faulty.threads, 0);
      await assert.rejects(faulty.match(job), ParsingThreadFailed);
    } finally {
      faulty.dispose();
    }
  });

  it('takes a pattern from the first thread that answers; a thread that dies meanwhile fails it only when all do', async () => {
    // Stand-ins for the fault: of two threads started together (consecutive ids) the odd one exits on its first request, the other answers 300 ms later.
    const halfDying = path.join(dir(), 'half-dying.js');
    const summary =
      "{ summary: { language: 'javascript', context: 'expression', requiredTexts: ['f'], requiredRuns: [], gapWords: [], metavariables: new Map() } }";
    fs.writeFileSync(
      halfDying,
      "const { parentPort, threadId } = require('node:worker_threads');\n" +
        `parentPort.on('message', () => (threadId % 2 ? process.exit(3) : setTimeout(() => parentPort.postMessage(${summary}), 300)));\n`,
    );
    const dying = path.join(dir(), 'always-dying.js');
    fs.writeFileSync(dying, "require('node:worker_threads').parentPort.on('message', () => process.exit(3));\n");
    const half = new ParsePool({ script: halfDying, size: 2 });
    const none = new ParsePool({ script: dying, size: 2 });
    try {
      assert.deepEqual((await half.describe('javascript', 'f()')).requiredTexts, ['f']);
      await assert.rejects(
        none.describe('javascript', 'f()'),
        (error: Error) => error instanceof ParsingThreadFailed && /exited with code 3/.test(error.message),
      );
    } finally {
      half.dispose();
      none.dispose();
    }
  });

  it('a thread that runs out of memory says how to ask for less', async () => {
    // A stand-in that holds on to everything: the thread's real heap limit stops it.
    const hoarding = path.join(dir(), 'hoarding.js');
    fs.writeFileSync(
      hoarding,
      "const kept = []; require('node:worker_threads').parentPort.on('message', () => { for (;;) kept.push(new Array(1e5).fill(kept.length)); });\n",
    );
    const faulty = new ParsePool({ script: hoarding, size: 1 });
    try {
      await assert.rejects(
        faulty.match({ language: 'javascript', pattern: '$A', text: 'f()', limit: 10 }),
        (error: Error) => {
          assert.ok(error instanceof ParsingThreadFailed);
          assert.match(error.message, /memory limit.*narrow the pattern/);
          return true;
        },
      );
    } finally {
      faulty.dispose();
    }
  });

  it('stops its threads after the idle period', async () => {
    const quick = new ParsePool({ script: SCRIPT, size: 2, idleMs: 100 });
    try {
      await Promise.all(
        [1, 2, 3].map((n) => quick.match({ language: 'python', pattern: 'f($A)', text: `f(${n})`, limit: 10 })),
      );
      assert.equal(quick.threads, 2);
      await new Promise((resolve) => setTimeout(resolve, 400));
      assert.equal(quick.threads, 0);
      assert.deepEqual(
        (await quick.match({ language: 'python', pattern: 'f($A)', text: 'f(9)', limit: 10 })).map(
          (match) => match.text,
        ),
        ['f(9)'],
      );
    } finally {
      quick.dispose();
    }
  });

  it('answers a repeated query from the match cache, and parses again a file that changed', async () => {
    const cache = new SourceCache();
    const engine = new StructuralSearch(registry, (file) => cache.read(file), { pool, cacheMatches: true });
    const request = { pattern: 'log($A)', files, maxResults: Number.POSITIVE_INFINITY };
    const first = await engine.search(request);
    assert.equal(first.filesParsed, 20);
    const repeat = await engine.search(request);
    assert.equal(repeat.filesParsed, 0);
    assert.deepEqual(summary(repeat), summary(first));

    const changed = files[0];
    fs.writeFileSync(changed, 'function g() {\n  log(changed);\n}\n');
    fs.utimesSync(changed, new Date(), new Date(Date.now() + 5_000));
    const after = await engine.search(request);
    assert.equal(after.filesParsed, 1);
    assert.deepEqual(
      summary(after).filter((line) => line.startsWith('file00.ts')),
      ['file00.ts:2 log(changed) A=changed'],
    );

    // A capped search caches nothing it did not finish: the next full search still finds everything.
    engine.forgetMatches();
    await engine.search({ ...request, maxResults: 1 });
    assert.equal((await engine.search(request)).matchCount, first.matchCount);
  });
});
