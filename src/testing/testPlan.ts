/**
 * What a `test` call runs: the project's runner (found as `debug launch test` finds it,
 * project/testRunners.ts), its exact command line, folder and environment changes, and the
 * machine-readable report it writes (a JUnit file, go test's -json events, cargo's and libtest's
 * JSON). One entry per runner in `TEST_TOOL_RUNNERS`; planning starts nothing.
 */
import * as path from 'node:path';
import {
  escapeRegExp,
  goRunPattern,
  nearestWith,
  positional,
  PYTEST_MARKERS,
  runnerForFile,
  runnerForFolder,
  shellWord,
  TestRunnerId,
} from '../project/testRunners';
import { CoverageFormat } from './coverageReport';
import { JunitReport } from './junitReport';
import { parseJestJson, parseMochaJson } from './jsonReports';
import { TestRefusal } from './testingErrors';

export interface TestRequest {
  /** Test files, absolute. */
  readonly files: readonly string[];
  /** Test names or node ids (pytest `tests/test_a.py::test_x`, Node's test name). */
  readonly tests: readonly string[];
  readonly workspaceFolder: string;
  /** Measure coverage too (`mode: "coverage"`). */
  readonly coverage?: boolean;
}

/** What the runner needs of the machine: how a command is found (the project's own first, then PATH). */
export interface PlanContext {
  resolve(command: string, root: string): string | undefined;
}

/**
 * How the runner reports: a JUnit file, its own JSON file (`RunnerTable.parseReport` reads it), go test's
 * -json on stdout, cargo's build messages then libtest's JSON.
 */
export type ReportKind = 'junit' | 'json-file' | 'go-json' | 'cargo-json';

/** cargo: what runs each test executable the build listed (in its package's folder). */
export interface EachExecutable {
  readonly args: readonly string[];
  /** Set for the executables only: the build runs with the editor's environment unchanged. */
  readonly env: Readonly<Record<string, string>>;
}

export interface TestPlan {
  readonly runner: TestRunnerId;
  readonly report: ReportKind;
  readonly root: string;
  /** The workspace folder answers name files against. */
  readonly workspaceFolder: string;
  readonly command: string;
  readonly args: readonly string[];
  /** Variables set for the run, on top of the editor's environment. */
  readonly env: Readonly<Record<string, string>>;
  /** Where the runner writes its report (in `reportDir`): JUnit, or the runner's JSON (`RunnerTable.report`). */
  readonly reportFile: string;
  /** cargo: the command above only builds; then each test executable runs so. */
  readonly eachExecutable?: EachExecutable;
  readonly files: readonly string[];
  readonly tests: readonly string[];
  /** With `mode: "coverage"`: the coverage report the run writes, and how. */
  readonly coverage?: CoveragePlan;
}

export interface CoveragePlan {
  readonly format: CoverageFormat;
  readonly measuredBy: string;
  /** Where the coverage report is written (in `reportDir`). */
  readonly reportFile: string;
  /** A second command of the same executable, after the tests, that writes the report (coverage.py's). */
  readonly afterArgs?: readonly string[];
  /** The run's output when the executable cannot measure coverage. */
  readonly missing?: RegExp;
  readonly installHint: string;
}

/** A runner's coverage: how its run measures, and what writes the report. */
export interface CoverageTable {
  readonly format: CoverageFormat;
  /** What measures it, as the answer names it. */
  readonly measuredBy: string;
  /** The run's arguments with coverage on: the report to `report`, or with `after` the data to `data`. */
  args(runArgs: readonly string[], report: string, data: string): string[];
  /** The arguments of a second run of the same executable, after the tests, that write `report` from `data`. */
  after?(report: string, data: string): string[];
  readonly missing?: RegExp;
  /** What to install when the runner cannot measure. */
  readonly installHint: string;
}

export interface RunnerTable {
  readonly report: ReportKind;
  /** Markers of the root the runner runs from. */
  readonly markers: readonly string[];
  /** The executable, by name (resolved project first, then PATH). */
  readonly executable: string;
  readonly env: Readonly<Record<string, string>>;
  /** The arguments, selection included, that make the runner write its report to `report`. */
  args(selection: Selection, report: string): string[];
  /** `json-file`: the reader of the runner's JSON report (the cases as a JUnit report gives them). */
  readonly parseReport?: (text: string) => JunitReport;
  /** cargo: the arguments and environment each test executable runs with. */
  eachExecutable?(selection: Selection): EachExecutable;
  /** How to get the runner, said when it is not found. */
  readonly installHint: string;
  /** How the runner measures coverage (`mode: "coverage"`), when it can. */
  readonly coverage?: CoverageTable;
}

interface Selection {
  readonly files: readonly string[];
  readonly tests: readonly string[];
}

/** The runners the `test` tool runs: every runner `debug launch test` knows. */
export const TEST_TOOL_RUNNERS: Readonly<Record<TestRunnerId, RunnerTable>> = {
  pytest: {
    report: 'junit',
    markers: PYTEST_MARKERS,
    executable: 'python3',
    // Unbuffered: the progress line naming a test reaches us before the test runs (the hung test is named).
    env: { PYTHONUNBUFFERED: '1' },
    args: (selection, report) => [
      '-m',
      'pytest',
      '-v',
      '--color=no',
      `--junitxml=${report}`,
      // xunit1 carries each case's file and line; out-err keeps each test's captured output in the report.
      '-o',
      'junit_family=xunit1',
      '-o',
      'junit_logging=out-err',
      ...pytestSelection(selection),
    ],
    installHint: 'pip install pytest (Debian: apt install python3-pytest)',
    coverage: {
      format: 'lcov',
      measuredBy: 'coverage.py',
      // The project's files only (--source=.), files never imported included; `coverage lcov` writes the report after.
      args: (runArgs, _report, data) => ['-m', 'coverage', 'run', `--data-file=${data}`, '--source=.', ...runArgs],
      after: (report, data) => ['-m', 'coverage', 'lcov', `--data-file=${data}`, '-o', report],
      missing: /No module named coverage\b/,
      installHint:
        "coverage.py 6.3 or later in the project's Python: pip install coverage (Debian: apt install python3-coverage; a venv sees it with --system-site-packages)",
    },
  },
  'node --test': {
    report: 'junit',
    markers: ['package.json'],
    executable: 'node',
    env: {},
    args: (selection, report) => [
      '--test',
      '--test-reporter=junit',
      `--test-reporter-destination=${report}`,
      // Progress to stdout: each test as it ends, so a hung run names the last one that finished.
      '--test-reporter=tap',
      '--test-reporter-destination=stdout',
      ...selection.tests.map((test) => `--test-name-pattern=${escapeRegExp(test)}`),
      ...selection.files,
    ],
    installHint: "Node 20.13 or later (its runner's junit reporter)",
    coverage: {
      format: 'lcov',
      measuredBy: "Node's --experimental-test-coverage",
      args: (runArgs, report) => [
        '--experimental-test-coverage',
        '--test-reporter=lcov',
        `--test-reporter-destination=${report}`,
        ...runArgs,
      ],
      installHint: "Node 20.13 or later (its runner's lcov reporter)",
    },
  },
  // mocha has one reporter per run: its JSON (file, message, expected/actual, stack) to our file, none on stdout.
  mocha: {
    markers: ['package.json'],
    executable: 'mocha',
    env: {},
    args: (selection, report) => [
      '--no-watch',
      '--reporter=json',
      `--reporter-option=output=${report}`,
      ...(selection.tests.length ? [`--grep=${namePattern(selection.tests)}`] : []),
      ...selection.files,
    ],
    report: 'json-file',
    parseReport: parseMochaJson,
    installHint: 'npm install --save-dev mocha',
  },
  // jest's JSON to our file; its progress (a line per file, each test when one file runs) goes to stderr, uncolored.
  jest: {
    markers: ['package.json'],
    executable: 'jest',
    env: { FORCE_COLOR: '0' },
    args: (selection, report) => [
      '--watch=false',
      '--watchAll=false',
      '--json',
      `--outputFile=${report}`,
      '--testLocationInResults',
      ...(selection.tests.length ? [`--testNamePattern=${namePattern(selection.tests)}`] : []),
      ...(selection.files.length ? ['--runTestsByPath', ...selection.files] : []),
    ],
    report: 'json-file',
    parseReport: parseJestJson,
    installHint: 'npm install --save-dev jest',
  },
  // `vitest run` never watches; two reporters: JSON to our file, verbose (a line per test as it ends) to stdout.
  vitest: {
    markers: ['package.json'],
    executable: 'vitest',
    env: { NO_COLOR: '1' },
    args: (selection, report) => [
      'run',
      '--reporter=json',
      `--outputFile.json=${report}`,
      '--reporter=verbose',
      '--includeTaskLocation',
      ...(selection.tests.length ? [`--testNamePattern=${namePattern(selection.tests)}`] : []),
      ...selection.files,
    ],
    report: 'json-file',
    parseReport: parseJestJson,
    installHint: 'npm install --save-dev vitest',
  },
  // From the module's root: `files` name their packages (./pkg), `tests` one -run pattern.
  'go test': {
    report: 'go-json',
    markers: ['go.mod'],
    executable: 'go',
    env: {},
    args: (selection) => ['test', '-json', ...goRun(selection.tests), ...goPackages(selection.files)],
    installHint: 'Debian: apt install golang-go',
    coverage: {
      format: 'go',
      measuredBy: 'go test -coverprofile',
      // A test flag, before the packages.
      args: ([test, ...rest], report) => [test, `-coverprofile=${report}`, ...rest],
      installHint: 'Go 1.10 or later (-coverprofile over several packages)',
    },
  },
  /*
   * libtest's JSON needs `-Z unstable-options`, which a stable toolchain allows with RUSTC_BOOTSTRAP=1.
   * Set for cargo, that variable reruns every build script that watches it (proc-macro2's does, and so
   * rebuilds what depends on it); the test executable reads it when it runs. So cargo builds with the
   * editor's environment (`--no-run`: measured, a run after a plain `cargo test` compiles nothing), and
   * each executable runs with RUSTC_BOOTSTRAP=1. Doc tests are not run (rustdoc runs them; said in the answer).
   */
  'cargo test': {
    report: 'cargo-json',
    markers: ['Cargo.toml'],
    executable: 'cargo',
    env: {},
    args: (selection) => ['test', '--no-run', '--message-format=json', ...cargoTargets(selection.files)],
    eachExecutable: (selection) => ({
      args: [
        '--format',
        'json',
        '-Z',
        'unstable-options',
        ...selection.tests,
        // A full path (module::name) is matched exactly; a bare name as libtest's substring filter.
        ...(selection.tests.length && selection.tests.every((test) => test.includes('::')) ? ['--exact'] : []),
      ],
      env: { RUSTC_BOOTSTRAP: '1' },
    }),
    installHint: 'Debian: apt install cargo; or rustup',
  },
};

/** mocha, jest, vitest: names as one pattern, each matched literally (in the test's full title). */
function namePattern(tests: readonly string[]): string {
  return tests.map(escapeRegExp).join('|');
}

/** go test's -run for the tests: each test's pattern as `debug launch test` makes it, several as alternatives. */
function goRun(tests: readonly string[]): string[] {
  if (tests.length === 0) return [];
  // Go splits -run at its top-level "|" before the "/" levels: each test's whole pattern is one
  // alternative (TestA/x|TestB/y runs those two; joined level by level it ran TestB/x, not TestB/y).
  return [`-run=${tests.map(goRunPattern).join('|')}`];
}

/** The packages of the test files (./dir from the module root), every package when none. */
function goPackages(files: readonly string[]): string[] {
  if (files.length === 0) return ['./...'];
  const packages = files.map((file) => {
    const dir = path.posix.dirname(file.split(path.sep).join('/'));
    return dir === '.' ? '.' : `./${dir.replace(/^\.\//, '')}`;
  });
  return [...new Set(packages)];
}

/** cargo's targets for the files: tests/x.rs is `--test x`, a binary's file `--bins`, the rest of src/ `--lib`. */
function cargoTargets(files: readonly string[]): string[] {
  const targets = files.map((file) => {
    const parts = file.split(path.sep).join('/').replace(/^\.\//, '').split('/');
    if (parts[0] === 'tests' && parts.length === 2) return `--test=${parts[1].replace(/\.rs$/, '')}`;
    if (parts[0] === 'src' && (parts[1] === 'main.rs' || parts[1] === 'bin')) return '--bins';
    return '--lib';
  });
  return [...new Set(targets)];
}

/** pytest: node ids and files as positional arguments; plain names as one `-k` expression. */
function pytestSelection(selection: Selection): string[] {
  const ids = selection.tests.filter(isPytestNodeId);
  const names = selection.tests.filter((test) => !isPytestNodeId(test));
  const idFiles = new Set(ids.map((id) => id.split('::')[0]));
  const files = selection.files.filter((file) => !idFiles.has(file));
  return [...(names.length ? ['-k', names.join(' or ')] : []), ...files, ...ids];
}

/** A pytest node id (`tests/test_a.py::test_x`) names its file; Rust's `module::name` does not. */
export function isPytestNodeId(test: string): boolean {
  return test.includes('::') && test.split('::')[0].endsWith('.py');
}

/** The run for a request, or why none; `reportDir` is a fresh folder of ours. */
export function planTests(request: TestRequest, reportDir: string, context: PlanContext): TestPlan {
  for (const test of request.tests)
    if (test.trim().startsWith('-'))
      throw new TestRefusal(
        `A test name starts with "-" (${JSON.stringify(test)}): the runner would take it for an option. Give the test's name or node id.`,
      );
  const { workspaceFolder } = request;
  // A pytest node id names its file: it counts as a file for finding the runner.
  const idFiles = request.tests
    .filter(isPytestNodeId)
    .map((test) => path.resolve(workspaceFolder, test.split('::')[0]));
  const files = [...request.files, ...idFiles];
  const searches = files.length
    ? files.map((file) => runnerForFile(file, workspaceFolder))
    : [runnerForFolder(workspaceFolder, workspaceFolder)];
  const ids = new Set<TestRunnerId>();
  for (const search of searches) {
    if ('id' in search) ids.add(search.id);
    else if ('unknownExtension' in search)
      throw new TestRefusal(
        `No test runner is known for ${search.unknownExtension}: the test tool runs pytest (.py), go test (.go), cargo test (.rs), and Node's runner, mocha, jest or vitest (.js/.mjs/.cjs/.ts, as package.json's test script names them).`,
      );
    else if ('several' in search)
      throw new TestRefusal(
        `Several test runners fit the workspace folder: ${search.several.join(', ')}. Give \`files\` (test files of one runner).`,
      );
    else
      throw new TestRefusal(
        'No test runner found in the workspace folder: no pytest configuration, package.json test script, go.mod or Cargo.toml. Give `files` (the test files).',
      );
  }
  if (ids.size > 1)
    throw new TestRefusal(
      `These files run under different runners (${[...ids].join(', ')}): call the test tool once per runner.`,
    );
  const runner = [...ids][0];
  const table = TEST_TOOL_RUNNERS[runner];
  const start = files.length ? path.dirname(files[0]) : workspaceFolder;
  const root = nearestWith(start, workspaceFolder, table.markers) ?? workspaceFolder;
  const executable = context.resolve(table.executable, root);
  if (!executable)
    throw new TestRefusal(
      `${table.executable} is not in the project (.venv/bin, venv/bin, node_modules/.bin) nor on PATH: ${runner} needs it (${table.installHint}).`,
    );
  const relative = (file: string): string => positional(path.relative(root, file) || '.');
  const selection: Selection = {
    files: request.files.map(relative),
    tests: request.tests.map((test) => {
      if (!isPytestNodeId(test)) return test;
      const [file, ...rest] = test.split('::');
      return [relative(path.resolve(workspaceFolder, file)), ...rest].join('::');
    }),
  };
  const chosen = { files: selection.files, tests: request.tests };
  const reportFile = path.join(reportDir, table.report === 'json-file' ? 'report.json' : 'report.xml');
  const args = table.args(selection, reportFile);
  const eachExecutable = table.eachExecutable?.(selection);
  const run = {
    runner,
    report: table.report,
    root,
    workspaceFolder,
    command: executable,
    args,
    env: table.env,
    reportFile,
    ...(eachExecutable ? { eachExecutable } : {}),
    ...chosen,
  };
  if (!request.coverage) return run;
  const coverage = table.coverage;
  if (!coverage)
    throw new TestRefusal(
      `Coverage is not measured for ${runner} by the test tool yet (${Object.entries(TEST_TOOL_RUNNERS)
        .filter(([, entry]) => entry.coverage)
        .map(([id]) => id)
        .join(', ')} are). Give mode: "run", or measure it in a terminal.`,
    );
  const coverageFile = path.join(reportDir, coverage.format === 'go' ? 'coverage.out' : 'coverage.lcov');
  const data = path.join(reportDir, 'coverage.data');
  return {
    ...run,
    args: coverage.args(args, coverageFile, data),
    coverage: {
      format: coverage.format,
      measuredBy: coverage.measuredBy,
      reportFile: coverageFile,
      ...(coverage.after ? { afterArgs: coverage.after(coverageFile, data) } : {}),
      ...(coverage.missing ? { missing: coverage.missing } : {}),
      installHint: coverage.installHint,
    },
  };
}

/** The command line as a shell would take it (the report file named as is); cargo's, then how each test executable runs. */
export function commandLineOf(plan: Pick<TestPlan, 'command' | 'args' | 'eachExecutable'>): string {
  const build = [plan.command, ...plan.args].map(shellWord).join(' ');
  return plan.eachExecutable ? `${build}, then ${eachExecutableLine(plan.eachExecutable)}` : build;
}

/** How each test executable runs, as a shell would take it (the executable named by its role). */
export function eachExecutableLine(each: EachExecutable): string {
  const env = Object.entries(each.env).map(([key, value]) => `${key}=${shellWord(value)}`);
  return [...env, '<each test executable>', ...each.args.map(shellWord)].join(' ');
}

/** The command that writes the coverage report after the tests, when the runner needs one. */
export function coverageCommandLineOf(plan: Pick<TestPlan, 'command' | 'coverage'>): string | undefined {
  const after = plan.coverage?.afterArgs;
  return after ? commandLineOf({ command: plan.command, args: after }) : undefined;
}
