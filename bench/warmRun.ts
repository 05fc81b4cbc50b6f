/**
 * The warm measures, run in a process of their own (warmProcess.ts) so that its memory is the
 * engine's and Node's alone: the files searched once (the workspace searched before), the
 * background indexing after it awaited, then per round and pattern a new search (the match cache
 * emptied, so the pattern is new to it) and the same search again.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { timedRun } from './timedRun';

export interface WarmSpec {
  readonly root: string;
  readonly language: string;
  readonly files: readonly string[];
  /** The pattern of the search before (the workspace's earlier question). */
  readonly prime: string;
  readonly patterns: readonly string[];
  readonly rounds: number;
}

export interface WarmPattern {
  readonly pattern: string;
  readonly newMs: number[];
  readonly repeatMs: number[];
  matches: number;
  /** Of its last new search: texts matched from a structural index, and parsed. */
  fromIndex: number;
  parsed: number;
  /** Of its last new search: files the trigram index ruled out (not read). */
  ruledOut: number;
}

export interface WarmResult {
  /** The first search, and the background indexing that followed it. */
  readonly primeMs: number;
  readonly indexingMs: number;
  /** Reading every file through the source cache once it holds them (a stat each). */
  readonly cachedReadMs: number;
  readonly indexedFiles: number;
  /** This process's resident memory before the engine was made, and after the last search. */
  readonly baselineMiB: number;
  readonly afterMiB: number;
  /** The same after a full collection: its heap in use and its RSS. */
  readonly heapAfterGcMiB: number;
  readonly afterGcMiB: number;
  /** The engine's memory as its budget counts it (threads' own measures and the caches), highest after any search, and the budget. */
  readonly engineMiB: number;
  readonly budgetMiB: number;
  readonly patterns: readonly WarmPattern[];
  /** The first search of the first pattern in a fresh engine (as after a window reload) that reads the trigram index saved before; files it ruled out. */
  readonly reloadMs: number;
  readonly reloadRuledOut: number;
  /** The saved trigram index's size, and the text's. */
  readonly indexFileBytes: number;
  readonly textBytes: number;
  /** Of the whole process, from /usr/bin/time (filled in by the parent). */
  peakMiB?: number;
  cpuMs?: number;
}

/** Runs the warm measures in a new process; its peak memory is the engine's (plus Node's own). */
export async function warmInChild(spec: WarmSpec): Promise<WarmResult> {
  const specFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'live-tools-warm-')), 'spec.json');
  try {
    fs.writeFileSync(specFile, JSON.stringify(spec));
    const script = path.join(spec.root, 'out', 'bench', 'warmProcess.js');
    // --expose-gc: the process also measures itself once its garbage is collected (what it holds, not what V8 has yet to free).
    const run = await timedRun(process.execPath, ['--expose-gc', script, specFile], spec.root, { keepStdout: true });
    const result = JSON.parse(run.stdout as string) as WarmResult;
    return { ...result, peakMiB: run.peakMiB, cpuMs: run.cpuMs };
  } finally {
    fs.rmSync(path.dirname(specFile), { recursive: true, force: true });
  }
}
