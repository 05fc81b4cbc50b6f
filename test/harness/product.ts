/**
 * The product as a person runs it: code-server on a loopback port with Agent Live Tools
 * installed from its .vsix (packaged by vsce from the current build, installed with
 * `--install-extension`) and a demo workspace (a copy of the TypeScript fixture). Used by
 * `npm start` and by the product smoke test.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { QUIET_SETTINGS, RunningCodeServer, startCodeServer } from './codeServer';
import { ensureCodeServer } from './codeServerInstall';
import { repoRoot } from '../support/repoRoot';

function run(command: string, args: string[], cwd: string): void {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8' });
  if (result.status !== 0) {
    throw new Error(
      `${path.basename(command)} ${args.join(' ')} failed:\n${`${result.stdout}${result.stderr}`.trim().split('\n').slice(-15).join('\n')}`,
    );
  }
}

/** Packages the current build with vsce (the .vscodeignore allow-list decides what goes in). */
export function packageVsix(root: string, outFile: string): string {
  run(
    path.join(root, 'node_modules', '.bin', 'vsce'),
    [
      'package',
      '--no-dependencies',
      '--allow-missing-repository',
      '--no-rewrite-relative-links',
      '--skip-license',
      '--out',
      outFile,
    ],
    root,
  );
  return outFile;
}

export interface RunningProduct {
  readonly url: string;
  readonly server: RunningCodeServer;
}

/** The demo workspace and the bridge an agent outside the window starts, as installed. */
export function demoPaths(home: string): { readonly workspace: string; readonly bridge: string } {
  const extensionsDir = path.join(home, 'extensions');
  const installed = fs.existsSync(extensionsDir)
    ? fs.readdirSync(extensionsDir).find((name) => name.startsWith('agent-live-tools.agent-live-tools-'))
    : undefined;
  return {
    workspace: path.join(home, 'demo-workspace'),
    bridge: path.join(
      extensionsDir,
      installed ?? 'agent-live-tools.agent-live-tools-<version>',
      'dist',
      'mcpBridge.js',
    ),
  };
}

/** `userDiscovery`: see Profile (npm start: true; the smoke test keeps its run to itself). */
export async function startProduct(
  home: string,
  port: number | undefined,
  log: (line: string) => void,
  userDiscovery = false,
): Promise<RunningProduct> {
  const root = repoRoot();
  const install = ensureCodeServer(path.join(root, '.vscode-test'), log);
  const workspace = path.join(home, 'demo-workspace');
  if (!fs.existsSync(workspace))
    fs.cpSync(path.join(root, 'test', 'fixtures', 'ts-project'), workspace, { recursive: true });
  const extensionsDir = path.join(home, 'extensions');
  const userDataDir = path.join(home, 'user-data');
  const vsix = packageVsix(root, path.join(home, 'agent-live-tools.vsix'));
  run(
    install.nodeBinary,
    [
      install.entry,
      '--extensions-dir',
      extensionsDir,
      '--user-data-dir',
      userDataDir,
      '--install-extension',
      vsix,
      '--force',
    ],
    home,
  );
  log(`Installed ${path.relative(root, vsix)} into ${path.relative(root, extensionsDir)}.`);
  const server = await startCodeServer(
    install,
    {
      userDataDir,
      extensionsDir,
      installExtensions: [],
      settings: QUIET_SETTINGS,
      port,
      smokeTestDriver: false,
      userDiscovery,
    },
    workspace,
    home,
  );
  return { url: `http://${server.host}/?folder=${encodeURIComponent(workspace)}`, server };
}
