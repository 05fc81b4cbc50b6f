/**
 * Runs a planned test run as a child process group (process/childProcess.ts): bounded by a time limit
 * and by a silence limit (no output for `idleSeconds` = hung), ended on cancel; its output kept as a
 * tail only; its report (JUnit, or the runner's JSON) read when its size allows; with coverage, the
 * runner's report writer run after it (coverage.py's) and its coverage report read the same way. What it
 * finds goes to `answers.ts`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runToCompletion } from '../process/childProcess';
import { boundedTimeout } from '../async/timers';
import {
  CoverageReport,
  CoverageStatement,
  goFileFor,
  goModulePath,
  MAX_COVERAGE_REPORT_BYTES,
  parseCoverage,
} from './coverageReport';
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
  /** With `mode: "coverage"`: what the run covered, or why that is not known. */
  readonly coverage?: MeasuredCoverage;
  readonly coverageProblem?: string;
  /** The runner's Python (or Node) cannot measure coverage: the tests did not run. */
  readonly coverageToolMissing?: boolean;
}

/** A coverage report with each file named on disk (absolute). */
export interface MeasuredCoverage {
  readonly unit: CoverageReport['unit'];
  readonly files: ReadonlyArray<{ readonly file: string; readonly statements: readonly CoverageStatement[] }>;
  readonly filesLeftOut: number;
  readonly statementsLeftOut: number;
  /** Files the report names outside the project (Go: other modules). */
  readonly otherFiles: number;
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
  // The report's writer (coverage.py's `coverage lcov`) gets what is left of the run's time limit.
  const left = { ...limits, timeoutSeconds: Math.max(10, Math.ceil(limits.timeoutSeconds - completed.seconds)) };
  const coverage = plan.coverage && !stoppedBecause ? await measuredCoverage(plan, left, baseEnv, tail) : {};
  return {
    exitCode: completed.exitCode,
    seconds: completed.seconds,
    ...(stoppedBecause ? { stoppedBecause } : {}),
    outputTail: tail,
    outputCharacters,
    ...(report ? { report } : {}),
    ...(problem ? { reportProblem: problem } : {}),
    ...coverage,
  };
}

type CoverageParts = Pick<TestOutcome, 'coverage' | 'coverageProblem' | 'coverageToolMissing'>;

/** After the tests: the runner's second command when it has one (coverage.py's `coverage lcov`), then the report. */
async function measuredCoverage(
  plan: TestPlan,
  limits: RunLimits,
  baseEnv: NodeJS.ProcessEnv,
  outputTail: string,
): Promise<CoverageParts> {
  const coveragePlan = plan.coverage;
  if (!coveragePlan) return {};
  if (coveragePlan.missing?.test(outputTail.slice(-4000))) return { coverageToolMissing: true };
  if (coveragePlan.afterArgs) {
    const written = await runToCompletion(plan.command, [...coveragePlan.afterArgs], {
      cwd: plan.root,
      env: { ...baseEnv, ...plan.env },
      timeoutSeconds: limits.timeoutSeconds,
      maxOutputChars: 4000,
      onCancel: (cancel) => {
        if (limits.signal?.aborted) cancel();
        limits.signal?.addEventListener('abort', cancel, { once: true });
      },
    });
    if (written.stoppedBecause || written.exitCode !== 0) {
      const said = `${written.stderr}\n${written.stdout}`.trim().slice(-2000);
      return {
        coverageProblem: `${coveragePlan.measuredBy} did not write its report (${written.stoppedBecause ?? `exit code ${written.exitCode}`}): ${said || 'no output'}`,
      };
    }
  }
  return readCoverage(plan);
}

/** The coverage report, its size checked before it is read, each file named on disk. */
export function readCoverage(plan: Pick<TestPlan, 'root' | 'coverage'>): CoverageParts {
  const coveragePlan = plan.coverage;
  if (!coveragePlan) return {};
  let size: number;
  try {
    size = fs.statSync(coveragePlan.reportFile).size;
  } catch {
    return { coverageProblem: `${coveragePlan.measuredBy} wrote no coverage report` };
  }
  if (size > MAX_COVERAGE_REPORT_BYTES)
    return {
      coverageProblem: `its coverage report is ${size} bytes, over the ${MAX_COVERAGE_REPORT_BYTES} bytes read`,
    };
  const report = parseCoverage(coveragePlan.format, fs.readFileSync(coveragePlan.reportFile, 'utf8'));
  const onDisk = fileNamer(coveragePlan.format, plan.root);
  const files: Array<{ file: string; statements: readonly CoverageStatement[] }> = [];
  let otherFiles = 0;
  for (const covered of report.files) {
    const file = onDisk(covered.file);
    if (file) files.push({ file, statements: covered.statements });
    else otherFiles++;
  }
  const { unit, filesLeftOut, statementsLeftOut } = report;
  return { coverage: { unit, files, filesLeftOut, statementsLeftOut, otherFiles } };
}

/** lcov names files relative to the runner's folder (or absolute); Go by import path, under go.mod's module. */
function fileNamer(format: 'lcov' | 'go', root: string): (name: string) => string | undefined {
  if (format === 'lcov') return (name) => path.resolve(root, name);
  const modulePath = readGoModulePath(path.join(root, 'go.mod'));
  return (name) => (modulePath ? goFileFor(name, root, modulePath) : path.isAbsolute(name) ? name : undefined);
}

function readGoModulePath(goMod: string): string | undefined {
  try {
    if (fs.statSync(goMod).size > 1024 * 1024) return undefined;
    return goModulePath(fs.readFileSync(goMod, 'utf8'));
  } catch {
    return undefined;
  }
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
