/**
 * The warm engine's process (`node out/bench/warmProcess.js SPEC.json`, its own entry in
 * esbuild.mjs so that nothing else is loaded): our engine as the extension holds it
 * (structuralService.ts: parsing threads keeping structural indexes, the source cache, the match
 * cache) runs the measures of warmRun.ts and prints the result as one line of JSON.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { GRAMMARS } from '../src/structural/grammarManifest';
import { LanguageRegistry } from '../src/structural/languages';
import { StructuralSearch } from '../src/structural/search';
import { ParsePool } from '../src/structural/parsePool';
import { SourceCache } from '../src/structural/sourceCache';
import { residentMiB } from './timedRun';
import type { WarmPattern, WarmResult, WarmSpec } from './warmRun';

async function warmRun(spec: WarmSpec): Promise<WarmResult> {
  const baselineMiB = residentMiB();
  const registry = new LanguageRegistry({
    grammars: GRAMMARS,
    locateWasm: (entry) => path.join(spec.root, 'dist', 'grammars', `${entry.id}.wasm`),
    runtimeWasm: path.join(spec.root, 'dist', 'web-tree-sitter.wasm'),
  });
  const cache = new SourceCache();
  const pool = new ParsePool({
    script: path.join(spec.root, 'dist', 'parseWorker.js'),
    size: Math.min(os.availableParallelism(), 4),
    index: true,
  });
  const engine = new StructuralSearch(registry, (file) => cache.read(file), { pool, cacheMatches: true });
  try {
    const search = async (pattern: string) => {
      // Background indexing left from the search before settles first: an agent's next question comes seconds later.
      await pool.indexingDone();
      const before = { ...pool.served };
      const started = performance.now();
      const result = await engine.search({
        pattern,
        language: spec.language,
        files: [...spec.files],
        maxResults: Number.POSITIVE_INFINITY,
      });
      return {
        ms: performance.now() - started,
        matches: result.matchCount,
        fromIndex: pool.served.fromIndex - before.fromIndex,
        parsed: pool.served.parsed - before.parsed,
      };
    };
    const primeMs = (await search(spec.prime)).ms;
    let started = performance.now();
    await pool.indexingDone();
    const indexingMs = performance.now() - started;
    started = performance.now();
    for (const file of spec.files) await cache.read(file);
    const cachedReadMs = performance.now() - started;
    const patterns: WarmPattern[] = spec.patterns.map((pattern) => ({
      pattern,
      newMs: [],
      repeatMs: [],
      matches: 0,
      fromIndex: 0,
      parsed: 0,
    }));
    for (let round = 0; round < spec.rounds; round++) {
      for (const measured of patterns) {
        engine.forgetMatches();
        const fresh = await search(measured.pattern);
        measured.newMs.push(fresh.ms);
        measured.fromIndex = fresh.fromIndex;
        measured.parsed = fresh.parsed;
        const again = await search(measured.pattern);
        measured.repeatMs.push(again.ms);
        measured.matches = again.matches;
      }
    }
    await pool.indexingDone();
    return {
      primeMs,
      indexingMs,
      cachedReadMs,
      indexedFiles: pool.indexedFiles,
      baselineMiB,
      afterMiB: residentMiB(),
      patterns,
    };
  } finally {
    pool.dispose();
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
