import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { TOOL_CATALOG } from '../../src/registry/catalog';
import { PLAN_AGENT_NAME } from '../../src/registry/manifest';
import { browser, hasBrowser } from './support/browser';
import { chatReady, scriptedModel, sendChat, toolResults } from './support/chat';
import { activateExtension, lineOf, setLspEnabled, waitUntil, workspaceRoot } from './support/tools';

const ours = new Set<string>(TOOL_CATALOG.map((tool) => tool.name));
const readTier = TOOL_CATALOG.filter((tool) => tool.tier === 'read').map((tool) => tool.name).sort();

function offeredOurs(toolNames: readonly string[]): string[] {
  return toolNames.filter((name) => ours.has(name)).sort();
}

/** Lines of our log channel's file that contain `text`. */
function logLines(logDir: vscode.Uri, text: string): string[] {
  if (!fs.existsSync(logDir.fsPath)) return [];
  return fs
    .readdirSync(logDir.fsPath)
    .filter((name) => name.endsWith('.log'))
    .flatMap((name) => fs.readFileSync(path.join(logDir.fsPath, name), 'utf8').split('\n'))
    .filter((line) => line.includes(text));
}


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
      () => ({ toolCall: { name: 'lsp', input: { action: 'definition', file: 'src/main.ts', line, symbol: 'FriendlyGreeter' } } }),
      () => ({ text: 'It is defined in src/greeter.ts.' }),
    ]);
    const requests = await model.waitForRequests(2, 90_000);
    assert.deepEqual(toolResults(requests[1]), [
      `1 definition of "FriendlyGreeter" in 1 file:\nsrc/greeter.ts:${lineOf('src/greeter.ts', 'class FriendlyGreeter')}: export class FriendlyGreeter implements Greeter {`,
    ]);
  });

  it('a write tool asks with exactly what will happen, runs once allowed, and the result reaches the model', async () => {
    const { logUri } = await activateExtension();
    const model = await scriptedModel();
    await sendChat(model, 'Rename chatOld to chatNew everywhere.', [
      () => ({ toolCall: { name: 'lsp_rename', input: { file: 'src/chatRename.ts', line: 1, symbol: 'chatOld', new_name: 'chatNew' } } }),
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
    assert.match(confirmation, /Rename "chatOld" → "chatNew": 3 edits in 2 files, starting at src\/chatRename\.ts:1, then save those files:/);
    assert.match(confirmation, /src\/chatRename\.ts \(1\)/);
    assert.match(confirmation, /src\/chatRenameUser\.ts \(2\)/);

    const requests = await model.waitForRequests(2, 90_000);
    assert.deepEqual(toolResults(requests[1]), [
      'Renamed "chatOld" → "chatNew": 3 edits in 2 files; all saved.\nsrc/chatRename.ts: 1 edit\nsrc/chatRenameUser.ts: 2 edits',
    ]);
    assert.equal(fs.readFileSync(path.join(workspaceRoot(), 'src/chatRename.ts'), 'utf8'), 'export const chatNew = 1;\n');

    // The conversation is the chat session, taken from the invocation token.
    const invocations = await waitUntil('the rename invocation in the log', () => {
      const lines = logLines(logUri, '[tool.invoke] lsp_rename');
      return lines.length > 0 ? lines : undefined;
    });
    assert.match(invocations[0], /conversation=vscode-chat-session:\/\/local\/\S+ /);
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
    assert.equal((await browser({ op: 'count', selector: '.chat-confirmation-widget-container .monaco-button' })).count, 0);
  });

  it('a tool is offered to the model only while its resource is wired', async () => {
    const model = await scriptedModel();
    await setLspEnabled(false);
    await sendChat(model, 'What tools do you have?', [() => ({ text: 'Some.' })]);
    const [without] = await model.waitForRequests(1, 90_000);
    assert.ok(without.toolNames.length > 0, 'the chat offered no tools at all');
    assert.deepEqual(offeredOurs(without.toolNames), []);

    await setLspEnabled(true);
    await sendChat(model, 'And now?', [() => ({ text: 'More.' })]);
    const [withLsp] = await model.waitForRequests(1, 90_000);
    assert.deepEqual(offeredOurs(withLsp.toolNames), [...ours].sort());
    assert.equal(withLsp.toolNames.length, without.toolNames.length + ours.size);
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
