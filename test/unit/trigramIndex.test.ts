/**
 * The trigram index (src/structural/trigrams.ts, trigramIndex.ts, its thread indexWorker.ts and
 * trigramFilter.ts): a text a file holds always has its trigrams there; records answer only while
 * the file is unchanged; the saved index is refused whole when torn or foreign; and a search that
 * uses it answers exactly as one that reads every file — after random edits, deletions and
 * renames, and after edits made on disk while no window held the index.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readTextFile } from '../../src/structural/fileMatcher';
import { SearchResult, StructuralSearch } from '../../src/structural/search';
import { TrigramFilter } from '../../src/structural/trigramFilter';
import { FileStat, TrigramIndex, TrigramRecord } from '../../src/structural/trigramIndex';
import { fileTrigrams, holdsAll, requiredTrigrams } from '../../src/structural/trigrams';
import { filesUnder } from '../support/filesUnder';
import { repoRoot } from '../support/repoRoot';
import { suiteTempDir } from '../support/tempDir';
import { assertLinear } from './support/growth';
import { registry } from './support/structuralEngine';

const SCRIPT = path.join(repoRoot(), 'dist', 'indexWorker.js');

/** A seeded generator (mulberry32), so a failure can be run again. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Polls until `done` holds (10 s at most). */
async function waitFor(done: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('trigrams: what a file must hold for a text to occur in it', () => {
  it('every slice of a text has its trigrams in the text’s set (ASCII, other scripts, surrogate pairs, escapes)', () => {
    const next = random(7);
    const alphabet = ['a', 'b', 'Z', '_', '$', '0', '9', ' ', '.', '(', '\\', 'n', 'é', 'ж', '𝒳', '\n', '"'];
    for (let round = 0; round < 300; round++) {
      let text = '';
      const length = 1 + Math.floor(next() * 200);
      for (let at = 0; at < length; at++) text += alphabet[Math.floor(next() * alphabet.length)];
      const held = fileTrigrams(text);
      for (let slice = 0; slice < 20; slice++) {
        const start = Math.floor(next() * text.length);
        const end = start + Math.floor(next() * (text.length - start + 1));
        const texts = [text.slice(start, end), text.slice(0, Math.floor(next() * text.length))];
        assert.ok(holdsAll(held, requiredTrigrams(texts)), JSON.stringify({ text, texts }));
      }
    }
  });

  it('rules out a file without a word of the pattern; a text of punctuation or short words rules out nothing', () => {
    const source = 'if isinstance(value, str):\n    print(len(value))\n';
    assert.equal(holdsAll(fileTrigrams(source), requiredTrigrams(['isinstance', '('])), true);
    assert.equal(holdsAll(fileTrigrams(source), requiredTrigrams(['issubclass', '('])), false);
    assert.equal(holdsAll(fileTrigrams(source), requiredTrigrams(['print', 'len', 'value'])), true);
    assert.equal(requiredTrigrams(['(', ')', 'if', 'x.y', '=>']).length, 0);
  });

  it('is linear in the text', () => {
    assertLinear('fileTrigrams', (size) => fileTrigrams('isinstance(value, str) + ж𝒳 '.repeat(size)), 20_000);
  });
});

describe('trigram index: records and the saved file', () => {
  const STAT: FileStat = { dev: 2049, ino: 1234567, size: 10, mtimeMs: 1000.5, ctimeMs: 1000.75 };
  const record = (trigrams: number[], stat: Partial<FileStat> = {}): TrigramRecord => ({
    ...STAT,
    ...stat,
    trigrams: Uint16Array.from(trigrams).sort(),
  });

  it('a record answers while the path leads to the same file with the same size and times; a stale one is dropped', () => {
    const required = Uint16Array.of(5, 7);
    const index = new TrigramIndex(1 << 20);
    index.put('/a.py', record([1, 5, 9]));
    assert.equal(index.rulesOut('/a.py', STAT, required), true);
    assert.equal(index.rulesOut('/a.py', STAT, Uint16Array.of(1, 9)), false);
    assert.equal(index.rulesOut('/b.py', STAT, required), false, 'no record: read');
    for (const changed of [
      { ctimeMs: 2000 }, // written again within the same modification time (or set back): the change time moved
      { ino: 7654321 }, // another file now (a link retargeted, a folder swapped), however alike its times
      { dev: 2050 },
      { size: 11 },
    ]) {
      index.put('/a.py', record([1, 5, 9]));
      assert.equal(index.rulesOut('/a.py', { ...STAT, ...changed }, required), false, JSON.stringify(changed));
      assert.equal(index.size, 0);
    }
  });

  it('round-trips through its bytes; a torn, altered or foreign file is refused whole', () => {
    const index = new TrigramIndex(1 << 20);
    const stat: FileStat = {
      dev: 66306,
      ino: 2 ** 40 + 3,
      size: 12345,
      mtimeMs: 1733400000123.456,
      ctimeMs: 1733400000999.5,
    };
    index.put('/src/ü.py', record([3, 700, 65535], stat));
    index.put('/src/b.py', record([]));
    const bytes = index.serialize();
    const back = new TrigramIndex(1 << 20);
    assert.equal(back.load(bytes), true);
    assert.equal(back.size, 2);
    assert.deepEqual(back.fresh('/src/ü.py', stat), index.fresh('/src/ü.py', stat));
    assert.ok(back.fresh('/src/ü.py', stat));
    for (const broken of [
      bytes.subarray(0, bytes.length - 9),
      Buffer.concat([bytes, Buffer.from([0])]),
      (() => {
        const altered = Buffer.from(bytes);
        altered[altered.length - 12] ^= 1;
        return altered;
      })(),
      (() => {
        const other = Buffer.from(bytes);
        other.writeUInt32LE(99, 'ALT-TRIGRAMS'.length);
        return other;
      })(),
      Buffer.from('not an index'),
    ]) {
      const fresh = new TrigramIndex(1 << 20);
      assert.equal(fresh.load(broken), false);
      assert.equal(fresh.size, 0);
    }
  });

  it('keeps within its budget, the least recently used giving way', () => {
    const trigrams = Array.from({ length: 100 }, (_, at) => at);
    const one = new TrigramIndex(1 << 20);
    one.put('/x', record(trigrams));
    const budget = one.heldBytes * 2 + 10;
    const index = new TrigramIndex(budget);
    index.put('/1', record(trigrams));
    index.put('/2', record(trigrams));
    assert.ok(index.fresh('/1', STAT), 'used: now the most recent');
    index.put('/3', record(trigrams));
    assert.equal(index.size, 2);
    assert.ok(index.heldBytes <= budget);
    assert.equal(index.fresh('/2', STAT), undefined);
    assert.ok(index.fresh('/1', STAT));
  });
});

describe('trigram index: a search with it answers as one that reads every file', function () {
  this.timeout(120_000);
  const tempDir = suiteTempDir('trigram-search');
  const PATTERNS = ['new Map($$$A)', 'throw new $E($$$A)', '$A.push($B)', 'await $X', 'console.log($$$A)'];

  /** Searches cap files at this many characters: some of the corpus is over it, one surely (never read). */
  const CAP = 20_000;

  /** The repository's own TypeScript, copied: ~300 real files; and a binary one, one surely over the cap. */
  function corpus(name: string): string {
    const source = path.join(repoRoot(), 'src');
    const folder = path.join(tempDir(), name);
    for (const file of filesUnder(source, '.ts')) {
      const target = path.join(folder, path.relative(source, file));
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.copyFileSync(file, target);
    }
    fs.writeFileSync(path.join(folder, 'blob.ts'), 'const map = new Map();\u0000\n');
    fs.writeFileSync(path.join(folder, 'huge.ts'), `// ${'x'.repeat(4 * CAP)}\nconst items = [];\n`);
    return folder;
  }

  const plain = new StructuralSearch(registry, async (file) => readTextFile(file));

  async function answers(search: StructuralSearch, folder: string): Promise<string[]> {
    const files = filesUnder(folder, '.ts');
    const out: string[] = [];
    for (const pattern of PATTERNS) {
      const result: SearchResult = await search.search({
        pattern,
        language: 'typescript',
        files,
        maxResults: 1e9,
        maxFileLength: CAP,
      });
      const shown = (file: string) => path.relative(folder, file);
      out.push(
        `${pattern}: ${result.matchCount} ${result.files.map((found) => `${shown(found.file)}@${found.matches.map((match) => match.start).join(',')}`).join(' ')}`,
        `${pattern} skipped: ${result.skippedFiles.map((skipped) => `${shown(skipped.file)} (${skipped.reason})`).join(' ')}`,
      );
    }
    return out;
  }

  function indexed(folder: string, racyMs = 0): { search: StructuralSearch; filter: TrigramFilter } {
    const filter = new TrigramFilter({
      script: SCRIPT,
      storageFile: path.join(folder, '..', `${path.basename(folder)}.index`),
      racyMs,
    });
    return { filter, search: new StructuralSearch(registry, async (file) => readTextFile(file), { index: filter }) };
  }

  /** Random edits that change each file's size (a pattern word added or taken out), deletions, renames and a new file. */
  function mutate(folder: string, next: () => number): void {
    const files = filesUnder(folder, '.ts');
    for (let change = 0; change < 25; change++) {
      const file = files[Math.floor(next() * files.length)];
      if (!fs.existsSync(file)) continue;
      const kind = next();
      const text = fs.readFileSync(file, 'utf8');
      if (kind < 0.4) {
        const at = text.indexOf('\n', Math.floor(next() * text.length)) + 1;
        fs.writeFileSync(
          file,
          `${text.slice(0, at)}const seen${change} = new Map([[1, 2]]);\nconsole.log(seen${change});\n${text.slice(at)}`,
        );
      } else if (kind < 0.6)
        fs.writeFileSync(
          file,
          text.replace(/new Map|await |\.push\(/g, (found) =>
            found === 'await ' ? 'void ' : found === 'new Map' ? 'new Set' : '.add(',
          ),
        );
      else if (kind < 0.75) fs.rmSync(file);
      else if (kind < 0.9) fs.renameSync(file, `${file.slice(0, -3)}Moved${change}.ts`);
      else
        fs.writeFileSync(
          path.join(folder, `added${change}.ts`),
          `throw new Error('x');\nawait go();\nitems.push(${change});\n`,
        );
    }
  }

  it('after random edits, deletions and renames, every answer equals a full read’s, and most files are not read', async () => {
    const folder = corpus('edits');
    const { search, filter } = indexed(folder);
    try {
      assert.deepEqual(await answers(search, folder), await answers(plain, folder));
      await filter.built();
      assert.equal(filter.loadedFromDisk, false);
      const next = random(11);
      for (let round = 0; round < 4; round++) {
        const before = filter.ruledOutCount;
        assert.deepEqual(await answers(search, folder), await answers(plain, folder), `round ${round}`);
        assert.ok(
          filter.ruledOutCount - before > 200,
          `round ${round}: ${filter.ruledOutCount - before} files ruled out`,
        );
        mutate(folder, next);
        assert.deepEqual(
          await answers(search, folder),
          await answers(plain, folder),
          `round ${round}, at once after the changes`,
        );
        await filter.built();
      }
    } finally {
      filter.dispose();
    }
  });

  it('a later window reads the saved index: changes made while none was open are read again, and a torn file is not used', async () => {
    const folder = corpus('closed');
    const first = indexed(folder);
    await answers(first.search, folder);
    await first.filter.built();
    first.filter.dispose();
    mutate(folder, random(23));
    const second = indexed(folder);
    try {
      assert.deepEqual(await answers(second.search, folder), await answers(plain, folder));
      assert.equal(second.filter.loadedFromDisk, true);
      assert.ok(second.filter.ruledOutCount > 500, `${second.filter.ruledOutCount} files ruled out after the reload`);
      await second.filter.built();
    } finally {
      second.filter.dispose();
    }
    const storage = path.join(folder, '..', 'closed.index');
    fs.truncateSync(storage, Math.floor(fs.statSync(storage).size / 2));
    const third = indexed(folder);
    try {
      // Its first search has nothing to go by (the thread builds its own records only after it).
      await third.search.search({
        pattern: PATTERNS[0],
        language: 'typescript',
        files: filesUnder(folder, '.ts'),
        maxResults: 1,
      });
      assert.equal(third.filter.loadedFromDisk, false);
      assert.equal(third.filter.ruledOutCount, 0);
      assert.deepEqual(await answers(third.search, folder), await answers(plain, folder));
    } finally {
      third.filter.dispose();
    }
  });

  it('a path that leads to another file now (a link retargeted, a folder swapped) is read again, however alike the two files’ times', async () => {
    const folder = path.join(tempDir(), 'swapped');
    // Two files written in one clock tick: same size, same times. Each attempt writes new files: one that was
    // looked at since its last change may get a finer time on the next (the kernel's multigrain timestamps).
    const alike = (one: string, two: string) => {
      const [left, right] = [fs.statSync(one), fs.statSync(two)];
      return left.size === right.size && left.mtimeMs === right.mtimeMs && left.ctimeMs === right.ctimeMs;
    };
    let first = '';
    let second = '';
    for (let attempt = 0; attempt < 200 && !(first && alike(first, second)); attempt++) {
      [first, second] = [path.join(folder, `a${attempt}`, 'x.ts'), path.join(folder, `b${attempt}`, 'x.ts')];
      fs.mkdirSync(path.dirname(first), { recursive: true });
      fs.mkdirSync(path.dirname(second), { recursive: true });
      fs.writeFileSync(first, 'fooCall(1);\n');
      fs.writeFileSync(second, 'barCall(1);\n');
    }
    assert.ok(alike(first, second), 'the two files could not be written within one clock tick');
    const current = path.join(folder, 'current');
    fs.symlinkSync(path.dirname(first), current);
    const { search, filter } = indexed(folder);
    const find = async () =>
      (
        await search.search({
          pattern: 'barCall($A)',
          language: 'typescript',
          files: [path.join(current, 'x.ts')],
          maxResults: 10,
        })
      ).matchCount;
    try {
      assert.equal(await find(), 0);
      await filter.built();
      fs.rmSync(current);
      fs.symlinkSync(path.dirname(second), current);
      assert.equal(await find(), 1);
    } finally {
      filter.dispose();
    }
  });

  it('a question asked just as the idle thread is checked is answered (the thread is kept, or a fresh one asked)', async () => {
    // Many files (most not there): the thread is still at this question when the idle check's answer arrives.
    const folder = corpus('idle');
    const files = [
      ...filesUnder(folder, '.ts'),
      ...Array.from({ length: 30_000 }, (_, at) => path.join(folder, 'gone', `${at}.ts`)),
    ];
    const filter = new TrigramFilter({ script: SCRIPT, racyMs: 0, idleMs: 50 });
    const required = requiredTrigrams(['isinstance']);
    try {
      await filter.ruledOut(files.slice(0, 10), required, 1e9);
      filter.searchEnded();
      await filter.built();
      // A search starts the moment the idle check asks the thread how it is.
      let asked: Promise<unknown> | undefined;
      const status = filter.status.bind(filter);
      filter.status = () => {
        const answer = status();
        asked ??= filter.ruledOut(files, required, 1e9);
        return answer;
      };
      filter.searchEnded();
      while (!asked) await new Promise((resolve) => setTimeout(resolve, 10));
      const answered = await Promise.race([
        asked.then(() => true),
        new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 10_000)),
      ]);
      assert.ok(answered, 'the question was never answered');
    } finally {
      filter.dispose();
    }
  });

  /** `count` files saying `alpha`, in a folder of their own. */
  function alphaFiles(name: string, count: number): string[] {
    const folder = path.join(tempDir(), name);
    fs.mkdirSync(folder, { recursive: true });
    const files = Array.from({ length: count }, (_, at) => path.join(folder, `f${at}.ts`));
    for (const file of files) fs.writeFileSync(file, 'export const alpha = 1;\n');
    return files;
  }

  /** A search's question about the files (what it ruled out), then the records the thread builds once the search ended. */
  async function searchedOnce(filter: TrigramFilter, files: readonly string[]): Promise<Set<string>> {
    const out = await filter.ruledOut(files, requiredTrigrams(['alpha']), 1e9);
    filter.searchEnded();
    await filter.built();
    return out;
  }

  it('files the editor saw change are indexed again between searches, so the next search need not read them to tell', async () => {
    const files = alphaFiles('events', 6);
    const folder = path.dirname(files[0]);
    const filter = new TrigramFilter({ script: SCRIPT, racyMs: 0 });
    const alpha = requiredTrigrams(['alpha']);
    try {
      assert.equal((await searchedOnce(filter, files)).size, 0);
      // Three files lose the word; the editor reports two of them (and one it never searched, and a deleted one).
      for (const file of files.slice(0, 3)) fs.writeFileSync(file, 'export const betas = 22;\n');
      fs.rmSync(files[5]);
      filter.changed([files[0], files[1], files[5], path.join(folder, 'elsewhere.ts')]);
      await waitFor(async () => (await filter.status()).records === 5 && (await filter.status()).waiting === 0);
      // The two reported have fresh records without the word: ruled out; the third is stale by its stat, so read.
      const out = await filter.ruledOut(files.slice(0, 5), alpha, 1e9);
      assert.deepEqual([...out].sort(), [files[0], files[1]]);
    } finally {
      filter.dispose();
    }
  });

  it('a build from file events alone does not write the saved index again within a minute of the last save', async () => {
    const files = alphaFiles('eventsSave', 4);
    const storageFile = path.join(tempDir(), 'eventsSave.index');
    const filter = new TrigramFilter({ script: SCRIPT, racyMs: 0, storageFile });
    const alpha = requiredTrigrams(['alpha']);
    try {
      await searchedOnce(filter, files);
      const saved = fs.readFileSync(storageFile);
      fs.writeFileSync(files[0], 'export const omega = 22;\n');
      filter.changed([files[0]]);
      await new Promise((resolve) => setTimeout(resolve, 300));
      await filter.built();
      // Rebuilt in memory (the next search rules the file out without reading it), not written to disk yet.
      assert.equal((await filter.ruledOut([files[0]], alpha, 1e9)).size, 1);
      filter.searchEnded();
      assert.deepEqual(fs.readFileSync(storageFile), saved);
    } finally {
      filter.dispose();
    }
  });

  it('a file the editor saw change while a build runs is indexed too, once past the racy window', async () => {
    const [changed] = alphaFiles('eventsDuringBuild', 1);
    const others = Array.from({ length: 1500 }, (_, at) => path.join(path.dirname(changed), `o${at}.ts`));
    for (const file of others) fs.writeFileSync(file, `export const beta = 2;\n`.repeat(200));
    const racyMs = 1000;
    // Files just written are indexed only once past the racy window.
    await new Promise((resolve) => setTimeout(resolve, racyMs + 100));
    const filter = new TrigramFilter({ script: SCRIPT, racyMs });
    const alpha = requiredTrigrams(['alpha']);
    try {
      await searchedOnce(filter, [changed]);
      // A search that leaves many files to index; the file changes; the build of those starts, and the event comes.
      await filter.ruledOut(others, alpha, 1e9);
      fs.writeFileSync(changed, 'export const omega = 2;\n');
      filter.searchEnded();
      await new Promise((resolve) => setTimeout(resolve, 30));
      filter.changed([changed]);
      await new Promise((resolve) => setTimeout(resolve, racyMs + 300));
      await filter.built();
      assert.deepEqual([...(await filter.ruledOut([changed], alpha, 1e9))], [changed]);
    } finally {
      filter.dispose();
    }
  });

  it('a file changed within the racy window is not indexed (a second change within one clock tick keeps its times)', async () => {
    const folder = corpus('racy');
    const { search, filter } = indexed(folder, 60_000);
    try {
      assert.deepEqual(await answers(search, folder), await answers(plain, folder));
      await filter.built();
      assert.equal((await filter.status()).records, 0, 'every file was written within the minute');
      assert.equal(filter.ruledOutCount, 0);
    } finally {
      filter.dispose();
    }
  });
});
