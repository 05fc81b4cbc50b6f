/**
 * Runs a planned test run as a child process group (process/childProcess.ts): bounded by a time limit
 * and by a silence limit (no output for `idleSeconds` = hung), ended on cancel; its output kept as a
 * tail only; its report (JUnit, or the runner's JSON) read when its size allows. What it finds goes to `answers.ts`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runToCompletion } from '../process/childProcess';
import { boundedTimeout } from '../async/timers';
import { JunitReport, MAX_REPORT_BYTES, parseJunit } from './junitReport';
import { TEST_TOOL_RUNNERS, TestPlan } from './testPlan';

/** Characters of the run's output kept (its tail). */
export const OUTPUT_TAIL_CHARACTERS = 64_000;

export interface RunLimits {
  readonly timeoutSeconds: number;
  readonly idleSeconds: number;
  readonly signal?: AbortSignal;
}

export interface TestOutcome {
  readonly exitCode: number | null;
  readonly seconds: number;
  readonly stoppedBecause?: 'timeout' | 'cancelled' | 'hung';
  /** The run's stdout and stderr, interleaved as they came, last `OUTPUT_TAIL_CHARACTERS` of them. */
  readonly outputTail: string;
  readonly outputCharacters: number;
  readonly report?: JunitReport;
  /** Why there is no report, when there is none. */
  readonly reportProblem?: string;
}

/** Runs the plan; its report's folder (ours, in the temporary directory) is made first and removed after. */
export async function runTests(plan: TestPlan, limits: RunLimits, baseEnv: NodeJS.ProcessEnv): Promise<TestOutcome> {
  const folder = path.dirname(plan.reportFile);
  fs.mkdirSync(folder, { mode: 0o700 });
  try {
    return await runAndRead(plan, limits, baseEnv);
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

async function runAndRead(plan: TestPlan, limits: RunLimits, baseEnv: NodeJS.ProcessEnv): Promise<TestOutcome> {
  let tail = '';
  let outputCharacters = 0;
  let hung = false;
  let stop: (() => void) | undefined;
  let idle: NodeJS.Timeout | undefined;
  const armIdle = (): void => {
    if (idle) clearTimeout(idle);
    idle = boundedTimeout(() => {
      hung = true;
      stop?.();
    }, limits.idleSeconds * 1000);
  };
  armIdle();
  const completed = await runToCompletion(plan.command, plan.args, {
    cwd: plan.root,
    env: { ...baseEnv, ...plan.env },
    timeoutSeconds: limits.timeoutSeconds,
    // Only the tail is kept (below): the helper's own copy stays small.
    maxOutputChars: OUTPUT_TAIL_CHARACTERS,
    onCancel: (cancel) => {
      stop = cancel;
      if (limits.signal?.aborted) cancel();
      limits.signal?.addEventListener('abort', cancel, { once: true });
    },
    onOutput: (chunk) => {
      outputCharacters += chunk.length;
      tail = (tail + chunk).slice(-OUTPUT_TAIL_CHARACTERS);
      armIdle();
    },
  }).finally(() => {
    if (idle) clearTimeout(idle);
  });
  const stoppedBecause = hung && completed.stoppedBecause === 'cancelled' ? 'hung' : completed.stoppedBecause;
  const { report, problem } = stoppedBecause
    ? { report: undefined, problem: undefined }
    : readReport(plan.reportFile, TEST_TOOL_RUNNERS[plan.runner]?.report?.parse);
  return {
    exitCode: completed.exitCode,
    seconds: completed.seconds,
    ...(stoppedBecause ? { stoppedBecause } : {}),
    outputTail: tail,
    outputCharacters,
    ...(report ? { report } : {}),
    ...(problem ? { reportProblem: problem } : {}),
  };
}

/** The report, its size checked before it is read; JUnit XML unless the runner's reader is given. */
export function readReport(
  file: string,
  parse: (text: string) => JunitReport = parseJunit,
): { report?: JunitReport; problem?: string } {
  let size: number;
  try {
    size = fs.statSync(file).size;
  } catch {
    return { problem: 'the runner wrote no report' };
  }
  if (size > MAX_REPORT_BYTES)
    return { problem: `its report is ${size} bytes, over the ${MAX_REPORT_BYTES} bytes read` };
  try {
    return { report: parse(fs.readFileSync(file, 'utf8')) };
  } catch (error) {
    return { problem: `its report could not be read (${error instanceof Error ? error.message : String(error)})` };
  }
}
