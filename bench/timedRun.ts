/**
 * Timing whole processes for the structural benchmarks: wall time from spawn to exit, and the
 * peak resident memory and CPU time of the process (all its threads) from /usr/bin/time; plus
 * the small formatting helpers the benchmark's tables share.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { onLines } from '../test/support/jsonLines';

const TIME = '/usr/bin/time';

export interface ProcessRun {
  readonly ms: number;
  /** Matches: lines of JSON on stdout. */
  readonly matches: number;
  /** Maximum resident set in MiB and user + system CPU time, when /usr/bin/time is there to tell. */
  readonly peakMiB: number | undefined;
  readonly cpuMs: number | undefined;
  /** Its stdout, when asked for. */
  readonly stdout?: string;
}

export const canMeasureMemory = (): boolean => fs.existsSync(TIME);

/** Runs a command, counting the lines of its stdout (read as fast as it comes, so the pipe never blocks it), and keeping it if asked. */
export function timedRun(
  command: string,
  args: readonly string[],
  cwd: string,
  options: { keepStdout?: boolean } = {},
): Promise<ProcessRun> {
  const timed = canMeasureMemory();
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(timed ? TIME : command, timed ? ['-f', '%M %U %S', command, ...args] : args, {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let lines = 0;
    let stderr = '';
    const kept: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => {
      if (options.keepStdout) kept.push(chunk);
      for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines++;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = performance.now() - started;
      // Both exit 1 when nothing matches.
      if (code !== 0 && code !== 1) {
        reject(new Error(`${command} exited with ${code}: ${stderr.slice(-2000)}`));
        return;
      }
      const [kilobytes, user, system] = (timed ? (stderr.trim().split('\n').pop() ?? '') : '').split(' ').map(Number);
      resolve({
        ms,
        matches: lines,
        peakMiB: Number.isFinite(kilobytes) ? kilobytes / 1024 : undefined,
        cpuMs: Number.isFinite(user + system) ? (user + system) * 1000 : undefined,
        ...(options.keepStdout ? { stdout: Buffer.concat(kept).toString('utf8') } : {}),
      });
    });
  });
}

/** Matches per file, from a run's JSON lines (untimed: only to name the files where the counts differ). */
export function countsByFile(command: string, args: readonly string[], cwd: string): Promise<Map<string, number>> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'ignore'] });
    const counts = new Map<string, number>();
    onLines(child.stdout, (line) => {
      const file = path.resolve(cwd, (JSON.parse(line) as { file: string }).file);
      counts.set(file, (counts.get(file) ?? 0) + 1);
    });
    child.on('error', reject);
    child.on('close', () => resolve(counts));
  });
}

/** The V8 flags on the command line's shebang line, so the benchmark runs it as `npx live-ast-grep` does. */
export function shebangFlags(cli: string): string[] {
  const firstLine = fs.readFileSync(cli, 'utf8').split('\n')[0];
  return (firstLine.match(/^#!\/usr\/bin\/env -S node(.*)$/)?.[1] ?? '').trim().split(/\s+/).filter(Boolean);
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** A Markdown table (the first row is the header), padded so it also reads as plain text. */
export function markdownTable(rows: ReadonlyArray<readonly string[]>): string {
  const widths = rows[0].map((_, column) => Math.max(3, ...rows.map((row) => row[column].length)));
  const line = (row: readonly string[]): string =>
    `| ${row.map((cell, column) => cell.padEnd(widths[column])).join(' | ')} |`;
  return [
    line(rows[0]),
    `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`,
    ...rows.slice(1).map(line),
  ].join('\n');
}

export const seconds = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;
export const ratio = (ours: number, peer: number): string => `${(ours / peer).toFixed(2)}×`;
export const mebibytes = (mib: number | undefined): string => (mib === undefined ? 'n/a' : mib.toFixed(0));

/** This process's resident memory now, in MiB (its worker threads included). */
export const residentMiB = (): number => process.memoryUsage.rss() / 1024 / 1024;

/** Samples this process's resident memory every 50 ms until stopped; the highest seen, in MiB. */
export function residentPeak(): { stop(): number } {
  let peak = residentMiB();
  const timer = setInterval(() => (peak = Math.max(peak, residentMiB())), 50);
  return {
    stop: () => {
      clearInterval(timer);
      return Math.max(peak, residentMiB());
    },
  };
}
