import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { javascriptLaunch } from '../../src/kernels/javascriptKernel';
import { KernelPool } from '../../src/kernels/kernelPool';
import { pythonLaunch } from '../../src/kernels/pythonKernel';
import { nullLogger } from '../../src/log/logger';
import { repoRoot } from '../support/repoRoot';
import { suiteTempDir } from '../support/tempDir';

// The real Python driver on Debian's Python and the built JavaScript host on this Node.
const DRIVER = path.join(repoRoot(), 'src', 'kernels', 'python', 'kernel.py');
const HOST = path.join(repoRoot(), 'dist', 'kernels', 'jsKernelHost.js');

describe('kernel pool: the transcript, the variables cell, the human stopping a kernel', function () {
  this.timeout(60_000);
  const tmp = suiteTempDir('kernel-pool-');
  let pool: KernelPool;

  beforeEach(() => {
    pool = new KernelPool({
      launchFor: (language) => ({
        ok: true,
        launch:
          language === 'python' ? pythonLaunch('/usr/bin/python3', DRIVER) : javascriptLaunch(process.execPath, HOST),
        origin: 'the test',
      }),
      cwd: tmp,
      idleBudgetSeconds: () => 30,
      logger: nullLogger,
      onChange: () => undefined,
    });
  });
  afterEach(() => pool.disposeAll());

  it("lists a Python kernel's own top-level names, leaving no name of its own behind and nothing in the transcript", async () => {
    await pool.run('w', 'python', { code: 'import os\nanswer = 42\nname = "ada"\n_hidden = 1', description: 'set' });
    const names = await pool.variables('w', 'python');
    assert.deepEqual(
      names?.map(({ name, type, repr }) => `${name}: ${type} = ${repr}`),
      [
        'os: module = ' + names?.find((variable) => variable.name === 'os')?.repr,
        'answer: int = 42',
        "name: str = 'ada'",
      ],
    );
    assert.match(names?.[0].repr ?? '', /^<module 'os'/);
    const again = await pool.run('w', 'python', {
      code: 'sorted(k for k in globals() if not k.startswith("__"))',
      description: 'x',
    });
    assert.match(again.text, /^\['_hidden', 'answer', 'name', 'os'\]$/);
    const transcript = pool.transcripts.get('w', 'python');
    assert.deepEqual(
      transcript?.entries.map((entry) => (entry.kind === 'cell' ? entry.description : entry.text)),
      ['set', 'x'],
    );
    assert.equal(await pool.variables('w', 'javascript'), undefined, 'no JavaScript kernel runs');
  });

  it("lists a JavaScript kernel's names beyond what a fresh kernel has", async () => {
    await pool.run('w', 'javascript', {
      code: 'const basket = [3, 5, 7]\nfunction total(b) { return 0 }\nlet label = "x".repeat(300)',
      description: 'set',
    });
    const names = await pool.variables('w', 'javascript');
    assert.deepEqual(names?.map(({ name, type }) => `${name}: ${type}`).sort(), [
      'basket: Array',
      'label: string',
      'total: function',
    ]);
    assert.equal(names?.find((variable) => variable.name === 'basket')?.repr, '[ 3, 5, 7 ]');
    assert.equal(names?.find((variable) => variable.name === 'label')?.repr.length, 120);
  });

  it('a kernel the human stopped or restarted: the next cell is told, the transcript says so and counts from 1 again', async () => {
    await pool.run('w', 'python', { code: 'x = 1', description: 'one' });
    await pool.run('w', 'python', { code: 'x += 1', description: 'two' });
    await pool.stop('w', 'python', 'restarted');
    const next = await pool.run('w', 'python', { code: '"x" in globals()', description: 'three' });
    assert.match(
      next.text,
      /^\[the human restarted the Python kernel; its state was lost\]\n\[started Python [\d.]+, the test\]\nFalse$/,
    );
    const transcript = pool.transcripts.get('w', 'python');
    assert.deepEqual(
      transcript?.entries.map((entry) => (entry.kind === 'cell' ? entry.order : entry.text)),
      [1, 2, "You restarted the kernel: its state is gone; the agent's next cell starts a fresh one.", 1],
    );
    assert.equal(pool.interrupt('w', 'python'), false, 'no cell runs');
  });
});
