/**
 * eval overhead, measured inside the real editor: `1+1` through the whole tool path
 * (`vscode.lm.invokeTool('eval')`: the registry wrapper, the kernel pool, our kernel's pipes) and
 * through our kernel engine alone, each against a Jupyter kernel (Debian's ipykernel, driven by
 * jupyter_client in its own process, timed there) with the same Python, alternating, in one run.
 * Target ≤ 0.1× Jupyter.
 */
import { ChildProcess, spawn } from 'node:child_process';
import * as path from 'node:path';
import * as readline from 'node:readline';
import * as vscode from 'vscode';
import { Kernel } from '../src/kernels/kernel';
import { pythonLaunch } from '../src/kernels/pythonKernel';
import { formatText } from '../src/kernels/kernelResult';
import { activateExtension, invokeText, setSetting, workspaceRoot } from '../test/integration/support/tools';
import { addToReport, Sample } from './benchReport';

const ROUNDS = 40;
const REPOSITORY = path.resolve(__dirname, '..', '..');
const PYTHON = '/usr/bin/python3';

/** The Jupyter side: one kernel for the whole run; each `run()` is one timed `1+1`. */
class JupyterPeer {
  private readonly answers: Array<(line: string) => void> = [];

  private constructor(private readonly child: ChildProcess) {
    readline.createInterface({ input: child.stdout! }).on('line', (line) => this.answers.shift()?.(line));
  }

  static async start(): Promise<JupyterPeer> {
    const child = spawn(PYTHON, [path.join(REPOSITORY, 'bench', 'jupyterPeer.py')], {
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    const peer = new JupyterPeer(child);
    const ready = await peer.next();
    if (!ready.includes('"ready"')) throw new Error(`the Jupyter kernel did not start: ${ready}`);
    return peer;
  }

  private next(): Promise<string> {
    return new Promise((resolve, reject) => {
      this.answers.push(resolve);
      this.child.once('exit', (code) =>
        reject(new Error(`the Jupyter peer exited (${code}); is python3-jupyter-client installed?`)),
      );
    });
  }

  async run(): Promise<number> {
    const answer = this.next();
    this.child.stdin!.write('run\n');
    const { ms, value } = JSON.parse(await answer) as { ms: number; value: string[] };
    if (value[0] !== '2') throw new Error(`Jupyter answered ${JSON.stringify(value)} to 1+1`);
    return ms;
  }

  async dispose(): Promise<void> {
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.stdin!.end();
    await exited;
  }
}

async function compare(key: string, measure: string, ours: () => Promise<void>, peer: JupyterPeer): Promise<Sample> {
  const sample: Sample = {
    key,
    area: 'eval',
    measure,
    ours: [],
    peer: [],
    peerName: 'Jupyter kernel (ipykernel via jupyter_client), same Python',
  };
  await ours();
  await peer.run();
  for (let round = 0; round < ROUNDS; round++) {
    for (const which of round % 2 === 0 ? ['ours', 'peer'] : ['peer', 'ours']) {
      if (which === 'peer') {
        sample.peer.push(await peer.run());
        continue;
      }
      const started = performance.now();
      await ours();
      sample.ours.push(performance.now() - started);
    }
  }
  return sample;
}

describe('bench', function () {
  this.timeout(600_000);

  it('eval against a Jupyter kernel', async () => {
    await activateExtension();
    await setSetting('liveTools.eval.python', PYTHON);
    const peer = await JupyterPeer.start();
    const engine = new Kernel({
      launch: pythonLaunch(PYTHON, path.join(REPOSITORY, 'dist', 'kernels', 'python_kernel.py')),
      cwd: workspaceRoot(),
    });
    try {
      const throughTool = async (): Promise<void> => {
        const text = await invokeText('eval', { code: '1+1', description: 'benchmark one plus one' });
        if (!/(^|\n)2$/.test(text)) throw new Error(`eval answered ${text}`);
      };
      const throughEngine = async (): Promise<void> => {
        const text = formatText(await engine.execute('1+1'));
        if (text !== '2') throw new Error(`the kernel answered ${text}`);
      };
      addToReport([
        await compare('eval.tool', '1+1 round trip, whole tool path (lm.invokeTool eval)', throughTool, peer),
        await compare('eval.engine', '1+1 round trip, kernel engine alone', throughEngine, peer),
      ]);
    } finally {
      await engine.dispose();
      await peer.dispose();
      await vscode.commands.executeCommand('liveTools.stopKernels');
      await setSetting('liveTools.eval.python', undefined);
    }
  });
});
