import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runToCompletion, startLongLived } from '../../src/process/childProcess';
import { describeResolution, resolveBinary } from '../../src/project/binaryResolution';
import {
  parseCargoJson,
  parseCheckerOutput,
  parseDartMachine,
  parseGoVet,
  parsePyrightJson,
  parseTsc,
} from '../../src/lsp/supervisor/checkers';
import { candidateDirs, rootHolding, rootOf, rootsFor, underOpenedFolder } from '../../src/project/projectRoots';
import { effectiveTable, entryForLanguageId, LANGUAGE_TABLE } from '../../src/lsp/supervisor/serverTable';
import {
  projectCheckAnswer,
  supervisorReloadAnswer,
  supervisorStatusAnswer,
} from '../../src/lsp/supervisor/supervisorAnswers';

describe('server table', () => {
  it('has the servers and root markers the issue names', () => {
    const byId = new Map(LANGUAGE_TABLE.map((entry) => [entry.id, entry]));
    const expected: [string, string, string[]][] = [
      [
        'python',
        'pyright-langserver --stdio',
        ['pyproject.toml', 'setup.py', 'requirements.txt', 'pyrightconfig.json'],
      ],
      ['go', 'gopls', ['go.mod']],
      ['c', 'clangd', ['compile_commands.json', 'CMakeLists.txt', '.clangd']],
      ['rust', 'rust-analyzer', ['Cargo.toml']],
      ['dart', 'dart language-server --protocol=lsp', ['pubspec.yaml']],
    ];
    for (const [id, commandLine, markers] of expected) {
      const entry = byId.get(id);
      assert.ok(entry, id);
      assert.equal([entry.server.command, ...entry.server.args].join(' '), commandLine);
      assert.deepEqual(entry.rootMarkers, markers);
    }
  });

  it('maps the editor language ids to entries (C and C++ share clangd)', () => {
    const table = effectiveTable();
    assert.equal(entryForLanguageId(table, 'cpp')?.id, 'c');
    assert.equal(entryForLanguageId(table, 'typescriptreact')?.id, 'typescript');
    assert.equal(entryForLanguageId(table, 'plaintext'), undefined);
  });

  it('applies overrides from settings and ignores malformed ones', () => {
    const table = effectiveTable({
      go: { command: '/opt/gopls', args: ['-rpc.trace'], rootMarkers: ['go.work'], checkerArgs: ['vet', './cmd/...'] },
      python: { enabled: false, args: 'not a list' as unknown as string[] },
    });
    const go = table.find((entry) => entry.id === 'go')!;
    assert.deepEqual(go.server, { command: '/opt/gopls', args: ['-rpc.trace'] });
    assert.deepEqual(go.rootMarkers, ['go.work']);
    assert.deepEqual(go.checker?.args, ['vet', './cmd/...']);
    assert.deepEqual(go.overridden, ['command', 'args', 'rootMarkers', 'checkerArgs']);
    const python = table.find((entry) => entry.id === 'python')!;
    assert.equal(python.enabled, false);
    assert.deepEqual(python.server.args, ['--stdio']);
  });
});

describe('binary resolution', () => {
  const executables = new Set<string>();
  const inputs = {
    root: '/ws/langs/py',
    workspaceFolder: '/ws',
    settingDirs: ['/opt/tools/bin', 'rel/bin'],
    pathVariable: '/usr/local/bin:/usr/bin',
    isExecutable: (file: string) => executables.has(file),
  };
  beforeEach(() => executables.clear());

  it('prefers the project, then the settings, then PATH', () => {
    executables.add('/usr/bin/pyright-langserver');
    assert.deepEqual(resolveBinary('pyright-langserver', inputs), {
      found: true,
      path: '/usr/bin/pyright-langserver',
      via: 'PATH',
    });
    executables.add('/opt/tools/bin/pyright-langserver');
    assert.deepEqual(resolveBinary('pyright-langserver', inputs), {
      found: true,
      path: '/opt/tools/bin/pyright-langserver',
      via: 'settings',
    });
    executables.add('/ws/.venv/bin/pyright-langserver');
    assert.deepEqual(resolveBinary('pyright-langserver', inputs), {
      found: true,
      path: '/ws/.venv/bin/pyright-langserver',
      via: 'project',
    });
    executables.add('/ws/langs/py/node_modules/.bin/pyright-langserver');
    assert.deepEqual(resolveBinary('pyright-langserver', inputs), {
      found: true,
      path: '/ws/langs/py/node_modules/.bin/pyright-langserver',
      via: 'project',
    });
  });

  it('looks in the root before the workspace folder, in the order node_modules/.bin, .venv/bin, venv/bin', () => {
    const result = resolveBinary('dart', inputs);
    assert.equal(result.found, false);
    assert.deepEqual(!result.found && result.looked.map((place) => place.dir), [
      '/ws/langs/py/node_modules/.bin',
      '/ws/langs/py/.venv/bin',
      '/ws/langs/py/venv/bin',
      '/ws/node_modules/.bin',
      '/ws/.venv/bin',
      '/ws/venv/bin',
      '/opt/tools/bin',
      '/ws/rel/bin',
      '/usr/local/bin',
      '/usr/bin',
    ]);
  });

  it('a miss says every place looked, grouped', () => {
    const text = describeResolution(resolveBinary('dart', { ...inputs, settingDirs: [] }), (dir) =>
      path.relative('/ws', dir),
    );
    assert.equal(
      text,
      '`dart` not found (looked in project: langs/py/node_modules/.bin, langs/py/.venv/bin, langs/py/venv/bin, node_modules/.bin, .venv/bin, venv/bin; liveTools.lsp.binDirs: (none set); PATH: /usr/local/bin, /usr/bin)',
    );
  });

  it('a command with a slash is a path, relative to the root', () => {
    executables.add('/ws/langs/py/tools/pyright');
    assert.deepEqual(resolveBinary('tools/pyright', inputs), {
      found: true,
      path: '/ws/langs/py/tools/pyright',
      via: 'path',
    });
    assert.equal(resolveBinary('/nowhere/gopls', inputs).found, false);
  });

  it('checks the file is executable on disk by default', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bin-'));
    fs.writeFileSync(path.join(dir, 'plain'), '');
    fs.writeFileSync(path.join(dir, 'tool'), '#!/bin/sh\n', { mode: 0o755 });
    const base = { root: dir, workspaceFolder: dir, settingDirs: [dir], pathVariable: '' };
    assert.equal(resolveBinary('plain', base).found, false);
    assert.equal(resolveBinary('tool', base).found, true);
    fs.rmSync(dir, { recursive: true });
  });
});

describe('project roots', () => {
  let dir: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'roots-'));
    const files = [
      'go.mod',
      'svc/go.mod',
      'svc/inner/go.mod',
      'py/pyproject.toml',
      'py/setup.py',
      'node_modules/x/go.mod',
      'a/b/c/d/e/go.mod',
    ];
    for (const file of files) {
      fs.mkdirSync(path.join(dir, path.dirname(file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), '');
    }
  });
  after(() => fs.rmSync(dir, { recursive: true }));

  it('finds the outermost root per language, skips dependency folders and stops at the depth', () => {
    const dirs = candidateDirs(dir);
    assert.deepEqual(
      rootsFor(dirs, ['go.mod']).map((root) => path.relative(dir, root.dir)),
      [''],
    );
    const py = rootsFor(dirs, ['pyproject.toml', 'setup.py', 'requirements.txt']);
    assert.deepEqual(py, [{ dir: path.join(dir, 'py'), markers: ['pyproject.toml', 'setup.py'] }]);
    assert.deepEqual(rootsFor(candidateDirs(path.join(dir, 'svc')), ['go.mod']).length, 1);
    assert.equal(rootsFor(candidateDirs(path.join(dir, 'a'), 3), ['go.mod']).length, 0);
  });

  it('a real path reported through a symlinked workspace maps back under the opened folder', () => {
    assert.equal(underOpenedFolder('/real/ws/a.py', '/link/ws', '/real/ws'), '/link/ws/a.py');
    assert.equal(underOpenedFolder('/real/wsx/a.py', '/link/ws', '/real/ws'), '/real/wsx/a.py');
    assert.equal(underOpenedFolder('/w/a.py', '/w', '/w'), '/w/a.py');
  });

  it("the root holding a file, from the file's own folders, is the one the walk finds (every file here, each language's markers, two depths)", () => {
    const extra = ['py/pkg/mod.py', 'svc/inner/x.go', 'node_modules/x/y.go', 'a/b/c/d/e/f.go', 'a/b/c/z.go', 'top.go'];
    for (const file of extra) {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), '');
    }
    // A link to a folder is not gone through by the walk: nor here.
    fs.symlinkSync(path.join(dir, 'py'), path.join(dir, 'pylink'));
    const files = [...extra, 'nowhere.md', 'pylink/pkg/mod.py', '..cache/x.py'].map((file) => path.join(dir, file));
    let rooted = 0;
    for (const markers of [['go.mod'], ['pyproject.toml', 'setup.py', 'requirements.txt']])
      for (const depth of [4, 2])
        for (const file of files) {
          const walked = rootOf(rootsFor(candidateDirs(dir, depth), markers), file);
          assert.deepEqual(rootHolding(dir, file, markers, depth), walked, `${file} ${markers[0]} depth ${depth}`);
          if (walked) rooted++;
        }
    assert.ok(rooted >= 8, `only ${rooted} files had a root: the comparison would be empty`);
    assert.equal(rootHolding(path.join(dir, 'svc'), path.join(dir, 'top.go'), ['go.mod']), undefined, 'outside');
  });

  it('a file belongs to the deepest root containing it', () => {
    const roots = [
      { dir: '/w', markers: [] },
      { dir: '/w/svc', markers: [] },
    ];
    assert.equal(rootOf(roots, '/w/svc/main.go')?.dir, '/w/svc');
    assert.equal(rootOf(roots, '/w/main.go')?.dir, '/w');
    assert.equal(rootOf(roots, '/ws/main.go'), undefined);
  });
});

describe('checker output parsers', () => {
  it('tsc: file(line,col): error TSnnnn, continuation lines joined', () => {
    const out = [
      "src/broken.ts(3,7): error TS2322: Type 'string' is not assignable to type 'number'.",
      "src/a.ts(10,1): error TS2345: Argument of type 'A' is not assignable to parameter of type 'B'.",
      "  Property 'x' is missing in type 'A'.",
      'Found 2 errors.',
    ].join('\n');
    assert.deepEqual(parseTsc(out, '/p'), [
      {
        file: '/p/src/broken.ts',
        line: 3,
        severity: 'error',
        message: "Type 'string' is not assignable to type 'number'.",
        source: 'tsc',
        code: 'TS2322',
      },
      {
        file: '/p/src/a.ts',
        line: 10,
        severity: 'error',
        message:
          "Argument of type 'A' is not assignable to parameter of type 'B'.\nProperty 'x' is missing in type 'A'.",
        source: 'tsc',
        code: 'TS2345',
      },
    ]);
  });

  it('pyright --outputjson: 0-based lines become 1-based, severity and rule kept', () => {
    const out = JSON.stringify({
      generalDiagnostics: [
        {
          file: '/p/report.py',
          severity: 'error',
          message: 'bad',
          range: { start: { line: 2, character: 13 } },
          rule: 'reportAssignmentType',
        },
        { file: '/p/x.py', severity: 'information', message: 'note', range: { start: { line: 0, character: 0 } } },
        { file: '/p/y.py', severity: 'warning', message: 'w', range: { start: { line: 4, character: 0 } } },
      ],
    });
    assert.deepEqual(parsePyrightJson(out, '/p'), [
      {
        file: '/p/report.py',
        line: 3,
        severity: 'error',
        message: 'bad',
        source: 'pyright',
        code: 'reportAssignmentType',
      },
      { file: '/p/x.py', line: 1, severity: 'info', message: 'note', source: 'pyright', code: undefined },
      { file: '/p/y.py', line: 5, severity: 'warning', message: 'w', source: 'pyright', code: undefined },
    ]);
    assert.throws(() => parsePyrightJson('Error: no config', '/p'), /pyright-json output could not be read/);
  });

  it('go vet: package headers skipped, vet: prefix and build errors read', () => {
    const out = [
      '# example.com/shapes',
      './main.go:10:2: fmt.Printf format %d has arg "four" of wrong type string',
      'vet: ./util.go:3:8: undefined: nothing',
      './b.go:7: something without a column',
    ].join('\n');
    assert.deepEqual(
      parseGoVet(out, '/g').map((item) => [item.file, item.line, item.message]),
      [
        ['/g/main.go', 10, 'fmt.Printf format %d has arg "four" of wrong type string'],
        ['/g/util.go', 3, 'undefined: nothing'],
        ['/g/b.go', 7, 'something without a column'],
      ],
    );
    assert.equal(parseCheckerOutput('go-vet', '', out, '/g').length, 3);
  });

  it('cargo check JSON: primary span, level, code; other lines ignored', () => {
    const message = (level: string, text: string, spans: object[], code?: string) =>
      JSON.stringify({
        reason: 'compiler-message',
        message: { level, message: text, code: code ? { code } : null, spans },
      });
    const out = [
      JSON.stringify({ reason: 'compiler-artifact' }),
      message('error', 'mismatched types', [{ file_name: 'src/main.rs', line_start: 4, is_primary: true }], 'E0308'),
      message('warning', 'unused variable: `x`', [
        { file_name: 'src/lib.rs', line_start: 9, is_primary: false },
        { file_name: 'src/lib.rs', line_start: 2, is_primary: true },
      ]),
      message('error', 'aborting due to 1 previous error', []),
      'not json',
    ].join('\n');
    assert.deepEqual(parseCargoJson(out, '/r'), [
      {
        file: '/r/src/main.rs',
        line: 4,
        severity: 'error',
        message: 'mismatched types',
        source: 'cargo check',
        code: 'E0308',
      },
      {
        file: '/r/src/lib.rs',
        line: 2,
        severity: 'warning',
        message: 'unused variable: `x`',
        source: 'cargo check',
        code: undefined,
      },
    ]);
  });

  it('dart analyze --format=machine: pipe-separated, escaped pipes in messages', () => {
    const out = [
      'Analyzing shapes...',
      "ERROR|COMPILE_TIME_ERROR|INVALID_ASSIGNMENT|/d/lib/a.dart|3|15|7|A value of type 'String' can't be assigned",
      'INFO|LINT|PREFER_CONST|/d/lib/b.dart|1|1|2|Use a\\|b here',
    ].join('\n');
    assert.deepEqual(parseDartMachine(out, '/d'), [
      {
        file: '/d/lib/a.dart',
        line: 3,
        severity: 'error',
        message: "A value of type 'String' can't be assigned",
        source: 'dart analyze',
        code: 'invalid_assignment',
      },
      {
        file: '/d/lib/b.dart',
        line: 1,
        severity: 'info',
        message: 'Use a|b here',
        source: 'dart analyze',
        code: 'prefer_const',
      },
    ]);
  });
});

describe('supervisor answers', () => {
  it('status: per root who serves it, and languages without a marker with their binary', () => {
    const text = supervisorStatusAnswer(
      [
        {
          language: 'TypeScript/JavaScript',
          root: '.',
          markers: ['tsconfig.json'],
          service: { kind: 'editor', extensionId: 'vscode.typescript-language-features', active: true },
        },
        {
          language: 'Go',
          root: 'langs/go',
          markers: ['go.mod'],
          service: {
            kind: 'ours',
            commandLine: 'gopls',
            binary: '/usr/bin/gopls (on PATH)',
            state: 'running',
            pid: 42,
          },
        },
        {
          language: 'Dart',
          root: 'langs/dart',
          markers: ['pubspec.yaml'],
          service: { kind: 'none', why: 'root marker present, but `dart` not found (looked in …)' },
        },
      ],
      [{ language: 'Rust', markers: ['Cargo.toml'], binary: '`rust-analyzer` not found (looked in …)' }],
      new Map([['go', 1]]),
    );
    assert.equal(
      text,
      [
        'Project roots and their language servers:',
        "- TypeScript/JavaScript at . (tsconfig.json): served by the editor's extension vscode.typescript-language-features (active)",
        '- Go at langs/go (go.mod): our server `gopls` (/usr/bin/gopls (on PATH)): running, pid 42',
        '- Dart at langs/dart (pubspec.yaml): no server: root marker present, but `dart` not found (looked in …)',
        'Languages without a root marker in the workspace (no server is started without one):',
        '- Rust: no Cargo.toml found; server binary: `rust-analyzer` not found (looked in …)',
        'Open documents: go (1 file).',
      ].join('\n'),
    );
  });

  it('reload: says what it did per language and root', () => {
    assert.match(supervisorReloadAnswer([]), /^Nothing to reload/);
    assert.equal(
      supervisorReloadAnswer([
        { language: 'Go', root: 'langs/go', did: 'restarted our server (pid 1 stopped, pid 2, running)' },
      ]),
      'Reload:\n- Go at langs/go: restarted our server (pid 1 stopped, pid 2, running)',
    );
  });

  it('project check: OK only when every root was checked', () => {
    const ran = { kind: 'ran' as const, commandLine: 'go vet ./...', seconds: 1.25, exitCode: 0, count: 0 };
    assert.equal(
      projectCheckAnswer([{ language: 'Go', root: 'g', run: ran }], []),
      'OK: the project checkers found no problems.\n- Go at g: `go vet ./...` ran in 1.3 s (exit 0): no problems',
    );
    const text = projectCheckAnswer(
      [
        { language: 'Go', root: 'g', run: { ...ran, exitCode: 1, count: 1 } },
        { language: 'Dart', root: 'd', run: { kind: 'not_run', why: '`dart` not found' } },
        { language: 'Python', root: 'p', run: { kind: 'timed_out', commandLine: 'pyright --outputjson', seconds: 5 } },
      ],
      [{ path: 'g/main.go', line: 10, text: 'fmt.Printf()', severity: 'error', message: 'bad arg', source: 'go vet' }],
    );
    assert.equal(
      text,
      [
        '1 error in 1 file (from the project checkers; some roots not verified):',
        '- Go at g: `go vet ./...` ran in 1.3 s (exit 1): 1 problem',
        '- Dart at d: not checked: `dart` not found',
        '- Python at p: `pyright --outputjson` timed out after 5 s and was stopped; not verified',
        'g/main.go:10: error go vet: bad arg\n    fmt.Printf()',
      ].join('\n'),
    );
  });
});

/** Running (a zombie waiting for a reaper that containers may lack counts as stopped). */
function alive(pid: number): boolean {
  try {
    return !/^State:\s+Z/m.test(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
}

describe('child processes', () => {
  it('a run past its time bound is stopped with its whole group', async () => {
    const marker = path.join(os.tmpdir(), `grandchild-${process.pid}`);
    const result = await runToCompletion('/bin/sh', ['-c', `sleep 30 & echo $! > ${marker}; wait`], {
      cwd: os.tmpdir(),
      timeoutSeconds: 0.5,
    });
    assert.equal(result.stoppedBecause, 'timeout');
    const grandchild = Number(fs.readFileSync(marker, 'utf8'));
    fs.rmSync(marker);
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.ok(!alive(grandchild), `grandchild ${grandchild} still runs`);
  });

  it('cancellation stops it; output and exit code are collected otherwise', async () => {
    let cancel = (): void => undefined;
    const pending = runToCompletion('/bin/sh', ['-c', 'sleep 30'], {
      cwd: os.tmpdir(),
      timeoutSeconds: 30,
      onCancel: (stop) => (cancel = stop),
    });
    cancel();
    assert.equal((await pending).stoppedBecause, 'cancelled');
    const done = await runToCompletion('/bin/sh', ['-c', 'echo out; echo err >&2; exit 3'], {
      cwd: os.tmpdir(),
      timeoutSeconds: 5,
    });
    assert.deepEqual([done.exitCode, done.stdout, done.stderr, done.stoppedBecause], [3, 'out\n', 'err\n', undefined]);
  });

  it('a missing command is a typed error', async () => {
    await assert.rejects(runToCompletion('/nonexistent/tool', [], { cwd: os.tmpdir(), timeoutSeconds: 5 }), {
      name: 'ProcessNotStarted',
    });
  });

  it('a long-lived process is stopped by its group', async () => {
    const server = startLongLived('/bin/sh', ['-c', 'sleep 30'], { cwd: os.tmpdir() });
    assert.ok(server.pid);
    await server.stop();
    assert.notEqual(await server.exited, 0);
    assert.ok(!alive(server.pid!));
  });
});
