/**
 * The warm engine's process (`node out/bench/warmProcess.js SPEC.json`, its own entry in
 * esbuild.mjs so that nothing else is loaded): our engine as the extension holds it
 * (structuralService.ts: parsing threads keeping structural indexes, the source cache, the match
 * cache, the trigram index kept in a file) runs the measures of warmRun.ts, then makes the engine
 * again as a reloaded window does (the trigram index read from its file) for one search, and
 * prints the result as one line of JSON.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { GRAMMARS } from '../src/structural/grammarManifest';
import { LanguageRegistry } from '../src/structural/languages';
import { StructuralSearch } from '../src/structural/search';
import { ParsePool } from '../src/structural/parsePool';
import { SourceCache } from '../src/structural/sourceCache';
import { TrigramFilter } from '../src/structural/trigramFilter';
import { DEFAULT_MEMORY_BUDGET_MB, EngineMemory, parsingThreadsFor } from '../src/structural/engineMemory';
import { residentMiB } from './timedRun';
import type { WarmPattern, WarmResult, WarmSpec } from './warmRun';

/** The engine as structuralService.ts makes it, its trigram index kept in `storageFile`. */
function engineOf(spec: WarmSpec, registry: LanguageRegistry, storageFile: string) {
  const budget = DEFAULT_MEMORY_BUDGET_MB * 1024 * 1024;
  const cache = new SourceCache();
  const pool = new ParsePool({
    script: path.join(spec.root, 'dist', 'parseWorker.js'),
    size: parsingThreadsFor(budget, os.availableParallelism()),
    index: true,
  });
  const filter = new TrigramFilter({ script: path.join(spec.root, 'dist', 'indexWorker.js'), storageFile });
  const engine = new StructuralSearch(registry, (file) => cache.read(file), {
    pool,
    cacheMatches: true,
    index: filter,
  });
  const memory = new EngineMemory(budget, {
    threads: () => pool.threadMemory(),
    indexThread: () => filter.threadMemory(),
    retireIdleThreads: () => pool.retireIdleThreads(),
    structuralIndexes: pool.structuralIndexes,
    sourceCache: cache,
    matchCache: engine.matchCache,
  });
  memory.settle();
  return {
    cache,
    pool,
    filter,
    engine,
    memory,
    dispose: () => {
      pool.dispose();
      filter.dispose();
    },
  };
}

async function warmRun(spec: WarmSpec): Promise<WarmResult> {
  const baselineMiB = residentMiB();
  const registry = new LanguageRegistry({
    grammars: GRAMMARS,
    locateWasm: (entry) => path.join(spec.root, 'dist', 'grammars', `${entry.id}.wasm`),
    runtimeWasm: path.join(spec.root, 'dist', 'web-tree-sitter.wasm'),
  });
  const storage = fs.mkdtempSync(path.join(os.tmpdir(), 'live-tools-trigrams-'));
  const storageFile = path.join(storage, 'structural-trigrams.bin');
  let current = engineOf(spec, registry, storageFile);
  let engineBytes = 0;
  try {
    const search = async (pattern: string) => {
      const { pool, filter, engine } = current;
      // Background indexing left from the search before settles first: an agent's next question comes seconds later.
      await pool.indexingDone();
      await filter.built();
      const before = { ...pool.served, ruledOut: filter.ruledOutCount };
      const started = performance.now();
      const result = await engine.search({
        pattern,
        language: spec.language,
        files: [...spec.files],
        maxResults: Number.POSITIVE_INFINITY,
      });
      const ms = performance.now() - started;
      // As structuralService.ts does after each search; measured once the background work it left is done.
      current.cache.searchEnded();
      await pool.indexingDone();
      current.memory.settle();
      engineBytes = Math.max(engineBytes, current.memory.totalBytes());
      return {
        ms,
        matches: result.matchCount,
        fromIndex: pool.served.fromIndex - before.fromIndex,
        parsed: pool.served.parsed - before.parsed,
        ruledOut: filter.ruledOutCount - before.ruledOut,
      };
    };
    const primeMs = (await search(spec.prime)).ms;
    let started = performance.now();
    await current.pool.indexingDone();
    await current.filter.built();
    const indexingMs = performance.now() - started;
    started = performance.now();
    for (const file of spec.files) await current.cache.read(file);
    const cachedReadMs = performance.now() - started;
    const patterns: WarmPattern[] = spec.patterns.map((pattern) => ({
      pattern,
      newMs: [],
      repeatMs: [],
      matches: 0,
      fromIndex: 0,
      parsed: 0,
      ruledOut: 0,
    }));
    for (let round = 0; round < spec.rounds; round++) {
      for (const measured of patterns) {
        current.engine.forgetMatches();
        const fresh = await search(measured.pattern);
        measured.newMs.push(fresh.ms);
        measured.fromIndex = fresh.fromIndex;
        measured.parsed = fresh.parsed;
        measured.ruledOut = fresh.ruledOut;
        const again = await search(measured.pattern);
        measured.repeatMs.push(again.ms);
        measured.matches = again.matches;
      }
    }
    await current.pool.indexingDone();
    await current.filter.built();
    const indexedFiles = current.pool.indexedFiles;
    const afterMiB = residentMiB();
    (globalThis as { gc?: () => void }).gc?.();
    const heapAfterGcMiB = process.memoryUsage().heapUsed / 1024 / 1024;
    const afterGcMiB = residentMiB();
    // A reloaded window: nothing held but the trigram index's file.
    current.dispose();
    current = engineOf(spec, registry, storageFile);
    const reload = await search(spec.patterns[0]);
    return {
      primeMs,
      indexingMs,
      cachedReadMs,
      indexedFiles,
      baselineMiB,
      afterMiB,
      heapAfterGcMiB,
      afterGcMiB,
      engineMiB: engineBytes / 1024 / 1024,
      budgetMiB: DEFAULT_MEMORY_BUDGET_MB,
      patterns,
      reloadMs: reload.ms,
      reloadRuledOut: reload.ruledOut,
      indexFileBytes: fs.statSync(storageFile).size,
      textBytes: spec.files.reduce((sum, file) => sum + fs.statSync(file).size, 0),
    };
  } finally {
    current.dispose();
    fs.rmSync(storage, { recursive: true, force: true });
  }
}

async function main(specFile: string): Promise<void> {
  const spec = JSON.parse(fs.readFileSync(specFile, 'utf8')) as WarmSpec;
  process.stdout.write(`${JSON.stringify(await warmRun(spec))}\n`);
}

main(process.argv[2]).catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : String(error));
  process.exitCode = 1;
});
