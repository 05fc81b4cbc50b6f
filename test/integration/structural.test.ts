import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { activateExtension, invokeText, lineOf, setSetting, workspaceRoot } from './support/tools';

function writeWorkspaceFile(relative: string, text: string): void {
  const absolute = path.join(workspaceRoot(), relative);
  fs.mkdirSync(path.dirname(absolute), { recursive: true });
  fs.writeFileSync(absolute, text);
}

describe('ast_grep in the editor', function () {
  this.timeout(60_000);

  before(async () => {
    await activateExtension();
  });

  it('Dart: the call, not the function signature; a repeated metavariable must be the same code', async () => {
    const text = await invokeText('ast_grep', { pattern: 'if ($X != null) $X.dispose();', path: 'structural/widgets.dart' });
    const line = lineOf('structural/widgets.dart', 'if (controller != null) controller.dispose();');
    assert.equal(
      text,
      [
        '1 match of `if ($X != null) $X.dispose();` in 1 file (dart, pattern parsed as statement):',
        `structural/widgets.dart:${line}: if (controller != null) controller.dispose();  · $X = controller`,
      ].join('\n'),
    );
    const calls = await invokeText('ast_grep', { pattern: 'dispose($V)', path: 'structural', language: 'dart' });
    assert.match(calls, /^1 match of `dispose\(\$V\)` in 1 file \(dart, pattern parsed as statement;\):/);
    assert.match(calls, new RegExp(`structural/widgets.dart:${lineOf('structural/widgets.dart', 'dispose(controller);')}: dispose\\(controller\\)  · \\$V = controller`));
  });

  it('a folder without a language searches every language the pattern parses in, and says which', async () => {
    const text = await invokeText('ast_grep', { pattern: 'print($A)', path: 'structural' });
    const lines = text.split('\n');
    assert.match(lines[0], /^2 matches of `print\(\$A\)` in 2 files \(/);
    assert.ok(lines.includes(`structural/config.lua:${lineOf('structural/config.lua', 'print(name)')}: print(name)  · $A = name`), text);
    assert.ok(lines.includes(`structural/report.py:${lineOf('structural/report.py', 'print(len')}: print(len(values))  · $A = len(values)`), text);
    // Neither the string "print(values)" nor the two-argument print is a match.
    assert.equal(lines.filter((line) => line.includes('report.py')).length, 1, text);
  });

  it('respects .gitignore and search.exclude, and reads unsaved editor text', async () => {
    writeWorkspaceFile('structural/.gitignore', 'generated/\n');
    writeWorkspaceFile('structural/generated/skip.py', 'print(ignored)\n');
    writeWorkspaceFile('structural/vendor/skip.py', 'print(excluded)\n');
    await setSetting('search.exclude', { '**/vendor': true });
    try {
      const document = await vscode.workspace.openTextDocument(path.join(workspaceRoot(), 'structural/report.py'));
      const editor = await vscode.window.showTextDocument(document);
      await editor.edit((edit) => edit.insert(new vscode.Position(document.lineCount, 0), 'print(unsaved)\n'));
      const text = await invokeText('ast_grep', { pattern: 'print($A)', path: 'structural', language: 'python' });
      assert.match(text, /print\(unsaved\)/);
      assert.doesNotMatch(text, /ignored|excluded/);
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    } finally {
      await setSetting('search.exclude', undefined);
      fs.rmSync(path.join(workspaceRoot(), 'structural/generated'), { recursive: true, force: true });
      fs.rmSync(path.join(workspaceRoot(), 'structural/vendor'), { recursive: true, force: true });
      fs.rmSync(path.join(workspaceRoot(), 'structural/.gitignore'), { force: true });
    }
  });

  it('stops at max_results and says there are more', async () => {
    const text = await invokeText('ast_grep', { pattern: '$X.dispose()', path: 'structural', max_results: 2 });
    const lines = text.split('\n');
    assert.match(lines[0], /^More than 2 matches of `\$X\.dispose\(\)` \(stopped at 2; narrow `path` or raise `max_results` for the rest\)/);
    assert.equal(lines.length, 3, text);
  });

  it('an unparseable pattern is an error naming the contexts tried', async () => {
    const text = await invokeText('ast_grep', { pattern: 'foo(', path: 'structural/cleanup.ts' });
    assert.match(text, /^Error: The pattern does not parse as typescript in any context tried \(statement, .*\)/);
  });

  it('a language outside the shipped grammars is refused by the schema', async () => {
    const text = await invokeText('ast_grep', { pattern: 'x', language: 'cobol' });
    assert.match(text, /^Error: "language" must be one of bash, c, /);
  });

  it('no match explains how matching works', async () => {
    const text = await invokeText('ast_grep', { pattern: 'nothingLikeThis($A)', path: 'structural', language: 'typescript' });
    assert.match(text, /^No matches of `nothingLikeThis\(\$A\)` in 1 file \(typescript, pattern parsed as statement\)\./);
  });
});
