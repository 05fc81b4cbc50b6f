/**
 * Agent Changes, clicked in the browser: the agent's edits are listed per conversation; a hunk or a
 * file is reverted by its inline action; a line changed by hand after the agent is never reverted
 * (refused and said, the rest reverted); a kept hunk stays; a checkpoint restores the files to before
 * a tool call. The calls come through `lm.invokeTool` (the window's conversation).
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { browser, hasBrowser, screenshotFor } from './support/browser';
import { activateExtension, invokeText, waitUntil, waitUntilAsync, workspaceRoot } from './support/tools';

const ORIGINAL =
  Array.from({ length: 12 }, (_, index) => `export const v${index + 1} = ${index + 1};`).join('\n') + '\n';

let fixtureCount = 0;

describe('Agent Changes: every agent write, kept or reverted after the fact', function () {
  this.timeout(120_000);

  before(async function () {
    if (!hasBrowser()) this.skip();
    await activateExtension();
  });

  afterEach(async () => {
    await vscode.commands.executeCommand('notifications.clearAll');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  /** A fresh file written by the test (not the agent), so only the agent's edits are its changes. */
  function freshFile(): string {
    const file = `src/agentChanges/c${++fixtureCount}.ts`;
    fs.mkdirSync(path.join(workspaceRoot(), 'src/agentChanges'), { recursive: true });
    fs.writeFileSync(path.join(workspaceRoot(), file), ORIGINAL);
    return file;
  }

  const read = (file: string) => fs.readFileSync(path.join(workspaceRoot(), file), 'utf8');
  const line = (file: string, number: number) => read(file).split('\n')[number - 1];

  async function agentEdit(file: string, from: string, to: string): Promise<void> {
    const answer = await invokeText('edit', { path: file, old_string: from, new_string: to });
    assert.match(answer, /^Edited /, answer);
  }

  const row = (label: string) => `.monaco-list-row[aria-label^="${label}"]`;

  /** Selects a row of the view (which shows its inline actions) and clicks one of that row. */
  async function clickInline(
    label: string,
    action: 'Keep' | 'Revert' | 'Restore to Before a Tool Call…',
  ): Promise<void> {
    // That row's own action, once it is selected: another row may still show as selected for a moment,
    // and a click that lands while the view re-renders after the last change is lost: select again then.
    for (let attempt = 1; ; attempt++) {
      await browser({ op: 'click', selector: `${row(label)} .label-name` });
      try {
        await browser({
          op: 'click',
          selector: `${row(label)}.selected .actions a.action-label[aria-label^="${action}"]`,
          timeoutMs: 5_000,
          // The view re-renders as it updates, reusing its row elements: the action is that row's when clicked.
          atomic: true,
        });
        return;
      } catch (error) {
        if (attempt === 3) throw error;
      }
    }
  }

  /** Expands a row if a click collapsed it (a click on a row both runs its command and toggles it). */
  async function expanded(label: string): Promise<void> {
    const collapsed = `${row(label)}[aria-expanded="false"]`;
    if (((await browser({ op: 'count', selector: collapsed })).count ?? 0) > 0)
      await browser({ op: 'click', selector: `${collapsed} .monaco-tl-twistie` });
  }

  /**
   * The messages in the notification center, once one of them passes `wanted`; then they are
   * cleared. The center is opened on every try: the revert says its outcome once the writer is
   * done (a moment after the file changed on disk), and a center opened while empty may not show.
   */
  async function notificationWhere(what: string, wanted: (line: string) => boolean): Promise<string> {
    try {
      return await waitUntilAsync(`the notification ${what}`, async () => {
        await vscode.commands.executeCommand('notifications.showList');
        const messages = '.notifications-center .notification-list-item-message';
        if (!(await browser({ op: 'count', selector: messages })).count) return undefined;
        // The center can close or re-render while it is read (a toast arriving): read it again then.
        const center = await browser({ op: 'text', selector: '.notifications-center', timeoutMs: 2_000 }).catch(
          () => undefined,
        );
        return (center?.text ?? '').split('\n').find(wanted);
      });
    } finally {
      await vscode.commands.executeCommand('notifications.clearAll');
      await vscode.commands.executeCommand('notifications.hideList');
    }
  }

  /** The message the last revert showed (info or warning) that starts with `starting`. */
  const notification = (starting: string): Promise<string> =>
    notificationWhere(`starting "${starting}"`, (line) => line.startsWith(starting));

  /** Waits for a notification of exactly this text. */
  const shownNotification = (text: string): Promise<string> => notificationWhere(`"${text}"`, (line) => line === text);

  it('three edits are listed; one hunk reverted by a click comes back and the others stay; a kept hunk survives a file revert', async () => {
    const file = freshFile();
    await agentEdit(file, 'v2 = 2', 'v2 = 20');
    await agentEdit(file, 'v6 = 6', 'v6 = 60');
    await agentEdit(file, 'v10 = 10', 'v10 = 100');
    await vscode.commands.executeCommand('liveTools.agentChanges.focus');
    // The file row opens its diff.
    const fileRow = await browser({ op: 'text', selector: row(`${file} — changed by`) });
    assert.match(fileRow.text ?? '', /c\d+\.ts\s*src\/agentChanges · 3 changes$/);
    await browser({ op: 'click', selector: `${row(`${file} — changed by`)} .label-name` });
    await waitUntil('the diff of before and now', () =>
      vscode.window.tabGroups.activeTabGroup.activeTab?.input instanceof vscode.TabInputTextDiff ? true : undefined,
    );
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab?.input as vscode.TabInputTextDiff;
    assert.equal(tab.original.scheme, 'live-tools-before');
    assert.equal((await vscode.workspace.openTextDocument(tab.original)).getText(), ORIGINAL);
    await expanded(`${file} — changed by`);
    await screenshotFor('agent-changes.png');

    await clickInline(`${file}:6 (`, 'Revert');
    await waitUntil('line 6 reverted', () => (line(file, 6) === 'export const v6 = 6;' ? true : undefined));
    assert.equal(line(file, 2), 'export const v2 = 20;');
    assert.equal(line(file, 10), 'export const v10 = 100;');
    assert.match(await notification('Reverted'), /^Reverted 1 change in 1 file\.$/);

    // Keep line 2's change, then revert the whole file: line 2 stays, line 10 goes back.
    await clickInline(`${file}:2 (`, 'Keep');
    await waitUntilAsync('the kept hunk to leave the view', async () =>
      ((await browser({ op: 'count', selector: row(`${file}:2 (`) })).count ?? 0) === 0 ? true : undefined,
    );
    await clickInline(`${file} — changed by`, 'Revert');
    await waitUntil('line 10 reverted', () => (line(file, 10) === 'export const v10 = 10;' ? true : undefined));
    assert.equal(line(file, 2), 'export const v2 = 20;', 'the kept hunk was not reverted');
    await waitUntilAsync('the file to leave the view', async () =>
      ((await browser({ op: 'count', selector: row(`${file} — changed by`) })).count ?? 0) === 0 ? true : undefined,
    );
  });

  it('a line changed by hand after the agent is refused and said; the rest is reverted and the manual edit stays', async () => {
    const file = freshFile();
    await agentEdit(file, 'v3 = 3', 'v3 = 30');
    await agentEdit(file, 'v9 = 9', 'v9 = 90');
    // The human changes the agent's line 3 in the editor and saves.
    const document = await vscode.workspace.openTextDocument(vscode.Uri.file(path.join(workspaceRoot(), file)));
    const byHand = new vscode.WorkspaceEdit();
    byHand.replace(document.uri, document.lineAt(2).range, 'export const v3 = 33; // by hand');
    assert.ok(await vscode.workspace.applyEdit(byHand));
    assert.ok(await document.save());

    await vscode.commands.executeCommand('liveTools.agentChanges.focus');
    // The row as the agent's second edit left it (a click while the view re-renders can be lost).
    await browser({ op: 'text', selector: row(`${file} — changed by`), text: '2 changes$' });
    await clickInline(`${file} — changed by`, 'Revert');
    await waitUntil('line 9 reverted', () => (line(file, 9) === 'export const v9 = 9;' ? true : undefined));
    assert.equal(line(file, 3), 'export const v3 = 33; // by hand', 'the manual edit stays');
    assert.equal(
      await notification('Reverted'),
      `Reverted 1 change in 1 file. Not reverted, because they were changed after the agent: ${file}:3.`,
    );
    // The refused hunk is still listed, and still refused.
    await browser({ op: 'text', selector: row(`${file}:3 (`) });
  });

  /** A fresh file of these exact bytes, written by the test. */
  function freshBytes(bytes: Buffer, extension = 'txt'): string {
    const file = `src/agentChanges/c${++fixtureCount}.${extension}`;
    fs.mkdirSync(path.join(workspaceRoot(), 'src/agentChanges'), { recursive: true });
    fs.writeFileSync(path.join(workspaceRoot(), file), bytes);
    return file;
  }

  const bytesOf = (file: string) => fs.readFileSync(path.join(workspaceRoot(), file));

  it('a file with mixed line breaks is reverted to its exact bytes', async () => {
    const original = Buffer.from('one\r\ntwo\r\nthree\nfour\nfive\r\nsix\nseven\n');
    const file = freshBytes(original);
    await agentEdit(file, 'six', 'SIX');
    assert.equal(bytesOf(file).toString(), 'one\r\ntwo\r\nthree\nfour\nfive\r\nSIX\nseven\n');
    await vscode.commands.executeCommand('liveTools.agentChanges.focus');
    await browser({ op: 'text', selector: row(`${file} — changed by`), text: '1 change$' });
    await clickInline(`${file} — changed by`, 'Revert');
    await waitUntil('the revert', () => (bytesOf(file).equals(original) ? true : undefined));
    await shownNotification('Reverted 1 change in 1 file.');
  });

  it('a Latin-1 file the editor reads as UTF-8 keeps its other bytes through an edit and its revert', async () => {
    const original = Buffer.from('# café crème\nx = 1\n', 'latin1');
    const file = freshBytes(original, 'py');
    await agentEdit(file, 'x = 1', 'x = 2');
    assert.deepEqual([...bytesOf(file)], [...Buffer.from('# café crème\nx = 2\n', 'latin1')]);
    await vscode.commands.executeCommand('liveTools.agentChanges.focus');
    await browser({ op: 'text', selector: row(`${file} — changed by`), text: '1 change$' });
    await clickInline(`${file} — changed by`, 'Revert');
    await waitUntil('the revert', () => (bytesOf(file).equals(original) ? true : undefined));
    await shownNotification('Reverted 1 change in 1 file.');
  });

  it('restores the files to before a tool call, picked in the list of calls', async () => {
    const first = freshFile();
    const second = freshFile();
    await agentEdit(first, 'v1 = 1', 'v1 = 10');
    await agentEdit(second, 'v5 = 5', 'v5 = 50');
    await agentEdit(first, 'v12 = 12', 'v12 = 120');
    await vscode.commands.executeCommand('liveTools.agentChanges.focus');
    // The conversation row of these calls (the window's) holds the inline Restore action.
    await clickInline('This window', 'Restore to Before a Tool Call…');
    // Newest first: the call after the checkpoint, then the checkpoint's own (the edit of `second`).
    await browser({ op: 'text', selector: '.quick-input-list .monaco-list-row', text: `Before edit ${second}` });
    await browser({ op: 'press', key: 'ArrowDown' });
    const picked = await browser({ op: 'text', selector: '.quick-input-list .monaco-list-row.focused' });
    assert.match(picked.text ?? '', new RegExp(`^Before edit ${second}`), 'the second row is the checkpoint');
    await browser({ op: 'press', key: 'Enter' });
    // (Both files are written in one edit, then saved one after the other.)
    await waitUntil('the restore', () =>
      line(first, 12) === 'export const v12 = 12;' && line(second, 5) === 'export const v5 = 5;' ? true : undefined,
    );
    assert.equal(line(first, 1), 'export const v1 = 10;', 'the call before the checkpoint stays');
    assert.match(await notification('Reverted 2 changes'), /^Reverted 2 changes in 2 files\.$/);
  });
});
