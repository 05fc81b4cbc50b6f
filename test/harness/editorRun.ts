/**
 * One run of suites inside a real VS Code: code-server on a copy of a fixture workspace, the
 * extension loaded as the extension under development, the suites as its extension tests,
 * Chromium driving the workbench. Streams the report to stdout, enforces a hard timeout,
 * stops every process it started, keeps the logs when something failed.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { FailedTest, RunParams, RunSummary } from '../support/bridgeProtocol';
import { repoRoot } from '../support/repoRoot';
import { Bridge, startBridge } from './bridge';
import { QUIET_SETTINGS, RunningCodeServer, startCodeServer } from './codeServer';

/**
 * The tests' editor: quiet, and never saving by itself — the web workbench saves after a delay by
 * default, and tests of the human's unsaved typing would race it (seen in CI: "an unsaved change of
 * the user is kept" found its buffer saved).
 */
const TEST_SETTINGS: Record<string, unknown> = { ...QUIET_SETTINGS, 'files.autoSave': 'off' };
import { ensureCodeServer } from './codeServerInstall';
import { stopAll } from './processes';
import { openWorkbench, Workbench } from './workbench';

export interface EditorRunOptions {
  readonly mode: RunParams['mode'];
  readonly fixture: string;
  readonly grep?: string;
  readonly timeoutMinutes: number;
  readonly log: (line: string) => void;
}

export interface EditorRunResult {
  readonly passed: number;
  readonly failed: number;
  /** The failed tests by title (a run that failed outside any test is one entry, named so). */
  readonly failures: readonly FailedTest[];
  readonly exitCode: number;
  readonly runDir: string;
  readonly benchReport?: string;
}

/** A new directory for one run's files under .vscode-test/runs/ (kept when the run fails). */
export function newRunDir(root: string, label = ''): string {
  const stamp = `${new Date().toISOString().replace(/[:.]/g, '-')}-${process.pid}`;
  return path.join(root, '.vscode-test', 'runs', label ? `${label}-${stamp}` : stamp);
}

/**
 * The extensionTestsPath module VS Code loads: it hands this run's parameters to the suites
 * (the only channel into the extension host that works for code-server and desktop alike).
 */
export function writeTestEntry(root: string, runDir: string, params: RunParams): string {
  const entry = path.join(runDir, 'test-entry.js');
  const suites = path.join(root, 'out', 'test', 'integration', 'index.js');
  fs.writeFileSync(
    entry,
    `exports.run = () => require(${JSON.stringify(suites)}).runSuites(${JSON.stringify(params)});\n`,
  );
  return entry;
}

/** Copies new text of a growing file to stdout until stopped. */
function follow(file: string, write: (text: string) => void): () => void {
  let offset = 0;
  const pump = (): void => {
    let size = 0;
    try {
      size = fs.statSync(file).size;
    } catch {
      return;
    }
    if (size <= offset) return;
    const fd = fs.openSync(file, 'r');
    const buffer = Buffer.alloc(size - offset);
    fs.readSync(fd, buffer, 0, buffer.length, offset);
    fs.closeSync(fd);
    offset = size;
    write(buffer.toString('utf8'));
  };
  const timer = setInterval(pump, 200);
  return () => {
    clearInterval(timer);
    pump();
  };
}

export async function runInEditor(options: EditorRunOptions): Promise<EditorRunResult> {
  const root = repoRoot();
  const cacheRoot = path.join(root, '.vscode-test');
  const install = ensureCodeServer(cacheRoot, options.log);
  const runDir = newRunDir(root);
  const workspace = path.join(runDir, 'workspace');
  fs.mkdirSync(runDir, { recursive: true });
  fs.cpSync(path.join(root, 'test', 'fixtures', options.fixture), workspace, { recursive: true });

  let server: RunningCodeServer | undefined;
  let workbench: Workbench | undefined;
  let bridge: Bridge | undefined;
  let stopFollowing = (): void => undefined;
  const bridgeLog = path.join(runDir, 'bridge.log');
  const params: RunParams = {
    mode: options.mode,
    reportFile: path.join(runDir, 'report.txt'),
    summaryFile: path.join(runDir, 'summary.json'),
    benchReportFile: path.join(runDir, 'bench.json'),
    grep: options.grep,
  };
  const cleanUp = async (): Promise<void> => {
    stopFollowing();
    await workbench?.close();
    await bridge?.close();
    await server?.stop();
  };
  const onSignal = (): void => {
    void cleanUp()
      .then(stopAll)
      .finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  let exitCode = 1;
  try {
    server = await startCodeServer(
      install,
      {
        userDataDir: path.join(runDir, 'user-data'),
        extensionsDir: path.join(runDir, 'extensions'),
        installExtensions: [path.join(root, 'out', 'test', 'scripted-model')],
        settings: TEST_SETTINGS,
      },
      workspace,
      runDir,
    );
    bridge = await startBridge(
      () => workbench?.page,
      (line) => fs.appendFileSync(bridgeLog, `${line}\n`),
    );
    const entry = writeTestEntry(root, runDir, { ...params, bridgeUrl: bridge.url });
    fs.writeFileSync(params.reportFile, '');
    stopFollowing = follow(params.reportFile, (text) => process.stdout.write(text));
    workbench = await openWorkbench({
      host: server.host,
      folder: workspace,
      extensionDevelopmentPath: root,
      extensionTestsPath: entry,
      consoleLog: path.join(runDir, 'browser-console.log'),
    });
    const serverDied = server.process.exited.then((code) => {
      throw new Error(`code-server exited early (code ${code}); see ${server?.logFile}.`);
    });
    let timer: NodeJS.Timeout | undefined;
    const hardTimeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`Hard timeout: the run did not finish within ${options.timeoutMinutes} minutes.`)),
        options.timeoutMinutes * 60_000,
      );
    });
    try {
      exitCode = await Promise.race([workbench.exitCode, serverDied, hardTimeout]);
    } finally {
      clearTimeout(timer);
    }
  } catch (error) {
    options.log(`Error: ${error instanceof Error ? error.message : String(error)}`);
    exitCode = 1;
  } finally {
    await cleanUp();
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
  }

  const summary = readJson<RunSummary>(params.summaryFile) ?? { passed: 0, failed: 0, failures: [] };
  const benchReport =
    options.mode === 'bench' && fs.existsSync(params.benchReportFile!)
      ? fs.readFileSync(params.benchReportFile!, 'utf8')
      : undefined;
  const failed = exitCode !== 0 || summary.failed > 0 || (summary.passed === 0 && options.mode === 'integration');
  if (failed || process.env.LIVE_TOOLS_KEEP_LOGS) {
    options.log(`Logs kept in ${runDir} (code-server.log, browser-console.log, bridge.log, user-data/logs).`);
    // Where only the printed output survives (CI), the extension's last log lines say what it was doing.
    if (failed) for (const line of extensionLogTail(runDir, 40)) options.log(`  | ${line}`);
  } else {
    fs.rmSync(runDir, { recursive: true, force: true });
  }
  return {
    passed: summary.passed,
    failed: summary.failed + (failed && summary.failed === 0 ? 1 : 0),
    failures:
      failed && summary.failed === 0
        ? [
            {
              title: `the ${options.mode} run in the editor`,
              message: exitCode === 0 ? 'no test ran' : `it ended with exit code ${exitCode} (its log above says why)`,
            },
          ]
        : summary.failures,
    exitCode,
    runDir,
    benchReport,
  };
}

function readJson<T>(file: string): T | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

/** The last lines of the extension's own log in a run's user data, each cut to 300 characters. */
function extensionLogTail(runDir: string, count: number): string[] {
  let found: string[];
  try {
    found = fs
      .readdirSync(path.join(runDir, 'user-data', 'logs'), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name === 'Agent Live Tools.log')
      .map((entry) => path.join(entry.parentPath, entry.name));
  } catch {
    return [];
  }
  const lines = found.flatMap((file) => fs.readFileSync(file, 'utf8').split('\n').filter(Boolean));
  return lines.slice(-count).map((line) => (line.length > 300 ? `${line.slice(0, 300)}…` : line));
}
