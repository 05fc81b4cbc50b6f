import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { browser, hasBrowser, screenshotFor } from './support/browser';
import { activateExtension, invokeText, setSetting, waitUntil, waitUntilAsync, workspaceRoot } from './support/tools';

const STAGED_SCHEME = 'live-tools-staged';

const SHAPE = 'export function area(width: number, height: number): number {\n  return width * height;\n}\n';
const SHAPE_USER =
  "import { area } from './shape';\n\nexport const small = area(2, 3);\nexport const large = area(20, 30);\n";
const SOLO = 'const localCount = 1;\nexport const twice = localCount * 2;\n';

let fixtureCount = 0;

/** A fresh two-file project under src/staged/<n>/ (so every test stages against files no other test touched). */
async function twoFiles(): Promise<{ dir: string; shape: string; user: string }> {
  const dir = `src/staged/p${++fixtureCount}`;
  const root = workspaceRoot();
  fs.mkdirSync(path.join(root, dir), { recursive: true });
  fs.writeFileSync(path.join(root, dir, 'shape.ts'), SHAPE);
  fs.writeFileSync(path.join(root, dir, 'shapeUser.ts'), SHAPE_USER);
  // The TypeScript server finds references in files it has seen; open both like an editor would.
  for (const file of ['shape.ts', 'shapeUser.ts'])
    await vscode.workspace.openTextDocument(vscode.Uri.file(path.join(root, dir, file)));
  return { dir, shape: `${dir}/shape.ts`, user: `${dir}/shapeUser.ts` };
}

async function oneFile(): Promise<string> {
  const file = `src/staged/solo${++fixtureCount}.ts`;
  fs.mkdirSync(path.join(workspaceRoot(), 'src/staged'), { recursive: true });
  fs.writeFileSync(path.join(workspaceRoot(), file), SOLO);
  await vscode.workspace.openTextDocument(vscode.Uri.file(path.join(workspaceRoot(), file)));
  return file;
}

const read = (file: string) => fs.readFileSync(path.join(workspaceRoot(), file), 'utf8');

/** Stages the rename of `area` in a two-file project; returns the edit id from the answer. */
async function stageAreaRename(files: { shape: string; user: string }): Promise<{ id: string; text: string }> {
  const text = await invokeText('lsp_rename', {
    file: files.shape,
    line: 1,
    symbol: 'area',
    new_name: 'surface',
    stage: true,
  });
  const id = /staged as (edit_\d+):/.exec(text)?.[1];
  assert.ok(id, text);
  return { id, text };
}

async function stageSoloRename(file: string): Promise<string> {
  const text = await invokeText('lsp_rename', {
    file,
    line: 1,
    symbol: 'localCount',
    new_name: 'counted',
    stage: true,
  });
  const id = /staged as (edit_\d+):/.exec(text)?.[1];
  assert.ok(id, text);
  return id;
}

/** Tabs reviewing a staged change: its diff, or the multi-file diff whose files are its proposed texts. */
function reviewTabs(id: string): vscode.Tab[] {
  return vscode.window.tabGroups.all
    .flatMap((group) => group.tabs)
    .filter((tab) => {
      const input = tab.input as { modified?: vscode.Uri; textDiffs?: { modified: vscode.Uri }[] } | undefined;
      const modified = input?.textDiffs?.map((diff) => diff.modified) ?? (input?.modified ? [input.modified] : []);
      return modified.some((uri) => uri.scheme === STAGED_SCHEME && uri.query === `edit=${id}`);
    });
}

function noDirtyFiles(): void {
  for (const document of vscode.workspace.textDocuments) {
    assert.equal(document.isDirty && document.uri.scheme === 'file', false, `${document.uri.fsPath} was left modified`);
  }
}

describe('staged edits: lsp_rename stage, resolve, review', function () {
  this.timeout(120_000);
  const pendingIds: string[] = [];

  before(async () => {
    await activateExtension();
  });

  afterEach(async () => {
    // Leave nothing pending for the next test (an id that is resolved already just answers with an error).
    while (pendingIds.length > 0) await invokeText('resolve', { edit_id: pendingIds.pop()!, action: 'discard' });
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('lsp_rename with stage: true proposes, writes nothing, opens the multi-file diff', async () => {
    const files = await twoFiles();
    const { id, text } = await stageAreaRename(files);
    pendingIds.push(id);
    assert.equal(
      text,
      [
        `(proposed) 4 replacements in 2 files — rename "area" → "surface". Nothing is written yet; staged as ${id}:`,
        `${files.shape}: 1 replacement`,
        `${files.user}: 3 replacements`,
        `The user sees the diff and can accept or discard it there. Call resolve with edit_id "${id}" and action "accept" to write it ` +
          '(refused as a whole if any of these files changes first), or "discard" to drop it.',
      ].join('\n'),
    );
    assert.equal(read(files.shape), SHAPE);
    assert.equal(read(files.user), SHAPE_USER);
    noDirtyFiles();

    const [tab] = await waitUntil('the multi-file diff of the staged edit', () =>
      reviewTabs(id).length ? reviewTabs(id) : undefined,
    );
    assert.match(tab.label, new RegExp(`^${id}: rename "area" → "surface"`));
    const diffs = (tab.input as { textDiffs: { original: vscode.Uri; modified: vscode.Uri }[] }).textDiffs;
    assert.deepEqual(
      diffs.map((diff) => [vscode.workspace.asRelativePath(diff.original), diff.modified.scheme]).sort(),
      [
        [files.shape, STAGED_SCHEME],
        [files.user, STAGED_SCHEME],
      ],
    );
    const proposed = await vscode.workspace.openTextDocument(
      diffs.find((diff) => diff.original.path.endsWith('shapeUser.ts'))!.modified,
    );
    assert.equal(proposed.getText(), SHAPE_USER.replace(/\barea\b/g, 'surface'));
  });

  it('resolve accept writes every file as proposed in one edit, saves, closes the review; a second resolve says it is done', async () => {
    const files = await twoFiles();
    const { id } = await stageAreaRename(files);
    await waitUntil('the review tab', () => (reviewTabs(id).length ? true : undefined));
    const text = await invokeText('resolve', { edit_id: id, action: 'accept' });
    assert.equal(
      text,
      [
        `Accepted ${id} (rename "area" → "surface"): wrote 4 replacements in 2 files; all saved.`,
        `${files.shape}: 1 replacement`,
        `${files.user}: 3 replacements`,
      ].join('\n'),
    );
    assert.equal(read(files.shape), SHAPE.replace(/\barea\b/g, 'surface'));
    assert.equal(read(files.user), SHAPE_USER.replace(/\barea\b/g, 'surface'));
    noDirtyFiles();
    await waitUntil('the review tab to close', () => (reviewTabs(id).length === 0 ? true : undefined));

    assert.equal(
      await invokeText('resolve', { edit_id: id, action: 'accept' }),
      `Error: ${id} was already accepted by the agent; its changes are written.`,
    );
    assert.equal(
      await invokeText('resolve', { edit_id: id, action: 'discard' }),
      `Error: ${id} was already accepted by the agent; its changes are written.`,
    );
  });

  it('resolve discard drops the change, writes nothing, closes the diff of a one-file change', async () => {
    const file = await oneFile();
    const id = await stageSoloRename(file);
    const [tab] = await waitUntil('the diff of the staged file', () =>
      reviewTabs(id).length ? reviewTabs(id) : undefined,
    );
    assert.ok(tab.input instanceof vscode.TabInputTextDiff, 'one file opens a plain diff editor');
    assert.equal(tab.label, `${path.basename(file)} ↔ proposed (${id})`);
    assert.equal(
      await invokeText('resolve', { edit_id: id, action: 'discard' }),
      `Discarded ${id} (rename "localCount" → "counted"); nothing was written.`,
    );
    assert.equal(read(file), SOLO);
    await waitUntil('the diff to close', () => (reviewTabs(id).length === 0 ? true : undefined));
    assert.equal(
      await invokeText('resolve', { edit_id: id, action: 'accept' }),
      `Error: ${id} was already discarded by the agent; nothing was written.`,
    );
  });

  it('drift on disk refuses the whole change: nothing written, the change stays pending', async () => {
    const files = await twoFiles();
    const { id } = await stageAreaRename(files);
    pendingIds.push(id);
    const changed = `${SHAPE_USER}// edited after staging\n`;
    fs.writeFileSync(path.join(workspaceRoot(), files.user), changed);
    const text = await invokeText('resolve', { edit_id: id, action: 'accept' });
    assert.equal(
      text,
      `Error: ${id} was not accepted: a file changed since it was staged — ${files.user} (changed). Nothing was written; ${id} stays pending. ` +
        `Re-run lsp_rename on the current text to stage a fresh edit, then discard ${id}.`,
    );
    assert.equal(read(files.shape), SHAPE);
    assert.equal(read(files.user), changed);
    noDirtyFiles();
    // Deleting the other file is drift too; both are named.
    fs.rmSync(path.join(workspaceRoot(), files.shape));
    assert.match(
      await invokeText('resolve', { edit_id: id, action: 'accept' }),
      new RegExp(
        `2 files changed since it was staged — ${files.shape} \\(no longer exists\\), ${files.user} \\(changed\\)\\.`,
      ),
    );
    assert.equal(read(files.user), changed);
  });

  it('an unsaved edit in the editor is drift too', async () => {
    const files = await twoFiles();
    const { id } = await stageAreaRename(files);
    pendingIds.push(id);
    const document = await vscode.workspace.openTextDocument(vscode.Uri.file(path.join(workspaceRoot(), files.shape)));
    const typing = new vscode.WorkspaceEdit();
    typing.insert(document.uri, new vscode.Position(0, 0), '// typing\n');
    assert.ok(await vscode.workspace.applyEdit(typing));
    try {
      assert.match(
        await invokeText('resolve', { edit_id: id, action: 'accept' }),
        new RegExp(
          `^Error: ${id} was not accepted: a file changed since it was staged — ${files.shape} \\(changed\\)\\.`,
        ),
      );
      assert.equal(document.getText(), `// typing\n${SHAPE}`);
      assert.equal(read(files.user), SHAPE_USER);
    } finally {
      const undo = new vscode.WorkspaceEdit();
      undo.delete(document.uri, new vscode.Range(0, 0, 1, 0));
      assert.ok(await vscode.workspace.applyEdit(undo));
      assert.ok(await document.save());
    }
    assert.equal(read(files.shape), SHAPE);
    noDirtyFiles();
  });

  it('unknown ids are named, with the pending ones', async () => {
    const file = await oneFile();
    const id = await stageSoloRename(file);
    pendingIds.push(id);
    const text = await invokeText('resolve', { edit_id: 'edit_999', action: 'accept' });
    assert.equal(
      text,
      `Error: there is no staged edit "edit_999" in this window (ids look like "edit_1"). Pending staged edits: ${id} (rename "localCount" → "counted").`,
    );
  });

  it('a rename that would rename a file cannot be staged', async () => {
    const files = await twoFiles();
    const before = fs.readdirSync(path.join(workspaceRoot(), files.dir)).sort();
    const text = await invokeText('lsp_rename', {
      file: files.user,
      line: 1,
      symbol: './shape',
      new_name: './outline',
      stage: true,
    });
    assert.equal(
      text,
      `Error: this change cannot be staged: it would also rename ${files.shape} to ${files.dir}/outline.ts, and only text edits can be staged. Nothing was changed. Run it without stage to apply it directly.`,
    );
    assert.deepEqual(fs.readdirSync(path.join(workspaceRoot(), files.dir)).sort(), before);
    assert.equal(read(files.user), SHAPE_USER);
  });

  describe('in the editor (clicked in the browser)', function () {
    before(function () {
      if (!hasBrowser()) this.skip();
    });

    it('Accept and Discard show in the title of staged reviews only', async () => {
      const accept = '.editor-group-container.active .editor-actions a.action-label[aria-label^="Accept Staged Edit"]';
      const discard =
        '.editor-group-container.active .editor-actions a.action-label[aria-label^="Discard Staged Edit"]';
      const count = async (selector: string) => (await browser({ op: 'count', selector })).count;
      const files = await twoFiles();
      const { id } = await stageAreaRename(files);
      pendingIds.push(id);
      await waitUntil('the review tab', () => (reviewTabs(id).length ? true : undefined));
      await browser({ op: 'text', selector: accept });
      assert.equal(await count(discard), 1);
      // A plain editor, a diff of two plain files and a multi-file diff of plain files: no buttons.
      const shape = vscode.Uri.file(path.join(workspaceRoot(), files.shape));
      const user = vscode.Uri.file(path.join(workspaceRoot(), files.user));
      await vscode.window.showTextDocument(shape);
      await waitUntil('the plain editor', () =>
        vscode.window.tabGroups.activeTabGroup.activeTab?.input instanceof vscode.TabInputText ? true : undefined,
      );
      assert.equal(await count(accept), 0);
      await vscode.commands.executeCommand('vscode.diff', shape, user, 'two plain files');
      assert.equal(await count(accept), 0);
      await vscode.commands.executeCommand('vscode.changes', 'plain changes', [
        [shape, shape, user],
        [user, user, shape],
      ]);
      await waitUntil('the plain multi-file diff', () =>
        vscode.window.tabGroups.activeTabGroup.activeTab?.label.startsWith('plain changes') ? true : undefined,
      );
      assert.equal(await count(accept), 0);
      // Back to the staged review: the buttons return.
      await vscode.commands.executeCommand('liveTools.openStagedEdit', id);
      await browser({ op: 'text', selector: accept });
    });

    it('Accept in the multi-file diff title writes the change; resolve then says the user accepted it', async () => {
      const files = await twoFiles();
      const { id } = await stageAreaRename(files);
      await waitUntil('the review tab', () => (reviewTabs(id).length ? true : undefined));
      await browser({
        op: 'click',
        selector: '.editor-group-container.active .editor-actions a.action-label[aria-label^="Accept Staged Edit"]',
      });
      await waitUntil('the files to be written', () => (read(files.user).includes('surface') ? true : undefined));
      assert.equal(read(files.shape), SHAPE.replace(/\barea\b/g, 'surface'));
      assert.equal(read(files.user), SHAPE_USER.replace(/\barea\b/g, 'surface'));
      await waitUntil('the review tab to close', () => (reviewTabs(id).length === 0 ? true : undefined));
      noDirtyFiles();
      assert.equal(
        await invokeText('resolve', { edit_id: id, action: 'accept' }),
        `Error: ${id} was already accepted by the user; its changes are written.`,
      );
    });

    it('Discard in the diff title drops it; resolve then says the user discarded it', async () => {
      const file = await oneFile();
      const id = await stageSoloRename(file);
      await waitUntil('the diff', () => (reviewTabs(id).length ? true : undefined));
      await browser({
        op: 'click',
        selector: '.editor-group-container.active .editor-actions a.action-label[aria-label^="Discard Staged Edit"]',
      });
      await waitUntil('the diff to close', () => (reviewTabs(id).length === 0 ? true : undefined));
      assert.equal(read(file), SOLO);
      assert.equal(
        await invokeText('resolve', { edit_id: id, action: 'accept' }),
        `Error: ${id} was already discarded by the user; nothing was written. The user chose not to apply it; ask before proposing it again.`,
      );
    });

    it('Accept in the UI follows the drift rule: refused, nothing written, still pending', async () => {
      const file = await oneFile();
      const id = await stageSoloRename(file);
      pendingIds.push(id);
      await waitUntil('the diff', () => (reviewTabs(id).length ? true : undefined));
      fs.writeFileSync(path.join(workspaceRoot(), file), `${SOLO}// changed\n`);
      // Earlier suites' notifications can fill the list and push this one out of view (seen in a run of some suites).
      await vscode.commands.executeCommand('notifications.clearAll');
      await browser({
        op: 'click',
        selector: '.editor-group-container.active .editor-actions a.action-label[aria-label^="Accept Staged Edit"]',
      });
      await vscode.commands.executeCommand('notifications.showList');
      const shown = await browser({
        op: 'text',
        selector: '.notifications-center .notification-list-item-message:has-text("was not accepted")',
        timeoutMs: 10_000,
      });
      await vscode.commands.executeCommand('notifications.clearAll');
      await vscode.commands.executeCommand('notifications.hideList');
      assert.equal(
        shown.text,
        `${id} was not accepted because files changed since it was staged: ${file} (changed). Nothing was written; discard it and ask the agent to redo the change.`,
      );
      assert.equal(read(file), `${SOLO}// changed\n`);
      assert.equal(reviewTabs(id).length, 1, 'the review stays open');
      assert.match(
        await invokeText('resolve', { edit_id: id, action: 'accept' }),
        new RegExp(`^Error: ${id} was not accepted`),
      );
    });

    it('the human drops a hunk and a file by their checkboxes and takes one back: the diff shows what Accept writes, and resolve names what was dropped', async () => {
      const files = await twoFiles();
      const { id } = await stageAreaRename(files);
      pendingIds.push(id);
      await vscode.commands.executeCommand('liveTools.stagedEdits.focus');
      const checkbox = (label: string) =>
        `.monaco-list-row[aria-label*="${label}"] .custom-view-tree-node-item-checkbox`;
      const isChecked = ':is(.checked,[aria-checked="true"])';
      /** Clicks a row's checkbox once the view shows it `from` (the view refreshes after each change). */
      const toggle = async (label: string, from: 'checked' | 'unchecked') => {
        const selector = from === 'checked' ? `${checkbox(label)}${isChecked}` : `${checkbox(label)}:not(${isChecked})`;
        await waitUntilAsync(`${label} to show ${from}`, async () =>
          ((await browser({ op: 'count', selector })).count ?? 0) > 0 ? true : undefined,
        );
        await browser({ op: 'click', selector: checkbox(label) });
      };
      const proposed = async (file: string) =>
        (
          await vscode.workspace.openTextDocument(
            vscode.Uri.from({
              scheme: STAGED_SCHEME,
              path: vscode.Uri.file(path.join(workspaceRoot(), file)).path,
              query: `edit=${id}`,
            }),
          )
        ).getText();
      const renamed = (text: string) => text.replace(/\barea\b/g, 'surface');
      const userKept = renamed(SHAPE_USER.split('\n')[0]) + SHAPE_USER.slice(SHAPE_USER.indexOf('\n'));

      // shapeUser.ts has two hunks: the import (line 1) and the two uses on adjacent lines 3–4.
      await toggle(`${files.user}:3 (export const small = area(2, 3);`, 'checked');
      await waitUntilAsync('the proposed side to leave out the dropped hunk', async () =>
        (await proposed(files.user)) === userKept ? true : undefined,
      );
      // A whole file dropped, then its one hunk taken back.
      await toggle(`${files.shape} — open the diff of ${id}`, 'checked');
      await waitUntilAsync('shape.ts dropped', async () =>
        (await proposed(files.shape)) === SHAPE ? true : undefined,
      );
      await toggle(`${files.shape}:1 (`, 'unchecked');
      await waitUntilAsync('shape.ts taken back', async () =>
        (await proposed(files.shape)) === renamed(SHAPE) ? true : undefined,
      );
      const fileRow = await browser({
        op: 'text',
        selector: `.monaco-list-row[aria-label*="${files.user} — open the diff"]`,
      });
      assert.match(fileRow.text ?? '', /1 of 3 replacements kept$/);
      await vscode.commands.executeCommand('liveTools.openStagedEdit', id);
      await screenshotFor('staged-review.png');

      await vscode.commands.executeCommand('liveTools.openStagedEdit', id);
      await browser({
        op: 'click',
        selector: '.editor-group-container.active .editor-actions a.action-label[aria-label^="Accept Staged Edit"]',
      });
      await waitUntil('the kept hunks to be written and saved', () =>
        read(files.shape) !== SHAPE && read(files.user) !== SHAPE_USER ? true : undefined,
      );
      // The change is resolved (and its review closed) once every file is saved.
      await waitUntil('the review tab to close', () => (reviewTabs(id).length === 0 ? true : undefined));
      assert.equal(read(files.shape), renamed(SHAPE));
      assert.equal(read(files.user), userKept);
      noDirtyFiles();
      assert.equal(
        await invokeText('resolve', { edit_id: id, action: 'accept' }),
        `Error: ${id} was already accepted by the user; it wrote 2 of 4 replacements in 2 files. The user dropped 1 change in the review (not written): ${files.user}:3 (export const small = area(2, 3); → export const small = surface(2, 3);).`,
      );
    });

    it('with code lenses on in diff editors, a lens on the proposed side drops a change and takes it back', async () => {
      const files = await twoFiles();
      const { id } = await stageAreaRename(files);
      pendingIds.push(id);
      await setSetting('diffEditor.codeLens', true);
      try {
        const user = path.join(workspaceRoot(), files.user);
        await vscode.commands.executeCommand('liveTools.openStagedFile', { kind: 'file', id, path: user });
        const proposed = async () =>
          (
            await vscode.workspace.openTextDocument(
              vscode.Uri.from({ scheme: STAGED_SCHEME, path: vscode.Uri.file(user).path, query: `edit=${id}` }),
            )
          ).getText();
        const lens = (title: string) => ({ op: 'click' as const, selector: '.codelens-decoration a', text: title });
        // The first lens is the import's (line 1).
        await browser(lens('Drop this change'));
        await waitUntilAsync('the import to be dropped', async () =>
          (await proposed()).startsWith("import { area } from './shape';") ? true : undefined,
        );
        assert.match(await proposed(), /small = surface\(2, 3\)/);
        await browser(lens('Take this change back'));
        await waitUntilAsync('the import to come back', async () =>
          (await proposed()).startsWith("import { surface } from './shape';") ? true : undefined,
        );
      } finally {
        await setSetting('diffEditor.codeLens', undefined);
      }
    });

    it('the Staged Edits view lists pending changes with their files, and its inline Discard resolves them', async () => {
      const files = await twoFiles();
      const { id } = await stageAreaRename(files);
      pendingIds.push(id);
      await vscode.commands.executeCommand('liveTools.stagedEdits.focus');
      const edit = await browser({ op: 'text', selector: `.monaco-list-row[aria-label^="${id} "]` });
      assert.match(edit.text ?? '', new RegExp(`^${id}\\s*rename "area" → "surface"$`));
      const fileRowSelector = `.monaco-list-row[aria-label="${files.user} — open the diff of ${id}"]`;
      const fileRow = await browser({ op: 'text', selector: fileRowSelector });
      assert.match(fileRow.text ?? '', /^shapeUser\.ts\s*src\/staged\/p\d+ · 3 replacements$/);
      // A file opens its own diff.
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      await browser({ op: 'click', selector: `${fileRowSelector} .label-name` });
      const [diff] = await waitUntil('the diff of one file', () =>
        reviewTabs(id).length ? reviewTabs(id) : undefined,
      );
      assert.ok(
        diff.input instanceof vscode.TabInputTextDiff && diff.input.original.path.endsWith(`${files.dir}/shapeUser.ts`),
      );
      // Inline actions show on the selected row: select it (a click also collapses it), then Discard.
      await browser({ op: 'click', selector: `.monaco-list-row[aria-label^="${id} "] .label-name` });
      await browser({
        op: 'click',
        selector: `.monaco-list-row.selected[aria-label^="${id} "] .actions a.action-label[aria-label^="Discard Staged Edit"]`,
      });
      await waitUntil('the change to leave the view', () => (reviewTabs(id).length === 0 ? true : undefined));
      assert.match(
        await invokeText('resolve', { edit_id: id, action: 'discard' }),
        new RegExp(`^Error: ${id} was already discarded by the user`),
      );
      assert.equal(read(files.user), SHAPE_USER);
    });
  });
});
