/**
 * Runs a planned test run as a child process group (process/childProcess.ts): bounded by a time limit
 * and by a silence limit (no output for `idleSeconds` = hung), ended on cancel; its output kept as a
 * tail only. A report file (JUnit, or the runner's JSON) is read when its size allows; go test's and
 * libtest's JSON are read as they come (goTestJson.ts, cargoTestJson.ts). cargo test runs in two steps:
 * the build, then each test executable. With coverage, the runner's report writer runs after the tests
 * (coverage.py's) and its coverage report is read the same way. What it finds goes to `answers.ts`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CompletedProcess, runToCompletion } from '../process/childProcess';
import { boundedTimeout } from '../async/timers';
import { CargoBuildStream, LibtestStream } from './cargoTestJson';
import { GoTestStream } from './goTestJson';
import { goTestLocator } from './goTestFiles';
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
  /** The run's stdout and stderr, interleaved as they came (go's and libtest's JSON as the text it carries), last `OUTPUT_TAIL_CHARACTERS` of them. */
  readonly outputTail: string;
  readonly outputCharacters: number;
  readonly report?: JunitReport;
  /** Why there is no report, when there is none. */
  readonly reportProblem?: string;
  /** The tests did not build: what did not, and the compiler's lines. */
  readonly buildFailure?: { readonly what: string; readonly lines: readonly string[] };
  /** The test that had started and not ended when the run was ended, as the runner's events name it (its file relative to the run's root, when known). */
  readonly running?: { readonly name: string; readonly file?: string };
  /** What the run left out on purpose, said in the answer (cargo's doc tests). */
  readonly notes?: readonly string[];
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
    if (plan.report === 'go-json') return await runGo(plan, limits, baseEnv);
    if (plan.report === 'cargo-json') return await runCargo(plan, limits, baseEnv);
    return await runAndRead(plan, limits, baseEnv);
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

interface RunOptions {
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly idle: boolean;
  /** Reads stdout as it comes; returns the text to keep of it (go's and libtest's JSON: the text they carry). */
  readonly stdout?: (chunk: string) => string;
  readonly stderr?: (chunk: string) => void;
}

type RunEnd = Omit<CompletedProcess, 'stoppedBecause'> & { stoppedBecause?: TestOutcome['stoppedBecause'] };

/** The output of a run's processes, one after the other: its tail, its size, and whether one went silent too long. */
class RunWatch {
  tail = '';
  characters = 0;
  private readonly started = Date.now();

  constructor(readonly limits: RunLimits) {}

  show(text: string): void {
    this.characters += text.length;
    this.tail = (this.tail + text).slice(-OUTPUT_TAIL_CHARACTERS);
  }

  /** Seconds left of the run's limit. */
  secondsLeft(): number {
    return Math.max(1, this.limits.timeoutSeconds - (Date.now() - this.started) / 1000);
  }

  seconds(): number {
    return (Date.now() - this.started) / 1000;
  }

  /** The plan's own command, in its root with its variables. */
  runPlan(plan: TestPlan, baseEnv: NodeJS.ProcessEnv, options: Omit<RunOptions, 'cwd' | 'env'>): Promise<RunEnd> {
    return this.run(plan.command, plan.args, { cwd: plan.root, env: { ...baseEnv, ...plan.env }, ...options });
  }

  /** Runs one process; `idle` arms the silence limit (not while cargo compiles, which may be silent for long). */
  async run(command: string, args: readonly string[], options: RunOptions): Promise<RunEnd> {
    let stop: (() => void) | undefined;
    let unlisten: (() => void) | undefined;
    let idle: NodeJS.Timeout | undefined;
    let hung = false;
    const armIdle = (): void => {
      if (!options.idle) return;
      if (idle) clearTimeout(idle);
      idle = boundedTimeout(() => {
        hung = true;
        stop?.();
      }, this.limits.idleSeconds * 1000);
    };
    armIdle();
    const { signal } = this.limits;
    const completed = await runToCompletion(command, args, {
      cwd: options.cwd,
      env: options.env,
      timeoutSeconds: this.secondsLeft(),
      // Only the tail is kept (here): the helper's own copy stays small.
      maxOutputChars: OUTPUT_TAIL_CHARACTERS,
      onCancel: (cancel) => {
        stop = cancel;
        if (signal?.aborted) cancel();
        signal?.addEventListener('abort', cancel, { once: true });
        // cargo runs a process per test executable on one signal: each takes its listener away when it ends.
        unlisten = () => signal?.removeEventListener('abort', cancel);
      },
      onStdout: (chunk) => {
        this.show(options.stdout ? options.stdout(chunk) : chunk);
        armIdle();
      },
      onStderr: (chunk) => {
        options.stderr?.(chunk);
        this.show(chunk);
        armIdle();
      },
    }).finally(() => {
      if (idle) clearTimeout(idle);
      unlisten?.();
    });
    const ended = hung && completed.stoppedBecause === 'cancelled' ? 'hung' : completed.stoppedBecause;
    return { ...completed, stoppedBecause: ended };
  }
}

async function runAndRead(plan: TestPlan, limits: RunLimits, baseEnv: NodeJS.ProcessEnv): Promise<TestOutcome> {
  const watch = new RunWatch(limits);
  const completed = await watch.runPlan(plan, baseEnv, { idle: true });
  const { stoppedBecause } = completed;
  const { report, problem } = stoppedBecause
    ? { report: undefined, problem: undefined }
    : readReport(plan.reportFile, TEST_TOOL_RUNNERS[plan.runner].parseReport);
  const coverage = stoppedBecause ? {} : await measuredCoverage(plan, watch, baseEnv, completed.exitCode);
  return {
    exitCode: completed.exitCode,
    seconds: completed.seconds,
    ...(stoppedBecause ? { stoppedBecause } : {}),
    outputTail: watch.tail,
    outputCharacters: watch.characters,
    ...(report ? { report } : {}),
    ...(problem ? { reportProblem: problem } : {}),
    ...coverage,
  };
}

/** go test -json: its events read as they come; the test running when a hung run is ended is the last `run` without an end. */
async function runGo(plan: TestPlan, limits: RunLimits, baseEnv: NodeJS.ProcessEnv): Promise<TestOutcome> {
  const watch = new RunWatch(limits);
  const stream = new GoTestStream();
  const completed = await watch.runPlan(plan, baseEnv, {
    idle: true,
    stdout: (chunk) => stream.stdout(chunk),
    stderr: (chunk) => stream.stderr(chunk),
  });
  const { stoppedBecause } = completed;
  const locate = goTestLocator(plan.root);
  const started = stoppedBecause ? stream.running() : undefined;
  const running = started && {
    name: started.name,
    file: locate(started.packagePath, started.name.split('/')[0])?.file,
  };
  const result = stream.finish(locate);
  const coverage = stoppedBecause ? {} : await measuredCoverage(plan, watch, baseEnv, completed.exitCode);
  return {
    exitCode: completed.exitCode,
    seconds: completed.seconds,
    ...(stoppedBecause ? { stoppedBecause } : {}),
    outputTail: watch.tail,
    outputCharacters: watch.characters,
    ...(stoppedBecause ? {} : { report: result.report }),
    ...(result.buildFailure
      ? {
          buildFailure: {
            what: `package ${result.buildFailure.packages.join(', ')}`,
            lines: result.buildFailure.lines,
          },
        }
      : {}),
    ...(running ? { running } : {}),
    ...(result.leftOut ? { notes: [`Not read: ${result.leftOut}.`] } : {}),
    ...coverage,
  };
}

const DOC_TESTS_NOTE = 'Doc tests were not run (cargo test --doc runs them).';

/** cargo: the build (silent while it compiles, so only the time limit applies), then each test executable with libtest's JSON. */
async function runCargo(plan: TestPlan, limits: RunLimits, baseEnv: NodeJS.ProcessEnv): Promise<TestOutcome> {
  const watch = new RunWatch(limits);
  const build = new CargoBuildStream();
  const built = await watch.runPlan(plan, baseEnv, {
    idle: false,
    stdout: (chunk) => build.stdout(chunk),
  });
  const listed = build.finish();
  const ended = (
    stoppedBecause: TestOutcome['stoppedBecause'],
    exitCode: number | null,
    rest: Partial<TestOutcome>,
  ): TestOutcome => ({
    exitCode,
    seconds: watch.seconds(),
    ...(stoppedBecause ? { stoppedBecause } : {}),
    outputTail: watch.tail,
    outputCharacters: watch.characters,
    notes: [DOC_TESTS_NOTE],
    ...rest,
  });
  if (built.stoppedBecause) return ended(built.stoppedBecause, built.exitCode, {});
  if (built.exitCode !== 0 || !listed.success)
    return ended(undefined, built.exitCode, {
      buildFailure: {
        what: 'cargo test --no-run',
        lines: listed.errors.length ? listed.errors : built.stderr.trimEnd().split('\n').slice(-30),
      },
    });
  const tests = new LibtestStream();
  const each = plan.eachExecutable ?? { args: [], env: {} };
  let exitCode: number | null = 0;
  for (const { executable, sourceFile, packageDir, target } of listed.executables) {
    tests.begin(target, path.relative(plan.root, sourceFile));
    // libtest's own lines ("running 3 tests" in its text format) are not written with --format json.
    const ran = await watch.run(executable, each.args, {
      cwd: packageDir,
      env: { ...baseEnv, ...plan.env, ...each.env },
      idle: true,
      stdout: (chunk) => tests.stdout(chunk),
    });
    if (ran.stoppedBecause) {
      tests.end();
      const name = tests.running()[0];
      return ended(
        ran.stoppedBecause,
        ran.exitCode,
        name ? { running: { name, file: path.relative(plan.root, sourceFile) } } : {},
      );
    }
    tests.exited(ran.exitCode);
    if (ran.exitCode !== 0) exitCode = ran.exitCode;
  }
  return ended(undefined, exitCode, { report: tests.report() });
}

type CoverageParts = Pick<TestOutcome, 'coverage' | 'coverageProblem' | 'coverageToolMissing'>;

/** After the tests: the runner's second command when it has one (coverage.py's `coverage lcov`), then the report. */
async function measuredCoverage(
  plan: TestPlan,
  watch: RunWatch,
  baseEnv: NodeJS.ProcessEnv,
  exitCode: number | null,
): Promise<CoverageParts> {
  const coveragePlan = plan.coverage;
  if (!coveragePlan) return {};
  // A run that failed for want of the tool (its exit code says so), not one whose tests printed the words.
  if (exitCode !== 0 && coveragePlan.missing?.test(watch.tail.slice(-4000))) return { coverageToolMissing: true };
  // The report's writer (coverage.py's `coverage lcov`) gets what is left of the run's time limit.
  const limits = { ...watch.limits, timeoutSeconds: Math.max(10, Math.ceil(watch.secondsLeft())) };
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
