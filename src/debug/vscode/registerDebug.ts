/**
 * Wires the debug area: the adapter descriptor factories of our own debug types (debugpy, lldb,
 * delve, dart; JavaScript is the editor's own js-debug), one tracker on every session, the
 * `debug` resource (ready while a workspace folder is open), the controller the tool drives, and
 * "Send the Paused State to the Agent" for the human's own sessions.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { Setting } from '../../platform/settings';
import { Runtime } from '../../runtime';
import { ADAPTERS, resolveAdapter } from '../adapters';
import { DebugController } from '../debugController';
import { withSecretsMasked } from '../../platform/vscode/userSettings';
import { startDelve } from './delveBridge';
import { registerSendPausedState } from './sendPausedState';
import { ADAPTER_FIELD, VscodeDebugHost } from './vscodeDebugHost';

/** What the debug host keeps, by session family (for tests). */
export const DEBUG_HOST_STATE_COMMAND = 'liveTools.debugHostState';

export function registerDebug(context: vscode.ExtensionContext, runtime: Runtime): DebugController {
  const host = new VscodeDebugHost();
  const update = (): void =>
    runtime.board.set(
      'debug',
      (vscode.workspace.workspaceFolders?.length ?? 0) > 0
        ? { ready: true }
        : { ready: false, reason: 'no folder is open, and programs and breakpoints are given relative to it' },
    );
  update();
  context.subscriptions.push(
    vscode.workspace.onDidChangeWorkspaceFolders(update),
    vscode.debug.registerDebugAdapterTrackerFactory('*', host),
    vscode.debug.onDidTerminateDebugSession((session) => host.sessionEnded(session)),
    vscode.commands.registerCommand(DEBUG_HOST_STATE_COMMAND, () => host.state()),
  );
  for (const spec of ADAPTERS) {
    if (spec.id === 'js') continue;
    context.subscriptions.push(
      vscode.debug.registerDebugAdapterDescriptorFactory(spec.debugType, {
        createDebugAdapterDescriptor: async (session) => {
          const configuration = session.configuration;
          // `python -m debugpy --listen` runs debugpy's own adapter on that port: attaching is connecting to it.
          const connect = configuration.connect as { host?: string; port?: number } | undefined;
          if (spec.id === 'debugpy' && configuration.request === 'attach' && connect?.port)
            return new vscode.DebugAdapterServer(connect.port, connect.host ?? '127.0.0.1');
          let adapter = configuration[ADAPTER_FIELD] as { command: string; args: string[] } | undefined;
          const program = typeof configuration.program === 'string' ? configuration.program : undefined;
          const { adapter: adapterContext } = host.contextFor(program);
          if (!adapter) {
            // Started by a person from launch.json: resolve the adapter as the tool would.
            const resolution = await resolveAdapter(spec, adapterContext);
            if (!resolution.ok) throw new Error(`The ${spec.id} adapter cannot start: ${resolution.reason}`);
            adapter = { command: resolution.command as string, args: [...(resolution.args ?? [])] };
          }
          const cwd =
            typeof configuration.cwd === 'string'
              ? configuration.cwd
              : program
                ? path.dirname(program)
                : adapterContext.root;
          runtime.log.info('debug.adapter', `${spec.id}: ${adapter.command} ${adapter.args.join(' ')} (cwd ${cwd})`);
          if (spec.id === 'delve') return startDelve(adapter.command, cwd);
          return new vscode.DebugAdapterExecutable(adapter.command, adapter.args, { cwd });
        },
      }),
    );
  }
  const controller = new DebugController(
    host,
    () => 60_000 * (vscode.workspace.getConfiguration().get<number>(Setting.debugSessionMinutes) ?? 30),
    runtime.log,
  );
  context.subscriptions.push({ dispose: () => void controller.disposeAll() });
  registerSendPausedState(context, host, controller, withSecretsMasked);
  return controller;
}
