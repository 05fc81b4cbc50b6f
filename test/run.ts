/**
 * `npm test`: the unit suites on plain Node, then the integration suites inside a real VS Code
 * (code-server + headless Chromium). Ends with the line `N passed, N failed`.
 *   --unit-only           skip the editor
 *   --integration-only    skip the unit suites
 *   --grep <pattern>      only tests whose full title matches
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';
import { runInEditor } from './harness/editorRun';
import { repoRoot } from './support/repoRoot';
import { FailedTest, failedTest } from './support/bridgeProtocol';
import { productSmokeTest, smokeRunDir } from './harness/productSmoke';

function option(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  return index === -1 ? undefined : process.argv[index + 1];
}

interface Totals {
  passed: number;
  failed: number;
  /** Printed again at the very end: where only the tail of the output survives (CI), it still names them. */
  readonly failures: FailedTest[];
}

async function runUnit(root: string, grep: string | undefined): Promise<Totals> {
  const mocha = new Mocha({ reporter: 'spec', timeout: 20_000, grep });
  const dir = path.join(root, 'out', 'test', 'unit');
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile() && entry.name.endsWith('.test.js')) mocha.addFile(path.join(entry.parentPath, entry.name));
  }
  const failures: FailedTest[] = [];
  return new Promise((resolve) => {
    const runner = mocha.run(() =>
      resolve({ passed: runner.stats?.passes ?? 0, failed: runner.stats?.failures ?? 0, failures }),
    );
    runner.on('fail', (test, error: Error) => failures.push(failedTest(test.fullTitle(), error)));
  });
}

async function main(): Promise<void> {
  const root = repoRoot();
  const grep = option('--grep');
  const totals: Totals = { passed: 0, failed: 0, failures: [] };
  if (!process.argv.includes('--integration-only')) {
    console.log('Unit tests (plain Node)');
    const unit = await runUnit(root, grep);
    totals.passed += unit.passed;
    totals.failed += unit.failed;
    totals.failures.push(...unit.failures);
  }
  if (!process.argv.includes('--unit-only')) {
    console.log('\nIntegration tests (VS Code in code-server, driven by headless Chromium)');
    const editor = await runInEditor({
      mode: 'integration',
      fixture: 'ts-project',
      grep,
      timeoutMinutes: Number(process.env.LIVE_TOOLS_TEST_TIMEOUT_MINUTES ?? 30),
      log: (line) => console.log(line),
    });
    totals.passed += editor.passed;
    totals.failed += editor.failed;
    totals.failures.push(...editor.failures);

    console.log('\nProduct (npm start, driven like a person)');
    const runDir = smokeRunDir(root);
    const ok = await productSmokeTest(runDir, (line) => console.log(`  ${line}`)).catch((error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      console.log(`  ✗ npm start: ${message.split('\n').slice(0, 12).join('\n    ')}`);
      return false;
    });
    if (ok) {
      totals.passed++;
      fs.rmSync(runDir, { recursive: true, force: true });
    } else {
      totals.failed++;
      totals.failures.push({ title: 'Product: npm start', message: `see above; logs kept in ${runDir}` });
      console.log(`  Logs kept in ${runDir}.`);
    }
  }
  if (totals.failures.length > 0) {
    console.log('\nFailed:');
    for (const failure of totals.failures) console.log(`  ✗ ${failure.title}\n      ${failure.message}`);
  }
  console.log(`\n${totals.passed} passed, ${totals.failed} failed`);
  process.exitCode = totals.failed > 0 || totals.passed === 0 ? 1 : 0;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : String(error));
  console.log('\n0 passed, 1 failed');
  process.exitCode = 1;
});
