/**
 * debug overhead, measured inside the real editor: launch → first stop at a breakpoint through the
 * `debug` tool (a VS Code debug session: adapter resolution, startDebugging, the editor's own
 * breakpoints, the stop described with its line) against a raw DAP client driving the same adapter
 * with the same interpreter (test/support/dapClient.ts), in rotating order within each round of one
 * run. Target ≤ 1.1×. To say which part is the editor's, the editor's own session runs in the same
 * rounds: `startDebugging` with the very configuration our tool gave it, to the adapter's first
 * `stopped` event; ours above it is ours, it above the raw client the editor's.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  launchToFirstStop,
  startDebugpy,
  startLldb,
  StartedAdapter,
  startStdioAdapter,
} from '../test/support/dapClient';
import { repoRoot } from '../test/support/repoRoot';
import { activateExtension, invokeText, lineOf, workspaceRoot } from '../test/integration/support/tools';
import { addToReport, Sample } from './benchReport';

const ROUNDS = 12;

/** Runs to the first stop (timed) and resolves to the clean-up (not timed). */
type Launch = () => Promise<() => Promise<void>>;

/**
 * Launch → first stop of each launch, ROUNDS times: every round runs each once, in an order that
 * rotates, so drift hits all alike and their p50s compare within the same rounds.
 */
async function rounds<Name extends string>(launches: Record<Name, Launch>): Promise<Record<Name, number[]>> {
  const names = Object.keys(launches) as Name[];
  const times = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<Name, number[]>;
  // One untimed run each: the first start of an adapter warms caches the later ones reuse.
  for (const name of names) await (await launches[name]())();
  for (let round = 0; round < ROUNDS; round++) {
    for (let index = 0; index < names.length; index++) {
      const name = names[(round + index) % names.length];
      const started = performance.now();
      const cleanUp = await launches[name]();
      times[name].push(performance.now() - started);
      await cleanUp();
    }
  }
  return times;
}

function sample(key: string, measure: string, ours: number[], peerName: string, peer: number[]): Sample {
  return { key, area: 'debug', measure, ours, peer, peerName };
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

/** The configuration of the next session our tool starts (the editor's copy, variables resolved). */
async function configurationOfOurLaunch(launch: Launch): Promise<vscode.DebugConfiguration> {
  let seen: vscode.DebugConfiguration | undefined;
  const tracking = vscode.debug.registerDebugAdapterTrackerFactory('*', {
    createDebugAdapterTracker: (session) => {
      if (session.configuration.__liveToolsLaunchId) seen ??= { ...session.configuration };
      return undefined;
    },
  });
  try {
    await (
      await launch()
    )();
  } finally {
    tracking.dispose();
  }
  if (!seen) throw new Error('our launch started no session the bench could see');
  // Without our launch id the session is not the tool's; the adapter command it names is kept.
  delete seen.__liveToolsLaunchId;
  return seen;
}

let editorLaunches = 0;

/** The editor's own session without our tool: `startDebugging`, timed to the adapter's first `stopped` event. */
function throughEditor(configuration: vscode.DebugConfiguration): Launch {
  return async () => {
    const name = `bench session ${++editorLaunches}`;
    let session: vscode.DebugSession | undefined;
    let tracking: vscode.Disposable | undefined;
    const stopped = new Promise<void>((resolve, reject) => {
      tracking = vscode.debug.registerDebugAdapterTrackerFactory(configuration.type, {
        createDebugAdapterTracker: (candidate) =>
          candidate.name !== name
            ? undefined
            : {
                onDidSendMessage: (message: { type?: string; event?: string }) => {
                  if (message.type === 'event' && message.event === 'stopped') resolve();
                },
                onExit: () => reject(new Error(`${name}: the adapter exited before stopping`)),
              },
      });
    });
    const starting = vscode.debug.onDidStartDebugSession((candidate) => {
      if (candidate.name === name) session = candidate;
    });
    try {
      const ok = await vscode.debug.startDebugging(
        vscode.workspace.workspaceFolders?.[0],
        { ...configuration, name },
        { suppressSaveBeforeStart: true, suppressDebugView: true },
      );
      if (!ok) throw new Error(`${name}: the editor did not start it`);
      await stopped;
    } finally {
      tracking?.dispose();
      starting.dispose();
    }
    return async () => {
      if (!session) return;
      const ended = new Promise<void>((resolve) => {
        const listener = vscode.debug.onDidTerminateDebugSession((candidate) => {
          if (candidate.id !== session?.id) return;
          listener.dispose();
          resolve();
        });
      });
      await vscode.debug.stopDebugging(session);
      await ended;
    };
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
    const pyLaunch = {
      program: pyFile,
      python: [python],
      cwd: path.dirname(pyFile),
      console: 'internalConsole',
      justMyCode: true,
    };
    const pyRaw = throughRawClient(() => startDebugpy(python), pyLaunch, pyFile, pyLine);
    // debugpy's adapter as our tool starts it (its sockets acknowledging at once), driven by the same raw client.
    const adapterScript = path.join(repoRoot(), 'dist', 'debug', 'debugpy_adapter.py');
    const pyRawScript = throughRawClient(
      () => startStdioAdapter('python', python, [adapterScript]),
      pyLaunch,
      pyFile,
      pyLine,
    );
    const cRaw = throughRawClient(
      () => startLldb(),
      { program: cProgram, cwd: path.dirname(cProgram), args: [], env: [] },
      path.join(root, cSource),
      cLine,
    );
    const py = await rounds({
      ours: throughTool(pySource),
      editor: throughEditor(await configurationOfOurLaunch(throughTool(pySource))),
      raw: pyRaw,
      rawScript: pyRawScript,
    });
    const c = await rounds({
      ours: throughTool('debug/c/main'),
      editor: throughEditor(await configurationOfOurLaunch(throughTool('debug/c/main'))),
      raw: cRaw,
    });
    const rawPy = 'raw DAP client, same debugpy and Python';
    const rawC = 'raw DAP client, same lldb-vscode-16';
    const samples = [
      sample('debug.debugpy', 'launch → first stop (debugpy, Python)', py.ours, rawPy, py.raw),
      // The editor's session runs the adapter as our tool does: its peer is the raw client with that command.
      sample(
        'debug.debugpy.editor',
        "the editor's own session to the stopped event (debugpy, Python)",
        py.editor,
        'raw DAP client, debugpy started through our adapter script',
        py.rawScript,
      ),
      sample(
        'debug.debugpy.script',
        'raw DAP client, debugpy started through our adapter script',
        py.rawScript,
        'raw DAP client, debugpy started as `python -m debugpy.adapter`',
        py.raw,
      ),
      sample('debug.lldb', 'launch → first stop (lldb-vscode-16, C)', c.ours, rawC, c.raw),
      sample(
        'debug.lldb.editor',
        "the editor's own session to the stopped event (lldb-vscode-16, C)",
        c.editor,
        rawC,
        c.raw,
      ),
    ];
    await invokeText('debug', { op: 'breakpoints', file: pySource, lines: [] });
    await invokeText('debug', { op: 'breakpoints', file: cSource, lines: [] });
    addToReport(samples);
  });
});
