/**
 * The editor benchmarks' report: each bench file adds its samples to the one file the harness
 * prints (bench/*.bench.ts run in one editor, in file order).
 */
import * as fs from 'node:fs';
import { runParams } from '../test/integration/support/params';

export interface Sample {
  /** Names the sample for the targets the report checks (e.g. 'lsp.references'). */
  readonly key?: string;
  readonly area: string;
  readonly measure: string;
  readonly ours: number[];
  readonly peer: number[];
  readonly peerName: string;
}

export function addToReport(
  samples: readonly Sample[],
  fields: { activationMs?: number; evaluationMs?: number } = {},
): void {
  const file = runParams().benchReportFile;
  if (!file) throw new Error('No bench report file in the run parameters.');
  const report = fs.existsSync(file)
    ? (JSON.parse(fs.readFileSync(file, 'utf8')) as { samples: Sample[] })
    : { samples: [] };
  fs.writeFileSync(file, JSON.stringify({ ...report, ...fields, samples: [...report.samples, ...samples] }, null, 1));
}
