/**
 * The structural search benchmark, on plain Node (`npm run bench` runs it after the editor
 * benchmark; alone, after a build: `node out/test/harness/bench.js --structural-only`). Real code
 * of three languages (structuralCorpora.ts), broad and selective patterns, our engine against
 * `ast-grep run` in the same run:
 * - cold: a fresh `node dist/cli.js` process (with its shebang's V8 flags) against a fresh
 *   ast-grep process on the same file list; wall time, CPU time (user + system) and peak resident
 *   memory of the whole process (/usr/bin/time); medians of N alternating pairs;
 * - warm: in this process, the engine as the extension holds it (parsing threads keeping
 *   structural indexes, the source cache, the match cache), after one search of the corpus and
 *   its background indexing: "warm new" is a pattern the match cache does not hold (matched from
 *   the indexes), "warm repeat" the same pattern again (from the match cache); medians of N,
 *   against ast-grep's cold median (ast-grep keeps nothing between runs);
 * - where the time goes (timeSplit.ts), and with `--scaling` the cost curve (scalingCurve.ts).
 * Targets (issue 18): cold ≤ 1.0× for selective patterns and ≤ 1.5× for broad ones, warm new ≤
 * 0.25×, peak ≤ 120 MiB. Both must find the same matches; where the counts differ, the files are named.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { MAX_SEARCHED_FILE_LENGTH } from '../src/structural/search';
import { DEFAULT_MEMORY_BUDGET_MB, parsingThreadsFor } from '../src/structural/engineMemory';
import { Contenders, contenders } from './contenders';
import { Corpus, structuralCorpora } from './structuralCorpora';
import { scalingCurve } from './scalingCurve';
import { timeSplit } from './timeSplit';
import { WarmResult, warmInChild } from './warmRun';
import {
  canMeasureMemory,
  countsByFile,
  markdownTable,
  median,
  mebibytes,
  ProcessRun,
  ratio,
  seconds,
  timedRun,
} from './timedRun';

export type PatternKind = 'broad' | 'selective';

/**
 * Per corpus, patterns an agent writes: broad ones (nearly every file may match, so nearly every
 * file is parsed) and selective ones. ast-grep reads a Go call on a selector alone
 * (`$A.$B($$$C)`, `fmt.Errorf($$$A)`) as a type conversion and matches nothing, so Go's rows use
 * patterns both read alike.
 */
export const PATTERNS: Readonly<
  Record<string, ReadonlyArray<{ readonly pattern: string; readonly kind: PatternKind }>>
> = {
  ts: [
    { pattern: '$A.$B($$$C)', kind: 'broad' },
    { pattern: 'await $X', kind: 'broad' },
    { pattern: 'JSON.parse($X)', kind: 'selective' },
  ],
  py: [
    { pattern: '$A.$B($$$C)', kind: 'broad' },
    { pattern: 'isinstance($X, $T)', kind: 'selective' },
  ],
  go: [
    { pattern: 'if err != nil { $$$B }', kind: 'broad' },
    { pattern: 'return nil, fmt.Errorf($$$A)', kind: 'selective' },
  ],
};

export const TARGET = { broad: 1.5, selective: 1.0, warmNew: 0.25, peakMiB: 120 };

export interface StructuralBenchOptions {
  /** Alternating pairs (and warm rounds) per pattern. */
  readonly rounds: number;
  /** Corpus names to run (all when empty). */
  readonly corpora: readonly string[];
  /** File counts of the scaling curve; none: not run. */
  readonly scaling: readonly number[];
}

interface Row {
  readonly corpus: Corpus;
  readonly pattern: string;
  readonly kind: PatternKind;
  readonly ours: ProcessRun[];
  readonly astGrep: ProcessRun[];
  readonly warmNewMs: number[];
  readonly warmRepeatMs: number[];
  warmMatches: number;
  /** Of the warm new search: texts matched from an index, and parsed. */
  fromIndex: number;
  parsed: number;
  readonly differingFiles: string[];
}

export async function structuralBenchmark(
  root: string,
  log: (line: string) => void,
  options: StructuralBenchOptions,
): Promise<{ targetsMet: boolean }> {
  const run = contenders(root);
  const found = structuralCorpora(root);
  const corpora = found.corpora.filter(
    (corpus) => options.corpora.length === 0 || options.corpora.includes(corpus.name),
  );
  log(
    `\nStructural search on real code: our command line (node dist/cli.js) against ast-grep ${astGrepVersion(root)}, ${options.rounds} alternating pairs per pattern, medians; ${os.availableParallelism()} cores.`,
  );
  if (!canMeasureMemory()) log('No /usr/bin/time: peak memory and CPU time not measured.');
  for (const reason of found.missing) log(`Left out: ${reason}.`);
  const prepared: Corpus[] = [];
  for (const corpus of corpora) prepared.push(await searchedByBoth(run, corpus, log));

  const rows: Row[] = [];
  const warm = new Map<Corpus, WarmResult>();
  for (const corpus of prepared) {
    for (const { pattern, kind } of PATTERNS[corpus.name]) {
      const row: Row = {
        corpus,
        pattern,
        kind,
        ours: [],
        astGrep: [],
        warmNewMs: [],
        warmRepeatMs: [],
        warmMatches: 0,
        fromIndex: 0,
        parsed: 0,
        differingFiles: [],
      };
      const oursArgs = run.ours(corpus.language, pattern, corpus.files);
      const theirArgs = run.theirs(corpus.language, pattern, corpus.files);
      for (let round = 0; round < options.rounds; round++) {
        const oursFirst = round % 2 === 0;
        if (oursFirst) row.ours.push(await timedRun(process.execPath, oursArgs, root));
        row.astGrep.push(await timedRun(run.astGrep, theirArgs, root));
        if (!oursFirst) row.ours.push(await timedRun(process.execPath, oursArgs, root));
      }
      if (row.ours[0].matches !== row.astGrep[0].matches)
        row.differingFiles.push(...(await differingFiles(run, oursArgs, theirArgs)));
      rows.push(row);
      log(`  ${corpus.name} ${pattern}: cold done`);
    }
    const own = rows.filter((row) => row.corpus === corpus);
    const result = await warmInChild({
      root,
      language: corpus.language,
      files: corpus.files,
      // The workspace was searched before with another pattern: the last one, so the first measured is new to the match cache.
      prime: own[own.length - 1].pattern,
      patterns: own.map((row) => row.pattern),
      rounds: options.rounds,
    });
    for (const [index, measured] of result.patterns.entries()) {
      const row = own[index];
      row.warmNewMs.push(...measured.newMs);
      row.warmRepeatMs.push(...measured.repeatMs);
      row.warmMatches = measured.matches;
      row.fromIndex = measured.fromIndex;
      row.parsed = measured.parsed;
    }
    warm.set(corpus, result);
    log(`  ${corpus.name}: warm done`);
  }

  const { text, targetsMet } = report(rows);
  log(`\n${text}`);
  log(
    `\nTargets: cold ≤ ${TARGET.selective.toFixed(1)}× ast-grep's wall for selective patterns, ≤ ${TARGET.broad}× for broad ones; warm new ≤ ${TARGET.warmNew}× ast-grep's cold wall; peak ≤ ${TARGET.peakMiB} MiB: ${targetsMet ? 'all met' : 'not all met'}.`,
  );
  log(
    `\nWarm: the engine as the extension holds it (${parsingThreadsFor(DEFAULT_MEMORY_BUDGET_MB * 1024 * 1024, os.availableParallelism())} parsing threads keeping structural indexes, the source cache, the match cache, all within the default memory budget of ${DEFAULT_MEMORY_BUDGET_MB} MiB), one process per corpus: the corpus searched once, its background indexing awaited, then each pattern new (the match cache emptied) and repeated, ${options.rounds} rounds. Memory of that whole process (Node alone: the RSS before the engine was made):`,
  );
  log(warmTable(warm));
  for (const row of rows) {
    if (row.warmMatches !== row.ours[0].matches)
      log(
        `${row.corpus.name} ${row.pattern}: the warm engine found ${row.warmMatches}, the command line ${row.ours[0].matches}.`,
      );
    if (row.differingFiles.length > 0)
      log(
        `${row.corpus.name} ${row.pattern}: the counts differ in ${row.differingFiles.length} files (ours / ast-grep): ${row.differingFiles.slice(0, 5).join('; ')}${row.differingFiles.length > 5 ? '; …' : ''}`,
      );
  }

  const python = prepared.find((corpus) => corpus.name === 'py');
  if (python) {
    log('');
    await timeSplit(run, python, PATTERNS.py, options.rounds, log, warm.get(python));
  }
  if (options.scaling.length > 0) {
    if (!python) log('\nThe scaling curve copies the Python standard library, which is not here.');
    else {
      log('');
      await scalingCurve(run, python, options.scaling, log);
    }
  }
  return { targetsMet };
}

/** The corpus less what ast-grep would not search (too large, say) and what exceeds our cap for folder searches, so both do the same work. */
async function searchedByBoth(run: Contenders, corpus: Corpus, log: (line: string) => void): Promise<Corpus> {
  const skipped = await astGrepSkips(run.astGrep, corpus.language, corpus.files, run.root);
  const sizes = new Map(corpus.files.map((file) => [file, fs.statSync(file).size]));
  for (const file of corpus.files)
    if (!skipped.has(file) && fs.readFileSync(file, 'utf8').length > MAX_SEARCHED_FILE_LENGTH)
      skipped.set(file, 'over our size cap');
  const files = corpus.files.filter((file) => !skipped.has(file));
  const bytes = files.reduce((sum, file) => sum + (sizes.get(file) ?? 0), 0);
  const largest = files.reduce((a, b) => ((sizes.get(b) ?? 0) > (sizes.get(a) ?? 0) ? b : a));
  const mib = (size: number): string => `${(size / 1024 / 1024).toFixed(1)} MiB`;
  log(
    `${corpus.name}: ${corpus.description}: ${files.length} files, ${mib(bytes)} (largest ${path.basename(largest)}, ${mib(sizes.get(largest) ?? 0)}).`,
  );
  if (skipped.size > 0)
    log(
      `  Left out: ${[...skipped].map(([file, reason]) => `${shown(run.root, file)} (${mib(sizes.get(file) ?? 0)}, ${reason})`).join(', ')}`,
    );
  return { ...corpus, files };
}

/** The files ast-grep would not search, with its reason (`--inspect entity`). */
function astGrepSkips(
  binary: string,
  language: string,
  files: readonly string[],
  cwd: string,
): Promise<Map<string, string>> {
  return new Promise((resolve, reject) => {
    const args = ['run', '--pattern', 'benchmark_probe_matches_nothing', '--lang', language, '--inspect', 'entity'];
    const child = spawn(binary, [...args, ...files], { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', () => {
      const skipped = new Map<string, string>();
      for (const [, file, reason] of stderr.matchAll(/^sg: entity\|file\|(.*): skipped=(\w+)$/gm))
        skipped.set(path.resolve(cwd, file), reason);
      resolve(skipped);
    });
  });
}

async function differingFiles(run: Contenders, oursArgs: string[], theirArgs: string[]): Promise<string[]> {
  const [ours, theirs] = await Promise.all([
    countsByFile(process.execPath, oursArgs, run.root),
    countsByFile(run.astGrep, theirArgs, run.root),
  ]);
  const differing: string[] = [];
  for (const file of new Set([...ours.keys(), ...theirs.keys()])) {
    const a = ours.get(file) ?? 0;
    const b = theirs.get(file) ?? 0;
    if (a !== b) differing.push(`${shown(run.root, file)} ${a} / ${b}`);
  }
  return differing;
}

function warmTable(warm: ReadonlyMap<Corpus, WarmResult>): string {
  const lines = [
    [
      'corpus',
      'first search',
      'indexing after it',
      'files indexed',
      'read all through the source cache',
      'peak MiB (Node alone)',
      'RSS MiB after / after a GC (heap)',
      'engine MiB (budget)',
      'CPU',
      'first after a reload (not read)',
      'trigram index file / text',
    ],
  ];
  for (const [corpus, result] of warm)
    lines.push([
      corpus.name,
      seconds(result.primeMs),
      seconds(result.indexingMs),
      `${result.indexedFiles} of ${corpus.files.length}`,
      seconds(result.cachedReadMs),
      `${mebibytes(result.peakMiB)} (${mebibytes(result.baselineMiB)})`,
      `${mebibytes(result.afterMiB)} / ${mebibytes(result.afterGcMiB)} (${mebibytes(result.heapAfterGcMiB)})`,
      `${mebibytes(result.engineMiB)} (${result.budgetMiB})`,
      result.cpuMs === undefined ? 'n/a' : seconds(result.cpuMs),
      `${seconds(result.reloadMs)} (${result.reloadRuledOut})`,
      (result.indexFileBytes / result.textBytes).toFixed(3),
    ]);
  return markdownTable(lines);
}

function report(rows: readonly Row[]): { text: string; targetsMet: boolean } {
  const lines = [
    [
      'pattern',
      'corpus',
      'kind',
      'matches ours / ast-grep',
      'cold wall ours / ast-grep',
      'wall',
      'CPU',
      'peak MiB ours / ast-grep',
      'warm new',
      'warm new / ast-grep cold',
      'from index',
      'warm repeat',
      'targets',
    ],
  ];
  let targetsMet = true;
  for (const row of rows) {
    const coldOurs = median(row.ours.map((one) => one.ms));
    const coldPeer = median(row.astGrep.map((one) => one.ms));
    const cpuOurs = median(row.ours.map((one) => one.cpuMs ?? Number.NaN));
    const cpuPeer = median(row.astGrep.map((one) => one.cpuMs ?? Number.NaN));
    const peakOurs = median(row.ours.map((one) => one.peakMiB ?? Number.NaN));
    const peakPeer = median(row.astGrep.map((one) => one.peakMiB ?? Number.NaN));
    const warmNew = median(row.warmNewMs);
    const warmRepeat = median(row.warmRepeatMs);
    const missed = [
      coldOurs / coldPeer > TARGET[row.kind] ? `cold > ${TARGET[row.kind].toFixed(1)}×` : '',
      warmNew / coldPeer > TARGET.warmNew ? `warm new > ${TARGET.warmNew}×` : '',
      peakOurs > TARGET.peakMiB ? `peak > ${TARGET.peakMiB} MiB` : '',
    ].filter(Boolean);
    targetsMet &&= missed.length === 0;
    lines.push([
      `\`${row.pattern}\``,
      row.corpus.name,
      row.kind,
      `${row.ours[0].matches} / ${row.astGrep[0].matches}`,
      `${seconds(coldOurs)} / ${seconds(coldPeer)}`,
      ratio(coldOurs, coldPeer),
      Number.isFinite(cpuOurs + cpuPeer) ? ratio(cpuOurs, cpuPeer) : 'n/a',
      `${mebibytes(Number.isFinite(peakOurs) ? peakOurs : undefined)} / ${mebibytes(Number.isFinite(peakPeer) ? peakPeer : undefined)}`,
      seconds(warmNew),
      ratio(warmNew, coldPeer),
      `${row.fromIndex} of ${row.fromIndex + row.parsed}`,
      `${seconds(warmRepeat)} (${ratio(warmRepeat, coldPeer)})`,
      missed.length === 0 ? 'met' : `not met: ${missed.join(', ')}`,
    ]);
  }
  return { text: markdownTable(lines), targetsMet };
}

/** A path inside the repository relative to it, any other absolute. */
function shown(root: string, file: string): string {
  return file.startsWith(root + path.sep) ? path.relative(root, file) : file;
}

function astGrepVersion(root: string): string {
  try {
    const manifest = path.join(root, 'node_modules', '@ast-grep', 'cli', 'package.json');
    return (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { version: string }).version;
  } catch {
    return '(version unknown)';
  }
}
