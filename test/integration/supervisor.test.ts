import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { commandLine } from '../support/processes';
import { activateExtension, EXTENSION_ID, invokeText, lineOf, setSetting, workspaceRoot } from './support/tools';
import { answerCard, answeringCards } from './support/vibe';

const lsp = (input: object) => invokeText('lsp', input);

/** pyright comes from the repository's devDependencies: the runs point liveTools.lsp.binDirs at its node_modules/.bin. */
function repoBinDir(): string {
  return path.join(vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath, 'node_modules', '.bin');
}

/** The status line of one language's root. */
async function statusLine(language: string, root = 'langs/'): Promise<string> {
  const text = await lsp({ action: 'status' });
  // The fixture workspace has other roots too (the debug fixtures, langs/cpp): these tests are about langs/.
  const line = text.split('\n').find((item) => item.startsWith(`- ${language} at ${root}`));
  assert.ok(line, `no status line for ${language}:\n${text}`);
  return line;
}

function pidOf(line: string): number {
  const match = /, pid (\d+)/.exec(line);
  assert.ok(match, `no pid in: ${line}`);
  return Number(match[1]);
}

async function gone(pid: number): Promise<boolean> {
  const deadline = Date.now() + 5000;
  while (Date.now() < deadline) {
    if (commandLine(pid) === undefined) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}

describe('supervised language servers (pyright, gopls, clangd; Dart absent)', function () {
  this.timeout(180_000);

  before(async () => {
    await activateExtension();
    await setSetting('liveTools.lsp.binDirs', [repoBinDir()]);
  });

  after(async () => {
    await setSetting('liveTools.lsp.binDirs', undefined);
    await setSetting('liveTools.lsp.servers', undefined);
    await setSetting('liveTools.lsp.checkTimeoutSeconds', undefined);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  describe('before any file is opened', () => {
    it('status: a root per language, our server resolved but not started, TypeScript served by the editor', async () => {
      const text = await lsp({ action: 'status' });
      const bin = repoBinDir();
      assert.ok(
        text.includes(
          `- Python at langs/python (pyproject.toml): our server \`pyright-langserver --stdio\` (${bin}/pyright-langserver (from liveTools.lsp.binDirs)): not started — starts when a Python file under this root is opened, or with lsp reload`,
        ),
        text,
      );
      assert.match(
        text,
        /^- Go at langs\/go \(go\.mod\): our server `gopls` \(\/usr\/bin\/gopls \(on PATH\)\): not started/m,
      );
      assert.match(
        text,
        /^- C\/C\+\+ at langs\/c \(\.clangd\): our server `clangd` \(\/usr\/bin\/clangd \(on PATH\)\): not started/m,
      );
      assert.match(
        text,
        /^- TypeScript\/JavaScript at \. \(tsconfig\.json\): served by the editor's extension vscode\.typescript-language-features/m,
      );
    });

    it('marker without binary: Dart has pubspec.yaml, and status says dart was not found and every place looked', async () => {
      const line = await statusLine('Dart');
      assert.equal(
        line,
        // A server installed in the project is not looked for (liveTools.lsp.projectServers is off).
        `- Dart at langs/dart (pubspec.yaml): no server: root marker present, but \`dart\` not found (looked in ` +
          `liveTools.lsp.binDirs: ${repoBinDir()}; PATH: ${(process.env.PATH ?? '').split(':').filter(Boolean).join(', ')})`,
      );
      const reload = await lsp({ action: 'reload', file: 'langs/dart/lib/shapes.dart' });
      assert.match(
        reload,
        /^Reload:\n- Dart at langs\/dart: nothing started: root marker present, but `dart` not found/,
      );
    });

    it("binary without marker: with Go's markers set to go.work, gopls resolves but no server is offered", async () => {
      await setSetting('liveTools.lsp.servers', { go: { rootMarkers: ['go.work'] } });
      await setSetting('liveTools.lsp.diagnosticsWaitSeconds', 1);
      try {
        const text = await lsp({ action: 'status' });
        assert.doesNotMatch(text, /^- Go at /m);
        assert.match(text, /^- Go: no go\.work found; server binary: \/usr\/bin\/gopls \(on PATH\)$/m);
        const answer = await lsp({ action: 'diagnostics', file: 'langs/go/main.go' }).catch(String);
        assert.match(
          answer,
          /not verified: no Go language server: no project root holds it \(a folder with go\.work\)\.$/,
          answer,
        );
        assert.doesNotMatch(await lsp({ action: 'status' }), /^- Go at /m, answer);
      } finally {
        await setSetting('liveTools.lsp.servers', undefined);
        await setSetting('liveTools.lsp.diagnosticsWaitSeconds', undefined);
      }
      // Opening the file above started nothing: Go's root is back, not started.
      assert.match(await statusLine('Go'), /: not started/);
    });
  });

  describe('pyright (from node_modules/.bin through liveTools.lsp.binDirs)', () => {
    it('starts when a Python file is opened, and answers definition and diagnostics', async () => {
      const line = lineOf('langs/python/report.py', 'print(total_area');
      const text = await lsp({ action: 'definition', file: 'langs/python/report.py', line, symbol: 'total_area' });
      assert.match(
        text,
        new RegExp(
          `^1 definition of "total_area" in 1 file:\nlangs/python/shapes\\.py:${lineOf('langs/python/shapes.py', 'def total_area')}: def total_area`,
        ),
      );
      const status = await statusLine('Python');
      assert.match(status, /: running, pid \d+$/);
      assert.match(commandLine(pidOf(status)) ?? '', /pyright-langserver/);
      const diagnostics = await lsp({ action: 'diagnostics', file: 'langs/python/report.py' });
      assert.match(
        diagnostics,
        new RegExp(
          `^langs/python/report\\.py: 1 error \\(checked on the current text\\):\nlangs/python/report\\.py:3: error Pyright reportAssignmentType: Type "Literal\\['three'\\]" is not assignable to declared type "int"`,
        ),
      );
    });

    it('an edit of a Python file not shown in a tab is checked by pyright (pulled): the error it introduces, then its fix', async () => {
      const file = path.join(workspaceRoot(), 'langs/python/write_checked.py');
      fs.writeFileSync(file, 'count: int = 1\n');
      try {
        const broke = await invokeText('edit', {
          path: 'langs/python/write_checked.py',
          old_string: 'count: int = 1',
          new_string: "count: int = 'one'",
        });
        assert.match(
          broke,
          /^Edited langs\/python\/write_checked\.py: 1 replacement at line 1, saved\.\nDiagnostics: 1 new problem\.\nlangs\/python\/write_checked\.py:1: error Pyright reportAssignmentType: Type "Literal\['one'\]" is not assignable to declared type "int"/,
          broke,
        );
        const fixed = await invokeText('edit', {
          path: 'langs/python/write_checked.py',
          old_string: "count: int = 'one'",
          new_string: 'count: int = 1',
        });
        assert.match(fixed, /^Diagnostics: no new problems\. This write fixed 1 problem\.$/m, fixed);
      } finally {
        fs.rmSync(file, { force: true });
      }
    });

    it('reload restarts it through the client: the old process is gone, a new one answers', async () => {
      const before = pidOf(await statusLine('Python'));
      const text = await lsp({ action: 'reload', file: 'langs/python/report.py' });
      const after = pidOf(await statusLine('Python'));
      assert.equal(
        text,
        `Reload:\n- Python at langs/python: restarted our server (pid ${before} stopped, pid ${after}, running)`,
      );
      assert.notEqual(before, after);
      assert.ok(await gone(before), `pid ${before} still runs`);
      assert.match(
        await lsp({ action: 'hover', file: 'langs/python/report.py', line: 1, symbol: 'Square' }),
        /class Square/,
      );
    });
  });

  describe('gopls', () => {
    it('starts for a Go file, answers definition, shows in status with its pid, reloads', async () => {
      const text = await lsp({
        action: 'definition',
        file: 'langs/go/main.go',
        line: lineOf('langs/go/main.go', 'area(3)'),
        symbol: 'area',
      });
      assert.match(
        text,
        new RegExp(`langs/go/main\\.go:${lineOf('langs/go/main.go', 'func area')}: func area\\(side int\\) int \\{`),
      );
      const before = pidOf(await statusLine('Go'));
      assert.match(commandLine(before) ?? '', /gopls/);
      const reload = await lsp({ action: 'reload', file: 'langs/go/main.go' });
      assert.match(reload, /^Reload:\n- Go at langs\/go: restarted our server \(pid \d+ stopped, pid \d+, running\)$/);
      assert.ok(await gone(before));
    });

    it('two project roots of one language run side by side (their servers announce the same command names)', async () => {
      const other = await lsp({
        action: 'definition',
        file: 'debug/go/main.go',
        line: lineOf('debug/go/main.go', 'total(b)'),
        symbol: 'total#2',
      });
      assert.match(other, /debug\/go\/main\.go:\d+: func total\(b basket\) int \{/, other);
      const text = await lsp({
        action: 'definition',
        file: 'langs/go/main.go',
        line: lineOf('langs/go/main.go', 'area(3)'),
        symbol: 'area',
      });
      assert.match(text, /langs\/go\/main\.go:\d+: func area/, text);
      const status = await lsp({ action: 'status' });
      assert.match(status, /^- Go at debug\/go \(go\.mod\): our server `gopls` .*: running, pid \d+$/m, status);
      assert.match(status, /^- Go at langs\/go \(go\.mod\): our server `gopls` .*: running, pid \d+$/m, status);
    });
  });

  describe('clangd', () => {
    it('starts for a C file, publishes its errors, answers definition, reloads', async () => {
      const diagnostics = await lsp({ action: 'diagnostics', file: 'langs/c/shapes.c' });
      assert.match(
        diagnostics,
        /langs\/c\/shapes\.c:\d+: error clang undeclared_var_use: Use of undeclared identifier 'missing_value'/,
      );
      const text = await lsp({
        action: 'definition',
        file: 'langs/c/shapes.c',
        line: lineOf('langs/c/shapes.c', 'unused_total'),
        symbol: 'square_area',
      });
      assert.match(text, /langs\/c\/shapes\.c:3: int square_area\(int side\) \{/);
      const before = pidOf(await statusLine('C/C++', 'langs/c ('));
      assert.match(commandLine(before) ?? '', /clangd/);
      const reload = await lsp({ action: 'reload', file: 'langs/c/shapes.c' });
      assert.match(reload, /^Reload:\n- C\/C\+\+ at langs\/c: restarted our server/);
      assert.ok(await gone(before));
    });
  });

  describe('clangd 14: type hierarchy through its earlier proposal', () => {
    it('supertypes and subtypes of a small C++ class hierarchy, as the model reads them', async () => {
      const file = 'langs/cpp/animals.cpp';
      // (clangd cannot be asked whether it finished indexing: answers end with a note saying so.)
      const lsp = async (input: object) => (await invokeText('lsp', input)).split('\n(Not verified')[0];
      const supertypes = await lsp({ action: 'supertypes', file, line: lineOf(file, 'struct Puppy'), symbol: 'Puppy' });
      assert.equal(
        supertypes,
        `Supertypes of "Puppy" (1; where each is declared, then its name):\n${file}:${lineOf(file, 'struct Dog')}: struct Dog : Animal {};  ← Dog (struct)`,
      );
      const subtypes = await lsp({ action: 'subtypes', file, line: lineOf(file, 'struct Animal'), symbol: 'Animal' });
      assert.equal(
        subtypes,
        [
          `Subtypes of "Animal" (2; where each is declared, then its name):`,
          `${file}:${lineOf(file, 'struct Dog')}: struct Dog : Animal {};  ← Dog (struct)`,
          `${file}:${lineOf(file, 'struct Cat')}: struct Cat : Animal {};  ← Cat (struct)`,
        ].join('\n'),
      );
      assert.equal(
        await lsp({ action: 'subtypes', file, line: lineOf(file, 'struct Cat'), symbol: 'Cat' }),
        '"Cat" has no subtypes the language server knows of.',
      );
    });
  });

  describe('diagnostics "*": the project checkers', () => {
    it("asks the human before a checker's first run (it runs the project's code), remembers the answer; a denied one is not run", async () => {
      await setSetting('liveTools.lsp.servers', {
        typescript: { checkerCommand: 'true' },
        python: { checkerCommand: 'echo', checkerArgs: ['python-check'] },
        go: { checkerCommand: 'echo', checkerArgs: ['go-check'] },
      });
      try {
        const first = await answeringCards(
          lsp({ action: 'diagnostics', file: '*' }),
          /wants to run lsp: Run the/,
          (card) => (/Python/.test(card) ? 'Deny' : 'Allow'),
        );
        // One card per root and checker: the TypeScript root, each Python root, the Go root.
        const pythonCards = first.cards.filter((card) => /Run the Python checker/.test(card));
        assert.ok(first.cards.some((card) => /Run the Go checker `echo go-check` in langs\/go\?/.test(card)));
        const python = pythonCards.find((card) => /in langs\/python\?/.test(card)) ?? '';
        assert.match(python, /^#\d+\s*Approval\s*for another extension/i);
        assert.match(
          python,
          /another extension wants to run lsp: Run the Python checker `echo python-check` in langs\/python\?/,
        );
        assert.match(python, /It runs the project's own code/);
        assert.match(
          first.answer,
          /^- Python at langs\/python: not checked: the human did not allow it \(it runs the project's code\); check single files/m,
        );
        // The others were asked and allowed in the same call; allowed once, they are not asked again.
        const again = await answeringCards(
          lsp({ action: 'diagnostics', file: '*' }),
          /wants to run lsp: Run the/,
          (card) => (/Python/.test(card) ? 'Deny' : 'Allow'),
        );
        // Only the denied ones are asked again.
        assert.equal(again.cards.length, pythonCards.length, again.cards.join('\n---\n'));
        assert.ok(again.cards.every((card) => /Run the Python checker/.test(card)));
        assert.match(again.answer, /^- Go at langs\/go: `echo go-check` ran in /m);
      } finally {
        await setSetting('liveTools.lsp.servers', undefined);
      }
    });

    it('runs tsc, pyright and go vet on their roots and says why C and Dart were not checked', async () => {
      const { answer: text } = await answeringCards(
        lsp({ action: 'diagnostics', file: '*' }),
        /wants to run lsp: Run the/,
      );
      assert.match(text, /^\d+ errors? in \d+ files \(from the project checkers; some roots not verified\):$/m);
      assert.match(
        text,
        /^- TypeScript\/JavaScript at \.: `tsc --noEmit --pretty false -p \.` ran in [\d.]+ s \(exit \d+\): \d+ problems$/m,
      );
      assert.match(
        text,
        /^- Python at langs\/python: `pyright --outputjson` ran in [\d.]+ s \(exit \d+\): 1 problem$/m,
      );
      assert.match(text, /^- Go at langs\/go: `go vet \.\/\.\.\.` ran in [\d.]+ s \(exit \d+\): 1 problem$/m);
      assert.match(text, /^- C\/C\+\+ at langs\/c: not checked: no project checker is known for C\/C\+\+$/m);
      assert.match(text, /^- Dart at langs\/dart: not checked: `dart` not found/m);
      assert.ok(
        text.includes(
          `langs/python/report.py:3: error pyright reportAssignmentType: Type "Literal['three']" is not assignable to declared type "int"`,
        ),
        text,
      );
      assert.ok(
        text.includes(
          'langs/go/main.go:10: error go vet: fmt.Printf format %d has arg "four" of wrong type string\n    fmt.Printf("area %d\\n", "four")',
        ),
        text,
      );
    });

    it('a checker past its time bound is stopped and reported as not verified', async () => {
      await setSetting('liveTools.lsp.servers', { go: { checkerCommand: 'sleep', checkerArgs: ['60'] } });
      await setSetting('liveTools.lsp.checkTimeoutSeconds', 1);
      try {
        const { answer: text } = await answeringCards(
          lsp({ action: 'diagnostics', file: '*' }),
          /wants to run lsp: Run the/,
        );
        assert.match(text, /^- Go at langs\/go: `sleep 60` timed out after 1 s and was stopped; not verified$/m);
      } finally {
        await setSetting('liveTools.lsp.servers', undefined);
        await setSetting('liveTools.lsp.checkTimeoutSeconds', undefined);
      }
    });

    it('cancellation stops the running checker', async () => {
      await setSetting('liveTools.lsp.servers', { typescript: { checkerCommand: 'sleep', checkerArgs: ['60'] } });
      const source = new vscode.CancellationTokenSource();
      try {
        const call = invokeText('lsp', { action: 'diagnostics', file: '*' }, source.token);
        call.catch(() => undefined);
        // Allowed on its card, then cancelled while it runs.
        await answerCard([/wants to run lsp: Run the TypeScript\/JavaScript checker `sleep 60`/], 'Allow');
        const started = Date.now();
        setTimeout(() => source.cancel(), 500);
        await assert.rejects(call);
        assert.ok(Date.now() - started < 10_000);
      } finally {
        source.dispose();
        await setSetting('liveTools.lsp.servers', undefined);
      }
    });
  });
});
