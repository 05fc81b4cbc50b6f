import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { browser, hasBrowser } from './support/browser';
import { activateExtension, waitUntil, workspaceRoot } from './support/tools';

const RESULT_SCHEME = 'live-tools-result';

/** Opens "Run Tool…" from the command, picks `tool` in the real quick pick by typing, returns the input editor. */
async function pickTool(tool: string): Promise<vscode.TextEditor> {
  const picking = vscode.commands.executeCommand('liveTools.runTool');
  await browser({ op: 'text', selector: '.quick-input-widget .quick-input-title', timeoutMs: 20_000 });
  await browser({ op: 'type', text: tool });
  const active = await browser({ op: 'text', selector: '.quick-input-list .monaco-list-row.focused .label-name' });
  assert.equal(active.text, tool, 'the quick pick did not put the tool first');
  await browser({ op: 'press', key: 'Enter' });
  await picking;
  return waitUntil('the input editor', () => {
    const editor = vscode.window.activeTextEditor;
    return editor?.document.languageId === 'jsonc' && editor.document.isUntitled ? editor : undefined;
  });
}

async function replaceText(editor: vscode.TextEditor, text: string): Promise<void> {
  const document = editor.document;
  assert.ok(await editor.edit((edit) => edit.replace(new vscode.Range(0, 0, document.lineCount, 0), text)));
}

/** The newest notification's message, read from the notification center as a person would. */
async function lastNotification(): Promise<string> {
  await vscode.commands.executeCommand('notifications.showList');
  const reply = await browser({
    op: 'text',
    selector: '.notifications-center .notification-list-item-message',
    timeoutMs: 10_000,
  });
  await vscode.commands.executeCommand('notifications.clearAll');
  await vscode.commands.executeCommand('notifications.hideList');
  return reply.text ?? '';
}

function resultText(tool: string): string | undefined {
  return vscode.workspace.textDocuments
    .find((doc) => doc.uri.scheme === RESULT_SCHEME && doc.uri.path === `/${tool} result.txt`)
    ?.getText();
}

describe('Run Tool… playground', function () {
  this.timeout(120_000);

  before(async function () {
    if (!hasBrowser()) this.skip();
    await activateExtension();
  });

  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('picks a tool, prefills its input from the schema, runs it from the editor title, shows the result', async () => {
    const editor = await pickTool('lsp');
    const template = editor.document.getText();
    assert.match(template, /^\/\/ lsp — Language Server \(read\)\n/);
    assert.match(template, /\/\/   symbol \(string\): The identifier exactly as written on that line/);
    assert.match(template, /\{\n {2}"action": "diagnostics"\n\}\n$/);

    await replaceText(
      editor,
      '// find the uses\n{ "action": "references", "file": "src/format.ts", "line": 1, "symbol": "formatCount", }\n',
    );
    await browser({ op: 'click', selector: '.editor-actions a.action-label[aria-label^="Run This Input"]' });
    const text = await waitUntil('the result document', () => {
      const current = resultText('lsp');
      return current?.includes('references') ? current : undefined;
    });
    assert.match(
      text,
      /^lsp — \d+ ms\n\n5 references of "formatCount" in 3 files:\nsrc\/broken\.ts:1: import \{ formatCount \} from '\.\/format';/,
    );
  });

  it('bad JSON is reported with its position, nothing runs and the input is kept', async () => {
    const editor = await pickTool('lsp');
    const broken = '{\n  "action": "status"\n  "file": "x"\n}\n';
    await replaceText(editor, broken);
    const ran = await vscode.commands.executeCommand<string | undefined>('liveTools.runToolInput');
    assert.equal(ran, undefined);
    assert.match(
      await lastNotification(),
      /^The input is not valid JSON at line 3, column 3: [^(]+\. Fix it and run again; nothing was run\.$/,
    );
    assert.equal(editor.document.getText(), broken);
  });

  it('a write tool never runs unconfirmed: where the editor refuses the dialog, nothing runs', async () => {
    // VS Code refuses modal dialogs while it runs extension tests ("DialogService: refused to show
    // dialog in tests"), so here the confirmation cannot be shown; a person gets the modal with the
    // same text the chat confirmation shows (tested end to end in the chat suite).
    const editor = await pickTool('lsp_rename');
    await replaceText(
      editor,
      '{ "file": "src/format.ts", "line": 1, "symbol": "formatCount", "new_name": "neverApplied" }\n',
    );
    assert.equal(await vscode.commands.executeCommand<string | undefined>('liveTools.runToolInput'), undefined);
    assert.match(
      await lastNotification(),
      /^Could not ask before running lsp_rename \(.*refused to show dialog in tests.*\); nothing was run\.$/,
    );
    assert.doesNotMatch(fs.readFileSync(path.join(workspaceRoot(), 'src/format.ts'), 'utf8'), /neverApplied/);
    for (const document of vscode.workspace.textDocuments)
      assert.equal(document.isDirty && document.uri.scheme === 'file', false);
  });
});
