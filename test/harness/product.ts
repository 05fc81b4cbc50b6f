/**
 * The product as a person runs it: code-server on a loopback port with Agent Live Tools
 * installed (the same files the .vsix carries) and a demo workspace (a copy of the TypeScript
 * fixture). Used by `npm start` and by the product smoke test.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { QUIET_SETTINGS, RunningCodeServer, startCodeServer } from './codeServer';
import { ensureCodeServer } from './codeServerInstall';
import { repoRoot } from './editorRun';

/** What the .vsix carries (see .vscodeignore), copied in as an installed extension. */
function installBuiltExtension(root: string, extensionsDir: string): void {
  const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  const target = path.join(extensionsDir, `${manifest.publisher}.${manifest.name}-${manifest.version}`);
  fs.rmSync(target, { recursive: true, force: true });
  fs.mkdirSync(path.join(target, 'dist'), { recursive: true });
  for (const file of ['package.json', 'README.md', 'dist/extension.js']) fs.copyFileSync(path.join(root, file), path.join(target, file));
  fs.cpSync(path.join(root, 'media'), path.join(target, 'media'), { recursive: true });
}

export interface RunningProduct {
  readonly url: string;
  readonly server: RunningCodeServer;
}

export async function startProduct(home: string, port: number | undefined, log: (line: string) => void): Promise<RunningProduct> {
  const root = repoRoot();
  const install = ensureCodeServer(path.join(root, '.vscode-test'), log);
  const workspace = path.join(home, 'demo-workspace');
  if (!fs.existsSync(workspace)) fs.cpSync(path.join(root, 'test', 'fixtures', 'ts-project'), workspace, { recursive: true });
  const extensionsDir = path.join(home, 'extensions');
  fs.mkdirSync(extensionsDir, { recursive: true });
  installBuiltExtension(root, extensionsDir);
  const server = await startCodeServer(
    install,
    { userDataDir: path.join(home, 'user-data'), extensionsDir, installExtensions: [], settings: QUIET_SETTINGS, port, smokeTestDriver: false },
    workspace,
    home,
  );
  return { url: `http://${server.host}/?folder=${encodeURIComponent(workspace)}`, server };
}
