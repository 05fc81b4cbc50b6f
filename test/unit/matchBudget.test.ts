/**
 * One pattern never freezes anything: the matcher's cost grows polynomially with the children of a
 * node (a `$$$` run never retries what failed before), every file has a step budget whose end is a
 * PatternTooExpensive error naming the file, a pattern nested past the bound is a PatternError, and
 * a parsing thread busy with a cancelled or overdue job is terminated and replaced.
 */
import * as assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { findMatches, PatternTooExpensive } from '../../src/structural/matcher';
import { compilePattern, MAX_PATTERN_DEPTH, PatternError } from '../../src/structural/pattern';
import { SearchCancelled, StructuralSearch } from '../../src/structural/search';
import { JobCancelled, ParsePool, ParsingTimedOut } from '../../src/structural/parsePool';
import { registry } from './support/structuralEngine';
import { repoRoot } from '../support/repoRoot';
import { suiteTempDir } from '../support/tempDir';

const SCRIPT = path.join(repoRoot(), 'dist', 'parseWorker.js');

/** `f(a0, …, a(n-1)); g(x, a1, a0);`: the pattern below matches neither, and must find that out by trying splits of f's arguments. */
function manyArguments(n: number): string {
  return `f(${Array.from({ length: n }, (_, i) => `a${i}`).join(', ')}); g(x, a1, a0);\n`;
}

const FOUR_RUNS = 'f($$$A0, $$$A1, $$$A2, $$$A3, a1, a0)';

async function stepsFor(
  pattern: string,
  source: string,
  stepBudget?: number,
): Promise<{ steps: number; matches: number }> {
  const loaded = await registry.load('javascript');
  const compiled = compilePattern(loaded, pattern);
  const tree = loaded.parser.parse(source);
  if (!tree) throw new Error('no tree');
  const stats = { steps: 0 };
  try {
    const matches = findMatches(tree, source, compiled.root, { stats, stepBudget });
    return { steps: stats.steps, matches: matches.length };
  } finally {
    tree.delete();
  }
}

describe('structural matching: bounded cost', function () {
  this.timeout(20_000);

  it('four $$$ runs over 40 arguments finish, and the steps grow polynomially of low degree with the arguments', async () => {
    // Before the failure memo this took more than 120 s at 40 arguments (each run retried every split).
    const counts: number[] = [];
    for (const n of [10, 20, 40, 80]) {
      const { steps, matches } = await stepsFor(FOUR_RUNS, manyArguments(n));
      assert.equal(matches, 0);
      counts.push(steps);
    }
    // Doubling the arguments multiplies the steps by at most 2^3 (cubic at worst: positions × run ends × runs).
    for (let i = 1; i < counts.length; i++) assert.ok(counts[i] / counts[i - 1] <= 8, `steps ${counts.join(' → ')}`);
    assert.ok(counts[3] < 1_000_000, `steps ${counts.join(' → ')}`);
  });

  it('still finds what backing off finds: the runs split where the rest matches, repeated names compared', async () => {
    const loaded = await registry.load('javascript');
    const source = 'f(a0, a1, a2, a1, a0); f(x, y, x); f(x, y, z);\n';
    const match = async (pattern: string): Promise<string[]> => {
      const tree = loaded.parser.parse(source);
      if (!tree) throw new Error('no tree');
      try {
        return findMatches(tree, source, compilePattern(loaded, pattern).root).map(
          (found) =>
            `${found.text} ${[...found.captures].map(([name, capture]) => `${name}=${capture.text}`).join(' ')}`,
        );
      } finally {
        tree.delete();
      }
    };
    assert.deepEqual(await match('f($$$A, a1, a0)'), ['f(a0, a1, a2, a1, a0) A=a0, a1, a2']);
    assert.deepEqual(await match('f($X, $$$M, $X)'), ['f(a0, a1, a2, a1, a0) X=a0 M=a1, a2, a1', 'f(x, y, x) X=x M=y']);
    assert.deepEqual(await match('f($$$A, $B, $$$C, $B, $$$D)'), ['f(a0, a1, a2, a1, a0) A=a0 B=a1 C=a2 D=a0']);
  });

  it('past its step budget a file ends in PatternTooExpensive, named by the search, with what to narrow', async () => {
    await assert.rejects(stepsFor(FOUR_RUNS, manyArguments(40), 1000), PatternTooExpensive);
    const search = new StructuralSearch(registry, async () => manyArguments(300));
    await assert.rejects(
      search.search({
        pattern: 'f($$$A0, $$$A1, $$$A2, $$$A3, $$$A4, $$$A5, a1, a0)',
        files: ['/w/args.js'],
        maxResults: 50,
      }),
      (error: Error) => {
        assert.ok(error instanceof PatternTooExpensive, String(error));
        assert.equal(error.file, '/w/args.js');
        assert.match(
          error.message,
          /too expensive on \/w\/args\.js: matching stopped after [\d,]+ steps\. Narrow it: fewer `\$\$\$` runs/,
        );
        return true;
      },
    );
  });

  it('a pattern nested past the bound is a PatternError, not a stack overflow', async () => {
    const loaded = await registry.load('javascript');
    const deep = `${'('.repeat(20_000)}x${')'.repeat(20_000)}`;
    assert.throws(
      () => compilePattern(loaded, deep),
      (error: Error) =>
        error instanceof PatternError && new RegExp(`nests more than ${MAX_PATTERN_DEPTH} levels`).test(error.message),
    );
    const shallow = `${'('.repeat(50)}x${')'.repeat(50)}`;
    assert.equal(compilePattern(loaded, shallow).language, 'javascript');
  });

  it('a repeated metavariable over a deeply nested file compares without recursion', async () => {
    const nested = `${'['.repeat(5000)}1${']'.repeat(5000)}`;
    const { matches } = await stepsFor('g($A, $A)', `g(${nested}, ${nested});\n`);
    assert.equal(matches, 1);
  });
});

describe('parsing threads: cancelled and overdue jobs end their thread', function () {
  this.timeout(30_000);
  const dir = suiteTempDir('pool-stop-');

  /**
   * A stand-in thread that is busy for good on the first job any thread of it gets (real threads are
   * bounded now, so only a stand-in hangs on demand); every later job is answered at once.
   */
  function busyForever(name: string): string {
    const script = path.join(dir(), `${name}.js`);
    const marker = path.join(dir(), `${name}.started`);
    fs.writeFileSync(
      script,
      "const fs = require('node:fs');\nconst { parentPort } = require('node:worker_threads');\n" +
        `parentPort.on('message', () => { if (!fs.existsSync(${JSON.stringify(marker)})) { fs.writeFileSync(${JSON.stringify(marker)}, ''); for (;;) {} } parentPort.postMessage({ matches: [] }); });\n`,
    );
    return script;
  }

  const job = { language: 'javascript', pattern: 'f()', text: 'f()', limit: 10 };

  it('cancelling a job terminates the thread busy with it; the next job gets a fresh thread', async () => {
    const pool = new ParsePool({ script: busyForever('cancelled'), size: 1 });
    try {
      const abort = new AbortController();
      const busy = pool.match(job, abort.signal);
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal(pool.threads, 1);
      const started = Date.now();
      abort.abort();
      await assert.rejects(busy, JobCancelled);
      assert.ok(Date.now() - started < 1000, 'the cancellation waited for the thread');
      assert.deepEqual(await pool.match(job), [], 'a fresh thread answers the next job');
    } finally {
      pool.dispose();
    }
  });

  it('a job past the deadline ends its thread with ParsingTimedOut; jobs queued behind it are answered by a fresh thread', async () => {
    const pool = new ParsePool({ script: busyForever('overdue'), size: 1, deadlineMs: 500 });
    try {
      const stuck = pool.match(job);
      const behind = pool.match(job);
      await assert.rejects(
        stuck,
        (error: Error) => error instanceof ParsingTimedOut && /took more than 0\.5 s/.test(error.message),
      );
      assert.deepEqual(await behind, []);
    } finally {
      pool.dispose();
    }
  });

  it('one abort listener per signal however many jobs it covers, removed once they settle', async () => {
    const pool = new ParsePool({ script: SCRIPT, size: 2 });
    try {
      const abort = new AbortController();
      const jobs = Array.from({ length: 30 }, (_, i) =>
        pool.match({ language: 'javascript', pattern: 'f($A)', text: `f(${i})`, limit: 10 }, abort.signal),
      );
      assert.equal(getEventListeners(abort.signal, 'abort').length, 1);
      assert.equal((await Promise.all(jobs)).flat().length, 30);
      assert.equal(getEventListeners(abort.signal, 'abort').length, 0);
    } finally {
      pool.dispose();
    }
  });

  it('a search cancelled through its token stops at once and says so; the real threads answer the next search', async () => {
    const pool = new ParsePool({ script: SCRIPT, size: 2 });
    try {
      const texts = Array.from({ length: 40 }, (_, i) => `log(${i});\n`.repeat(2000));
      const search = new StructuralSearch(registry, async (file) => texts[Number(path.basename(file, '.js'))], {
        pool,
      });
      const files = texts.map((_, i) => `/w/${i}.js`);
      let cancel: () => void = () => undefined;
      const token = {
        isCancellationRequested: false,
        onCancellationRequested(listener: () => void) {
          cancel = () => {
            token.isCancellationRequested = true;
            listener();
          };
          return { dispose: () => undefined };
        },
      };
      const running = search.search({ pattern: 'log($A)', files, maxResults: Number.POSITIVE_INFINITY, token });
      setTimeout(() => cancel(), 50);
      await assert.rejects(running, SearchCancelled);
      const again = await search.search({ pattern: 'log($A)', files: files.slice(0, 1), maxResults: 5 });
      assert.equal(again.matchCount, 5);
    } finally {
      pool.dispose();
    }
  });
});
