/**
 * Workers in their own copy, in the real editor with the scripted model: a write worker's edits land
 * in a private copy (a git worktree, or a folder copy), no live file changes until the human accepts
 * the one staged change they come back as, shaped per hunk in the Staged Edits view; what was kept
 * lands through the one writer around the human's unsaved typing. A worker's programs run in its
 * copy, its paths cannot leave it, and nothing of a copy is left once its change is resolved.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ScriptedModelApi } from '../scripted-model/api';
import { browser, hasBrowser, screenshotFor } from './support/browser';
import { answerCard, setVibe, workerIdOf } from './support/vibe';
import { scriptedModel, toolResults } from './support/chat';
import {
  activateExtension,
  invokeText,
  logLines,
  setSetting,
  waitUntil,
  waitUntilAsync,
  workspaceRoot,
} from './support/tools';

const LINES = Array.from({ length: 12 }, (_, index) => `line ${index + 1}`).join('\n') + '\n';

function git(...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=test', '-c', 'user.email=test@example.com', ...args], {
    cwd: workspaceRoot(),
    encoding: 'utf8',
  });
}

function read(file: string): string | undefined {
  const absolute = path.join(workspaceRoot(), file);
  return fs.existsSync(absolute) ? fs.readFileSync(absolute, 'utf8') : undefined;
}

/** The copies the log says were made in this run (their trees). */
async function copiesMade(): Promise<string[]> {
  const { logUri } = await activateExtension();
  return logLines(logUri, 'vibe.copy')
    .flatMap((line) => [...line.matchAll(/(?:worktree|folder) (\/\S+?)[;,]/g)].map((match) => match[1]))
    .filter((copy, index, all) => all.indexOf(copy) === index);
}

/** The edit id a finished worker's answer names. */
function editIdOf(answer: string): string {
  const id = /staged as (edit_\d+)/.exec(answer)?.[1];
  if (!id) throw new Error(`no staged change in: ${answer}`);
  return id;
}

describe('workers in their own copy', function () {
  this.timeout(180_000);
  let model: ScriptedModelApi;

  before(async () => {
    model = await scriptedModel();
    await setSetting('liveTools.vibe.fastModel', 'scripted-1');
    await setSetting('liveTools.vibe.goodModel', 'scripted-2');
    await setVibe(true);
  });

  after(async () => {
    await setVibe(false);
    await setSetting('liveTools.vibe.fastModel', undefined);
    await setSetting('liveTools.vibe.goodModel', undefined);
    // Nothing of any copy this run made is left: no folder, no worktree registration.
    const copies = await copiesMade();
    for (const copy of copies) await waitUntil(`${copy} to be removed`, () => (fs.existsSync(copy) ? undefined : true));
  });

  /**
   * The scenario of both kinds of copy: the worker edits two lines of one file and one of another and
   * creates a third, while the human types in the first; the human drops one hunk and accepts.
   */
  async function editWhileTheHumanTypes(kind: 'git' | 'folder'): Promise<void> {
    const files = { a: `copy-${kind}-a.txt`, b: `copy-${kind}-b.txt`, created: `copy-${kind}-new.txt` };
    fs.writeFileSync(path.join(workspaceRoot(), files.a), LINES);
    fs.writeFileSync(path.join(workspaceRoot(), files.b), 'alpha\nbeta\n');
    if (kind === 'git') {
      git('init', '-q');
      git('add', '-A');
      git('commit', '-q', '-m', 'the human’s work');
    }
    try {
      model.reset();
      model.script([
        () => ({
          toolCall: { name: 'edit', input: { path: files.a, old_string: 'line 2\n', new_string: 'LINE 2 (worker)\n' } },
        }),
        () => ({
          toolCall: { name: 'edit', input: { path: files.a, old_string: 'line 7\n', new_string: 'LINE 7 (worker)\n' } },
        }),
        () => ({ toolCall: { name: 'edit', input: { path: files.b, old_string: 'beta', new_string: 'BETA' } } }),
        () => ({ toolCall: { name: 'write', input: { path: files.created, content: 'made by the worker\n' } } }),
        (request) => ({
          text: `Done: ${toolResults(request)
            .map((result) => result.split('\n')[0])
            .join(' | ')}`,
        }),
      ]);
      // The human has the first file open and types in it (unsaved) while the worker works.
      const editor = await vscode.window.showTextDocument(vscode.Uri.file(path.join(workspaceRoot(), files.a)));
      const id = workerIdOf(
        await invokeText('vibe_spawn', { brief: 'Edit the files.', label: `copy ${kind}`, access: 'write' }),
      );
      assert.ok(
        await editor.edit((builder) =>
          builder.insert(new vscode.Position(10, 'line 11'.length), ' typed by the human'),
        ),
      );
      assert.equal(editor.document.isDirty, true, 'the human typed');
      assert.equal(read(files.a), LINES, 'typing is not saved');
      const done = await invokeText('vibe_wait', { worker_id: id, timeout_seconds: 90 });
      assert.match(done, new RegExp(`^${id} "copy ${kind}" done after`));
      assert.match(
        done,
        /Done: Edited copy-\w+-a\.txt.* \| Edited copy-\w+-a\.txt.* \| Edited copy-\w+-b\.txt.* \| (Created|Wrote) copy-\w+-new\.txt/,
      );
      assert.doesNotMatch(done, /denied|approval/i, 'no write was asked');
      const editId = editIdOf(done);
      assert.match(done, /3 files \(2 edited, 1 created\)/);
      // No live file changed: the worker wrote in its copy.
      assert.equal(read(files.a), LINES);
      assert.equal(read(files.b), 'alpha\nbeta\n');
      assert.equal(read(files.created), undefined);
      const [copy] = (await copiesMade()).slice(-1);
      assert.ok(copy && !copy.startsWith(workspaceRoot()), `the copy is outside the workspace: ${copy}`);
      if (kind === 'git') {
        assert.ok(git('worktree', 'list').includes(copy), 'the copy is a worktree of the repository');
        assert.match(
          await invokeText('vibe_list', {}),
          new RegExp(`${id} "copy git" .* in its copy · done .*staged as ${editId}`),
        );
      }

      // The review shows the three files.
      const review = await waitUntil('the review of the change', () =>
        vscode.window.tabGroups.all.flatMap((group) => group.tabs).find((tab) => tab.label.startsWith(`${editId}:`)),
      );
      const diffs = (review.input as { textDiffs?: { modified: vscode.Uri }[] }).textDiffs ?? [];
      assert.deepEqual(diffs.map((diff) => path.basename(diff.modified.path)).sort(), Object.values(files).sort());
      // In the Staged Edits view (the Explorer's folder section folded away for room, the list scrolled to
      // this change, the newest), the human unchecks the second hunk of the first file.
      await vscode.commands.executeCommand('liveTools.stagedEdits.focus');
      const folderSection = '.pane-header[aria-label^="Explorer Section: workspace"][aria-expanded="true"]';
      const folded = ((await browser({ op: 'count', selector: folderSection })).count ?? 0) > 0;
      if (folded) await browser({ op: 'click', selector: folderSection });
      await vscode.commands.executeCommand('liveTools.stagedEdits.focus');
      await vscode.commands.executeCommand('list.focusLast');
      for (const file of Object.values(files))
        await waitUntilAsync(`the row of ${file}`, async () =>
          ((
            await browser({
              op: 'count',
              selector: `.monaco-list-row[aria-label*="${file} — open the diff of ${editId}"]`,
            })
          ).count ?? 0) > 0
            ? true
            : undefined,
        );
      // The human drops the line 7 hunk (what the view's checkbox and the diff's "Drop this change" lens run;
      // clicking the row's box is proven in the staging suite, and the view's height here depends on the suites before).
      const absoluteA = path.join(workspaceRoot(), files.a);
      await vscode.commands.executeCommand('liveTools.setStagedHunkDropped', editId, absoluteA, 1, true);
      const proposedA = vscode.Uri.from({
        scheme: 'live-tools-staged',
        path: vscode.Uri.file(absoluteA).path,
        query: `edit=${editId}`,
      });
      await waitUntilAsync('the proposed side to leave out the dropped hunk', async () =>
        (await vscode.workspace.openTextDocument(proposedA)).getText() ===
        LINES.replace('line 2\n', 'LINE 2 (worker)\n')
          ? true
          : undefined,
      );
      if (kind === 'git' && process.env.LIVE_TOOLS_SCREENSHOTS) {
        // For the README's picture: the view shows the unchecked hunk once it has refreshed.
        await waitUntilAsync('the view to show the dropped hunk', async () => {
          const row = await browser({
            op: 'text',
            selector: `.monaco-list-row[aria-label*="${files.a} — open the diff of ${editId}"]`,
          });
          return /2 of 4 replacements kept/.test(row.text ?? '') ? true : undefined;
        });
        await screenshotFor('worker-review.png');
      }

      const accepted = await vscode.commands.executeCommand<string>('liveTools.acceptStagedEdit', editId);
      assert.match(accepted ?? '', new RegExp(`Accepted ${editId}`));
      // The kept hunks landed around the human's typing, which stays unsaved in the editor.
      const typed = LINES.replace('line 11', 'line 11 typed by the human');
      assert.equal(editor.document.getText(), typed.replace('line 2\n', 'LINE 2 (worker)\n'));
      assert.equal(editor.document.isDirty, true, "the human's unsaved state is kept");
      assert.equal(read(files.a), LINES, 'the file on disk keeps what the human saved');
      assert.equal(read(files.b), 'alpha\nBETA\n');
      assert.equal(read(files.created), 'made by the worker\n');
      // Agent Changes records it as the worker's.
      await vscode.commands.executeCommand('liveTools.agentChanges.focus');
      await waitUntilAsync('the worker in Agent Changes', async () => {
        const row = await browser({
          op: 'text',
          selector: `.monaco-list-row[aria-label^='Worker "copy ${kind}" (${id})']`,
        });
        return row.text ? true : undefined;
      });
      // Its copy goes with the resolved change.
      await waitUntil('the copy to be removed', () => (fs.existsSync(copy) ? undefined : true));
      if (kind === 'git')
        await waitUntil('the worktree registration to go', () =>
          git('worktree', 'list').trim().split('\n').length === 1 ? true : undefined,
        );
      await vscode.window.showTextDocument(editor.document);
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
      if (folded)
        await browser({
          op: 'click',
          selector: '.pane-header[aria-label^="Explorer Section: workspace"][aria-expanded="false"]',
        });
    } finally {
      // A change a failed run left pending is discarded (its copy goes with it).
      for (const line of (await invokeText('resolve', { edit_id: 'edit_0', action: 'discard' })).matchAll(
        /(edit_\d+) \(w\d+ "copy /g,
      ))
        await invokeText('resolve', { edit_id: line[1], action: 'discard' });
      if (kind === 'git') fs.rmSync(path.join(workspaceRoot(), '.git'), { recursive: true, force: true });
      for (const file of Object.values(files)) fs.rmSync(path.join(workspaceRoot(), file), { force: true });
    }
  }

  it('a write worker edits two files and creates one in its git worktree while the human types: nothing lands until the human accepts the kept hunks', async function () {
    if (!hasBrowser()) this.skip();
    await editWhileTheHumanTypes('git');
  });

  it('the same in a folder that is not a git repository (a copy of its files)', async function () {
    if (!hasBrowser()) this.skip();
    await editWhileTheHumanTypes('folder');
  });

  it("an exec worker's cell runs in its copy (asked, naming it); a path out of the copy is refused; a read worker reads the live workspace", async function () {
    if (!hasBrowser()) this.skip();
    model.reset();
    model.script([
      () => ({
        toolCall: {
          name: 'eval',
          input: { code: 'import os\nprint(os.getcwd())\nprint(os.getpid())', description: 'where am I' },
        },
      }),
      () => ({ toolCall: { name: 'write', input: { path: '../copy-outside.txt', content: 'escaped\n' } } }),
      (request) => ({ text: toolResults(request).join('\n---\n') }),
    ]);
    const id = workerIdOf(
      await invokeText('vibe_spawn', { brief: 'Where do you run?', label: 'copy runner', access: 'exec' }),
    );
    await answerCard([new RegExp(`Worker "copy runner" \\(${id}, in its copy\\) wants to run eval`)], 'Allow');
    const done = await invokeText('vibe_wait', { worker_id: id, timeout_seconds: 90 });
    const [cell, write] = done.split('\n---\n');
    const [copy] = (await copiesMade()).slice(-1);
    assert.ok(cell.includes(copy), `the cell's working directory is the copy ${copy}:\n${cell}`);
    assert.ok(!cell.includes(`${workspaceRoot()}\n`), cell);
    assert.match(write, /^Error: .*outside the workspace/);
    assert.equal(fs.existsSync(path.join(path.dirname(copy), 'copy-outside.txt')), false);
    assert.equal(fs.existsSync(path.join(path.dirname(workspaceRoot()), 'copy-outside.txt')), false);
    assert.match(done, /It changed no file in its copy\./);
    // Its copy and its kernel are gone with it.
    const pid = Number(/^(\d+)$/m.exec(cell)?.[1]);
    await waitUntil('the copy to be removed', () => (fs.existsSync(copy) ? undefined : true));
    await waitUntil('its kernel to end', () => {
      try {
        process.kill(pid, 0);
        return undefined;
      } catch {
        return true;
      }
    });

    // A file made in the live workspace after that worker's copy: a read worker sees it (it reads the live workspace).
    fs.writeFileSync(path.join(workspaceRoot(), 'copy-live-only.ts'), 'export const liveOnlyMarker = 1;\n');
    model.reset();
    model.script([
      () => ({
        toolCall: {
          name: 'ast_grep',
          input: { pattern: 'export const liveOnlyMarker = $X', path: 'copy-live-only.ts' },
        },
      }),
      (request) => ({ text: toolResults(request)[0] ?? '' }),
    ]);
    const reader = workerIdOf(await invokeText('vibe_spawn_readonly', { brief: 'Look.', label: 'copy reader' }));
    const seen = await invokeText('vibe_wait', { worker_id: reader, timeout_seconds: 60 });
    assert.match(seen, /copy-live-only\.ts:1/);
    assert.doesNotMatch(await invokeText('vibe_list', {}), new RegExp(`${reader} "copy reader" .* in its copy`));
    fs.rmSync(path.join(workspaceRoot(), 'copy-live-only.ts'), { force: true });
  });

  it("language features in the copy: a worker's write is checked by the TypeScript server on the copy's text, and lsp reads its files", async function () {
    if (!hasBrowser()) this.skip();
    model.reset();
    model.script([
      () => ({
        toolCall: {
          name: 'write',
          input: { path: 'src/copyTyped.ts', content: 'export const copyCount: number = "three";\n' },
        },
      }),
      () => ({ toolCall: { name: 'lsp', input: { action: 'symbols', file: 'src/copyTyped.ts' } } }),
      (request) => ({ text: toolResults(request).join('\n---\n') }),
    ]);
    const id = workerIdOf(
      await invokeText('vibe_spawn', { brief: 'Add a constant.', label: 'typed', access: 'write' }),
    );
    const done = await invokeText('vibe_wait', { worker_id: id, timeout_seconds: 90 });
    const [written, symbols] = done.split('\n---\n');
    assert.match(written, /src\/copyTyped\.ts/);
    assert.match(written, /Type 'string' is not assignable to type 'number'/, written);
    assert.match(symbols, /copyCount/);
    assert.equal(fs.existsSync(path.join(workspaceRoot(), 'src', 'copyTyped.ts')), false);
    const editId = editIdOf(done);
    assert.match(
      await invokeText('resolve', { edit_id: editId, action: 'discard' }),
      new RegExp(`^Discarded ${editId}`),
    );
  });

  it('a finished worker given a message continues in the same copy: its change is staged again with all its work', async () => {
    model.reset();
    model.script([
      () => ({ toolCall: { name: 'write', input: { path: 'copy-first.txt', content: 'first\n' } } }),
      () => ({ text: 'First part done.' }),
      () => ({ toolCall: { name: 'write', input: { path: 'copy-second.txt', content: 'second\n' } } }),
      () => ({ text: 'Second part done.' }),
    ]);
    const id = workerIdOf(
      await invokeText('vibe_spawn', { brief: 'Write a file.', label: 'continued', access: 'write' }),
    );
    const first = editIdOf(await invokeText('vibe_wait', { worker_id: id, timeout_seconds: 60 }));
    const [copy] = (await copiesMade()).slice(-1);
    await invokeText('vibe_send', { worker_id: id, message: 'Now the second file.' });
    const done = await invokeText('vibe_wait', { worker_id: id, timeout_seconds: 60 });
    const second = editIdOf(done);
    assert.notEqual(second, first);
    assert.match(done, /2 files \(2 created\)/);
    assert.equal((await copiesMade()).slice(-1)[0], copy, 'no new copy was made');
    assert.match(
      await invokeText('resolve', { edit_id: first, action: 'accept' }),
      new RegExp(`^Error: ${first} was already discarded`),
    );
    await invokeText('resolve', { edit_id: second, action: 'accept' });
    assert.equal(read('copy-first.txt'), 'first\n');
    assert.equal(read('copy-second.txt'), 'second\n');
    await waitUntil('the copy to be removed', () => (fs.existsSync(copy) ? undefined : true));
    for (const file of ['copy-first.txt', 'copy-second.txt'])
      fs.rmSync(path.join(workspaceRoot(), file), { force: true });
  });

  it('killing a worker with unreviewed work asks; discarding it leaves no copy, and nothing reaches the live workspace', async function () {
    if (!hasBrowser()) this.skip();
    model.reset();
    model.script([
      () => ({ toolCall: { name: 'write', input: { path: 'copy-killed.txt', content: 'unreviewed\n' } } }),
      () => ({ toolCall: { name: 'ask_user', input: { question: 'Shall I go on?' } } }),
    ]);
    const id = workerIdOf(
      await invokeText('vibe_spawn', { brief: 'Write, then ask.', label: 'to stop', access: 'write' }),
    );
    await browser({
      op: 'text',
      selector: '.card.active .question',
      text: 'Shall I go on',
      frames: ['iframe.webview.ready', 'iframe#active-frame'],
      timeoutMs: 30_000,
    });
    const [copy] = (await copiesMade()).slice(-1);
    assert.equal(fs.readFileSync(path.join(copy, 'copy-killed.txt'), 'utf8'), 'unreviewed\n');
    const killing = invokeText('vibe_kill', { worker_id: id });
    await answerCard(
      [/Stop worker "to stop"/, /changed 1 file in its copy that nobody has reviewed/],
      'Discard its work',
    );
    assert.match(
      await killing,
      new RegExp(`^${id} "to stop" was stopped after \\d+ s\\. Its work in its copy was discarded\\.$`),
    );
    await waitUntil('the copy to be removed', () => (fs.existsSync(copy) ? undefined : true));
    assert.equal(read('copy-killed.txt'), undefined);
  });
});
