/**
 * One code-server for one run: a fresh user-data-dir and extensions dir, a free loopback port,
 * the smoke-test driver on (without it the test payload in the URL is ignored).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CodeServerInstall } from './codeServerInstall';
import { freePort, startProcess, StartedProcess, stopProcess, waitForHttp } from './processes';
import { RUN_MARKER } from '../support/processes';
import { STATE_DIR_VARIABLE } from '../../src/mcp/endpoint';

export interface Profile {
  readonly userDataDir: string;
  readonly extensionsDir: string;
  /** Unpacked extensions copied into the extensions dir (the scripted model, for tests). */
  readonly installExtensions: readonly string[];
  readonly settings: Record<string, unknown>;
  /** A fixed port (npm start with PORT=…); a free one otherwise. */
  readonly port?: number;
  /** Tests need the smoke-test driver (it makes code-server honour the test payload); a person does not. */
  readonly smokeTestDriver?: boolean;
  /**
   * `npm start`: the window's MCP discovery file goes where the installed extension puts it (the user's
   * `~/.agent-live-tools/windows`), so an agent in a shell outside finds the demo as it would any window.
   * Otherwise it stays in the run (not in the user's home, not seen by another run).
   */
  readonly userDiscovery?: boolean;
}

export interface RunningCodeServer {
  readonly host: string;
  readonly process: StartedProcess;
  readonly logFile: string;
  stop(): Promise<void>;
}

/** Settings for a quiet, offline editor; confirmations stay on so tests can see them. */
export const QUIET_SETTINGS: Record<string, unknown> = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'git.enabled': false,
  'security.workspace.trust.enabled': false,
};

function copyDirectory(from: string, to: string): void {
  fs.cpSync(from, to, { recursive: true, dereference: true });
}

export function prepareProfile(profile: Profile): void {
  const userDir = path.join(profile.userDataDir, 'User');
  fs.mkdirSync(userDir, { recursive: true });
  const settingsFile = path.join(userDir, 'settings.json');
  if (!fs.existsSync(settingsFile)) fs.writeFileSync(settingsFile, JSON.stringify(profile.settings, null, 2));
  fs.mkdirSync(profile.extensionsDir, { recursive: true });
  for (const extension of profile.installExtensions) {
    const manifest = JSON.parse(fs.readFileSync(path.join(extension, 'package.json'), 'utf8'));
    copyDirectory(
      extension,
      path.join(profile.extensionsDir, `${manifest.publisher}.${manifest.name}-${manifest.version}`),
    );
  }
}

export async function startCodeServer(
  install: CodeServerInstall,
  profile: Profile,
  folder: string,
  runDir: string,
): Promise<RunningCodeServer> {
  prepareProfile(profile);
  const port = profile.port ?? (await freePort());
  const host = `127.0.0.1:${port}`;
  const logFile = path.join(runDir, 'code-server.log');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PATH: `${path.join(install.nodeDir, 'bin')}${path.delimiter}${process.env.PATH ?? ''}`,
    // Every process of this run inherits it: leftover-process checks count only their own run's (test/support/processes.ts).
    [RUN_MARKER]: `${path.basename(runDir)}-${process.pid}`,
  };
  if (!profile.userDiscovery) env[STATE_DIR_VARIABLE] = path.join(runDir, 'windows');
  // The editor starts clean: nothing from an outer VS Code or an outer `npm test` leaks into it.
  for (const key of Object.keys(env)) {
    if (key.startsWith('VSCODE_') || key === 'ELECTRON_RUN_AS_NODE' || key.toLowerCase().startsWith('npm_'))
      delete env[key];
  }
  const server = startProcess(
    install.nodeBinary,
    [
      install.entry,
      '--auth',
      'none',
      '--bind-addr',
      host,
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
      '--disable-getting-started-override',
      '--ignore-last-opened',
      '--config',
      path.join(runDir, 'code-server.yaml'),
      '--user-data-dir',
      profile.userDataDir,
      '--extensions-dir',
      profile.extensionsDir,
      ...(profile.smokeTestDriver === false ? [] : ['--vscode-option', 'enable-smoke-test-driver']),
      folder,
    ],
    { cwd: runDir, env, logFile },
  );
  let running = true;
  void server.exited.then(() => (running = false));
  try {
    await waitForHttp(`http://${host}/healthz`, 60_000, () => running);
  } catch (error) {
    await stopProcess(server);
    throw error;
  }
  return { host, process: server, logFile, stop: () => stopProcess(server) };
}
