/**
 * The command line's batch run (src/cli/batchSearch.ts): the same matches, texts and skipped
 * files as the editor's search of the texts on this thread, handed on file by file in file order,
 * whether the parsing threads read the files or this thread matches them; and how far it hands
 * files out while the first one is still being parsed.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  BatchFile,
  BatchRequest,
  batchSearch,
  FILES_AHEAD_PER_THREAD_READING,
  MAX_HELD_LENGTH,
} from '../../src/cli/batchSearch';
import {
  DiskJob,
  FileMatcher,
  FileOutcome,
  FileText,
  InlineMatcher,
  PatternSummary,
  readTextFile,
} from '../../src/structural/fileMatcher';
import { ParsePool } from '../../src/structural/parsePool';
import { FileMatches, MAX_SEARCHED_FILE_LENGTH, StructuralSearch } from '../../src/structural/search';
import { registry, writeLogFiles } from './support/structuralEngine';
import { suiteTempDir } from '../support/tempDir';
import { repoRoot } from '../support/repoRoot';

const SCRIPT = path.join(repoRoot(), 'dist', 'parseWorker.js');

/** As the command line reads: why there is no text for a missing or binary file. */
const readText = async (file: string): Promise<FileText> => readTextFile(file);

function summary(files: ReadonlyArray<BatchFile | FileMatches>): string[] {
  return files.flatMap((file) =>
    file.matches.map(
      (match) =>
        `${path.basename(file.file)}:${match.startRow + 1} ${match.text} ${[...match.captures].map(([name, capture]) => `${name}=${capture.text}`).join(' ')}`,
    ),
  );
}

/** A batch run with what it handed on, in the order it did. */
async function batch(
  matcher: FileMatcher,
  request: Omit<BatchRequest, 'onFile' | 'maxFileLength' | 'withSources'> & Partial<BatchRequest>,
) {
  const files: BatchFile[] = [];
  const result = await batchSearch(registry, readText, matcher, {
    maxFileLength: MAX_SEARCHED_FILE_LENGTH,
    withSources: true,
    ...request,
    onFile: (file) => files.push(file),
  });
  return { ...result, files };
}

describe('the command line batch run', function () {
  this.timeout(30_000);
  const dir = suiteTempDir('batch-search-');
  let files: string[];
  let nested: string;
  let binary: string;
  let big: string;
  let pool: ParsePool;

  before(() => {
    files = writeLogFiles(dir());
    nested = path.join(dir(), 'nested.js');
    // Nested matches repeat the same text: they come back as offsets into the text, sent once.
    fs.writeFileSync(
      nested,
      'function outer() {\n  function middle() {\n    function inner() { log(1); }\n  }\n}\nlog(2);\n',
    );
    binary = path.join(dir(), 'binary.js');
    fs.writeFileSync(binary, 'log(1);\u0000\n');
    big = path.join(dir(), 'big.js');
    fs.writeFileSync(big, `log(3);\n${'x;\n'.repeat(MAX_SEARCHED_FILE_LENGTH / 2)}`);
  });

  beforeEach(() => (pool = new ParsePool({ script: SCRIPT, size: 2 })));
  afterEach(() => pool.dispose());

  it('hands on each file in file order, on threads or on this thread', async () => {
    for (const matcher of [pool, new InlineMatcher(registry)]) {
      const seen = await batch(matcher, { pattern: 'log($A, $B)', files, maxResults: Number.POSITIVE_INFINITY });
      assert.equal(seen.matchCount, 20);
      assert.deepEqual(
        seen.files.slice(0, 3).map((file) => `${path.basename(file.file)} ${file.matches.length}`),
        ['file00.ts 1', 'file03.ts 1', 'file06.ts 1'],
      );
    }
  });

  it('answers as a search of texts on this thread does, with or without the texts, and says what it skipped', async () => {
    const all = [...files, nested, binary, big, path.join(dir(), 'missing.js')];
    for (const pattern of ['log($A)', 'function $F() { $$$B }', 'log($$$A)']) {
      const request = { pattern, files: all, maxResults: Number.POSITIVE_INFINITY };
      const inline = await new StructuralSearch(registry, readText).search(request);
      const read = await batch(pool, request);
      const lean = await batch(pool, { ...request, withSources: false });
      const here = await batch(new InlineMatcher(registry), { ...request, withSources: false });
      assert.ok(inline.matchCount > 2, pattern);
      assert.deepEqual(summary(read.files), summary(inline.files), pattern);
      assert.deepEqual(summary(lean.files), summary(inline.files), pattern);
      assert.deepEqual(summary(here.files), summary(inline.files), pattern);
      assert.deepEqual(
        read.files.map((file) => file.source),
        inline.files.map((file) => file.source),
        pattern,
      );
      assert.ok(
        lean.files.every((file) => file.source === undefined),
        pattern,
      );
      for (const run of [read, here])
        assert.deepEqual(
          [run.matchCount, run.filesParsed, run.skippedFiles],
          [inline.matchCount, inline.filesParsed, inline.skippedFiles],
          pattern,
        );
    }
    const functions = await batch(pool, {
      pattern: 'function $F() { $$$B }',
      files: [nested, files[4]],
      maxResults: 10,
    });
    assert.deepEqual(
      summary(functions.files).map((line) => line.split(' ')[0]),
      ['nested.js:1', 'nested.js:2', 'nested.js:3'],
    );
    assert.deepEqual(functions.skippedFiles, []);
    const capped = await batch(pool, { pattern: 'log($A)', files: [big, nested], maxResults: 10 });
    assert.deepEqual(
      [capped.skippedFiles.map((skipped) => skipped.file), summary(capped.files)],
      [[big], ['nested.js:3 log(1) A=1', 'nested.js:6 log(2) A=2']],
    );
  });

  it('stops at the cap as the editor search does', async () => {
    const request = { pattern: 'log($$$A)', files, maxResults: 5 };
    const editor = await new StructuralSearch(registry, readText).search(request);
    for (const matcher of [pool, new InlineMatcher(registry)]) {
      const run = await batch(matcher, request);
      assert.deepEqual([run.truncated, run.matchCount, summary(run.files)], [true, 5, summary(editor.files)]);
    }
  });
});

/**
 * Stand-in threads that read the files (to hold the first file's answer back on demand, which real
 * threads do not): how far a batch run hands files out while it waits for the first one.
 */
class HeldBackThreads implements FileMatcher {
  readonly parallelism = 2;
  /** Files handed out when the first one was answered. */
  handedWhenFirstAnswered = 0;
  private handed = 0;
  private answerFirst: () => void = () => undefined;

  constructor(private readonly matchedLength: number) {}

  async matchFile(_job: DiskJob): Promise<FileOutcome> {
    const outcome = {
      parsed: true,
      matches: [
        {
          start: 0,
          end: this.matchedLength,
          startRow: 0,
          startColumn: 0,
          endRow: 0,
          text: 'f()',
          captures: new Map(),
          coveredStart: 0,
          coveredEnd: this.matchedLength,
        },
      ],
    };
    if (++this.handed > 1) return outcome;
    // The first is answered once no more files come (none for 200 ms), as a long parse would be.
    await new Promise<void>((resolve) => {
      this.answerFirst = resolve;
      this.waitForQuiet();
    });
    this.handedWhenFirstAnswered = this.handed;
    return outcome;
  }

  async match(): Promise<never> {
    throw new Error('a batch run hands over files, not texts');
  }

  async describe(language: string): Promise<PatternSummary> {
    return {
      language,
      context: 'expression',
      requiredTexts: [],
      requiredRuns: [],
      gapWords: [],
      metavariables: new Map(),
    };
  }

  dispose(): void {}

  private waitForQuiet(): void {
    const handed = this.handed;
    setTimeout(() => (this.handed === handed ? this.answerFirst() : this.waitForQuiet()), 200);
  }
}

describe('a batch run while the first file is still being parsed', () => {
  const files = Array.from({ length: 1000 }, (_, i) => path.join(os.tmpdir(), `ahead${i}.js`));
  const search = (threads: HeldBackThreads) =>
    batchSearch(registry, async () => 'f()', threads, {
      pattern: 'f()',
      language: 'javascript',
      files,
      maxResults: Number.POSITIVE_INFINITY,
      maxFileLength: MAX_SEARCHED_FILE_LENGTH,
      withSources: false,
      onFile: () => undefined,
    });

  it('keeps handing files to the other threads, many more than the threads hold', async () => {
    const threads = new HeldBackThreads(3);
    assert.equal((await search(threads)).matchCount, files.length);
    assert.equal(threads.handedWhenFirstAnswered, 2 * FILES_AHEAD_PER_THREAD_READING);
  });

  it('stops handing them out once the matches waiting behind the first hold too much text', async () => {
    const threads = new HeldBackThreads(MAX_HELD_LENGTH / 4);
    assert.equal((await search(threads)).matchCount, files.length);
    // The first, then four files whose matches make the limit and a fifth that goes over it (an
    // answer is counted when it comes, so one more file is handed out before it is).
    assert.equal(threads.handedWhenFirstAnswered, 7);
  });
});
