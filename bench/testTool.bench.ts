/**
 * The `test` tool's overhead over the runner's own wall time, measured inside the real editor: a
 * 50-test pytest file run through `vscode.lm.invokeTool('test')` (the runner's command with its
 * JUnit report, parsing, the answer, the Test Explorer run) against `python3 -m pytest` of the same
 * file started from the extension host, alternating, in one run. Target ≤ 1.1×.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { activateExtension, invokeText, workspaceRoot } from '../test/integration/support/tools';
import { addToReport, Sample } from './benchReport';

const ROUNDS = 10;
const TESTS = 50;
const FOLDER = 'benchPytest';
const FILE = path.join(FOLDER, 'test_fifty.py');

/** Fifty small tests, one of them failing (so the answer has a failure to report, as real runs do). */
function fiftyTests(): string {
  const tests = Array.from(
    { length: TESTS },
    (_, index) =>
      `def test_${index}():\n    values = [n * ${index} for n in range(1000)]\n    assert sum(values) ${index === 7 ? '== -1' : '>= 0'}\n`,
  );
  return tests.join('\n');
}

function pytest(cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('python3', ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', FILE], { cwd, stdio: 'ignore' });
    child.on('error', reject);
    child.on('exit', () => resolve());
  });
}

describe('bench', function () {
  this.timeout(600_000);

  it('test tool: a 50-test pytest file against pytest itself', async () => {
    await activateExtension();
    const root = workspaceRoot();
    fs.mkdirSync(path.join(root, FOLDER), { recursive: true });
    fs.writeFileSync(path.join(root, FILE), fiftyTests());
    const sample: Sample = {
      key: 'test.pytest50',
      area: 'test',
      measure: `test tool, ${TESTS} pytest tests in one file (1 failing) → the answer`,
      ours: [],
      peer: [],
      peerName: 'python3 -m pytest -q of the same file (wall time)',
    };
    const ours = async (): Promise<void> => {
      const text = await invokeText('test', { files: [FILE] });
      if (!/49 passed/.test(text) || !/1 failed/.test(text)) throw new Error(`the test tool answered ${text}`);
    };
    try {
      await ours();
      await pytest(root);
      for (let round = 0; round < ROUNDS; round++) {
        for (const which of round % 2 === 0 ? ['ours', 'peer'] : ['peer', 'ours']) {
          const started = performance.now();
          await (which === 'ours' ? ours() : pytest(root));
          (which === 'ours' ? sample.ours : sample.peer).push(performance.now() - started);
        }
      }
      addToReport([sample]);
    } finally {
      fs.rmSync(path.join(root, FOLDER), { recursive: true, force: true });
    }
  });
});
