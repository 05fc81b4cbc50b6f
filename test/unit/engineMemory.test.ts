/**
 * The structural engine's one memory budget (src/structural/engineMemory.ts): real parsing threads
 * measure themselves, the caches keep to their shares, what the budget drops never changes an
 * answer, and a search in file order over more text than a cache holds keeps what it read warm.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { EngineMemory, parsingThreadsFor, stringBytes } from '../../src/structural/engineMemory';
import { MatchCache } from '../../src/structural/matchCache';
import { Match } from '../../src/structural/matcher';
import { ParsePool } from '../../src/structural/parsePool';
import { StructuralSearch } from '../../src/structural/search';
import { SourceCache } from '../../src/structural/sourceCache';
import { repoRoot } from '../support/repoRoot';
import { suiteTempDir } from '../support/tempDir';
import { registry } from './support/structuralEngine';

const SCRIPT = path.join(repoRoot(), 'dist', 'parseWorker.js');
const MiB = 1024 * 1024;

/** `count` Python files of ~`kib` KiB each, every third without `isinstance`. */
function pythonFiles(parent: string, count: number, kib: number): string[] {
  const dir = fs.mkdtempSync(path.join(parent, 'py-'));
  const files: string[] = [];
  for (let at = 0; at < count; at++) {
    const lines: string[] = [];
    for (let line = 0; lines.join('\n').length < kib * 1024; line++)
      lines.push(
        at % 3 === 0
          ? `def f${line}(value):\n    return value + ${line}\n`
          : `def f${line}(value):\n    if isinstance(value, T${line % 7}):\n        self.v${line} = value\n`,
      );
    const file = path.join(dir, `m${String(at).padStart(4, '0')}.py`);
    fs.writeFileSync(file, lines.join('\n'));
    files.push(file);
  }
  return files;
}

describe('the structural engine within one memory budget', function () {
  this.timeout(120_000);
  const dir = suiteTempDir('live-tools-budget-');

  it('after each search the threads’ measures and the caches stay within the budget, and the answers are those of an engine that keeps nothing', async () => {
    const files = pythonFiles(dir(), 300, 24);
    const budget = 72 * MiB;
    const cache = new SourceCache();
    const pool = new ParsePool({ script: SCRIPT, size: 1, index: true });
    const engine = new StructuralSearch(registry, (file) => cache.read(file), { pool, cacheMatches: true });
    const memory = new EngineMemory(budget, {
      threads: () => pool.threadMemory(),
      indexThread: () => undefined,
      retireIdleThreads: () => pool.retireIdleThreads(),
      structuralIndexes: pool.structuralIndexes,
      sourceCache: cache,
      matchCache: engine.matchCache,
    });
    const plain = new StructuralSearch(registry, (file) => cache.read(file));
    const answer = (found: Awaited<ReturnType<StructuralSearch['search']>>) =>
      found.files.flatMap((file) =>
        file.matches.map((match) => `${path.basename(file.file)}:${match.start}:${match.text}`),
      );
    try {
      memory.settle();
      for (const pattern of ['isinstance($X, $T)', 'self.$A = $B', 'isinstance($X, $T)', 'return $V + $N']) {
        const request = { pattern, language: 'python', files, maxResults: Number.POSITIVE_INFINITY };
        const found = await engine.search(request);
        await pool.indexingDone();
        cache.searchEnded();
        memory.settle();
        assert.deepEqual(answer(found), answer(await plain.search(request)), pattern);
        assert.ok(memory.totalBytes() <= budget, memory.report());
      }
      const [thread] = pool.threadMemory();
      // Measured by the thread: its wasm memory starts at the runtime's 32 MiB, its heap holds a grammar and a parser.
      assert.ok(thread && thread.wasmBytes >= 32 * MiB && thread.heapBytes > MiB, JSON.stringify(thread));
      const text = files.reduce((sum, file) => sum + fs.statSync(file).size, 0);
      assert.ok(text > 6 * MiB && cache.heldBytes < text, 'more text than the cache may hold');
      assert.ok(cache.droppedEntries + pool.structuralIndexes.droppedEntries + engine.matchCache.droppedEntries > 0);
      assert.match(memory.report(), /^Structural search memory: [\d.]+ MiB of 72\.0 MiB/);
      assert.match(memory.report(), /^- parsing threads: 1, heap [\d.]+ MiB \+ wasm 32\.0 MiB/m);
    } finally {
      pool.dispose();
    }
  });

  it('a budget the threads alone pass ends the idle threads, and the next search starts a fresh one', async () => {
    const files = pythonFiles(dir(), 4, 2);
    const pool = new ParsePool({ script: SCRIPT, size: 1, index: true });
    const engine = new StructuralSearch(registry, (file) => fs.promises.readFile(file, 'utf8'), { pool });
    const memory = new EngineMemory(16 * MiB, {
      threads: () => pool.threadMemory(),
      indexThread: () => undefined,
      retireIdleThreads: () => pool.retireIdleThreads(),
      structuralIndexes: pool.structuralIndexes,
      sourceCache: new SourceCache(),
      matchCache: new MatchCache(),
    });
    try {
      const request = { pattern: 'isinstance($X, $T)', language: 'python', files, maxResults: 100 };
      const first = await engine.search(request);
      await pool.indexingDone();
      assert.equal(pool.threads, 1);
      memory.settle();
      assert.equal(pool.threads, 0);
      assert.match(memory.report(), /1 ended to stay within the budget/);
      assert.equal((await engine.search(request)).matchCount, first.matchCount);
    } finally {
      pool.dispose();
    }
  });

  it('the source cache keeps what the last two searches read over what comes new, and drops the coldest once it is older', async () => {
    const files = [0, 1, 2, 3, 4].map((at) => path.join(dir(), `same${at}.py`));
    for (const file of files) fs.writeFileSync(file, 'x = 1\n'.repeat(100));
    const size = stringBytes(fs.readFileSync(files[0], 'utf8'));
    // Each file dated the same second, so a rewrite of the same length that sets the date back is seen only by a read.
    const at = new Date('2026-01-01T00:00:00Z');
    for (const file of files) fs.utimesSync(file, at, at);
    const rewriteAll = (mark: string): void => {
      for (const file of files) {
        fs.writeFileSync(file, mark + fs.readFileSync(file, 'utf8').slice(1));
        fs.utimesSync(file, at, at);
      }
    };
    const marks = async (): Promise<string> => {
      let read = '';
      for (const file of files) read += ((await cache.read(file)) as string)[0];
      return read;
    };
    // Room for three of the five.
    const cache = new SourceCache(3 * size + 10);
    rewriteAll('a');
    assert.equal(await marks(), 'aaaaa');
    cache.searchEnded();
    rewriteAll('b');
    // The first three come from the cache (kept); the last two were not kept: no room, and nothing older to make it.
    assert.equal(await marks(), 'aaabb');
    assert.equal(cache.heldEntries, 3);
    cache.searchEnded();
    cache.searchEnded();
    rewriteAll('c');
    // Two searches later the cached ones are the coldest: the first makes room for the last, the others stay.
    const first = async (file: string): Promise<string> => ((await cache.read(file)) as string)[0];
    assert.equal(await first(files[4]), 'c');
    assert.equal(cache.droppedEntries, 1);
    assert.deepEqual([await first(files[1]), await first(files[2]), await first(files[0])], ['a', 'a', 'c']);
  });

  it('the match cache drops older patterns first, then the newest pattern’s last files', () => {
    const cache = new MatchCache(1_000);
    const match = { text: 'x', captures: new Map() } as unknown as Match;
    const older = cache.forPattern('python', 'a');
    older.set('a.py', 'a'.repeat(300), [match]);
    const newer = cache.forPattern('python', 'b');
    newer.set('1.py', 'b'.repeat(100), []);
    newer.set('2.py', 'c'.repeat(100), []);
    newer.set('3.py', 'd'.repeat(100), []);
    assert.equal(cache.heldEntries, 4);
    cache.limitTo(250);
    assert.equal(older.get('a.py', 'a'.repeat(300)), undefined);
    assert.deepEqual(
      ['1.py', '2.py', '3.py'].map((file, at) => newer.get(file, 'bcd'[at].repeat(100)) !== undefined),
      [true, true, false],
    );
    assert.ok(cache.heldBytes <= 250);
  });

  it('the structural indexes keep to their share when many are built at once, and the threads hold what the pool counts', async () => {
    const pool = new ParsePool({ script: SCRIPT, size: 1, index: true });
    const text = (at: number, round = 0): string =>
      Array.from({ length: 2500 }, (_, line) => `function f${at}_${line}() { return ${line + round}; }`).join('\n');
    /** Every thread answers once more, so each has measured itself after the forgets sent before. */
    const measured = async (): Promise<number> => {
      await pool.describe('typescript', 'f($A)');
      return pool.threadMemory().reduce((sum, thread) => sum + thread.heldBytes, 0);
    };
    try {
      pool.structuralIndexes.limitTo(MiB);
      await Promise.all(
        Array.from({ length: 40 }, (_, at) =>
          pool.match({ file: `/f${at}.ts`, language: 'typescript', pattern: 'f($A)', text: text(at), limit: 10 }),
        ),
      );
      await pool.indexingDone();
      assert.ok(pool.structuralIndexes.heldEntries > 0, 'some are kept');
      assert.ok(pool.structuralIndexes.heldBytes <= MiB, `${pool.structuralIndexes.heldBytes}`);
      assert.equal(await measured(), pool.structuralIndexes.heldBytes);
      // The texts change: the thread drops each old build (no index left behind uncounted).
      pool.structuralIndexes.limitTo(64 * MiB);
      for (let round = 1; round <= 3; round++) {
        for (let at = 0; at < 10; at++)
          await pool.match({
            file: `/f${at}.ts`,
            language: 'typescript',
            pattern: 'f($A)',
            text: text(at, round),
            limit: 10,
          });
        await pool.indexingDone();
        assert.equal(await measured(), pool.structuralIndexes.heldBytes, `round ${round}`);
      }
      pool.structuralIndexes.limitTo(0);
      assert.equal(pool.structuralIndexes.heldBytes, 0);
      assert.equal(await measured(), 0);
    } finally {
      pool.dispose();
    }
  });

  it('runs one parsing thread per 128 MiB of budget, at most one per core and four, at least one', () => {
    assert.deepEqual(
      [
        [64, 8],
        [256, 2],
        [256, 8],
        [1024, 8],
        [1024, 2],
      ].map(([mib, cores]) => parsingThreadsFor(mib * MiB, cores)),
      [1, 2, 2, 4, 2],
    );
  });
});
