import * as os from 'node:os';
import * as path from 'node:path';
import { withAbortSignal } from '../../async/abortSignal';
import { resolveBinary } from '../../project/binaryResolution';
import { runningTestId, testAnswer } from '../../testing/answers';
import { coverageSection, coverageToolMissingAnswer } from '../../testing/coverageAnswer';
import { runTests } from '../../testing/runTests';
import { isPytestNodeId, planTests, TestPlan } from '../../testing/testPlan';
import { TestExplorer } from '../../testing/vscode/testExplorer';
import { containingFolder, NoWorkspaceFolder } from '../../workspace/paths';
import { resolveWorkspaceFile, workspaceFolderPaths } from '../../workspace/vscode/workspaceFolders';
import type { LiveTool } from '../liveTool';
import { testConfirmation } from './confirmation';
import { DEFAULT_IDLE_SECONDS, DEFAULT_TIMEOUT_SECONDS, testDeclaration, TestInput } from './declaration';

/** Runs the project's tests (testing/): the plan shown to the human is the run that starts. */
export function createTestTool(explorer: TestExplorer): LiveTool<TestInput, TestPlan> {
  return {
    declaration: testDeclaration,

    invocationMessage: (input) =>
      `Running tests${input.files?.length ? ` in ${input.files.join(', ')}` : ''}${input.tests?.length ? `: ${input.tests.join(', ')}` : ''}`,

    async prepare(input) {
      const plan = planFor(input);
      return { plan, confirmation: testConfirmation(plan, input) };
    },

    async invoke(input, { token }, plan) {
      const timeoutSeconds = input.timeout_seconds ?? DEFAULT_TIMEOUT_SECONDS;
      const idleSeconds = input.idle_seconds ?? DEFAULT_IDLE_SECONDS;
      const outcome = await withAbortSignal(token, (signal) =>
        runTests(plan, { timeoutSeconds, idleSeconds, signal }, process.env),
      );
      if (outcome.coverageToolMissing) return coverageToolMissingAnswer(plan);
      explorer.record(plan, outcome, outcome.stoppedBecause === 'hung' ? runningTestId(plan, outcome) : undefined);
      const answer = testAnswer({ plan, outcome, idleSeconds, timeoutSeconds });
      const coverage = coverageSection(plan, outcome);
      return coverage ? `${answer}\n\n${coverage}` : answer;
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
  const coverage = input.mode === 'coverage';
  return planTests({ files, tests: input.tests ?? [], workspaceFolder, coverage }, reportDir, {
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
