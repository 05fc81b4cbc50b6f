/**
 * Where a cold search's time goes: the command line's steps done one after another in this
 * process on one thread (read, prefilter, parse, match, JSON out), against the whole command
 * line on one thread (`--threads 0`) and on its parsing threads, and against ast-grep on one
 * thread (`-j 1`) and on all. What the one-thread command line takes beyond the sum of the steps
 * is its start (Node, the bundle, wasm) and printing; what the threaded one takes in CPU beyond
 * the one-thread one is the hand-off (threads starting and loading grammars, files read again
 * there, matches copied back). Also what a warm search pays instead of parsing: matching a
 * structural index (and, once, in the background, building it).
 */
import * as path from 'node:path';
import { GRAMMARS } from '../src/structural/grammarManifest';
import { FlatTree, GrammarTypes } from '../src/structural/flatTree';
import { LanguageRegistry } from '../src/structural/languages';
import { findMatches } from '../src/structural/matcher';
import { matchJsonLine } from '../src/cli/batchSearch';
import { compilePattern } from '../src/structural/pattern';
import { mayMatch } from '../src/structural/prefilter';
import { readTextFile } from '../src/structural/fileMatcher';
import type { Contenders } from './contenders';
import type { PatternKind } from './structural';
import type { Corpus } from './structuralCorpora';
import { markdownTable, median, ProcessRun, timedRun } from './timedRun';
import type { WarmResult } from './warmRun';

/** CPU time of this process so far, in ms (this thread is the only busy one while the steps run). */
function cpuNow(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

interface Steps {
  filesParsed: number;
  charactersParsed: number;
  matches: number;
  readMs: number;
  prefilterMs: number;
  compileMs: number;
  parseMs: number;
  matchMs: number;
  jsonMs: number;
  indexMs: number;
  matchIndexMs: number;
  indexBytes: number;
  /** Characters of JSON out (kept so the lines are not optimised away). */
  jsonCharacters: number;
}

export async function timeSplit(
  run: Contenders,
  corpus: Corpus,
  patterns: ReadonlyArray<{ readonly pattern: string; readonly kind: PatternKind }>,
  rounds: number,
  log: (line: string) => void,
  warm?: WarmResult,
): Promise<void> {
  log(
    `Where the time goes (${corpus.name}, ${corpus.files.length} files): the command line's steps one after another on one thread of this process, then whole processes (medians of ${rounds}); CPU time, which load on the machine disturbs less than wall time.`,
  );
  const registry = new LanguageRegistry({
    grammars: GRAMMARS,
    locateWasm: (entry) => path.join(run.root, 'dist', 'grammars', `${entry.id}.wasm`),
    runtimeWasm: path.join(run.root, 'dist', 'web-tree-sitter.wasm'),
  });
  let started = cpuNow();
  const loaded = await registry.load(corpus.language);
  const grammarMs = cpuNow() - started;
  const types = new GrammarTypes(loaded.language);
  const steps: Steps[] = [];
  for (const { pattern } of patterns) steps.push(stepsOf(corpus, pattern, loaded, types));

  const startRuns: ProcessRun[] = [];
  const processes = patterns.map(() => ({
    oneThread: [] as ProcessRun[],
    threads: [] as ProcessRun[],
    theirsOneThread: [] as ProcessRun[],
    theirs: [] as ProcessRun[],
  }));
  for (let round = 0; round < rounds; round++) {
    startRuns.push(await timedRun(process.execPath, [...run.cli, '--help'], run.root));
    for (const [index, { pattern }] of patterns.entries()) {
      const runs = processes[index];
      const ours = (extra: string[]) => run.ours(corpus.language, pattern, corpus.files, extra);
      const theirs = (extra: string[]) => run.theirs(corpus.language, pattern, corpus.files, extra);
      runs.oneThread.push(await timedRun(process.execPath, ours(['--threads', '0']), run.root));
      runs.theirsOneThread.push(await timedRun(run.astGrep, theirs(['--threads', '1']), run.root));
      runs.threads.push(await timedRun(process.execPath, ours([]), run.root));
      runs.theirs.push(await timedRun(run.astGrep, theirs([]), run.root));
    }
  }

  const ms = (value: number): string => `${Math.round(value)} ms`;
  const wall = (runs: readonly ProcessRun[]): number => median(runs.map((one) => one.ms));
  const cpu = (runs: readonly ProcessRun[]): number => median(runs.map((one) => one.cpuMs ?? Number.NaN));
  const cpuAndWall = (runs: readonly ProcessRun[]): string => `${ms(cpu(runs))} (wall ${ms(wall(runs))})`;
  const startMs = cpu(startRuns);
  const stepsSum = (one: Steps): number =>
    one.readMs + one.prefilterMs + one.compileMs + one.parseMs + one.matchMs + one.jsonMs;
  const withShare = (part: number, one: Steps): string => `${ms(part)} (${Math.round((100 * part) / stepsSum(one))} %)`;
  const column = (build: (one: Steps, index: number) => string): string[] =>
    patterns.map((_, index) => build(steps[index], index));
  const warmOf = (pattern: string) => warm?.patterns.find((measured) => measured.pattern === pattern);
  const rows: string[][] = [
    ['CPU time unless said', ...patterns.map(({ pattern, kind }) => `\`${pattern}\` (${kind})`)],
    [
      'files parsed (characters)',
      ...column((one) => `${one.filesParsed} of ${corpus.files.length} (${(one.charactersParsed / 1e6).toFixed(1)} M)`),
    ],
    ['matches', ...column((one) => String(one.matches))],
    ['**cold, the steps on one thread**', ...column(() => '')],
    ['Node start, bundle loaded (`cli.js --help`)', ...column(() => ms(startMs))],
    ['grammar loaded (wasm)', ...column(() => ms(grammarMs))],
    ['read files', ...column((one) => withShare(one.readMs, one))],
    ['prefilter', ...column((one) => withShare(one.prefilterMs, one))],
    ['compile pattern', ...column((one) => withShare(one.compileMs, one))],
    ['parse (wasm)', ...column((one) => withShare(one.parseMs, one))],
    ['match (parse tree)', ...column((one) => withShare(one.matchMs, one))],
    ['JSON out (build + stringify)', ...column((one) => withShare(one.jsonMs, one))],
    ['start + grammar + steps', ...column((one) => ms(startMs + grammarMs + stepsSum(one)))],
    ['**cold, whole processes**', ...column(() => '')],
    ['ours, one thread (`--threads 0`)', ...column((_, index) => cpuAndWall(processes[index].oneThread))],
    [
      'of which beyond start + steps (printing, GC in its 64 MB heap)',
      ...column((one, index) => ms(cpu(processes[index].oneThread) - startMs - grammarMs - stepsSum(one))),
    ],
    ['ours, parsing threads (default)', ...column((_, index) => cpuAndWall(processes[index].threads))],
    [
      'of which hand-off (threads start and load wasm, read again, copy matches back)',
      ...column((_, index) => ms(cpu(processes[index].threads) - cpu(processes[index].oneThread))),
    ],
    ['ast-grep, one thread (`-j 1`)', ...column((_, index) => cpuAndWall(processes[index].theirsOneThread))],
    ['ast-grep, default threads', ...column((_, index) => cpuAndWall(processes[index].theirs))],
    [
      'our parse alone / ast-grep one thread, whole',
      ...column((one, index) => `${(one.parseMs / cpu(processes[index].theirsOneThread)).toFixed(2)}×`),
    ],
    ['**warm (indexes built)**', ...column(() => '')],
    [
      'warm new, whole search (engine, wall; main table)',
      ...column((_, index) => {
        const measured = warmOf(patterns[index].pattern);
        return measured ? `${ms(median(measured.newMs))} (wall)` : 'n/a';
      }),
    ],
    [
      'of which reading every file through the source cache (a stat each)',
      ...column(() => (warm ? `${ms(warm.cachedReadMs)} (wall)` : 'n/a')),
    ],
    ['matching the indexes instead of parse + match', ...column((one) => ms(one.matchIndexMs))],
    [
      'building the indexes (once, in the background)',
      ...column((one) => `${ms(one.indexMs)}, ${(one.indexBytes / one.charactersParsed).toFixed(1)} bytes/char`),
    ],
  ];
  log(markdownTable(rows));
  const [first] = steps;
  log(
    `Cold, one thread: parsing is ${patterns.map((_, index) => `${Math.round((100 * steps[index].parseMs) / cpu(processes[index].oneThread))} %`).join(' and ')} of the CPU; parsing alone costs ${patterns.map((_, index) => `${(steps[index].parseMs / cpu(processes[index].theirsOneThread)).toFixed(2)}×`).join(' and ')} ast-grep's whole one-thread run (${(first.parseMs / (first.charactersParsed / 1e6)).toFixed(0)} ms per M characters).`,
  );
}

/** The command line's steps over the corpus, one after another on this thread, each timed on its own. */
function stepsOf(
  corpus: Corpus,
  pattern: string,
  loaded: Awaited<ReturnType<LanguageRegistry['load']>>,
  types: GrammarTypes,
): Steps {
  const steps: Steps = {
    filesParsed: 0,
    charactersParsed: 0,
    matches: 0,
    readMs: 0,
    prefilterMs: 0,
    compileMs: 0,
    parseMs: 0,
    matchMs: 0,
    jsonMs: 0,
    indexMs: 0,
    matchIndexMs: 0,
    indexBytes: 0,
    jsonCharacters: 0,
  };
  let started = cpuNow();
  const compiled = compilePattern(loaded, pattern);
  steps.compileMs = cpuNow() - started;
  for (const file of corpus.files) {
    started = cpuNow();
    const text = readTextFile(file);
    steps.readMs += cpuNow() - started;
    if (typeof text !== 'string') continue;
    started = cpuNow();
    const candidate = mayMatch(text, compiled);
    steps.prefilterMs += cpuNow() - started;
    if (!candidate) continue;
    started = cpuNow();
    const tree = loaded.parser.parse(text);
    steps.parseMs += cpuNow() - started;
    if (!tree) continue;
    steps.filesParsed++;
    steps.charactersParsed += text.length;
    let index: FlatTree;
    try {
      started = cpuNow();
      const matches = findMatches(tree, text, compiled.root);
      steps.matchMs += cpuNow() - started;
      steps.matches += matches.length;
      started = cpuNow();
      for (const match of matches) steps.jsonCharacters += matchJsonLine(file, match).length;
      steps.jsonMs += cpuNow() - started;
      started = cpuNow();
      index = FlatTree.fromTree(tree, types);
      steps.indexMs += cpuNow() - started;
    } finally {
      started = cpuNow();
      tree.delete();
      steps.parseMs += cpuNow() - started;
    }
    steps.indexBytes += index.bytes;
    started = cpuNow();
    findMatches(index.withText(text), text, compiled.root);
    steps.matchIndexMs += cpuNow() - started;
  }
  return steps;
}
