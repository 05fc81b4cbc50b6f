import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { nullLogger } from '../../src/log/logger';
import {
  EditorExtension,
  EffectiveEntry,
  effectiveTable,
  LanguageOverrides,
} from '../../src/lsp/supervisor/serverTable';
import {
  ServerClient,
  ServerLaunch,
  ServerProcess,
  SupervisorEngine,
  SupervisorHost,
} from '../../src/lsp/supervisor/supervisorEngine';

/** A process that exits when told to (or when stopped). */
class FakeProcess implements ServerProcess {
  stopped = false;
  private exit!: (code: number | null) => void;
  readonly exited = new Promise<number | null>((resolve) => (this.exit = resolve));
  constructor(readonly pid: number) {}

  exitWith(code: number): void {
    this.exit(code);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.exit(null);
  }
}

type StartBehaviour = 'runs' | 'fails' | 'hangs' | 'not running';

/** A language client whose start runs, fails, hangs or ends without running, as the test says. */
class FakeClient implements ServerClient {
  running = false;
  stopped = false;
  process: FakeProcess | undefined;
  constructor(
    readonly launch: ServerLaunch,
    private readonly behaviour: StartBehaviour,
    private readonly nextPid: () => number,
  ) {}

  async start(): Promise<void> {
    this.process = new FakeProcess(this.nextPid());
    this.launch.spawned(this.process);
    await Promise.resolve();
    if (this.behaviour === 'fails') throw new Error('initialize failed: bad flag');
    if (this.behaviour === 'hangs') await new Promise(() => undefined);
    this.running = this.behaviour === 'runs';
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.running = false;
  }
}

class FakeHost implements SupervisorHost<FakeClient> {
  readonly clients: FakeClient[] = [];
  readonly executed: string[] = [];
  registeredCommands = new Set<string>();
  editorExtensions = new Map<string, EditorExtension & { active: boolean }>();
  overrides: LanguageOverrides = {};
  behaviour: StartBehaviour = 'runs';
  /** The user allowed servers installed in the project (the workspace below has them). */
  allowProjectServers = true;
  private pid = 1000;

  constructor(
    private readonly workspaceFolders: string[],
    private readonly dirs: string[] = [],
  ) {}

  folders(): string[] {
    return this.workspaceFolders;
  }
  table(): EffectiveEntry[] {
    return effectiveTable(this.overrides);
  }
  binDirs(): string[] {
    return this.dirs;
  }
  projectServers(): boolean {
    return this.allowProjectServers;
  }
  pathVariable(): string {
    return '';
  }
  editorServer(entry: EffectiveEntry): (EditorExtension & { active: boolean }) | undefined {
    return this.editorExtensions.get(entry.id);
  }
  async commands(): Promise<Set<string>> {
    return this.registeredCommands;
  }
  async executeCommand(command: string): Promise<unknown> {
    this.executed.push(command);
    return undefined;
  }
  openDocumentLanguages(): Map<string, number> {
    return new Map([['python', 2]]);
  }
  client(launch: ServerLaunch): FakeClient {
    const client = new FakeClient(launch, this.behaviour, () => ++this.pid);
    this.clients.push(client);
    return client;
  }
}

/**
 * A workspace folder with two Python roots (app/, lib/) whose server binary is project-local,
 * a Go root (svc/) with no gopls anywhere, and a folder without a Python marker (docs/).
 */
function workspace(): { folder: string; file: (relative: string) => string } {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'supervisor-engine-'));
  const write = (relative: string, text = '', mode = 0o644) => {
    fs.mkdirSync(path.dirname(path.join(folder, relative)), { recursive: true });
    fs.writeFileSync(path.join(folder, relative), text, { mode });
  };
  for (const root of ['app', 'lib']) {
    write(`${root}/pyproject.toml`);
    write(`${root}/main.py`, 'print(1)\n');
    write(`${root}/.venv/bin/pyright-langserver`, '#!/bin/sh\n', 0o755);
  }
  write('svc/go.mod', 'module svc\n');
  write('docs/notes.py');
  return { folder, file: (relative) => path.join(folder, relative) };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('supervisor engine', () => {
  let ws: ReturnType<typeof workspace>;
  let host: FakeHost;
  let engine: SupervisorEngine<FakeClient>;

  beforeEach(() => {
    ws = workspace();
    host = new FakeHost([ws.folder]);
    engine = new SupervisorEngine(host, nullLogger, 0.2);
  });

  afterEach(async () => {
    await engine.stopAll();
    fs.rmSync(ws.folder, { recursive: true, force: true });
  });

  it('plans every (language, root) of the folders, and the languages without a root', () => {
    const { roots, withoutRoot } = engine.plan();
    assert.deepEqual(
      roots.map((plan) => `${plan.entry.id} ${path.relative(ws.folder, plan.root.dir)} ${plan.root.markers.join(',')}`),
      ['python app pyproject.toml', 'python lib pyproject.toml', 'go svc go.mod'],
    );
    assert.deepEqual(
      withoutRoot.map(({ entry }) => entry.id),
      ['typescript', 'c', 'rust', 'dart'],
    );
  });

  it('status before any start: our server not started, a root without binary says where it looked', () => {
    const status = engine.statusAnswer();
    assert.match(
      status,
      /- Python at app \(pyproject\.toml\): our server `pyright-langserver --stdio` \(.*app\/\.venv\/bin\/pyright-langserver \(project-local\)\): not started — starts when a Python file under this root is opened, or with lsp reload/,
    );
    assert.match(
      status,
      /- Go at svc \(go\.mod\): no server: root marker present, but `gopls` not found \(looked in project: svc\/node_modules\/\.bin, svc\/\.venv\/bin, svc\/venv\/bin, node_modules\/\.bin, \.venv\/bin, venv\/bin; liveTools\.lsp\.binDirs: \(none set\); PATH: \(empty\)\)/,
    );
    assert.match(status, /Open documents: python \(2 files\)\./);
  });

  it("the served-languages line for descriptions: ours ready or running, the editor's, and none with why; told on each change", async () => {
    let changes = 0;
    engine.onDidChange(() => changes++);
    assert.equal(
      engine.servedLanguagesLine(),
      'Languages with a language server in this window now: Python (pyright-langserver). ' +
        'No server for: Go (root marker present, but `gopls` not found (looked in project: svc/node_modules…); lsp action status says more.',
    );
    await engine.ensureFor(ws.file('app/main.py'), 'python');
    assert.equal(changes, 2, 'starting, then running');
    host.clients[0].process!.exitWith(3);
    await tick();
    assert.equal(changes, 3);
    // The other Python root still starts on first use: Python stays served.
    assert.match(
      engine.servedLanguagesLine(),
      /^Languages with a language server in this window now: Python \(pyright-langserver\)\./,
    );
    host.editorExtensions.set('typescript', { id: 'vscode.typescript-language-features', active: true });
    assert.match(
      engine.servedLanguagesLine(),
      /now: Python \(pyright-langserver\), TypeScript\/JavaScript \(the editor's vscode\.typescript-language-features\)\. No server for: Go/,
    );
  });

  it("a server installed in the project is not started unless the user's settings allow it; the status says why and how", async () => {
    host.allowProjectServers = false;
    await engine.ensureFor(ws.file('app/main.py'), 'python');
    assert.equal(host.clients.length, 0, 'opening a file (a read) ran none of the project’s code');
    assert.match(
      engine.statusAnswer(),
      /- Python at app \(pyproject\.toml\): no server: root marker present, but `pyright-langserver` not found \(looked in liveTools\.lsp\.binDirs: \(none set\); PATH: \(empty\)\); the project's own app\/\.venv\/bin\/pyright-langserver is not started: it is the project's code, and a server starts when a file is opened \(set liveTools\.lsp\.projectServers to true in user settings to use it\)/,
    );
    host.allowProjectServers = true;
    await engine.ensureFor(ws.file('app/main.py'), 'python');
    assert.equal(host.clients.length, 1);
  });

  it("rust-analyzer runs the project's code whatever it is told: it starts only where the user's settings allow it", async () => {
    fs.mkdirSync(ws.file('crate/src'), { recursive: true });
    fs.writeFileSync(ws.file('crate/Cargo.toml'), '[package]\nname = "crate"\n');
    fs.writeFileSync(ws.file('crate/src/main.rs'), 'fn main() {}\n');
    const bin = ws.file('tools');
    fs.mkdirSync(bin);
    fs.writeFileSync(path.join(bin, 'rust-analyzer'), '#!/bin/sh\n', { mode: 0o755 });
    const rust = new FakeHost([ws.folder], [bin]);
    const rustEngine = new SupervisorEngine(rust, nullLogger, 0.2);
    try {
      rust.allowProjectServers = false;
      await rustEngine.ensureFor(ws.file('crate/src/main.rs'), 'rust');
      assert.equal(rust.clients.length, 0);
      assert.match(
        rustEngine.statusAnswer(),
        /- Rust at crate \(Cargo\.toml\): no server: not started: it runs cargo, which runs the rustc wrapper and toolchain the project's configuration names .* \(set liveTools\.lsp\.projectServers to true in user settings to allow it, or install rust-lang\.rust-analyzer\)/,
      );
      rust.allowProjectServers = true;
      await rustEngine.ensureFor(ws.file('crate/src/main.rs'), 'rust');
      assert.equal(rust.clients.length, 1);
    } finally {
      await rustEngine.stopAll();
    }
  });

  it('a file opened under a root starts its server once: starting, then running', async () => {
    const ensured = engine.ensureFor(ws.file('app/main.py'), 'python');
    assert.equal(host.clients.length, 1);
    const [client] = host.clients;
    assert.equal(client.launch.root, ws.file('app'));
    assert.equal(client.launch.displayRoot, 'app');
    assert.equal(client.launch.binary, ws.file('app/.venv/bin/pyright-langserver'));
    assert.match(engine.statusAnswer(), /Python at app .*: starting, pid 1001/);
    await ensured;
    assert.match(engine.statusAnswer(), /Python at app .*: running, pid 1001\n/);
    await engine.ensureFor(ws.file('app/sub/other.py'), 'python');
    assert.equal(host.clients.length, 1, 'no second server for the same root');
    assert.equal(engine.clientFor(ws.file('app/main.py'), 'python'), client);
    assert.equal(engine.clientFor(ws.file('lib/main.py'), 'python'), undefined);
    assert.deepEqual(engine.runningPids(), [1001]);
  });

  it('starts nothing outside a root, for an editor-served or turned-off language, or without a binary', async () => {
    await engine.ensureFor(ws.file('docs/notes.py'), 'python');
    await engine.ensureFor('/elsewhere/x.py', 'python');
    await engine.ensureFor(ws.file('svc/main.go'), 'go');
    await engine.ensureFor(ws.file('app/readme.txt'), 'plaintext');
    host.overrides = { python: { enabled: false } };
    await engine.ensureFor(ws.file('app/main.py'), 'python');
    host.overrides = {};
    host.editorExtensions.set('python', {
      id: 'ms-python.python',
      restartCommand: 'python.analysis.restartLanguageServer',
      active: true,
    });
    await engine.ensureFor(ws.file('app/main.py'), 'python');
    assert.equal(host.clients.length, 0);
  });

  it('why no server serves a file, for the write tools and lsp diagnostics to say at once: each reason, and none where one can', async () => {
    assert.equal(engine.whyNotServed(ws.file('app/main.py'), 'python'), undefined, 'ours starts on opening');
    assert.equal(engine.whyNotServed('/elsewhere/x.py', 'python'), undefined, 'outside the folders');
    assert.equal(
      engine.whyNotServed(ws.file('docs/notes.py'), 'python'),
      'no Python language server: no project root holds it (a folder with pyproject.toml, setup.py, requirements.txt, pyrightconfig.json)',
    );
    assert.equal(
      engine.whyNotServed(ws.file('svc/main.go'), 'go'),
      'no Go language server: `gopls` not found (lsp action "status" says where it looked; install it or set liveTools.lsp.binDirs)',
    );
    host.allowProjectServers = false;
    assert.match(engine.whyNotServed(ws.file('app/main.py'), 'python') ?? '', /`pyright-langserver` not found/);
    host.allowProjectServers = true;
    await engine.ensureFor(ws.file('lib/main.py'), 'python');
    host.allowProjectServers = false;
    assert.equal(engine.whyNotServed(ws.file('lib/main.py'), 'python'), undefined, 'one runs for it, found before');
    host.allowProjectServers = true;
    host.overrides = { python: { enabled: false } };
    assert.equal(
      engine.whyNotServed(ws.file('app/main.py'), 'python'),
      'no Python language server: turned off by liveTools.lsp.servers.python.enabled',
    );
    host.overrides = {};
    host.editorExtensions.set('python', { id: 'ms-python.python', active: false });
    assert.equal(
      engine.whyNotServed(ws.file('docs/notes.py'), 'python'),
      undefined,
      "the editor's extension serves it",
    );
    assert.equal(engine.whyNotServed(ws.file('docs/notes.md'), 'markdown'), undefined, 'not a language of the table');
  });

  it('a start that fails: failed with the reason, client and process stopped', async () => {
    host.behaviour = 'fails';
    await engine.ensureFor(ws.file('app/main.py'), 'python');
    const [client] = host.clients;
    assert.ok(client.stopped && client.process?.stopped);
    assert.match(engine.statusAnswer(), /Python at app .*: failed — failed to start: initialize failed: bad flag/);
    assert.equal(engine.clientFor(ws.file('app/main.py'), 'python'), undefined);
  });

  it('a start that never initializes fails at the time bound', async () => {
    host.behaviour = 'hangs';
    await engine.ensureFor(ws.file('app/main.py'), 'python');
    assert.match(engine.statusAnswer(), /Python at app .*: failed — failed to start: did not initialize within 0\.2 s/);
    assert.ok(host.clients[0].process?.stopped);
  });

  it('a server that exits is marked exited; reload starts it again', async () => {
    await engine.ensureFor(ws.file('app/main.py'), 'python');
    host.clients[0].process!.exitWith(3);
    await tick();
    assert.match(engine.statusAnswer(), /Python at app .*: exited — exited with code 3; lsp reload starts it again/);
    assert.equal(engine.clientFor(ws.file('app/main.py'), 'python'), undefined);
    const answer = await engine.reload('python', ws.file('app/main.py'));
    assert.equal(answer, 'Reload:\n- Python at app: restarted our server (pid 1001 stopped, pid 1002, running)');
    assert.ok(host.clients[0].stopped);
    assert.match(engine.statusAnswer(), /Python at app .*: running, pid 1002/);
  });

  it('an exit after a stop is not taken for a crash', async () => {
    await engine.ensureFor(ws.file('app/main.py'), 'python');
    await engine.reload('python', ws.file('app/main.py'));
    await tick();
    assert.match(engine.statusAnswer(), /Python at app .*: running, pid 1002/);
  });

  it('reload plan: every root of the language without a file, only the holding root with one, what it could not do', async () => {
    await engine.ensureFor(ws.file('app/main.py'), 'python');
    assert.equal(
      await engine.reload('python'),
      'Reload:\n- Python at app: restarted our server (pid 1001 stopped, pid 1002, running)\n- Python at lib: started our server (pid 1003, running)',
    );
    assert.equal(
      await engine.reload('python', ws.file('lib/main.py')),
      'Reload:\n- Python at lib: restarted our server (pid 1003 stopped, pid 1004, running)',
    );
    assert.equal(
      await engine.reload('go'),
      'Reload:\n- Go at svc: nothing started: root marker present, but `gopls` not found (looked in project: svc/node_modules/.bin, svc/.venv/bin, svc/venv/bin, node_modules/.bin, .venv/bin, venv/bin; liveTools.lsp.binDirs: (none set); PATH: (empty))',
    );
    host.behaviour = 'fails';
    assert.equal(
      await engine.reload('python', ws.file('app/main.py')),
      'Reload:\n- Python at app: restarted our server (pid 1002 stopped) but it is failed: failed to start: initialize failed: bad flag',
    );
    assert.equal(
      await engine.reload('rust'),
      'Nothing to reload: no language server serves this workspace (see lsp status for why).',
    );
  });

  it('reload of an editor-served language asks the extension, when its restart command is registered', async () => {
    host.editorExtensions.set('go', { id: 'golang.go', restartCommand: 'go.languageserver.restart', active: true });
    host.editorExtensions.set('rust', {
      id: 'rust-lang.rust-analyzer',
      restartCommand: 'rust-analyzer.restartServer',
      active: false,
    });
    host.editorExtensions.set('c', { id: 'ms-vscode.cpptools', active: true });
    assert.equal(
      await engine.reload('go'),
      'Reload:\n- Go: served by golang.go; its restart command go.languageserver.restart is not registered (the extension is not active yet); nothing done',
    );
    host.registeredCommands = new Set(['go.languageserver.restart']);
    assert.equal(
      await engine.reload('go'),
      'Reload:\n- Go: asked golang.go to restart its server (go.languageserver.restart)',
    );
    assert.deepEqual(host.executed, ['go.languageserver.restart']);
    assert.equal(
      await engine.reload('cpp'),
      'Reload:\n- C/C++: served by ms-vscode.cpptools, which has no restart command; nothing done',
    );
    // Reload of everything: an editor's server neither active nor with a root here is left alone.
    const all = await engine.reload(undefined);
    assert.doesNotMatch(all, /Rust/);
    assert.match(all, /- Go: asked golang\.go/);
    assert.match(all, /- C\/C\+\+: served by ms-vscode\.cpptools/);
    assert.match(all, /- Python at app: started our server/);
  });

  it('stopAll stops every client and process, and forgets them', async () => {
    await engine.ensureFor(ws.file('app/main.py'), 'python');
    await engine.ensureFor(ws.file('lib/main.py'), 'python');
    assert.deepEqual(engine.runningPids().sort(), [1001, 1002]);
    await engine.stopAll();
    assert.ok(host.clients.every((client) => client.stopped && client.process?.stopped));
    assert.deepEqual(engine.runningPids(), []);
    assert.match(engine.statusAnswer(), /Python at app .*: not started/);
    await tick();
    assert.match(engine.statusAnswer(), /Python at lib .*: not started/);
  });

  it('finds a binary through liveTools.lsp.binDirs, relative to the folder', async () => {
    fs.mkdirSync(ws.file('tools'), { recursive: true });
    fs.writeFileSync(ws.file('tools/gopls'), '#!/bin/sh\n', { mode: 0o755 });
    host = new FakeHost([ws.folder], ['tools']);
    engine = new SupervisorEngine(host, nullLogger, 0.2);
    await engine.ensureFor(ws.file('svc/main.go'), 'go');
    assert.equal(host.clients[0].launch.binary, ws.file('tools/gopls'));
    assert.match(engine.statusAnswer(), /Go at svc .*\(from liveTools\.lsp\.binDirs\)\): running, pid 1001/);
  });
});
