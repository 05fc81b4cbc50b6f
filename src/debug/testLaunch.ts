/**
 * Debugging one test: which runner the project's tests run under, the test selected the way that
 * runner selects it, and the launch configuration that runs it under the runner's adapter — from
 * one table (`TEST_RUNNERS`). Choosing reads a few small files (markers, package.json) and starts
 * nothing, so the confirmation shows the same command line the launch runs; what needs a process
 * (is pytest importable, is `go` there, building Rust's test binary) happens after the human allowed it.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { AdapterContext, AdapterId } from './adapters';
import { DebugRefusal } from './debugErrors';
import { describeResolution, resolveBinary } from '../project/binaryResolution';
import { runToCompletion } from '../process/childProcess';
import {
  escapeRegExp,
  goRunPattern,
  javaScriptRunner,
  nearestWith,
  positional,
  PYTEST_MARKERS,
  runnerForFile,
  runnerForFolder,
  shellWord,
  TestRunnerId,
} from '../project/testRunners';

export { goRunPattern, shellWord, type TestRunnerId };

/** One test, as the model names it, and where. */
export interface TestRequest {
  readonly test: string;
  /** The test file (or a Go package's folder, a Cargo package's folder), absolute. */
  readonly program?: string;
  readonly adapter?: AdapterId;
  /** Absolute. Where to look for the project when no program is given. */
  readonly cwd?: string;
}

/** What will run: the runner, where, and the arguments that select the test. */
export interface TestRun {
  readonly runner: TestRunnerId;
  readonly adapter: AdapterId;
  /** Where the runner runs: the project root (for Go, the package's folder). */
  readonly root: string;
  readonly test: string;
  /** The runner's arguments that select the test (before the model's own `args`). */
  readonly selection: readonly string[];
  /** jest, mocha, vitest: the runner's own script in node_modules; node --test: the test file. */
  readonly script?: string;
}

/** What the runner needs from the adapter's resolution and the launch request. */
export interface TestLaunchFacts {
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly adapter: AdapterContext;
  /** debugpy: the interpreter the resolution chose. */
  readonly python?: string;
  /** Bounds the work before the launch (Rust's build). */
  readonly timeoutSeconds: number;
  readonly signal?: AbortSignal;
}

interface RunnerSpec {
  readonly adapter: AdapterId;
  /** Files that mark the project root this runner runs from. */
  readonly markers: readonly string[];
  /** The command line a person would type for the same run (shown before and after). */
  commandLine(run: TestRun): string;
  /** Refuses when the runner cannot run here; for Rust, builds the tests and finds the one binary holding the test. */
  prepare?(run: TestRun, facts: TestLaunchFacts): Promise<Partial<TestRun> & { readonly program?: string }>;
  configuration(run: TestRun & { readonly program?: string }, facts: TestLaunchFacts): Record<string, unknown>;
}

/** jest, mocha and vitest: the script in node_modules that runs each, as their own docs launch them under a debugger. */
const NODE_RUNNER_SCRIPTS: Readonly<Record<'jest' | 'mocha' | 'vitest', string>> = {
  jest: 'node_modules/jest/bin/jest.js',
  mocha: 'node_modules/mocha/bin/mocha.js',
  vitest: 'node_modules/vitest/vitest.mjs',
};

const nodeLaunch = (run: TestRun, facts: TestLaunchFacts, extra: Record<string, unknown>) => ({
  type: 'node',
  cwd: run.root,
  env: facts.env,
  console: 'internalConsole',
  outputCapture: 'std',
  ...extra,
});

const scriptRunner = (name: 'jest' | 'mocha' | 'vitest'): RunnerSpec => ({
  adapter: 'js',
  markers: ['package.json'],
  commandLine: (run) => ['npx', name, ...run.selection].map(shellWord).join(' '),
  configuration: (run, facts) =>
    nodeLaunch(run, facts, {
      program: run.script,
      args: [...run.selection, ...facts.args],
      autoAttachChildProcesses: true,
    }),
});

/** How each runner selects one test and runs under its adapter. */
export const TEST_RUNNERS: Readonly<Record<TestRunnerId, RunnerSpec>> = {
  pytest: {
    adapter: 'debugpy',
    markers: PYTEST_MARKERS,
    commandLine: (run) => ['python', '-m', 'pytest', ...run.selection].map(shellWord).join(' '),
    async prepare(run, facts) {
      const python = facts.python ?? 'python3';
      const probe = await runToCompletion(python, ['-c', 'import pytest'], {
        cwd: run.root,
        timeoutSeconds: 20,
      }).catch((error: Error) => ({ exitCode: -1, stderr: error.message }));
      if (probe.exitCode !== 0)
        throw new DebugRefusal(
          runnerNotFound(
            run,
            `${python} cannot import pytest: install it in that environment (pip install pytest; Debian: apt install python3-pytest), or set liveTools.debug.python to a Python that has it.`,
          ),
        );
      return {};
    },
    configuration: (run, facts) => ({
      module: 'pytest',
      args: [...run.selection, ...facts.args],
      cwd: run.root,
      env: facts.env,
      python: facts.python,
      console: 'internalConsole',
      justMyCode: true,
    }),
  },
  'go test': {
    adapter: 'delve',
    markers: ['go.mod'],
    commandLine: (run) =>
      ['go', 'test', ...run.selection.map((arg) => arg.replace(/^-test\./, '-')), '.'].map(shellWord).join(' '),
    async prepare(run, facts) {
      const go = resolveBinary('go', binaryInputs(facts.adapter));
      if (!go.found)
        throw new DebugRefusal(
          runnerNotFound(
            run,
            `${describeResolution(go)}: delve builds the test binary with it. Install Go (Debian: apt install golang-go).`,
          ),
        );
      return {};
    },
    // delve's test mode builds the package's test binary and runs it; `program` is the package's folder.
    configuration: (run, facts) => ({
      mode: 'test',
      program: run.root,
      args: [...run.selection, ...facts.args],
      cwd: run.root,
      env: facts.env,
    }),
  },
  'node --test': {
    adapter: 'js',
    markers: ['package.json'],
    commandLine: (run) => ['node', ...run.selection, display(run.root, run.script)].map(shellWord).join(' '),
    // The test file run directly: Node's runner runs its tests in this process, so no child to attach to.
    configuration: (run, facts) =>
      nodeLaunch(run, facts, { program: run.script, runtimeArgs: [...run.selection], args: [...facts.args] }),
  },
  jest: scriptRunner('jest'),
  mocha: scriptRunner('mocha'),
  vitest: scriptRunner('vitest'),
  'cargo test': {
    adapter: 'lldb',
    markers: ['Cargo.toml'],
    commandLine: (run) =>
      ['cargo', 'test', run.test, '--', '--exact', '--nocapture', '--test-threads=1'].map(shellWord).join(' '),
    prepare: buildRustTests,
    configuration: (run, facts) => ({
      program: run.program,
      args: [...run.selection, ...facts.args],
      cwd: run.root,
      // lldb-dap takes the environment as `K=V` strings.
      env: Object.entries(facts.env).map(([key, value]) => `${key}=${value}`),
    }),
  },
};

/** Which runner runs the test and how it is selected; refuses, saying why, where no runner fits. Starts nothing. */
export function chooseTestRun(request: TestRequest, workspaceFolder: string): TestRun {
  const test = request.test.trim();
  if (!test)
    throw new DebugRefusal("`test` is empty: give the test's name (or pytest node id, Go test name, Rust test path).");
  // The runner would read it as one of its options.
  if (test.startsWith('-'))
    throw new DebugRefusal(
      `\`test\` starts with "-" (${JSON.stringify(test)}): a runner would take it for an option. Give the test's name, or pass runner options in \`args\`.`,
    );
  const program = request.program;
  const isDir = program !== undefined && isDirectory(program);
  const runner = runnerFor(request, workspaceFolder, isDir);
  const spec = TEST_RUNNERS[runner.id];
  const start = program ? (isDir ? program : path.dirname(program)) : (request.cwd ?? workspaceFolder);
  const root =
    runner.id === 'go test' ? start : (runner.root ?? nearestWith(start, workspaceFolder, spec.markers) ?? start);
  const file = program && !isDir ? program : undefined;
  const base = { runner: runner.id, adapter: spec.adapter, root, test };
  switch (runner.id) {
    case 'pytest':
      return { ...base, selection: pytestSelection(test, file && positional(path.relative(root, file))) };
    case 'go test':
      return { ...base, selection: [`-test.run=${goRunPattern(test)}`, '-test.v'] };
    case 'node --test':
      if (!file)
        throw new DebugRefusal(
          runnerNotFound(
            base,
            "Node's test runner needs the test file: give `program` (the file that calls node:test's test()), or a launch.json configuration.",
          ),
        );
      return { ...base, script: file, selection: [`--test-name-pattern=${escapeRegExp(test)}`] };
    case 'jest':
    case 'mocha':
    case 'vitest': {
      const script = nodeRunnerScript(runner.id, root, workspaceFolder);
      const name = escapeRegExp(test);
      const only = file ? [positional(path.relative(root, file))] : [];
      // `--flag=value`: a value is never read as a flag of its own.
      const selection =
        runner.id === 'jest'
          ? ['--runInBand', `--testNamePattern=${name}`, ...only]
          : runner.id === 'mocha'
            ? [`--grep=${name}`, ...only]
            : ['run', `--testNamePattern=${name}`, ...only];
      return { ...base, script, selection };
    }
    case 'cargo test':
      return { ...base, selection: [test, '--exact', '--nocapture', '--test-threads=1'] };
  }
}

/** The configuration for the run: after its runner's checks (and Rust's build), which are bounded and end on cancel. */
export async function testConfiguration(
  run: TestRun,
  facts: TestLaunchFacts,
): Promise<{ configuration: Record<string, unknown>; run: TestRun }> {
  const spec = TEST_RUNNERS[run.runner];
  const prepared = { ...run, ...((await spec.prepare?.(run, facts)) ?? {}) };
  return { configuration: spec.configuration(prepared, facts), run: prepared };
}

/** The command line a person would type for the run, as the confirmation and the answer show it. */
export function testCommandLine(run: TestRun): string {
  return TEST_RUNNERS[run.runner].commandLine(run);
}

function runnerFor(request: TestRequest, workspaceFolder: string, isDir: boolean): { id: TestRunnerId; root?: string } {
  const program = request.program;
  if (program && !isDir) {
    const found = runnerForFile(program, workspaceFolder);
    if ('id' in found) return found;
    throw new DebugRefusal(
      `No test runner is known for ${path.basename(program)}: \`test\` runs pytest (.py), go test (.go), Node's runner, jest, mocha or vitest (.js/.ts), cargo test (.rs). Give the test file as \`program\`.`,
    );
  }
  if (request.adapter) {
    const byAdapter: Partial<Record<AdapterId, TestRunnerId>> = {
      debugpy: 'pytest',
      delve: 'go test',
      lldb: 'cargo test',
    };
    if (request.adapter === 'js') return javaScriptRunner(program ?? request.cwd ?? workspaceFolder, workspaceFolder);
    const id = byAdapter[request.adapter];
    if (!id)
      throw new DebugRefusal(
        `The ${request.adapter} adapter has no test runner here: \`test\` runs pytest (debugpy), go test (delve), Node's runner, jest, mocha or vitest (js), cargo test (lldb).`,
      );
    return { id };
  }
  // No file and no adapter: the nearest project around the folder (or cwd) says which.
  const start = program ?? request.cwd ?? workspaceFolder;
  const found = runnerForFolder(start, workspaceFolder);
  if ('id' in found) return found;
  if ('several' in found)
    throw new DebugRefusal(
      `Several test runners fit ${display(workspaceFolder, found.dir) || 'the workspace folder'}: ${found.several.join(', ')}. Give \`program\` (the test file) or \`adapter\`.`,
    );
  throw new DebugRefusal(
    `No test runner found for ${display(workspaceFolder, start) || 'the workspace folder'}: no go.mod, Cargo.toml, pytest configuration or package.json test script there or above. Give \`program\` (the test file).`,
  );
}

/** The runner's script in the project's node_modules (or a parent's, as npm hoists), or why not. */
function nodeRunnerScript(runner: 'jest' | 'mocha' | 'vitest', root: string, workspaceFolder: string): string {
  for (let dir = root; ; dir = path.dirname(dir)) {
    const script = path.join(dir, NODE_RUNNER_SCRIPTS[runner]);
    if (fs.existsSync(script)) return script;
    if (dir === workspaceFolder || !dir.startsWith(workspaceFolder + path.sep)) break;
  }
  throw new DebugRefusal(
    runnerNotFound(
      { runner, root },
      `the package's test script runs ${runner}, but ${NODE_RUNNER_SCRIPTS[runner]} is not in ${display(workspaceFolder, root) || 'the workspace folder'} or above: run npm install first.`,
    ),
  );
}

/** pytest: a node id as given (its file added when only the test part was), else `-k` the name (in the file when given). */
export function pytestSelection(test: string, file: string | undefined): string[] {
  if (test.includes('::')) {
    const [first] = test.split('::');
    return [first.endsWith('.py') || !file ? test : `${file}::${test}`];
  }
  return [...(file ? [file] : []), '-k', test];
}

/**
 * Rust: `cargo test --no-run` builds the package's test binaries (its JSON messages name them); the
 * one whose `--list` holds the test runs under lldb, with the test's full path and `--exact`.
 */
async function buildRustTests(
  run: TestRun,
  facts: TestLaunchFacts,
): Promise<Partial<TestRun> & { readonly program?: string }> {
  const cargo = resolveBinary('cargo', binaryInputs(facts.adapter));
  if (!cargo.found)
    throw new DebugRefusal(
      runnerNotFound(run, `${describeResolution(cargo)}. Install Rust's cargo (Debian: apt install cargo; or rustup).`),
    );
  const build = await runToCompletion(cargo.path, ['test', '--no-run', '--message-format=json-render-diagnostics'], {
    cwd: run.root,
    timeoutSeconds: facts.timeoutSeconds,
    maxOutputChars: 4_000_000,
    onCancel: (cancel) => facts.signal?.addEventListener('abort', cancel, { once: true }),
  });
  if (build.stoppedBecause)
    throw new DebugRefusal(
      build.stoppedBecause === 'cancelled'
        ? 'Cancelled while cargo built the tests; nothing was launched.'
        : `cargo test --no-run did not finish within ${facts.timeoutSeconds} s; nothing was launched. Build once in a terminal, or give a larger timeout_seconds.`,
    );
  if (build.exitCode !== 0)
    throw new DebugRefusal(
      `cargo test --no-run failed (exit code ${build.exitCode}); nothing was launched. Its last lines:\n${lastLines(build.stderr, 30)}`,
    );
  const binaries = build.stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => parseJson(line) as { reason?: string; profile?: { test?: boolean }; executable?: string | null })
    .filter((message) => message?.reason === 'compiler-artifact' && message.profile?.test && message.executable)
    .map((message) => message.executable as string);
  const matches: Array<{ program: string; name: string }> = [];
  const seen: string[] = [];
  for (const program of binaries) {
    const listed = await runToCompletion(program, ['--list'], {
      cwd: run.root,
      timeoutSeconds: 20,
      onCancel: (cancel) => facts.signal?.addEventListener('abort', cancel, { once: true }),
    });
    for (const [, name] of listed.stdout.matchAll(/^(.+): test$/gm)) {
      seen.push(name);
      if (name === run.test || name.endsWith(`::${run.test}`)) matches.push({ program, name });
    }
  }
  if (matches.length === 0)
    throw new DebugRefusal(
      `No test named ${run.test} in the package's ${binaries.length} test ${binaries.length === 1 ? 'binary' : 'binaries'}; nothing was launched. Its tests${seen.length > 20 ? ' (first 20)' : ''}: ${seen.slice(0, 20).join(', ') || 'none'}.`,
    );
  if (matches.length > 1)
    throw new DebugRefusal(
      `${matches.length} tests match ${run.test}: ${matches.map((match) => match.name).join(', ')}. Give the test's full path.`,
    );
  const [{ program, name }] = matches;
  return { program, test: name, selection: [name, ...run.selection.slice(1)] };
}

function runnerNotFound(run: Pick<TestRun, 'runner' | 'root'>, why: string): string {
  return `Cannot debug the test with ${run.runner}: ${why}`;
}

function binaryInputs(context: AdapterContext) {
  return {
    root: context.root,
    workspaceFolder: context.workspaceFolder,
    settingDirs: [],
    pathVariable: context.pathVariable,
  };
}

function isDirectory(file: string): boolean {
  try {
    return fs.statSync(file).isDirectory();
  } catch {
    return false;
  }
}

function display(root: string, file: string | undefined): string {
  return file === undefined ? '' : path.relative(root, file);
}

function lastLines(text: string, count: number): string {
  return text.trimEnd().split('\n').slice(-count).join('\n');
}

function parseJson(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}
