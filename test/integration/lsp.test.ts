import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { activateExtension, invokeText, lineOf, setSetting, workspaceRoot } from './support/tools';
import { answeringCards } from './support/vibe';

const lsp = (input: object) => invokeText('lsp', input);

async function openDocument(file: string): Promise<vscode.TextDocument> {
  return vscode.workspace.openTextDocument(vscode.Uri.file(path.join(workspaceRoot(), file)));
}

/** Runs `body` while `file` holds an unsaved edit, then puts the saved text back (and saves it, so nothing stays dirty). */
async function withUnsavedEdit(
  file: string,
  change: (document: vscode.TextDocument, edit: vscode.WorkspaceEdit) => void,
  body: () => Promise<void>,
): Promise<void> {
  const document = await openDocument(file);
  const original = document.getText();
  const edit = new vscode.WorkspaceEdit();
  change(document, edit);
  assert.ok(await vscode.workspace.applyEdit(edit));
  assert.ok(document.isDirty);
  try {
    await body();
  } finally {
    const restore = new vscode.WorkspaceEdit();
    restore.replace(document.uri, new vscode.Range(0, 0, document.lineCount, 0), original);
    assert.ok(await vscode.workspace.applyEdit(restore));
    assert.ok(await document.save());
  }
  assert.equal(document.getText(), original);
  assert.equal(document.isDirty, false);
}

describe('lsp symbols with a query, with no file of the project open', function () {
  this.timeout(180_000);

  // A project of its own, made here: the editor holds none of its files, so the TypeScript server has not
  // loaded it, whatever ran before in this window (run alone, the window holds no file at all, and the
  // server no project). The server searches only the projects it has loaded.
  const project = 'symbolsUnopened';
  const util = `${project}/src/util.ts`;
  const remove = () => fs.rmSync(path.join(workspaceRoot(), project), { recursive: true, force: true });

  before(async () => {
    await activateExtension();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    remove();
    // The extension finds the projects again when the editor's file watcher reports a new folder; a watcher of
    // ours gets the same report, so once it has, the extension has too.
    const watcher = vscode.workspace.createFileSystemWatcher(`**/${project}`);
    try {
      const reported = new Promise<void>((resolve) => watcher.onDidCreate(() => resolve()));
      const write = (file: string, text: string) => {
        fs.mkdirSync(path.dirname(path.join(workspaceRoot(), file)), { recursive: true });
        fs.writeFileSync(path.join(workspaceRoot(), file), text);
      };
      write(util, 'export function add(a: number, b: number): number {\n  return a + b;\n}\n');
      write(
        `${project}/tsconfig.json`,
        JSON.stringify({ compilerOptions: { strict: true, noEmit: true }, include: ['src'] }),
      );
      await Promise.race([
        reported,
        new Promise((_, reject) =>
          setTimeout(() => reject(new Error(`The file watcher did not report ${project} in 20 s.`)), 20_000),
        ),
      ]);
    } finally {
      watcher.dispose();
    }
    assert.ok(!vscode.workspace.textDocuments.some((document) => document.uri.fsPath.includes(project)));
  });

  after(remove);

  it('loads each project of the workspace first: the declaration is listed, and the answer is whole', async () => {
    const text = await lsp({ action: 'symbols', query: 'add' });
    assert.ok(text.includes(`function add() — ${util}:1: export function add(a: number, b: number): number {`), text);
    assert.doesNotMatch(text, /Not verified/);
  });

  it('a second question finds the projects loaded', async () => {
    const text = await lsp({ action: 'symbols', query: 'add' });
    assert.ok(text.includes(`function add() — ${util}:1:`), text);
    assert.doesNotMatch(text, /Not verified/);
  });
});

describe('lsp against the built-in TypeScript server', function () {
  this.timeout(180_000);

  before(async () => {
    await activateExtension();
    // The first request loads the TypeScript project; later ones are answered from it.
    const text = await lsp({ action: 'diagnostics', file: 'src/main.ts' });
    assert.match(text, /^OK: no problems in src\/main\.ts \(checked on the current text\)\.$/);
  });

  describe('navigation', () => {
    it('definition: jumps from a call to the function, with path, line and line text', async () => {
      const text = await lsp({
        action: 'definition',
        file: 'src/main.ts',
        line: lineOf('src/main.ts', 'const both'),
        symbol: 'makeGreeting#1',
      });
      const line = lineOf('src/greeter.ts', 'export function makeGreeting');
      assert.equal(
        text,
        `1 definition of "makeGreeting" in 1 file:\nsrc/greeter.ts:${line}: export function makeGreeting(greeter: Greeter, name: string): string {`,
      );
    });

    it('occurrence picks the second of two identical symbols on a line', async () => {
      const text = await lsp({
        action: 'definition',
        file: 'src/main.ts',
        line: lineOf('src/main.ts', 'const both'),
        symbol: 'greeter',
        occurrence: 2,
      });
      assert.match(
        text,
        new RegExp(
          `src/main\\.ts:${lineOf('src/main.ts', 'const greeter =')}: const greeter = new FriendlyGreeter\\(\\);`,
        ),
      );
    });

    it('type_definition: from a variable to its class', async () => {
      const text = await lsp({
        action: 'type_definition',
        file: 'src/main.ts',
        line: lineOf('src/main.ts', 'const greeter ='),
        symbol: 'greeter',
      });
      assert.match(
        text,
        new RegExp(
          `^1 type definition of "greeter" in 1 file:\nsrc/greeter\\.ts:${lineOf('src/greeter.ts', 'class FriendlyGreeter')}: export class FriendlyGreeter implements Greeter \\{$`,
        ),
      );
    });

    it('implementation: from an interface to both classes', async () => {
      const text = await lsp({
        action: 'implementation',
        file: 'src/greeter.ts',
        line: lineOf('src/greeter.ts', 'export interface Greeter'),
        symbol: 'Greeter',
      });
      assert.match(text, /^2 implementations of "Greeter" in 1 file:/);
      assert.ok(
        text.includes(
          `src/greeter.ts:${lineOf('src/greeter.ts', 'class FriendlyGreeter')}: export class FriendlyGreeter`,
        ),
        text,
      );
      assert.ok(
        text.includes(`src/greeter.ts:${lineOf('src/greeter.ts', 'class ShyGreeter')}: export class ShyGreeter`),
        text,
      );
    });

    it('references: every use across files, sorted, with line text', async () => {
      const text = await lsp({ action: 'references', file: 'src/format.ts', line: 1, symbol: 'formatCount' });
      const lines = text.split('\n');
      assert.equal(lines[0], '5 references of "formatCount" in 3 files:');
      assert.ok(lines.includes('src/format.ts:1: export function formatCount(count: number): string {'), text);
      assert.ok(
        lines.includes(
          `src/main.ts:${lineOf('src/main.ts', 'import { formatCount }')}: import { formatCount } from './format';`,
        ),
        text,
      );
      assert.ok(
        lines.includes(
          `src/broken.ts:${lineOf('src/broken.ts', 'label')}: export const label: string = formatCount('three');`,
        ),
        text,
      );
      const paths = lines.slice(1).map((line) => line.split(':')[0]);
      assert.deepEqual(paths, [...paths].sort());
    });

    it('references: the cap of 50 is stated with how many were left out', async () => {
      const text = await lsp({
        action: 'references',
        file: 'src/manyUses.ts',
        line: lineOf('src/manyUses.ts', 'export const unit'),
        symbol: 'unit',
      });
      const lines = text.split('\n');
      assert.equal(lines[0], '61 references of "unit" in 1 file:');
      assert.equal(lines.length, 1 + 50 + 1);
      assert.equal(lines[lines.length - 1], '… 11 more not shown (cap 50).');
    });

    it('hover: the signature and documentation', async () => {
      const text = await lsp({
        action: 'hover',
        file: 'src/main.ts',
        line: lineOf('src/main.ts', 'const both'),
        symbol: 'makeGreeting#2',
      });
      assert.match(text, /makeGreeting\(greeter: Greeter, name: string\): string/);
      const documented = await lsp({
        action: 'hover',
        file: 'src/greeter.ts',
        line: lineOf('src/greeter.ts', 'export interface Greeter'),
        symbol: 'Greeter',
      });
      assert.match(documented, /interface Greeter[\s\S]*Something that can greet a person by name\./);
    });

    it('callers: call sites with the calling function', async () => {
      const text = await lsp({
        action: 'callers',
        file: 'src/greeter.ts',
        line: lineOf('src/greeter.ts', 'export function makeGreeting'),
        symbol: 'makeGreeting',
      });
      assert.equal(
        text,
        `Calls to "makeGreeting" on 1 line (call site, then the calling function):\nsrc/main.ts:${lineOf('src/main.ts', 'const both')}: const both = makeGreeting(greeter, 'world') + makeGreeting(greeter, 'again');  ← main`,
      );
    });

    it('callees: what a function calls, with where each callee is', async () => {
      const text = await lsp({
        action: 'callees',
        file: 'src/main.ts',
        line: lineOf('src/main.ts', 'export function main'),
        symbol: 'main',
      });
      assert.match(text, /^Calls made by "main" on 2 lines/);
      assert.ok(
        text.includes(`← makeGreeting (src/greeter.ts:${lineOf('src/greeter.ts', 'export function makeGreeting')})`),
        text,
      );
      assert.ok(text.includes('← formatCount (src/format.ts:1)'), text);
    });

    it("supertypes: the editor's TypeScript server has no type hierarchy, and the answer says what to use instead", async () => {
      const text = await lsp({
        action: 'supertypes',
        file: 'src/greeter.ts',
        line: lineOf('src/greeter.ts', 'class FriendlyGreeter'),
        symbol: 'FriendlyGreeter',
      });
      assert.match(
        text,
        /^No type hierarchy for "FriendlyGreeter": the typescript language server gives none here .*try implementation/,
      );
    });

    it('where the server cannot be asked whether it finished indexing, the answer says it is not verified', async () => {
      const text = await lsp({ action: 'definition', file: 'notes.txt', line: 1, symbol: 'plain' });
      assert.equal(
        text,
        'No definition found for "plain". The language server answered with nothing; check that the symbol is the one you mean, or try lsp symbols with a query.\n' +
          '(Not verified: it is not known whether the language server has finished indexing, so this may be incomplete.)',
      );
    });

    it('resolves against the unsaved text of an open document', async () => {
      await withUnsavedEdit(
        'src/format.ts',
        (document, edit) =>
          edit.insert(document.uri, new vscode.Position(0, 0), '// an unsaved comment\n// and another\n'),
        async () => {
          const text = await lsp({ action: 'hover', file: 'src/format.ts', line: 3, symbol: 'formatCount' });
          assert.match(text, /function formatCount\(count: number\): string/);
          const stale = await lsp({ action: 'hover', file: 'src/format.ts', line: 1, symbol: 'formatCount' });
          assert.equal(
            stale,
            'Error: "formatCount" is not on line 1 of src/format.ts. Line 1 is: "// an unsaved comment". "formatCount" is found on line 3; call again with that line.',
          );
        },
      );
    });
  });

  describe('symbols and code actions', () => {
    it('symbols with file: the outline, nested', async () => {
      const text = await lsp({ action: 'symbols', file: 'src/greeter.ts' });
      const lines = text.split('\n');
      assert.match(lines[0], /^\d+ symbols in src\/greeter\.ts \(line: kind name\):$/);
      assert.ok(lines.includes(`${lineOf('src/greeter.ts', 'export interface Greeter')}: interface Greeter`), text);
      assert.ok(lines.includes(`${lineOf('src/greeter.ts', 'class FriendlyGreeter')}: class FriendlyGreeter`), text);
      assert.ok(lines.includes(`  ${lineOf('src/greeter.ts', 'class FriendlyGreeter') + 1}: method greet`), text);
    });

    it('symbols with file and query: the matching part of the outline', async () => {
      const text = await lsp({ action: 'symbols', file: 'src/greeter.ts', query: 'shy' });
      assert.equal(
        text,
        `1 symbol in src/greeter.ts matching "shy" (line: kind name):\n${lineOf('src/greeter.ts', 'class ShyGreeter')}: class ShyGreeter`,
      );
    });

    it('symbols with query: a workspace-wide search', async () => {
      const text = await lsp({ action: 'symbols', query: 'FriendlyGreeter' });
      assert.ok(
        text.includes(
          `class FriendlyGreeter — src/greeter.ts:${lineOf('src/greeter.ts', 'class FriendlyGreeter')}: export class FriendlyGreeter implements Greeter {`,
        ),
        text,
      );
    });

    it('code_actions: the quick fix for a missing import, listed and not applied', async () => {
      const text = await lsp({ action: 'code_actions', file: 'src/needsImport.ts', line: 1, symbol: 'formatCount' });
      assert.match(text, /^\d+ code actions? at src\/needsImport\.ts:1 \("formatCount"\) \(listed, not applied\):/);
      assert.match(text, /Add import from "\.\/format" \[quickfix/);
      assert.doesNotMatch(text, /Not verified/);
      assert.match(
        text,
        /\(The file was opened in a preview tab: the language server reports problems only for files shown in the editor\.\)$/,
      );
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      assert.equal(
        fs.readFileSync(path.join(workspaceRoot(), 'src/needsImport.ts'), 'utf8'),
        'export const spelled = formatCount(3);\n',
      );
    });
  });

  describe('diagnostics', () => {
    it('a file with errors: each with line text, checked on the current text', async () => {
      const text = await lsp({ action: 'diagnostics', file: 'src/broken.ts' });
      const lines = text.split('\n');
      assert.equal(lines[0], 'src/broken.ts: 2 errors (checked on the current text):');
      assert.match(
        text,
        new RegExp(
          `src/broken\\.ts:${lineOf('src/broken.ts', 'label')}: error ts 2345: Argument of type 'string' is not assignable to parameter of type 'number'\\.`,
        ),
      );
      assert.ok(text.includes("    export const label: string = formatCount('three');"), text);
      assert.match(
        text,
        new RegExp(
          `src/broken\\.ts:${lineOf('src/broken.ts', 'total')}: error ts 2322: Type 'string' is not assignable to type 'number'\\.`,
        ),
      );
    });

    it('sees unsaved edits: fixing the errors in the buffer makes the answer OK', async () => {
      await withUnsavedEdit(
        'src/broken.ts',
        (document, edit) =>
          edit.replace(document.uri, new vscode.Range(0, 0, document.lineCount, 0), 'export const fine: number = 1;\n'),
        async () => {
          assert.equal(
            await lsp({ action: 'diagnostics', file: 'src/broken.ts' }),
            'OK: no problems in src/broken.ts (checked on the current text).',
          );
        },
      );
      assert.match(await lsp({ action: 'diagnostics', file: 'src/broken.ts' }), /^src\/broken\.ts: 2 errors/);
    });

    it('right after another program rewrote an open file on disk, diagnostics are of the new text (or say not verified)', async () => {
      const file = 'src/freshOnDisk.ts';
      const absolute = path.join(workspaceRoot(), file);
      const good = 'export const fresh: number = 1;\n';
      const bad = "export const fresh: number = 'one';\n";
      fs.writeFileSync(absolute, good);
      const document = await vscode.workspace.openTextDocument(vscode.Uri.file(absolute));
      await vscode.window.showTextDocument(document, { preview: true });
      try {
        assert.equal(
          await lsp({ action: 'diagnostics', file }),
          `OK: no problems in ${file} (checked on the current text).`,
        );
        // Another program (a terminal agent, git, a formatter) rewrites it; the call comes at once, before the editor reloads.
        for (const [text, broken] of [
          [bad, true],
          [good, false],
          [bad, true],
        ] as const) {
          fs.writeFileSync(absolute, text);
          const answer = await lsp({ action: 'diagnostics', file });
          if (/not verified: src\/freshOnDisk\.ts changed on disk/.test(answer)) continue;
          if (broken)
            assert.match(
              answer,
              /^src\/freshOnDisk\.ts: 1 error \(checked on the current text\):\n.*error ts 2322/,
              answer,
            );
          else assert.equal(answer, `OK: no problems in ${file} (checked on the current text).`);
        }
      } finally {
        await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
        fs.rmSync(absolute, { force: true });
      }
    });

    it('a file no language server checks: says so and why at once, not OK', async () => {
      const text = await lsp({ action: 'diagnostics', file: 'notes.txt' });
      assert.equal(text, 'No problems known for notes.txt — not verified: plain text has no language server.');
      // A Python file in a Python project root (requirements.txt), with no pyright in this editor's reach.
      const python = await lsp({ action: 'diagnostics', file: 'debug/python/app.py' });
      assert.match(
        python,
        /^No problems known for debug\/python\/app\.py — not verified: no Python language server: `pyright-langserver` not found \(lsp action "status" says where it looked; install it or set liveTools\.lsp\.binDirs\)\.$/,
        python,
      );
    });

    it('file "*": runs tsc on the TypeScript root, in the format of one file\'s diagnostics', async () => {
      const root = vscode.extensions.getExtension('agent-live-tools.agent-live-tools')!.extensionPath;
      await setSetting('liveTools.lsp.binDirs', [path.join(root, 'node_modules', '.bin')]);
      await setSetting('liveTools.lsp.servers', { python: { checkerCommand: 'true' }, go: { checkerCommand: 'true' } });
      try {
        const { answer: text } = await answeringCards(
          lsp({ action: 'diagnostics', file: '*' }),
          /wants to run lsp: Run the/,
        );
        assert.match(
          text,
          /\n- TypeScript\/JavaScript at \.: `tsc --noEmit --pretty false -p \.` ran in [\d.]+ s \(exit \d+\): \d+ problems\n/,
        );
        assert.ok(
          text.includes(
            `\nsrc/broken.ts:${lineOf('src/broken.ts', 'total')}: error tsc TS2322: Type 'string' is not assignable to type 'number'.`,
          ),
          text,
        );
      } finally {
        await setSetting('liveTools.lsp.binDirs', undefined);
        await setSetting('liveTools.lsp.servers', undefined);
      }
    });
  });

  describe('status and reload', () => {
    it("status: the TypeScript root is served by the editor's extension", async () => {
      const text = await lsp({ action: 'status' });
      assert.match(
        text,
        /^- TypeScript\/JavaScript at \. \(tsconfig\.json\): served by the editor's extension vscode\.typescript-language-features \(active\)$/m,
      );
    });

    it('reload of a TypeScript file restarts the TS server through its own command, and answers stay whole after', async () => {
      const text = await lsp({ action: 'reload', file: 'src/main.ts' });
      assert.equal(
        text,
        'Reload:\n- TypeScript/JavaScript: asked vscode.typescript-language-features to restart its server (typescript.restartTsServer)',
      );
      const references = await lsp({ action: 'references', file: 'src/format.ts', line: 1, symbol: 'formatCount' });
      assert.match(references, /^5 references of "formatCount" in 3 files:/);
    });
  });

  describe('errors a model can act on', () => {
    const mainLine = () => lineOf('src/main.ts', 'const both');

    it('a navigation action without symbol is an error, not a first-column guess', async () => {
      assert.equal(
        await lsp({ action: 'definition', file: 'src/main.ts', line: mainLine() }),
        'Error: definition needs file, line, symbol; missing symbol. Give symbol as the identifier exactly as written on that line (positions are line + symbol, never a column).',
      );
    });

    it('an ambiguous symbol lists its occurrences', async () => {
      const text = await lsp({ action: 'references', file: 'src/main.ts', line: mainLine(), symbol: 'makeGreeting' });
      assert.equal(
        text,
        [
          `Error: "makeGreeting" occurs 2 times on line ${mainLine()} of src/main.ts; say which with occurrence (1-based) or "makeGreeting#N":`,
          "  1: const both = «makeGreeting»(greeter, 'world') + makeGreeting(greeter, 'again');",
          "  2: const both = makeGreeting(greeter, 'world') + «makeGreeting»(greeter, 'again');",
        ].join('\n'),
      );
    });

    it('a symbol not on the line shows the line and the nearby line that has it', async () => {
      const text = await lsp({
        action: 'definition',
        file: 'src/main.ts',
        line: mainLine() + 1,
        symbol: 'FriendlyGreeter',
      });
      assert.equal(
        text,
        `Error: "FriendlyGreeter" is not on line ${mainLine() + 1} of src/main.ts. Line ${mainLine() + 1} is: "return \`\${both} (\${formatCount(2)})\`;". ` +
          `"FriendlyGreeter" is found on line ${lineOf('src/main.ts', 'new FriendlyGreeter')}; call again with that line.`,
      );
    });

    it('a symbol found nowhere near says so', async () => {
      const text = await lsp({ action: 'definition', file: 'src/main.ts', line: mainLine(), symbol: 'ShyGreeter' });
      assert.match(
        text,
        /^Error: "ShyGreeter" is not on line \d+ of src\/main\.ts\. Line \d+ is: ".*"\. It is not on the nearby lines either; check the line number, or find the symbol with lsp symbols\.$/,
      );
    });

    it('a line outside the file', async () => {
      assert.match(
        await lsp({ action: 'hover', file: 'src/main.ts', line: 500, symbol: 'x' }),
        /^Error: line 500 is outside the file of src\/main\.ts, which has \d+ lines/,
      );
    });

    it('an occurrence beyond the count', async () => {
      assert.match(
        await lsp({ action: 'hover', file: 'src/main.ts', line: mainLine(), symbol: 'greeter', occurrence: 3 }),
        /^Error: occurrence 3 of "greeter" was asked for, but line \d+ of src\/main\.ts has only 2\.$/,
      );
    });

    it('a file that does not exist, with files of that name', async () => {
      const text = await lsp({ action: 'diagnostics', file: 'greeter.ts' });
      assert.match(
        text,
        /^Error: file not found: greeter\.ts \(looked for greeter\.ts\)\. Files with that name: src\/greeter\.ts\.$/,
      );
    });

    it('a file outside the workspace', async () => {
      assert.equal(
        await lsp({ action: 'diagnostics', file: '/etc/hostname' }),
        'Error: /etc/hostname is outside the workspace; only files inside the workspace folder can be used.',
      );
      assert.match(
        await lsp({ action: 'diagnostics', file: '../../etc/hostname' }),
        /^Error: .* is outside the workspace/,
      );
    });

    it('a column, an unknown action, a wrong type: all problems at once', async () => {
      const text = await lsp({ action: 'goto', file: 'src/main.ts', line: 'seven', column: 3 });
      assert.match(text, /"action" must be one of diagnostics, definition/);
      assert.match(text, /"line" must be a whole number\./);
      assert.match(
        text,
        /Unknown argument "column" \(accepted: action, file, line, symbol, occurrence, query, files, changed_on_disk, baseline\)\./,
      );
    });

    it('symbols without file or query', async () => {
      assert.equal(
        await lsp({ action: 'symbols' }),
        'Error: symbols needs file (the outline of one file) or query (a workspace-wide search).',
      );
    });

    it('honours cancellation', async () => {
      const source = new vscode.CancellationTokenSource();
      source.cancel();
      await assert.rejects(
        invokeText(
          'lsp',
          { action: 'references', file: 'src/format.ts', line: 1, symbol: 'formatCount' },
          source.token,
        ),
        (error: unknown) => {
          return error instanceof Error && /cancel/i.test(error.message + error.name);
        },
      );
    });
  });
});

describe('lsp_rename', function () {
  this.timeout(120_000);

  before(async () => {
    await activateExtension();
  });

  it('renames across files in one edit and saves them', async () => {
    const text = await invokeText('lsp_rename', {
      file: 'src/rename.ts',
      line: 1,
      symbol: 'oldName',
      new_name: 'renamedFunction',
    });
    assert.equal(
      text,
      [
        'Renamed "oldName" → "renamedFunction": 3 edits in 2 files; all saved.',
        'src/rename.ts: 1 edit',
        'src/renameUser.ts: 2 edits',
      ].join('\n'),
    );
    const root = workspaceRoot();
    assert.equal(
      fs.readFileSync(path.join(root, 'src/rename.ts'), 'utf8').split('\n')[0],
      'export function renamedFunction(value: number): number {',
    );
    assert.match(
      fs.readFileSync(path.join(root, 'src/renameUser.ts'), 'utf8'),
      /import \{ renamedFunction \} from '\.\/rename';\n\nexport const doubled = renamedFunction\(21\);/,
    );
    for (const document of vscode.workspace.textDocuments)
      assert.equal(document.isDirty, false, `${document.uri.fsPath} left unsaved`);
  });

  it('refuses the whole rename when it would touch a file outside the workspace', async () => {
    // A file outside the workspace imports a workspace symbol (through a workspace file that imports it back).
    const root = workspaceRoot();
    const outside = path.join(path.dirname(root), 'outside-workspace');
    fs.mkdirSync(outside, { recursive: true });
    const sharedFile = path.join(outside, 'shared.ts');
    fs.writeFileSync(
      sharedFile,
      `import { insideValue } from '../${path.basename(root)}/src/insideValue';\n\nexport const sharedValue = insideValue + 1;\n`,
    );
    fs.writeFileSync(path.join(root, 'src/insideValue.ts'), 'export const insideValue = 41;\n');
    fs.writeFileSync(
      path.join(root, 'src/usesOutside.ts'),
      "import { sharedValue } from '../../outside-workspace/shared';\n\nexport const fromOutside = sharedValue;\n",
    );
    await openDocument('src/usesOutside.ts');
    const before = fs.readFileSync(sharedFile, 'utf8');
    const text = await invokeText('lsp_rename', {
      file: 'src/insideValue.ts',
      line: 1,
      symbol: 'insideValue',
      new_name: 'renamedValue',
    });
    assert.equal(
      text,
      `Error: rename refused: the rename would change files outside the workspace. Nothing was changed. Files outside the workspace: ${sharedFile}.`,
    );
    assert.equal(fs.readFileSync(sharedFile, 'utf8'), before);
    assert.equal(fs.readFileSync(path.join(root, 'src/insideValue.ts'), 'utf8'), 'export const insideValue = 41;\n');
    for (const document of vscode.workspace.textDocuments)
      assert.equal(document.isDirty, false, `${document.uri.fsPath} was changed`);
  });

  it('refuses what the language server will not rename, with its reason', async () => {
    const text = await invokeText('lsp_rename', {
      file: 'src/format.ts',
      line: 1,
      symbol: 'number#1',
      new_name: 'integer',
    });
    assert.equal(text, 'Error: rename refused: You cannot rename this element. Nothing was changed.');
  });

  it('refuses a new name that is not one identifier', async () => {
    assert.equal(
      await invokeText('lsp_rename', {
        file: 'src/rename.ts',
        line: 1,
        symbol: 'renamedFunction',
        new_name: 'two words',
      }),
      'Error: new_name must be a single identifier, got "two words".',
    );
  });
});
