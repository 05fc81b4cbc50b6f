/**
 * The structural index (src/structural/flatTree.ts) and the threads that keep it
 * (src/structural/parsePool.ts): matching a file's index finds exactly what matching its fresh
 * parse tree finds, on real code of several languages; a search of a new pattern after the files
 * were indexed parses nothing and answers as this thread does; a changed text, an index evicted
 * past its budget and a thread that ended are parsed again, never answered stale.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { FlatTree, GrammarTypes } from '../../src/structural/flatTree';
import { findMatches, Match } from '../../src/structural/matcher';
import { compilePattern } from '../../src/structural/pattern';
import { ParsePool } from '../../src/structural/parsePool';
import { StructuralSearch } from '../../src/structural/search';
import { filesUnder } from '../support/filesUnder';
import { repoRoot } from '../support/repoRoot';
import { suiteTempDir } from '../support/tempDir';
import { indexOf, registry } from './support/structuralEngine';

const SCRIPT = path.join(repoRoot(), 'dist', 'parseWorker.js');

function pythonStdlib(): string {
  return execFileSync('python3', ['-c', 'import sysconfig; print(sysconfig.get_paths()["stdlib"])'], {
    encoding: 'utf8',
  }).trim();
}

function goRoot(): string {
  return execFileSync('go', ['env', 'GOROOT'], { encoding: 'utf8' }).trim();
}

/** Every `step`-th file, so a sample spreads over the whole tree. */
function sample(files: readonly string[], count: number): string[] {
  const step = Math.max(1, Math.floor(files.length / count));
  return files.filter((_file, index) => index % step === 0).slice(0, count);
}

const CORPORA: ReadonlyArray<{
  readonly language: string;
  readonly files: () => string[];
  readonly patterns: readonly string[];
}> = [
  {
    language: 'typescript',
    files: () => filesUnder(path.join(repoRoot(), 'src'), '.ts'),
    patterns: ['$A.$B($$$C)', 'await $X', 'if ($C) { $$$B }', '$A', 'new $C($$$A)', 'private readonly $N: $T;'],
  },
  {
    language: 'javascript',
    files: () => sample(filesUnder(path.join(repoRoot(), 'node_modules', 'ajv', 'dist'), '.js'), 60),
    patterns: ['$A.$B($$$C)', 'function $F($$$P) { $$$B }', '$A === $B', '$A'],
  },
  {
    language: 'python',
    files: () => sample(filesUnder(pythonStdlib(), '.py'), 60),
    patterns: ['$A.$B($$$C)', 'isinstance($X, $T)', 'def $F(self, $$$P): $$$B', '$A'],
  },
  {
    language: 'go',
    files: () => sample(filesUnder(path.join(goRoot(), 'src', 'net'), '.go'), 60),
    patterns: ['$A.$B($$$C)', 'if err != nil { $$$B }', 'func ($R $T) $M($$$P) $$$Z { $$$B }', '$A'],
  },
];

function key(matches: readonly Match[]): string[] {
  return matches.map(
    (match) =>
      `${match.start}-${match.end} (${match.coveredStart}-${match.coveredEnd}) ${match.startRow}:${match.startColumn}-${match.endRow} ` +
      [...match.captures].map(([name, capture]) => `${name}=${capture.start}-${capture.end}`).join(' '),
  );
}

describe('structural index: the same matches as the parse tree', function () {
  this.timeout(120_000);

  for (const corpus of CORPORA) {
    it(`${corpus.language}: every pattern, every file`, async () => {
      const loaded = await registry.load(corpus.language);
      const types = new GrammarTypes(loaded.language);
      const files = corpus.files().filter((file) => fs.statSync(file).size < 256 * 1024);
      assert.ok(files.length >= 20, `${corpus.language}: only ${files.length} files found`);
      let compared = 0;
      for (const file of files) {
        const text = fs.readFileSync(file, 'utf8');
        const tree = loaded.parser.parse(text);
        assert.ok(tree);
        try {
          const flat = FlatTree.fromTree(tree, types).withText(text);
          assert.equal(flat.length, text.length);
          for (const pattern of corpus.patterns) {
            const root = compilePattern(loaded, pattern).root;
            const fromTree = findMatches(tree, text, root);
            assert.deepEqual(key(findMatches(flat, text, root)), key(fromTree), `${pattern} in ${file}`);
            compared += fromTree.length;
          }
        } finally {
          tree.delete();
        }
      }
      assert.ok(compared > 100, `${corpus.language}: only ${compared} matches compared`);
    });
  }

  it('keeps 15 bytes a node, a few bytes per source character', async () => {
    const text = fs.readFileSync(path.join(repoRoot(), 'src', 'structural', 'parsePool.ts'), 'utf8');
    const flat = await indexOf('typescript', text);
    const perCharacter = flat.bytes / text.length;
    assert.ok(perCharacter > 0.5 && perCharacter < 8, `${perCharacter.toFixed(2)} bytes per character`);
  });
});

describe('structural index: kept by the parsing threads', function () {
  this.timeout(60_000);
  const dir = suiteTempDir('structural-index-');
  let files: string[];
  const pools: ParsePool[] = [];

  before(() => {
    files = [];
    for (let i = 0; i < 12; i++) {
      const file = path.join(dir(), `m${i}.ts`);
      fs.writeFileSync(
        file,
        `export function f${i}(a: number) {\n  log(${i}, 'a');\n  const x = await load(a, ${i});\n  return x.value + ${i};\n}\n`,
      );
      files.push(file);
    }
  });

  afterEach(() => {
    for (const pool of pools.splice(0)) pool.dispose();
  });

  function searchWith(index: boolean | { readonly budgetBytes: number }) {
    const pool = new ParsePool({ script: SCRIPT, size: 2, index });
    pools.push(pool);
    const texts = new Map<string, string>();
    const read = async (file: string): Promise<string> => texts.get(file) ?? fs.readFileSync(file, 'utf8');
    const engine = new StructuralSearch(registry, read, { pool });
    const inline = new StructuralSearch(registry, read);
    const both = async (pattern: string): Promise<{ threads: string[]; here: string[] }> => {
      const request = { pattern, language: 'typescript', files, maxResults: 1000 };
      const [threads, here] = [await engine.search(request), await inline.search(request)];
      const lines = (result: typeof threads): string[] =>
        result.files.flatMap((found) =>
          found.matches.map((match) => `${path.basename(found.file)}:${match.startRow + 1} ${match.text}`),
        );
      return { threads: lines(threads), here: lines(here) };
    };
    return { pool, texts, both };
  }

  it('answers a new pattern from the indexes, without parsing, as this thread does', async () => {
    const { pool, both } = searchWith(true);
    const first = await both('log($A, $B)');
    assert.equal(first.threads.length, 12);
    assert.deepEqual(pool.served, { fromIndex: 0, parsed: 12 });
    await pool.indexingDone();
    assert.equal(pool.indexedFiles, 12);
    const second = await both('await load($A, $B)');
    assert.deepEqual(second.threads, second.here);
    assert.equal(second.threads.length, 12);
    assert.deepEqual(pool.served, { fromIndex: 12, parsed: 12 });
  });

  it('parses a changed text again, never answering from the index of the old one', async () => {
    const { pool, texts, both } = searchWith(true);
    await both('log($A, $B)');
    await pool.indexingDone();
    texts.set(files[3], fs.readFileSync(files[3], 'utf8').replace("log(3, 'a')", "log(3, 'a');\n  log(33, 'b')"));
    const after = await both('log($A, $B)');
    assert.deepEqual(after.threads, after.here);
    assert.ok(after.threads.includes("m3.ts:3 log(33, 'b')"), after.threads.join('\n'));
    assert.deepEqual(pool.served, { fromIndex: 11, parsed: 13 });
  });

  it('parses again what a thread does not hold: past its budget (what it holds stays), or the thread ended', async () => {
    // A budget of one file's index per thread: the others are evicted, the thread says so, the file is parsed.
    const oneFile = (await indexOf('typescript', fs.readFileSync(files[0], 'utf8'))).bytes;
    const { pool, both } = searchWith({ budgetBytes: 2 * Math.floor(oneFile * 1.5) });
    await both('log($A, $B)');
    await pool.indexingDone();
    const second = await both('await load($A, $B)');
    assert.deepEqual(second.threads, second.here);
    const kept = pool.served.fromIndex;
    assert.ok(kept >= 1 && kept <= 2, `${kept} answered from an index`);
    assert.ok(pool.served.parsed >= 22, `${pool.served.parsed} parsed`);
    // What is held stays held: a third pattern, the same files in the same order, is answered from the same indexes.
    await pool.indexingDone();
    const again = await both('return x.value + $N');
    assert.deepEqual(again.threads, again.here);
    assert.equal(pool.served.fromIndex, 2 * kept);

    const { pool: ended, both: bothEnded } = searchWith(true);
    await bothEnded('log($A, $B)');
    await ended.indexingDone();
    ended.dispose();
    assert.equal(ended.indexedFiles, 0);
    const third = await bothEnded('await load($A, $B)');
    assert.deepEqual(third.threads, third.here);
    assert.deepEqual(ended.served, { fromIndex: 0, parsed: 24 });
  });

  it('builds no index unless asked (the command line)', async () => {
    const { pool, both } = searchWith(false);
    await both('log($A, $B)');
    await pool.indexingDone();
    assert.equal(pool.indexedFiles, 0);
  });
});
