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
import { repoRoot, runInEditor } from './harness/editorRun';
import { productSmokeTest, smokeRunDir } from './harness/productSmoke';

function option(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  return index === -1 ? undefined : process.argv[index + 1];
}

async function runUnit(root: string, grep: string | undefined): Promise<{ passed: number; failed: number }> {
  const mocha = new Mocha({ reporter: 'spec', timeout: 20_000, grep });
  const dir = path.join(root, 'out', 'test', 'unit');
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile() && entry.name.endsWith('.test.js')) mocha.addFile(path.join(entry.parentPath, entry.name));
  }
  return new Promise((resolve) => {
    const runner = mocha.run(() => resolve({ passed: runner.stats?.passes ?? 0, failed: runner.stats?.failures ?? 0 }));
  });
}

async function main(): Promise<void> {
  const root = repoRoot();
  const grep = option('--grep');
  const totals = { passed: 0, failed: 0 };
  if (!process.argv.includes('--integration-only')) {
    console.log('Unit tests (plain Node)');
    const unit = await runUnit(root, grep);
    totals.passed += unit.passed;
    totals.failed += unit.failed;
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
      console.log(`  Logs kept in ${runDir}.`);
    }
  }
  console.log(`\n${totals.passed} passed, ${totals.failed} failed`);
  process.exitCode = totals.failed > 0 || totals.passed === 0 ? 1 : 0;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : String(error));
  console.log('\n0 passed, 1 failed');
  process.exitCode = 1;
});
