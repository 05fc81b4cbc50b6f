/**
 * The extension tests entry, run by VS Code inside its extension host. Runs the integration
 * suites (or the benchmark) with Mocha, writing a readable report to the file the harness
 * streams to stdout, and a JSON summary it reads at the end.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';
import * as vscode from 'vscode';
import { failedTest, FailedTest, RunParams, RunSummary } from '../support/bridgeProtocol';
import { setRunParams } from './support/params';
import { browser, hasBrowser } from './support/browser';

function reporterFor(reportFile: string, failures: FailedTest[]) {
  const write = (line: string) => fs.appendFileSync(reportFile, `${line}\n`);
  const { EVENT_SUITE_BEGIN, EVENT_TEST_PASS, EVENT_TEST_FAIL, EVENT_TEST_PENDING } = Mocha.Runner.constants;
  return class FileReporter {
    constructor(runner: Mocha.Runner) {
      let depth = 0;
      runner.on(EVENT_SUITE_BEGIN, (suite: Mocha.Suite) => {
        if (suite.title) write(`${'  '.repeat(depth)}${suite.title}`);
        depth++;
      });
      runner.on(Mocha.Runner.constants.EVENT_SUITE_END, () => depth--);
      runner.on(EVENT_TEST_PASS, (test: Mocha.Test) =>
        write(`${'  '.repeat(depth)}✓ ${test.title} (${test.duration ?? 0} ms)`),
      );
      runner.on(EVENT_TEST_PENDING, (test: Mocha.Test) => write(`${'  '.repeat(depth)}- ${test.title} (skipped)`));
      let shots = 0;
      runner.on(EVENT_TEST_FAIL, (test: Mocha.Test, error: Error) => {
        write(`${'  '.repeat(depth)}✗ ${test.title}`);
        // What the browser showed when it failed, beside the report (best effort: the hooks run on meanwhile).
        if (hasBrowser() && shots < 10) {
          const shot = path.join(path.dirname(reportFile), `failure-${++shots}.png`);
          write(`${'  '.repeat(depth + 2)}(screenshot: ${shot})`);
          void browser({ op: 'screenshot', path: shot }).catch(() => undefined);
        }
        failures.push(failedTest(test.fullTitle(), error));
        const details = `${error.message}\n${(error.stack ?? '').split('\n').slice(1, 6).join('\n')}`;
        for (const line of details.split('\n')) write(`${'  '.repeat(depth + 2)}${line}`);
      });
    }
  };
}

export async function runSuites(params: RunParams): Promise<void> {
  setRunParams(params);
  const failures: FailedTest[] = [];
  const mocha = new Mocha({
    ui: 'bdd',
    timeout: 120_000,
    color: false,
    grep: params.grep,
    reporter: reporterFor(params.reportFile, failures) as unknown as Mocha.ReporterConstructor,
  });
  // A menu left open by a failed click takes every later click outside it (seen in CI), and a notification list
  // left open by a failed test covers the chat's confirmation: close both after each test.
  mocha.rootHooks({
    afterEach: async () => {
      if (hasBrowser() && ((await browser({ op: 'count', selector: '.monaco-menu' })).count ?? 0) > 0)
        await browser({ op: 'press', key: 'Escape' });
      await vscode.commands.executeCommand('notifications.hideList');
    },
  });
  const suffix = params.mode === 'bench' ? '.bench.js' : '.test.js';
  const dir = params.mode === 'bench' ? path.join(__dirname, '..', '..', 'bench') : __dirname;
  for (const name of fs.readdirSync(dir).sort()) if (name.endsWith(suffix)) mocha.addFile(path.join(dir, name));
  const stats = await new Promise<Mocha.Stats | undefined>((resolve) => {
    const runner = mocha.run(() => resolve(runner.stats));
  });
  const summary: RunSummary = { passed: stats?.passes ?? 0, failed: stats?.failures ?? 0, failures };
  fs.writeFileSync(params.summaryFile, JSON.stringify(summary));
  if (summary.failed > 0) throw new Error(`${summary.failed} test(s) failed.`);
}
