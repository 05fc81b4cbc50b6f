/**
 * The debug adapters we can start, resolved when called (a marker of the project ∩ a binary, as
 * for language servers): debugpy, lldb, delve and dart of our own, plus the editor's built-in
 * JavaScript debugger. `resolveAdapter` says how to start one for a program, or exactly why not.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describeResolution, isExecutableFile, resolveBinary } from '../project/binaryResolution';
import { runToCompletion } from '../process/childProcess';
import { Setting } from '../platform/settings';

/** The adapters `launch`/`attach` accept by name. */
export const DEBUG_ADAPTERS = ['debugpy', 'lldb', 'delve', 'dart', 'js'] as const;

export type AdapterId = (typeof DEBUG_ADAPTERS)[number];

export interface AdapterSpec {
  readonly id: AdapterId;
  /** The `type` of the debug configuration (ours are contributed in package.json). */
  readonly debugType: string;
  readonly markers: readonly string[];
  /** Program extensions that pick this adapter when none is named. */
  readonly extensions: readonly string[];
  readonly install: string;
}

export const ADAPTERS: readonly AdapterSpec[] = [
  {
    id: 'debugpy',
    debugType: 'live-debugpy',
    markers: ['pyproject.toml', 'setup.py', 'requirements.txt'],
    extensions: ['.py'],
    install:
      'install debugpy for that interpreter (Debian: apt install python3-debugpy; a venv made with --system-site-packages sees it)',
  },
  {
    id: 'lldb',
    debugType: 'live-lldb',
    markers: ['Cargo.toml', 'CMakeLists.txt'],
    extensions: ['', '.out', '.bin', '.exe'],
    install: 'install lldb (Debian: apt install lldb-16, which provides lldb-vscode-16)',
  },
  {
    id: 'delve',
    debugType: 'live-delve',
    markers: ['go.mod'],
    extensions: ['.go'],
    install: 'install delve (Debian: apt install delve; or go install github.com/go-delve/delve/cmd/dlv@latest)',
  },
  {
    id: 'dart',
    debugType: 'live-dart',
    markers: ['pubspec.yaml'],
    extensions: ['.dart'],
    install: 'install the Dart or Flutter SDK and put `dart` on PATH',
  },
  {
    id: 'js',
    debugType: 'pwa-node',
    markers: ['package.json'],
    extensions: ['.js', '.mjs', '.cjs', '.ts', '.mts', '.cts'],
    install: "enable the editor's built-in JavaScript debugger (ms-vscode.js-debug)",
  },
];

export function adapterSpec(id: AdapterId): AdapterSpec {
  return ADAPTERS.find((spec) => spec.id === id) as AdapterSpec;
}

/** The adapter for a program by its extension (a file without one is taken as a native executable). */
export function adapterForProgram(program: string): AdapterSpec | undefined {
  const extension = path.extname(program).toLowerCase();
  return ADAPTERS.find((spec) => spec.extensions.includes(extension));
}

export type AdapterResolution =
  | {
      readonly ok: true;
      readonly spec: AdapterSpec;
      /** The executable and arguments that start the adapter (absent for the editor's own debuggers). */
      readonly command?: string;
      readonly args?: readonly string[];
      /** debugpy: the interpreter that runs the adapter and the program. */
      readonly python?: string;
      /** Where it was found, for `adapters`. */
      readonly detail: string;
    }
  | { readonly ok: false; readonly spec: AdapterSpec; readonly reason: string };

export interface AdapterContext {
  /** The project root for the program (the directory holding a marker), else the workspace folder. */
  readonly root: string;
  readonly workspaceFolder: string;
  readonly pathVariable: string;
  /** `liveTools.debug.python`, when set. */
  readonly pythonSetting?: string;
  /** Whether the editor has the built-in JavaScript debugger. */
  readonly hasJsDebug: boolean;
}

export async function resolveAdapter(spec: AdapterSpec, context: AdapterContext): Promise<AdapterResolution> {
  const inputs = {
    root: context.root,
    workspaceFolder: context.workspaceFolder,
    settingDirs: [],
    pathVariable: context.pathVariable,
  };
  switch (spec.id) {
    case 'debugpy':
      return resolveDebugpy(spec, context);
    case 'js':
      return context.hasJsDebug
        ? { ok: true, spec, detail: "the editor's built-in JavaScript debugger" }
        : { ok: false, spec, reason: `the editor has no JavaScript debugger: ${spec.install}` };
    case 'lldb': {
      for (const command of ['lldb-dap', ...lldbVscodeNames(context.pathVariable), 'lldb-vscode']) {
        const found = resolveBinary(command, inputs);
        if (found.found) return { ok: true, spec, command: found.path, args: [], detail: describeResolution(found) };
      }
      return { ok: false, spec, reason: `neither lldb-dap nor lldb-vscode(-NN) was found on PATH: ${spec.install}` };
    }
    case 'delve': {
      const found = resolveBinary('dlv', inputs);
      if (!found.found) return { ok: false, spec, reason: `${describeResolution(found)}: ${spec.install}` };
      return { ok: true, spec, command: found.path, args: ['dap'], detail: describeResolution(found) };
    }
    case 'dart': {
      const found = resolveBinary('dart', inputs);
      if (!found.found) return { ok: false, spec, reason: `${describeResolution(found)}: ${spec.install}` };
      return { ok: true, spec, command: found.path, args: ['debug_adapter'], detail: describeResolution(found) };
    }
  }
}

/** `lldb-vscode-NN` binaries on PATH, newest first. */
function lldbVscodeNames(pathVariable: string): string[] {
  const names = new Set<string>();
  for (const dir of pathVariable.split(path.delimiter)) {
    let entries: string[] = [];
    try {
      entries = fs.readdirSync(dir);
    } catch {
      continue;
    }
    for (const entry of entries) if (/^lldb-(vscode|dap)-\d+$/.test(entry)) names.add(entry);
  }
  return [...names].sort((a, b) => Number(b.split('-').pop()) - Number(a.split('-').pop()));
}

/**
 * The Python that runs the program: the project's `.venv/bin/python`, then `venv/bin/python` (of the
 * root, then of the workspace folder), then the setting, then `python3` on PATH — a Python found on
 * PATH belongs to another environment, and debugging from the wrong one fails in ways that read like
 * broken code, so the answer says which one was taken. It must import debugpy, and Debian's debugpy
 * also needs `bytecode` (without it the only symptom is a 15 s "timed out waiting for debuggee").
 */
/** debugpy's adapter with its sockets acknowledging at once (~43 → ~1 ms a request): dist/debug/debugpy_adapter.py beside the bundle. */
export function debugpyAdapterScript(): string {
  return path.join(__dirname, 'debug', 'debugpy_adapter.py');
}

async function resolveDebugpy(spec: AdapterSpec, context: AdapterContext): Promise<AdapterResolution> {
  const candidates: Array<{ python: string; via: string }> = [];
  for (const base of new Set([context.root, context.workspaceFolder])) {
    for (const venv of ['.venv', 'venv'])
      candidates.push({ python: path.join(base, venv, 'bin', 'python'), via: `the project's ${venv}` });
  }
  if (context.pythonSetting)
    candidates.push({ python: path.resolve(context.workspaceFolder, context.pythonSetting), via: Setting.debugPython });
  let chosen = candidates.find((candidate) => isExecutableFile(candidate.python));
  if (!chosen) {
    const onPath = resolveBinary('python3', {
      root: context.root,
      workspaceFolder: context.workspaceFolder,
      settingDirs: [],
      pathVariable: context.pathVariable,
    });
    if (!onPath.found)
      return {
        ok: false,
        spec,
        reason: `no Python: no .venv/bin/python or venv/bin/python in the project, ${Setting.debugPython} is not set, and python3 is not on PATH`,
      };
    chosen = { python: onPath.path, via: `PATH (no project venv; set ${Setting.debugPython} to choose another)` };
  }
  const ready = {
    ok: true,
    spec,
    command: chosen.python,
    args: [debugpyAdapterScript()],
    python: chosen.python,
    detail: `${chosen.python} (${chosen.via})`,
  } as const;
  const version = interpreterVersion(chosen.python);
  if (version !== undefined && probedInterpreters.get(chosen.python) === version) return ready;
  const probe = await runToCompletion(
    chosen.python,
    [
      '-c',
      'import json, importlib.util as u; d = u.find_spec("debugpy"); print(json.dumps({"debugpy": d.origin if d else None, "bytecode": u.find_spec("bytecode") is not None}))',
    ],
    { cwd: context.root, timeoutSeconds: 20 },
  ).catch((error: Error) => ({ exitCode: -1, stdout: '', stderr: error.message }));
  let found: { debugpy: string | null; bytecode: boolean } | undefined;
  try {
    found = JSON.parse(probe.stdout.trim().split('\n').pop() ?? '') as { debugpy: string | null; bytecode: boolean };
  } catch {
    return {
      ok: false,
      spec,
      reason: `${chosen.python} (${chosen.via}) could not be asked what it imports: ${(probe.stderr || probe.stdout).trim().slice(-300)}`,
    };
  }
  if (!found.debugpy)
    return { ok: false, spec, reason: `${chosen.python} (${chosen.via}) cannot import debugpy: ${spec.install}` };
  if (found.debugpy.startsWith('/usr/lib/python3/dist-packages/') && !found.bytecode) {
    return {
      ok: false,
      spec,
      reason: `${chosen.python} (${chosen.via}) has Debian's debugpy but cannot import \`bytecode\`, which it needs (the program would only time out): apt install python3-bytecode`,
    };
  }
  if (version !== undefined) probedInterpreters.set(chosen.python, version);
  return ready;
}

/**
 * Interpreters that passed the probe, with the modification time of their site-packages then: asking
 * Python costs a process start per launch, and only an install or removal changes the answer.
 */
const probedInterpreters = new Map<string, string>();

function interpreterVersion(python: string): string | undefined {
  try {
    const prefix = path.dirname(path.dirname(fs.realpathSync(python)));
    const venvConfig = path.join(path.dirname(path.dirname(python)), 'pyvenv.cfg');
    const parts = [fs.statSync(python).mtimeMs, fs.existsSync(venvConfig) ? fs.statSync(venvConfig).mtimeMs : 0];
    for (const lib of ['lib', 'local/lib']) {
      const dir = path.join(lib === 'lib' ? path.dirname(path.dirname(python)) : prefix, lib);
      for (const entry of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
        for (const packages of ['site-packages', 'dist-packages']) {
          const full = path.join(dir, entry, packages);
          if (fs.existsSync(full)) parts.push(fs.statSync(full).mtimeMs);
        }
      }
    }
    return parts.join(':');
  } catch {
    return undefined;
  }
}
