import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { TOOL_CATALOG } from '../../src/tools/declarations';
import { PLAN_AGENT_NAME } from '../../src/platform/manifest';
import { browser, hasBrowser } from './support/browser';
import { allowOnceInChat, chatReady, scriptedModel, sendChat, toolResults } from './support/chat';
import { activateExtension, lineOf, logLines, setLspEnabled, waitUntil, workspaceRoot } from './support/tools';

// Vibe mode is off unless a test turns it on (test/integration/vibe.test.ts checks its tools come and go).
const catalog = TOOL_CATALOG.filter((tool) => tool.resource !== 'vibe');
const ours = new Set<string>(catalog.map((tool) => tool.name));
const readTier = catalog
  .filter((tool) => tool.tier === 'read')
  .map((tool) => tool.name)
  .sort();
const lspTools = catalog.filter((tool) => tool.resource === 'lsp').map((tool) => tool.name);
const notLsp = catalog
  .filter((tool) => tool.resource !== 'lsp')
  .map((tool) => tool.name)
  .sort();

function offeredOurs(toolNames: readonly string[]): string[] {
  return toolNames.filter((name) => ours.has(name)).sort();
}

/** Lines of our log channel's file that contain `text`. */
describe('end to end through the built-in chat', function () {
  this.timeout(180_000);

  before(async function () {
    if (!hasBrowser()) this.skip();
    await activateExtension();
    await chatReady();
  });

  afterEach(async () => {
    await setLspEnabled(undefined);
  });

  it('a read tool called by the model runs without confirmation and its result reaches the next turn', async () => {
    const model = await scriptedModel();
    const line = lineOf('src/main.ts', 'const greeter =');
    await sendChat(model, 'Where is FriendlyGreeter defined?', [
      () => ({
        toolCall: {
          name: 'lsp',
          input: { action: 'definition', file: 'src/main.ts', line, symbol: 'FriendlyGreeter' },
        },
      }),
      () => ({ text: 'It is defined in src/greeter.ts.' }),
    ]);
    const requests = await model.waitForRequests(2, 90_000);
    assert.deepEqual(toolResults(requests[1]), [
      `1 definition of "FriendlyGreeter" in 1 file:\nsrc/greeter.ts:${lineOf('src/greeter.ts', 'class FriendlyGreeter')}: export class FriendlyGreeter implements Greeter {`,
    ]);
  });

  it('a staged rename: the model stages it, then resolves it; each confirmation says exactly what will happen', async () => {
    const { logUri } = await activateExtension();
    const root = workspaceRoot();
    fs.writeFileSync(path.join(root, 'src/chatStaged.ts'), 'export const stagedOld = 1;\n');
    fs.writeFileSync(
      path.join(root, 'src/chatStagedUser.ts'),
      "import { stagedOld } from './chatStaged';\n\nexport const twice = stagedOld * 2;\n",
    );
    for (const file of ['src/chatStaged.ts', 'src/chatStagedUser.ts'])
      await vscode.workspace.openTextDocument(vscode.Uri.file(path.join(root, file)));
    const model = await scriptedModel();
    await sendChat(model, 'Propose renaming stagedOld to stagedNew, then apply it.', [
      () => ({
        toolCall: {
          name: 'lsp_rename',
          input: { file: 'src/chatStaged.ts', line: 1, symbol: 'stagedOld', new_name: 'stagedNew', stage: true },
        },
      }),
      (request) => {
        const editId = /edit_id "(edit_\d+)"/.exec(toolResults(request).at(-1) ?? '')?.[1] ?? 'missing';
        return { toolCall: { name: 'resolve', input: { edit_id: editId, action: 'accept' } } };
      },
      () => ({ text: 'Done.' }),
    ]);
    const staging = await allowOnceInChat();
    assert.match(staging.containerLabel ?? '', /^Chat Confirmation Dialog Stage a rename for review\? /);
    assert.match(
      staging.containerText ?? '',
      /Stage the rename "stagedOld" → "stagedNew": 3 edits in 2 files, starting at src\/chatStaged\.ts:1, for review: nothing is written now/,
    );
    const [, afterStage] = await model.waitForRequests(2, 90_000);
    const proposed = toolResults(afterStage)[0];
    const editId = /staged as (edit_\d+):/.exec(proposed)?.[1];
    assert.ok(editId, proposed);
    assert.match(proposed, /^\(proposed\) 3 replacements in 2 files — rename "stagedOld" → "stagedNew"\./);
    assert.equal(fs.readFileSync(path.join(root, 'src/chatStaged.ts'), 'utf8'), 'export const stagedOld = 1;\n');

    const resolving = await allowOnceInChat();
    assert.match(resolving.containerLabel ?? '', new RegExp(`^Chat Confirmation Dialog Accept ${editId}\\? `));
    const confirmation = resolving.containerText ?? '';
    assert.match(
      confirmation,
      new RegExp(
        `Accept ${editId} — rename "stagedOld" → "stagedNew", staged by lsp_rename: write 3 replacements in 2 files in one undoable edit, then save those files:`,
      ),
    );
    assert.match(confirmation, /src\/chatStaged\.ts \(1\)/);
    assert.match(confirmation, /src\/chatStagedUser\.ts \(2\)/);

    const requests = await model.waitForRequests(3, 90_000);
    assert.equal(
      toolResults(requests[2]).at(-1),
      `Accepted ${editId} (rename "stagedOld" → "stagedNew"): wrote 3 replacements in 2 files; all saved.\nsrc/chatStaged.ts: 1 replacement\nsrc/chatStagedUser.ts: 2 replacements`,
    );
    assert.equal(fs.readFileSync(path.join(root, 'src/chatStaged.ts'), 'utf8'), 'export const stagedNew = 1;\n');
    assert.match(
      fs.readFileSync(path.join(root, 'src/chatStagedUser.ts'), 'utf8'),
      /export const twice = stagedNew \* 2;/,
    );
    // The staged change belongs to the chat session that staged it.
    const staged = await waitUntil('the staging in the log', () => {
      const lines = logLines(logUri, `[staging.stage] ${editId} by lsp_rename`);
      return lines.length > 0 ? lines : undefined;
    });
    assert.match(staged[0], /conversation=vscode-chat-session:\/\/local\/\S+:/);
  });

  it('a write tool asks with exactly what will happen, runs once allowed, and the result reaches the model', async () => {
    const { logUri } = await activateExtension();
    const model = await scriptedModel();
    await sendChat(model, 'Rename chatOld to chatNew everywhere.', [
      () => ({
        toolCall: {
          name: 'lsp_rename',
          input: { file: 'src/chatRename.ts', line: 1, symbol: 'chatOld', new_name: 'chatNew' },
        },
      }),
      () => ({ text: 'Renamed.' }),
    ]);
    await model.waitForRequests(1, 90_000);
    const clicked = await browser({
      op: 'click',
      selector: '.chat-confirmation-widget-container .monaco-button',
      text: '^Allow',
      container: '.chat-confirmation-widget-container',
      timeoutMs: 60_000,
    });
    assert.match(clicked.text ?? '', /^Allow/);
    // The dialog's accessible label starts with its title; its text is our message.
    assert.match(clicked.containerLabel ?? '', /^Chat Confirmation Dialog Rename symbol across the workspace\? /);
    const confirmation = clicked.containerText ?? '';
    assert.match(
      confirmation,
      /Rename "chatOld" → "chatNew": 3 edits in 2 files, starting at src\/chatRename\.ts:1, then save those files:/,
    );
    assert.match(confirmation, /src\/chatRename\.ts \(1\)/);
    assert.match(confirmation, /src\/chatRenameUser\.ts \(2\)/);

    const requests = await model.waitForRequests(2, 90_000);
    assert.deepEqual(toolResults(requests[1]), [
      'Renamed "chatOld" → "chatNew": 3 edits in 2 files; all saved.\nsrc/chatRename.ts: 1 edit\nsrc/chatRenameUser.ts: 2 edits',
    ]);
    assert.equal(
      fs.readFileSync(path.join(workspaceRoot(), 'src/chatRename.ts'), 'utf8'),
      'export const chatNew = 1;\n',
    );

    // The conversation is the chat session, taken from the invocation token.
    const invocations = await waitUntil('the rename invocation in the log', () => {
      // This test's own call: other suites invoke lsp_rename before it in the same editor.
      const lines = logLines(logUri, '[tool.invoke] lsp_rename').filter((line) => line.includes('"symbol":"chatOld"'));
      return lines.length > 0 ? lines : undefined;
    });
    assert.match(invocations[0], /conversation=vscode-chat-session:\/\/local\/\S+ /);
  });

  it('the plan the human allowed is the plan written: a file changed while the confirmation is shown is not written, and the model is told which', async () => {
    const file = 'src/chatPlanned.txt';
    const absolute = path.join(workspaceRoot(), file);
    fs.writeFileSync(absolute, 'one\ntwo\n');
    const model = await scriptedModel();
    await sendChat(model, 'Make two upper case.', [
      () => ({ toolCall: { name: 'edit', input: { path: file, old_string: 'two', new_string: 'TWO' } } }),
      () => ({ text: 'Done.' }),
    ]);
    await model.waitForRequests(1, 90_000);
    // The confirmation shows the planned change; while the human reads it, another program rewrites the file.
    await browser({
      op: 'text',
      selector: '.chat-confirmation-widget-container',
      text: 'Edit `?src/chatPlanned\\.txt',
      timeoutMs: 60_000,
    });
    fs.writeFileSync(absolute, 'one (theirs)\ntwo\n');
    await allowOnceInChat();
    const requests = await model.waitForRequests(2, 90_000);
    assert.deepEqual(toolResults(requests[1]), [
      'Error: src/chatPlanned.txt changed since this change was planned; nothing was written. Read it again and redo the change.',
    ]);
    assert.equal(fs.readFileSync(absolute, 'utf8'), 'one (theirs)\ntwo\n');
  });

  it("a write call our schema refuses is stopped by the chat's own validation, without asking the human", async () => {
    const model = await scriptedModel();
    await sendChat(model, 'Rename something.', [
      () => ({ toolCall: { name: 'lsp_rename', input: { file: 'src/rename.ts', line: 1, symbol: 'oldName' } } }),
      () => ({ text: 'I forgot the new name.' }),
    ]);
    const requests = await model.waitForRequests(2, 90_000);
    // Measured in 1.139: the chat validates a call against the tool's inputSchema before it asks or invokes.
    assert.deepEqual(toolResults(requests[1]), [
      "ERROR: Your input to the tool was invalid (must have required property 'new_name')\nPlease check your input and try again.",
    ]);
    assert.equal(
      (await browser({ op: 'count', selector: '.chat-confirmation-widget-container .monaco-button' })).count,
      0,
    );
  });

  it('a tool is offered to the model only while its resource is wired', async () => {
    const model = await scriptedModel();
    await setLspEnabled(false);
    await sendChat(model, 'What tools do you have?', [() => ({ text: 'Some.' })]);
    const [without] = await model.waitForRequests(1, 90_000);
    assert.ok(without.toolNames.length > 0, 'the chat offered no tools at all');
    assert.deepEqual(offeredOurs(without.toolNames), notLsp);

    await setLspEnabled(true);
    await sendChat(model, 'And now?', [() => ({ text: 'More.' })]);
    const [withLsp] = await model.waitForRequests(1, 90_000);
    assert.deepEqual(offeredOurs(withLsp.toolNames), [...ours].sort());
    assert.equal(withLsp.toolNames.length, without.toolNames.length + lspTools.length);
  });

  it(`the ${PLAN_AGENT_NAME} agent is offered exactly the read tier`, async () => {
    const model = await scriptedModel();
    await sendChat(model, 'Plan a change.', [() => ({ text: 'A plan.' })], PLAN_AGENT_NAME);
    const [request] = await model.waitForRequests(1, 90_000);
    assert.deepEqual(offeredOurs(request.toolNames), readTier);
    // Besides the agent file's tools, the chat always adds its own session_store_sql (measured in 1.139).
    const others = request.toolNames.filter((name) => !ours.has(name));
    assert.deepEqual(others, ['session_store_sql'], `offered: ${request.toolNames.join(', ')}`);
  });
});
