/**
 * debug overhead, measured inside the real editor: launch → first stop at a breakpoint through the
 * `debug` tool (a VS Code debug session: adapter resolution, startDebugging, the editor's own
 * breakpoints, the stop described with its line) against a raw DAP client driving the same adapter
 * with the same interpreter (test/support/dapClient.ts), alternating, in one run. Target ≤ 1.1×.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { launchToFirstStop, startDebugpy, startLldb, StartedAdapter } from '../test/support/dapClient';
import { activateExtension, invokeText, lineOf, workspaceRoot } from '../test/integration/support/tools';
import { addToReport, Sample } from './benchReport';

const ROUNDS = 8;

/** Runs to the first stop (timed) and resolves to the clean-up (not timed). */
type Launch = () => Promise<() => Promise<void>>;

async function compare(key: string, measure: string, peerName: string, ours: Launch, peer: Launch): Promise<Sample> {
  const sample: Sample = { key, area: 'debug', measure, ours: [], peer: [], peerName };
  const time = async (work: Launch): Promise<number> => {
    const started = performance.now();
    const cleanUp = await work();
    const elapsed = performance.now() - started;
    await cleanUp();
    return elapsed;
  };
  // One untimed round each: the first start of an adapter warms caches the later ones reuse.
  await (
    await ours()
  )();
  await (
    await peer()
  )();
  for (let round = 0; round < ROUNDS; round++) {
    for (const which of round % 2 === 0 ? ['ours', 'peer'] : ['peer', 'ours']) {
      if (which === 'ours') sample.ours.push(await time(ours));
      else sample.peer.push(await time(peer));
    }
  }
  return sample;
}

/** Our side: launch to the first stop is timed; terminating is not. */
function throughTool(program: string): Launch {
  return async () => {
    const text = await invokeText('debug', { op: 'launch', program });
    const terminate = async (): Promise<void> => void (await invokeText('debug', { op: 'terminate' }));
    if (!text.includes('Stopped (breakpoint')) {
      await terminate();
      throw new Error(`the launch did not stop at the breakpoint: ${text}`);
    }
    return terminate;
  };
}

/** The raw side: the adapter's first stop is timed; disposing of it is not. */
function throughRawClient(
  start: () => StartedAdapter,
  launchArgs: Record<string, unknown>,
  file: string,
  line: number,
): Launch {
  return async () => {
    const adapter = start();
    try {
      await launchToFirstStop(adapter, launchArgs, file, line);
    } catch (error) {
      await adapter.dispose();
      throw error;
    }
    return () => adapter.dispose();
  };
}

describe('bench', function () {
  this.timeout(600_000);

  it('debug against a raw DAP client of the same adapter', async () => {
    await activateExtension();
    const root = workspaceRoot();
    const venv = path.join(root, 'debug', 'python', '.venv');
    if (!fs.existsSync(path.join(venv, 'bin', 'python')))
      execFileSync('/usr/bin/python3', ['-m', 'venv', '--system-site-packages', venv]);
    const python = path.join(venv, 'bin', 'python');
    const pySource = 'debug/python/app.py';
    const pyFile = path.join(root, pySource);
    const pyLine = lineOf(pySource, 'BREAK');
    const cProgram = path.join(root, 'debug', 'c', 'main');
    execFileSync('gcc', ['-g', '-O0', '-o', cProgram, path.join(root, 'debug', 'c', 'main.c')]);
    const cSource = 'debug/c/main.c';
    const cLine = lineOf(cSource, 'BREAK');
    await invokeText('debug', { op: 'breakpoints', file: pySource, lines: [{ line: pyLine }] });
    await invokeText('debug', { op: 'breakpoints', file: cSource, lines: [{ line: cLine }] });
    const samples = [
      await compare(
        'debug.debugpy',
        'launch → first stop (debugpy, Python)',
        'raw DAP client, same debugpy and Python',
        throughTool(pySource),
        throughRawClient(
          () => startDebugpy(python),
          {
            program: pyFile,
            python: [python],
            cwd: path.dirname(pyFile),
            console: 'internalConsole',
            justMyCode: true,
          },
          pyFile,
          pyLine,
        ),
      ),
      await compare(
        'debug.lldb',
        'launch → first stop (lldb-vscode-16, C)',
        'raw DAP client, same lldb-vscode-16',
        throughTool('debug/c/main'),
        throughRawClient(
          () => startLldb(),
          { program: cProgram, cwd: path.dirname(cProgram), args: [], env: [] },
          path.join(root, cSource),
          cLine,
        ),
      ),
    ];
    await invokeText('debug', { op: 'breakpoints', file: pySource, lines: [] });
    await invokeText('debug', { op: 'breakpoints', file: cSource, lines: [] });
    addToReport(samples);
  });
});
