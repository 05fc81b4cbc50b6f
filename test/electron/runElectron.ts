/**
 * `npm run test:electron`: the same integration suites in desktop VS Code, downloaded by
 * @vscode/test-electron (cached in .vscode-test/). It cannot run on machines that reach only
 * npm and Debian (no VS Code download); there `npm test` runs the suites in code-server.
 * Suites that drive the browser (chat confirmations, quick picks) skip themselves here, since
 * no browser bridge exists; desktop chat also needs a signed-in Copilot.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runTests } from '@vscode/test-electron';
import { newRunDir, writeTestEntry } from '../harness/editorRun';
import { repoRoot } from '../support/repoRoot';
import { RUN_MARKER } from '../support/processes';

async function main(): Promise<void> {
  const root = repoRoot();
  const runDir = newRunDir(root, 'electron');
  const workspace = path.join(runDir, 'workspace');
  fs.mkdirSync(runDir, { recursive: true });
  fs.cpSync(path.join(root, 'test', 'fixtures', 'ts-project'), workspace, { recursive: true });
  const reportFile = path.join(runDir, 'report.txt');
  const summaryFile = path.join(runDir, 'summary.json');
  const entry = writeTestEntry(root, runDir, { mode: 'integration', reportFile, summaryFile });
  let code = 1;
  try {
    code = await runTests({
      version: process.env.VSCODE_VERSION ?? '1.139.1',
      extensionDevelopmentPath: [root, path.join(root, 'out', 'test', 'scripted-model')],
      extensionTestsPath: entry,
      launchArgs: [
        workspace,
        '--disable-workspace-trust',
        '--skip-welcome',
        '--skip-release-notes',
        '--user-data-dir',
        path.join(runDir, 'user-data'),
      ],
      // Leftover-process checks count only this run's processes (test/support/processes.ts).
      extensionTestsEnv: { [RUN_MARKER]: `${path.basename(runDir)}-${process.pid}` },
    });
  } catch (error) {
    console.error(`Could not run desktop VS Code: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (fs.existsSync(reportFile)) process.stdout.write(fs.readFileSync(reportFile, 'utf8'));
  const summary = fs.existsSync(summaryFile)
    ? JSON.parse(fs.readFileSync(summaryFile, 'utf8'))
    : { passed: 0, failed: 1 };
  console.log(`\n${summary.passed} passed, ${summary.failed} failed`);
  process.exitCode = code === 0 && summary.failed === 0 ? 0 : 1;
}

void main();
