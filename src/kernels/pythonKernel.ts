/**
 * How the Python kernel starts (kernel.py, which also rewrites the IPython idioms %pip, %cd, !cmd,
 * %%bash, %%timeit) and which interpreter runs it.
 */
import * as path from 'node:path';
import { isExecutableFile } from '../project/binaryResolution';
import { KernelLaunch } from './kernel';

/** kernel.py as the extension ships it: dist/kernels/python_kernel.py beside the bundle. */
export function defaultDriverPath(): string {
  return path.join(__dirname, 'kernels', 'python_kernel.py');
}

export function pythonLaunch(python: string, driverPath = defaultDriverPath()): KernelLaunch {
  return {
    language: 'Python',
    command: python,
    // -u also unbuffers C stdio, so a library's printf reaches fd 1 before the cell's `done`.
    args: ['-u', driverPath],
    // Agg: figures render to PNG without a display; unbuffered so C-level output arrives as written.
    env: { MPLBACKEND: 'Agg', PYTHONUNBUFFERED: '1', PYTHONIOENCODING: 'utf-8' },
  };
}

export interface InterpreterChoice {
  readonly python: string;
  /** A few words on why this one, for the tool's answer. */
  readonly why: string;
}

/**
 * The Python for a project: `<root>/.venv/bin/python`, `<root>/venv/bin/python`, the setting,
 * then `python3` on PATH — the project's own environment first, since a cell importing the
 * project's dependencies from the wrong Python fails in ways that read like broken code.
 * Undefined when there is none.
 */
export function choosePythonInterpreter(inputs: {
  readonly root: string;
  readonly setting?: string;
  readonly settingName?: string;
  readonly pathVariable: string;
  readonly isExecutable?: (file: string) => boolean;
}): InterpreterChoice | undefined {
  const executable = inputs.isExecutable ?? isExecutableFile;
  for (const venv of ['.venv', 'venv']) {
    const python = path.join(inputs.root, venv, 'bin', 'python');
    if (executable(python)) return { python, why: `the project's ${venv}` };
  }
  const settingName = inputs.settingName ?? 'the Python setting';
  let unusable = '';
  if (inputs.setting) {
    const python = path.resolve(inputs.root, inputs.setting);
    if (executable(python)) return { python, why: `from ${settingName}` };
    unusable = `; ${settingName} names ${python}, which is not an executable file`;
  }
  for (const dir of inputs.pathVariable.split(path.delimiter)) {
    if (!dir) continue;
    const python = path.join(dir, 'python3');
    if (executable(python))
      return {
        python,
        why: `python3 on PATH (no project venv${unusable || `; set ${settingName} to choose another`})`,
      };
  }
  return undefined;
}
