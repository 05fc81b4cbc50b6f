import * as os from 'node:os';
import * as path from 'node:path';
import { withAbortSignal } from '../../async/abortSignal';
import { resolveBinary } from '../../project/binaryResolution';
import { shellWord } from '../../project/testRunners';
import { runningTestId, testAnswer } from '../../testing/answers';
import { runTests } from '../../testing/runTests';
import { commandLineOf, eachExecutableLine, isPytestNodeId, planTests, TestPlan } from '../../testing/testPlan';
import { TestExplorer } from '../../testing/vscode/testExplorer';
import { containingFolder, NoWorkspaceFolder } from '../../workspace/paths';
import { resolveWorkspaceFile, workspaceFolderPaths } from '../../workspace/vscode/workspaceFolders';
import type { LiveTool } from '../liveTool';
import { DEFAULT_IDLE_SECONDS, DEFAULT_TIMEOUT_SECONDS, testDeclaration, TestInput } from './declaration';

/** Runs the project's tests (testing/): the plan shown to the human is the run that starts. */
export function createTestTool(explorer: TestExplorer): LiveTool<TestInput, TestPlan> {
  return {
    declaration: testDeclaration,

    invocationMessage: (input) =>
      `Running tests${input.files?.length ? ` in ${input.files.join(', ')}` : ''}${input.tests?.length ? `: ${input.tests.join(', ')}` : ''}`,

    async prepare(input) {
      const plan = planFor(input);
      const env = Object.entries(plan.env);
      return {
        plan,
        confirmation: {
          title: `Run ${plan.runner} tests?`,
          message: [
            `Run the project's tests with ${plan.runner}:`,
            '',
            '```sh',
            plan.eachExecutable ? [plan.command, ...plan.args].map(shellWord).join(' ') : commandLineOf(plan),
            '```',
            `- working directory: \`${plan.root}\``,
            `- environment: ${env.length ? env.map(([key, value]) => `\`${key}=${shellWord(value)}\``).join(', ') + ' set; the rest is the editor’s' : 'the editor’s, unchanged'}`,
            ...(plan.eachExecutable
              ? [
                  '',
                  'That only builds the tests. Then each test executable the build lists runs, in its package’s folder:',
                  '',
                  '```sh',
                  eachExecutableLine(plan.eachExecutable),
                  '```',
                  `- environment: ${Object.entries(plan.eachExecutable.env)
                    .map(([key, value]) => `\`${key}=${shellWord(value)}\``)
                    .join(
                      ', ',
                    )} set for the executables only (libtest's JSON output is unstable-gated), the rest is the editor’s`,
                  '- doc tests are not run',
                ]
              : []),
            plan.report === 'junit'
              ? `- the report goes to a temporary file, removed after; the run is ended after ${input.timeout_seconds ?? DEFAULT_TIMEOUT_SECONDS} s, or ${input.idle_seconds ?? DEFAULT_IDLE_SECONDS} s without output`
              : `- results are read from its JSON output; the run is ended after ${input.timeout_seconds ?? DEFAULT_TIMEOUT_SECONDS} s, or ${input.idle_seconds ?? DEFAULT_IDLE_SECONDS} s without output${plan.eachExecutable ? ' (while tests run)' : ''}`,
          ].join('\n'),
        },
      };
    },

    async invoke(input, { token }, plan) {
      const timeoutSeconds = input.timeout_seconds ?? DEFAULT_TIMEOUT_SECONDS;
      const idleSeconds = input.idle_seconds ?? DEFAULT_IDLE_SECONDS;
      const outcome = await withAbortSignal(token, (signal) =>
        runTests(plan, { timeoutSeconds, idleSeconds, signal }, process.env),
      );
      explorer.record(plan, outcome, outcome.stoppedBecause === 'hung' ? runningTestId(plan, outcome) : undefined);
      return testAnswer({ plan, outcome, idleSeconds, timeoutSeconds });
    },
  };
}

/** The run: files resolved inside the workspace, the report in a fresh temporary folder. */
function planFor(input: TestInput): TestPlan {
  const files = (input.files ?? []).map((file) => resolveWorkspaceFile(file).fsPath);
  // A node id names a file the runner reads: it must be inside the workspace like any file argument.
  for (const test of input.tests ?? []) if (isPytestNodeId(test)) resolveWorkspaceFile(test.split('::')[0]);
  const folders = workspaceFolderPaths();
  const first = files[0];
  const workspaceFolder = (first && containingFolder(folders, first)?.path) ?? folders[0]?.path;
  if (!workspaceFolder) throw new NoWorkspaceFolder();
  const reportDir = path.join(
    os.tmpdir(),
    `agent-live-tools-test-${process.pid}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`,
  );
  return planTests({ files, tests: input.tests ?? [], workspaceFolder }, reportDir, {
    resolve: (command, root) => {
      const found = resolveBinary(command, {
        root,
        workspaceFolder,
        settingDirs: [],
        pathVariable: process.env.PATH ?? '',
      });
      return found.found ? found.path : undefined;
    },
  });
}
