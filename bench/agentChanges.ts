/**
 * Agent Changes: the extension host's time to record one agent write of a 3,000-line file with a
 * human edit before each, as the history grows to the 16 M-character bound and stays there —
 * ours (src/changes) against how it was recorded before issue 33 (agentChangesBefore.ts), in the same
 * run, on plain Node. Also what serializing the record for workspace storage costs (once per burst).
 * Target (issue 33): p99 ≤ 20 ms at the bound.
 */
import { ChangeLog, CHANGE_LOG_MAX_CHARS } from '../src/changes/changeLog';
import { seededRandom } from '../test/support/seededRandom';
import { ChangeLogBefore } from './agentChangesBefore';
import { markdownTable } from './timedRun';

const LINES = 3000;
const WRITES = 400;

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** A 3,000-line source file (about 35 characters a line), the same every run. */
function sourceFile(): string[] {
  const random = seededRandom(33);
  return Array.from(
    { length: LINES },
    (_, line) => `  const value${line} = compute(${Math.floor(random() * 1e6)}, "${line}");\n`,
  );
}

export function agentChangesBenchmark(log: (line: string) => void): void {
  const random = seededRandom(20261205);
  const lines = sourceFile();
  const ours = new ChangeLog(CHANGE_LOG_MAX_CHARS);
  const before = new ChangeLogBefore(CHANGE_LOG_MAX_CHARS);
  const oursMs: number[] = [];
  const beforeMs: number[] = [];
  const atBound: { ours: number[]; before: number[] } = { ours: [], before: [] };
  let text = lines.join('');
  for (let write = 0; write < WRITES; write++) {
    // The human edits a line, then the agent edits another (each write sees a manual edit since the last).
    lines[Math.floor(random() * LINES)] = `  // edited by hand ${write}\n`;
    const manual = lines.join('');
    lines[Math.floor(random() * LINES)] = `  const agent${write} = ${write};\n`;
    const after = lines.join('');
    const call = { id: `call_${write}`, label: 'edit', at: write };
    const observed = { path: '/w/big.ts', before: manual, after };
    const alternate = write % 2 === 0;
    for (const which of alternate ? ['ours', 'before'] : ['before', 'ours']) {
      const started = performance.now();
      if (which === 'ours') ours.record('chat', 'chat', call, [observed]);
      else before.record(call.id, observed);
      const elapsed = performance.now() - started;
      (which === 'ours' ? oursMs : beforeMs).push(elapsed);
      if (which === 'ours' && ours.size > CHANGE_LOG_MAX_CHARS * 0.9) atBound.ours.push(elapsed);
      if (which === 'before' && before.held > CHANGE_LOG_MAX_CHARS * 0.5) atBound.before.push(elapsed);
    }
    text = after;
  }
  const started = performance.now();
  const saved = JSON.stringify(ours.serialized());
  const savingMs = performance.now() - started;
  const row = (name: string, values: readonly number[]) => [
    name,
    String(values.length),
    values.length ? `${percentile(values, 50).toFixed(2)} ms` : '—',
    values.length ? `${percentile(values, 99).toFixed(2)} ms` : '—',
  ];
  log('\nAgent Changes: recording one agent write (3,000-line file, a human edit before each; plain Node)\n');
  log(
    markdownTable([
      ['', 'writes', 'p50', 'p99'],
      row('ours, all writes', oursMs),
      row('ours, history ≥ 90 % of the 16 M bound', atBound.ours),
      row('before issue 33, all writes', beforeMs),
      row('before issue 33, history ≥ 50 % of the bound', atBound.before),
    ]),
  );
  log(
    `\nHeld at the end: ours ${(ours.size / 1e6).toFixed(1)} M characters (dropped: ${JSON.stringify(ours.dropped)}; ` +
      `the latest change of the file revertible: ${ours.get('chat')?.files[0]?.agent === text}); ` +
      `before issue 33 ${(before.held / 1e6).toFixed(1)} M characters, whole record dropped ${before.dropped} times.`,
  );
  log(
    `Serializing the record for workspace storage (once per burst of writes): ${savingMs.toFixed(1)} ms, ${(saved.length / 1e6).toFixed(1)} MB.`,
  );
  const p99 = atBound.ours.length ? percentile(atBound.ours, 99) : Number.NaN;
  log(`Target: p99 ≤ 20 ms at the bound — ${p99 <= 20 ? 'met' : 'not met'} (${p99.toFixed(2)} ms).`);
}
