/**
 * Wires the eval kernels: the `kernels` resource (ready with a workspace folder open and the kernel
 * entry points shipped), the interpreter choice from the workspace and settings, and a status bar
 * item naming the live kernels, whose command lets the human stop one.
 */
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { workspaceFolderPaths } from '../../workspace/vscode/workspaceFolders';
import { Setting } from '../../platform/settings';
import { userSettingValue } from '../../platform/vscode/userSettings';
import { ResourceState } from '../../platform/resources';
import { Runtime } from '../../runtime';
import { displayPath } from '../../workspace/paths';
import { defaultHostPath, javascriptLaunch } from '../javascriptKernel';
import { DEFAULT_IDLE_BUDGET_SECONDS } from '../kernel';
import { EvalLanguage, KernelPool, LaunchChoice, LiveKernel } from '../kernelPool';
import { choosePythonInterpreter, defaultDriverPath, pythonLaunch } from '../pythonKernel';
import { OPEN_TRANSCRIPT_COMMAND, registerKernelTranscripts } from './kernelTranscriptView';

export const SHOW_KERNELS_COMMAND = 'liveTools.showKernels';
export const STOP_KERNELS_COMMAND = 'liveTools.stopKernels';

function kernelsState(): ResourceState {
  if (workspaceFolderPaths().length === 0)
    return { ready: false, reason: 'no folder is open, and a kernel runs in the workspace folder' };
  const missing = [defaultDriverPath(), defaultHostPath()].filter((file) => !fs.existsSync(file));
  if (missing.length > 0)
    return { ready: false, reason: `the extension is missing its kernel files (${missing.join(', ')}); reinstall it` };
  return { ready: true };
}

function launchFor(language: EvalLanguage): LaunchChoice {
  if (language === 'javascript') return { ok: true, launch: javascriptLaunch(), origin: "the editor's own Node" };
  const root = workspaceFolderPaths()[0]?.path ?? process.cwd();
  const setting = userSettingValue<string>(Setting.evalPython) || undefined;
  const choice = choosePythonInterpreter({
    root,
    setting,
    settingName: Setting.evalPython,
    pathVariable: process.env.PATH ?? '',
  });
  if (!choice) {
    return {
      ok: false,
      reason: `no Python found: ${root} has no .venv/bin/python or venv/bin/python, ${setting ? `${Setting.evalPython} (${setting}) is not an executable file` : `${Setting.evalPython} is not set`}, and there is no python3 on PATH. Create a venv in the project or set ${Setting.evalPython}.`,
    };
  }
  return {
    ok: true,
    launch: pythonLaunch(choice.python),
    origin: `${displayPath(workspaceFolderPaths(), choice.python)}: ${choice.why}`,
  };
}

export function registerKernels(context: vscode.ExtensionContext, runtime: Runtime): KernelPool {
  const update = (): void => runtime.board.set('kernels', kernelsState());
  update();
  const item = vscode.window.createStatusBarItem('liveTools.kernels', vscode.StatusBarAlignment.Left, 10);
  item.name = 'Agent Live Tools: kernels';
  item.command = SHOW_KERNELS_COMMAND;
  const showLive = (): void => {
    const live = pool.live();
    if (live.length === 0) {
      item.hide();
      return;
    }
    item.text = `$(notebook) ${live.map((kernel) => kernel.languageName).join(', ')}`;
    item.tooltip = `Agent kernels running (eval tool):\n${live.map(describeKernel).join('\n')}\nClick to watch one's transcript, or stop it.`;
    item.show();
  };
  let idleBudget: number | undefined;
  const pool: KernelPool = new KernelPool({
    launchFor,
    cwd: () => workspaceFolderPaths()[0]?.path ?? process.cwd(),
    // Read once per change of the setting (every cell asks; a read is ~0.16 ms, traced).
    idleBudgetSeconds: () =>
      (idleBudget ??=
        vscode.workspace.getConfiguration().get<number>(Setting.evalIdleSeconds) ?? DEFAULT_IDLE_BUDGET_SECONDS),
    logger: runtime.log,
    onChange: showLive,
  });
  context.subscriptions.push(
    item,
    vscode.workspace.onDidChangeWorkspaceFolders(update),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration(Setting.evalIdleSeconds)) idleBudget = undefined;
    }),
    vscode.commands.registerCommand(SHOW_KERNELS_COMMAND, () => pickKernelAction(pool)),
    // Returns how many were running, so a caller (and the tests) can tell.
    vscode.commands.registerCommand(STOP_KERNELS_COMMAND, () => pool.stopAll()),
  );
  registerKernelTranscripts(context, pool, runtime.writer);
  return pool;
}

function describeKernel(kernel: LiveKernel): string {
  return `${kernel.languageName} ${kernel.version ?? ''} (pid ${kernel.pid}, ${kernel.conversation === 'window' ? 'outside chat' : 'a chat session'})`;
}

/** Lists the live kernels: open one's transcript, or stop it (the agent's next cell in that language starts fresh). */
async function pickKernelAction(pool: KernelPool): Promise<LiveKernel | undefined> {
  const live = pool.live();
  if (live.length === 0) {
    void vscode.window.showInformationMessage('No agent kernels are running.');
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    live.flatMap((kernel) => [
      {
        label: `$(notebook) Watch ${kernel.languageName}`,
        description: describeKernel(kernel),
        detail: 'Open the transcript of the cells it ran',
        kernel,
        action: 'open' as const,
      },
      {
        label: `$(debug-stop) Stop ${kernel.languageName}`,
        description: describeKernel(kernel),
        detail: kernel.origin,
        kernel,
        action: 'stop' as const,
      },
    ]),
    { title: 'Agent kernels (eval tool)', placeHolder: 'Watch a kernel, or stop it (its variables are lost)' },
  );
  if (!picked) return undefined;
  const { conversation, language } = picked.kernel;
  if (picked.action === 'open')
    await vscode.commands.executeCommand(OPEN_TRANSCRIPT_COMMAND, { conversation, language });
  else await pool.stop(conversation, language);
  return picked.kernel;
}
