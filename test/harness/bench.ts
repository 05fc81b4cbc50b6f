/**
 * `npm run bench`: runs the benchmark suites inside the real editor and prints, per area, our
 * figure beside the peer's from the same run, as a ratio; then the structural search benchmark
 * (bench/structural.ts, plain Node, against ast-grep; `--structural-only` runs just that one,
 * `--rounds N` sets its pairs per pattern (default 3, or LIVE_TOOLS_BENCH_ROUNDS), `--corpus ts,py,go`
 * picks corpora; the cost curve over 1 k and 10 k files is measured too (`--scaling` adds 50 k,
 * `--scaling=N,M` picks the sizes, `--no-scaling` leaves it out);
 * `--editor-only --grep <title>` runs only the editor benchmarks whose title matches); and Agent Changes'
 * recording cost against how it was recorded before issue 33 (bench/agentChanges.ts, plain Node;
 * `--changes-only` runs just that one); and a worker's copy of a 10 k-file workspace against `git worktree add`
 * and `cp -r` (bench/workerCopy.ts, plain Node; `--copies-only` runs just that one).
 * Timings are noisy on 2 cores: read the ratios, not the absolute numbers.
 */
import { agentChangesBenchmark } from '../../bench/agentChanges';
import { workerCopyBenchmark } from '../../bench/workerCopy';
import { StructuralBenchOptions, structuralBenchmark } from '../../bench/structural';
import { runInEditor } from './editorRun';
import { repoRoot } from '../support/repoRoot';

interface Sample {
  key?: string;
  area: string;
  measure: string;
  ours: number[];
  peer: number[];
  peerName: string;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

const ms = (value: number) => `${value.toFixed(2)} ms`;

function table(rows: string[][]): string {
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  return rows.map((row) => row.map((cell, column) => cell.padEnd(widths[column])).join('  ')).join('\n');
}

async function main(): Promise<void> {
  if (process.argv.includes('--changes-only')) {
    agentChangesBenchmark((line) => console.log(line));
    return;
  }
  if (process.argv.includes('--copies-only')) {
    await workerCopyBenchmark((line) => console.log(line));
    return;
  }
  if (!process.argv.includes('--structural-only')) {
    const grepAt = process.argv.indexOf('--grep');
    const grep = grepAt > 0 ? process.argv[grepAt + 1] : undefined;
    const result = await runInEditor({
      mode: 'bench',
      fixture: 'ts-project',
      timeoutMinutes: 20,
      grep,
      log: (line) => console.log(line),
    });
    if (!result.benchReport || result.failed > 0) {
      console.log('The benchmark did not complete.');
      process.exitCode = 1;
    } else {
      printEditorReport(result.benchReport);
    }
  }
  // These need no editor: they run whatever became of the editor's.
  if (!process.argv.includes('--editor-only')) {
    if (!process.argv.includes('--structural-only')) {
      agentChangesBenchmark((line) => console.log(line));
      await workerCopyBenchmark((line) => console.log(line));
    }
    await structuralBenchmark(repoRoot(), (line) => console.log(line), structuralOptions(process.argv));
  }
}

/** `--rounds N`, `--corpus a,b`, `--scaling` (1 k, 10 k and 50 k files), `--scaling=1000,10000` (the default) or `--no-scaling`. */
function structuralOptions(argv: readonly string[]): StructuralBenchOptions {
  const valueOf = (flag: string): string | undefined => {
    const at = argv.indexOf(flag);
    return at > 0 ? argv[at + 1] : undefined;
  };
  const rounds = Number(valueOf('--rounds') ?? process.env.LIVE_TOOLS_BENCH_ROUNDS ?? 3);
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error('--rounds needs a whole number, 1 or more.');
  const scaling = argv.find((argument) => argument.startsWith('--scaling') || argument === '--no-scaling');
  // The curve's first two points always (about 6 minutes); 50 k files (about 45 more) when asked.
  const sizes =
    scaling === undefined
      ? [1000, 10_000]
      : scaling === '--no-scaling'
        ? []
        : scaling === '--scaling'
          ? [1000, 10_000, 50_000]
          : scaling.slice(10).split(',').map(Number);
  if (sizes.some((size) => !Number.isInteger(size) || size < 1))
    throw new Error('--scaling=N,M needs whole numbers of files.');
  return { rounds, corpora: valueOf('--corpus')?.split(',') ?? [], scaling: sizes };
}

function printEditorReport(benchReport: string): void {
  const report = JSON.parse(benchReport) as { activationMs?: number; evaluationMs?: number; samples: Sample[] };
  const rows = [['area', 'measure', 'rounds', 'ours p50', 'peer p50', 'ratio p50', 'ours p90', 'peer p90', 'peer']];
  for (const sample of report.samples) {
    const ours50 = percentile(sample.ours, 50);
    const peer50 = percentile(sample.peer, 50);
    rows.push([
      sample.area,
      sample.measure,
      String(sample.ours.length),
      ms(ours50),
      ms(peer50),
      `${(ours50 / peer50).toFixed(2)}×`,
      ms(percentile(sample.ours, 90)),
      ms(percentile(sample.peer, 90)),
      sample.peerName,
    ]);
  }
  console.log('\nBenchmark (ours and the peer alternating, same editor, same run)\n');
  console.log(table(rows));
  console.log('\nTargets (issue 23; p50 of this run)\n');
  console.log(table([['target', 'measured', 'limit', ''], ...targetRows(report)]));
}

/**
 * Each target of our own overhead, met or not, from this run's samples: lsp above the invocation
 * floor against the raw provider, the floor against a do-nothing tool, debug launch against a raw DAP
 * client, eval against the floor, activation.
 */
function targetRows(report: { activationMs?: number; evaluationMs?: number; samples: Sample[] }): string[][] {
  const p50 = (key: string, side: 'ours' | 'peer'): number | undefined => {
    const sample = report.samples.find((candidate) => candidate.key === key);
    return sample && percentile(sample[side], 50);
  };
  const rows: string[][] = [];
  const check = (target: string, value: number | undefined, limit: number, unit: string): void => {
    if (value === undefined) rows.push([target, 'not measured', '', '']);
    else rows.push([target, `${value.toFixed(2)}${unit}`, `≤ ${limit}${unit}`, value <= limit ? 'met' : 'not met']);
  };
  const show = (what: string, value: number | undefined, unit: string): void => {
    if (value !== undefined) rows.push([what, `${value.toFixed(2)}${unit}`, '', '(split)']);
  };
  const floor = p50('lsp.floor', 'ours');
  const roundTrip = p50('lsp.floor', 'peer');
  for (const action of ['references', 'definition', 'hover', 'symbols']) {
    const ours = p50(`lsp.${action}`, 'ours');
    const raw = p50(`lsp.${action}`, 'peer');
    const value =
      ours === undefined || raw === undefined || floor === undefined || roundTrip === undefined
        ? undefined
        : (ours - floor + roundTrip) / raw;
    check(`lsp ${action}: (ours − floor + command round trip) / raw provider`, value, 1.05, '×');
    // Without the round trip the provider command inside our tool already makes: what we add to it.
    check(
      `lsp ${action}: (ours − floor) / raw provider`,
      ours === undefined || raw === undefined || floor === undefined ? undefined : (ours - floor) / raw,
      1.05,
      '×',
    );
  }
  const noop = p50('lsp.noop', 'ours');
  check(
    'lsp invocation floor / a do-nothing tool',
    floor === undefined || noop === undefined ? undefined : floor / noop,
    1.0,
    '×',
  );
  for (const [adapter, key] of [
    ['debugpy', 'debug.debugpy'],
    ['lldb', 'debug.lldb'],
  ]) {
    check(`debug launch → first stop, ${adapter} / raw DAP client`, ratio(key), 1.1, '×');
    // The split: the editor's own startDebugging (same configuration) against the raw client is the editor's share.
    const ours = p50(key, 'ours');
    const editor = p50(`${key}.editor`, 'ours');
    show(
      `  ${adapter}: the editor's own session / raw DAP client (the adapter as we start it)`,
      ratio(`${key}.editor`),
      '×',
    );
    show(
      `  ${adapter}: ours − the editor's own session`,
      ours === undefined || editor === undefined ? undefined : ours - editor,
      ' ms',
    );
  }
  show(
    '  debugpy: raw DAP client, adapter through our script / as `python -m debugpy.adapter`',
    ratio('debug.debugpy.script'),
    '×',
  );
  const evalTool = p50('eval.tool', 'ours');
  check(
    'eval 1+1 whole path − the do-nothing tool',
    evalTool === undefined || noop === undefined ? undefined : evalTool - noop,
    1,
    ' ms',
  );
  // eval is exec tier: the editor asks our prepareInvocation and confirms before invoke, as it does any exec tool's.
  const confirmed = p50('lsp.noopConfirmed', 'ours');
  check(
    'eval 1+1 whole path − a do-nothing tool that asks for confirmation',
    evalTool === undefined || confirmed === undefined ? undefined : evalTool - confirmed,
    1,
    ' ms',
  );
  check('activation', report.activationMs, 10, ' ms');
  show("  evaluating the bundle, before activate (its modules' top-level code)", report.evaluationMs, ' ms');
  return rows;

  function ratio(key: string): number | undefined {
    const ours = p50(key, 'ours');
    const peer = p50(key, 'peer');
    return ours === undefined || peer === undefined ? undefined : ours / peer;
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
});
