/**
 * Vibe mode in the real editor: workers run on the scripted model (a stand-in for a language model,
 * registered by the test extension through registerLanguageModelChatProvider) and call our real
 * tools through vscode.lm.invokeTool; a write call waits for the human's click on the question card.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { TOOL_CATALOG } from '../../src/tools/declarations';
import type { RecordedRequest, ScriptedModelApi } from '../scripted-model/api';
import { browser, hasBrowser } from './support/browser';
import { answerCard, CARD_FRAMES, setVibe, workerIdOf } from './support/vibe';
import { chatReady, scriptedModel, sendChat, toolResults } from './support/chat';
import { invokeText, setSetting, waitUntilAsync, workspaceRoot } from './support/tools';

const VIBE_TOOLS = TOOL_CATALOG.filter((tool) => tool.resource === 'vibe')
  .map((tool) => tool.name)
  .sort();
const WRITE_OR_EXEC = new Set<string>(TOOL_CATALOG.filter((tool) => tool.tier !== 'read').map((tool) => tool.name));

describe('vibe mode', function () {
  this.timeout(120_000);
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
  });

  it('spawn → the worker calls a real tool of ours → wait returns its final text; list shows it', async () => {
    model.reset();
    model.script([
      () => ({ toolCall: { name: 'lsp', input: { action: 'symbols', file: 'src/format.ts' } } }),
      (request) => ({ text: `Found: ${toolResults(request)[0] ?? 'no tool result'}` }),
    ]);
    const spawned = await invokeText('vibe_spawn', {
      brief: 'Outline src/format.ts.',
      label: 'exports',
      access: 'read',
    });
    assert.match(
      spawned,
      /^Started worker w\d+ "exports" \(scripted\/scripted-1 \(fast\), access read\)\. It runs in the background/,
    );
    const id = workerIdOf(spawned);
    const done = await invokeText('vibe_wait', { worker_id: id, timeout_seconds: 60 });
    assert.match(
      done,
      new RegExp(`^${id} "exports" done after \\d+ s:\\nFound: 1 symbol in src/format\\.ts[\\s\\S]*formatCount`),
    );
    const requests = model.requests;
    assert.equal(requests.length, 2);
    assert.equal(requests[0].modelId, 'scripted-1');
    assert.match(toolResults(requests[1])[0], /formatCount/);
    assert.match(
      await invokeText('vibe_list', {}),
      new RegExp(
        `${id} "exports" · fast \\(scripted/scripted-1 \\(fast\\)\\) · access read · done · \\d+ s · last result: Found:`,
      ),
    );
  });

  it('a read-only worker is offered no write or exec tool; a good worker runs on the good model', async () => {
    model.reset();
    model.script([() => ({ text: 'Reviewed.' })]);
    const id = workerIdOf(
      await invokeText('vibe_spawn', { brief: 'Review the plan.', label: 'reviewer', tier: 'good', access: 'read' }),
    );
    await invokeText('vibe_wait', { worker_id: id, timeout_seconds: 60 });
    const [request] = model.requests as RecordedRequest[];
    assert.equal(request.modelId, 'scripted-2');
    assert.ok(request.toolNames.includes('lsp'), `read tools are offered: ${request.toolNames.join(', ')}`);
    assert.deepEqual(
      request.toolNames.filter((name) => WRITE_OR_EXEC.has(name) || name.startsWith('vibe_')),
      [],
    );
  });

  it('send steers a running worker at its next tool boundary (here: after its question on the card is answered); kill stops one', async function () {
    if (!hasBrowser()) this.skip();
    model.reset();
    model.script([
      () => ({
        toolCall: {
          name: 'ask_user',
          input: { question: 'Which greeting should the worker use?', options: [{ label: 'hello' }, { label: 'hi' }] },
        },
      }),
      (request) => ({
        text: `${toolResults(request)[0]} Then told: ${request.messages
          .flatMap((message) => message.parts)
          .filter((part) => part.kind === 'text' && part.text.includes('Message from the agent'))
          .map((part) => (part as { text: string }).text.split('\n')[1])
          .join('; ')}`,
      }),
    ]);
    const id = workerIdOf(
      await invokeText('vibe_spawn', {
        brief: 'Ask which greeting to use, then greet.',
        label: 'steered',
        access: 'read',
      }),
    );
    await browser({ op: 'text', selector: '.card.active .question', frames: CARD_FRAMES, timeoutMs: 30_000 });
    assert.match(
      await invokeText('vibe_send', { worker_id: id, message: 'also sign with your id' }),
      new RegExp(`^Message queued for ${id} "steered": it is delivered at the worker's next tool boundary\\.$`),
    );
    await browser({ op: 'click', selector: '.card.active .option', text: 'hi', frames: CARD_FRAMES });
    await browser({ op: 'click', selector: '.card.active .submit', frames: CARD_FRAMES });
    const done = await invokeText('vibe_wait', { worker_id: id, timeout_seconds: 60 });
    assert.match(done, /The user answered question #\d+: chose "hi"\. Then told: also sign with your id$/);

    model.reset();
    model.script([() => ({ toolCall: { name: 'ask_user', input: { question: 'A question nobody answers' } } })]);
    const stuck = workerIdOf(
      await invokeText('vibe_spawn', { brief: 'Ask and wait.', label: 'to kill', access: 'read' }),
    );
    await browser({ op: 'text', selector: '.card.active .question', frames: CARD_FRAMES, timeoutMs: 30_000 });
    assert.match(
      await invokeText('vibe_wait', { worker_id: stuck, timeout_seconds: 1 }),
      new RegExp(`^${stuck} "to kill" is still running after 1 s of waiting`),
    );
    assert.match(
      await invokeText('vibe_kill', { worker_id: stuck }),
      new RegExp(`^${stuck} "to kill" was stopped after \\d+ s\\.$`),
    );
    assert.match(
      await invokeText('vibe_wait', { worker_id: stuck, timeout_seconds: 5 }),
      new RegExp(`^${stuck} "to kill" killed after \\d+ s:\\nstopped by vibe_kill$`),
    );
    // Its question is withdrawn with it.
    const deadline = Date.now() + 10_000;
    while (
      (await browser({ op: 'count', selector: '.card', frames: CARD_FRAMES })).count !== 0 &&
      Date.now() < deadline
    )
      await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal((await browser({ op: 'count', selector: '.card', frames: CARD_FRAMES })).count, 0);
    // An unknown id lists this conversation's workers (earlier suites' workers of other conversations are not named).
    assert.match(
      await invokeText('vibe_kill', { worker_id: 'w999' }),
      new RegExp(`^Error: No worker "w999"; workers: (w\\d+, )*${id}[,.]`),
    );
  });

  it('a write call waits for the human: Allow on the card runs it, Deny tells the worker', async function () {
    if (!hasBrowser()) this.skip();
    const file = path.join(workspaceRoot(), 'vibe-written.txt');
    fs.rmSync(file, { force: true });
    for (const choice of ['Allow', 'Deny']) {
      model.reset();
      model.script([
        () => ({
          toolCall: { name: 'write', input: { path: 'vibe-written.txt', content: `written after ${choice}\n` } },
        }),
        (request) => ({ text: toolResults(request)[0].split('\n')[0] }),
      ]);
      const id = workerIdOf(
        await invokeText('vibe_spawn', {
          brief: 'Write the file.',
          label: `writer ${choice}`,
          access: 'write',
          isolation: 'none',
        }),
      );
      // This worker's card (an earlier one may still be leaving the screen).
      const card = await browser({
        op: 'text',
        selector: '.card.active',
        text: `Worker "writer ${choice}"`,
        frames: CARD_FRAMES,
        timeoutMs: 30_000,
      });
      assert.match(card.text ?? '', new RegExp(`Worker "writer ${choice}" \\(${id}\\) wants to run write`));
      assert.match(card.text ?? '', /vibe-written\.txt/);
      assert.match(await invokeText('vibe_list', {}), new RegExp(`${id} "writer ${choice}" .* · awaiting approval`));
      await browser({ op: 'click', selector: '.card.active .option', text: choice, frames: CARD_FRAMES });
      await browser({ op: 'click', selector: '.card.active .submit', frames: CARD_FRAMES });
      const done = await invokeText('vibe_wait', { worker_id: id, timeout_seconds: 60 });
      if (choice === 'Allow') {
        assert.equal(fs.readFileSync(file, 'utf8'), 'written after Allow\n');
        assert.doesNotMatch(done, /denied/);
      } else {
        assert.match(done, /The human denied this write call/);
        assert.equal(fs.readFileSync(file, 'utf8'), 'written after Allow\n');
      }
    }
  });

  it("Allow this worker's writes: its later writes run without a card, each listed in Agent Changes; a write of a file later calls execute is still asked", async function () {
    if (!hasBrowser()) this.skip();
    const files = ['vibe-allowed-1.txt', 'vibe-allowed-2.txt'];
    const executed = 'vibe-allowed/conftest.py';
    for (const file of [...files, executed]) fs.rmSync(path.join(workspaceRoot(), file), { force: true });
    model.reset();
    model.script([
      () => ({ toolCall: { name: 'write', input: { path: files[0], content: 'first\n' } } }),
      () => ({ toolCall: { name: 'write', input: { path: files[1], content: 'second\n' } } }),
      () => ({ toolCall: { name: 'write', input: { path: executed, content: 'import os\n' } } }),
      (request) => ({ text: toolResults(request).join(' | ') }),
    ]);
    const id = workerIdOf(
      await invokeText('vibe_spawn', {
        brief: 'Write two files.',
        label: 'trusted writer',
        access: 'write',
        isolation: 'none',
      }),
    );
    const card = await browser({
      op: 'text',
      selector: '.card.active',
      text: 'Worker "trusted writer"',
      frames: CARD_FRAMES,
      timeoutMs: 30_000,
    });
    assert.match(card.text ?? '', /Allow once[\s\S]*Allow this worker's writes[\s\S]*Deny/);
    await browser({
      op: 'click',
      selector: '.card.active .option',
      text: "Allow this worker's writes",
      frames: CARD_FRAMES,
    });
    await browser({ op: 'click', selector: '.card.active .submit', frames: CARD_FRAMES });
    // pytest would run it: asked again, and this time without the option to allow the worker's writes.
    const again = await answerCard([/wants to run write/, /conftest\.py/, /pytest runs it/], 'Deny');
    assert.doesNotMatch(again, /Allow this worker's writes/);
    const done = await invokeText('vibe_wait', { worker_id: id, timeout_seconds: 60 });
    assert.match(done, /the human denied this write call/i);
    assert.equal(fs.existsSync(path.join(workspaceRoot(), executed)), false);
    assert.equal(
      fs.readFileSync(path.join(workspaceRoot(), files[1]), 'utf8'),
      'second\n',
      'the second write ran without a card',
    );
    // Both writes are the worker's in Agent Changes.
    await vscode.commands.executeCommand('liveTools.agentChanges.focus');
    // (The view refreshes a moment after the record changes.)
    await waitUntilAsync('the worker in Agent Changes with both files', async () => {
      const row = await browser({ op: 'text', selector: `.monaco-list-row[aria-label^='Worker "trusted writer"']` });
      return /2 files · 2 changes/.test(row.text ?? '') ? true : undefined;
    });
    for (const file of files) fs.rmSync(path.join(workspaceRoot(), file), { force: true });
  });

  it('a worker and another caller edit one file at the same moment: both land in order, or one is refused naming it; nothing is lost', async function () {
    if (!hasBrowser()) this.skip();
    const file = 'vibe-race.txt';
    const absolute = path.join(workspaceRoot(), file);
    fs.writeFileSync(absolute, 'a = 1\nb = 2\n');
    model.reset();
    model.script([
      () => ({ toolCall: { name: 'edit', input: { path: file, old_string: 'a = 1', new_string: 'a = 10' } } }),
      (request) => ({ text: toolResults(request).join(' | ') }),
    ]);
    const id = workerIdOf(
      await invokeText('vibe_spawn', { brief: 'Edit a.', label: 'racer', access: 'write', isolation: 'none' }),
    );
    // The worker's edit is planned and waits on the card; the other caller's edit goes at the moment it is allowed.
    await browser({
      op: 'text',
      selector: '.card.active',
      text: 'Worker "racer"',
      frames: CARD_FRAMES,
      timeoutMs: 30_000,
    });
    await browser({ op: 'click', selector: '.card.active .option', text: '^\\d*Allow once', frames: CARD_FRAMES });
    const [, other] = await Promise.all([
      browser({ op: 'click', selector: '.card.active .submit', frames: CARD_FRAMES }),
      invokeText('edit', { path: file, old_string: 'b = 2', new_string: 'b = 20' }),
    ]);
    const worker = await invokeText('vibe_wait', { worker_id: id, timeout_seconds: 60 });
    const refusal = /Error: vibe-race\.txt changed since this change was planned; nothing was written\./;
    const workerLanded = /Edited vibe-race\.txt/.test(worker);
    const otherLanded = /^Edited vibe-race\.txt/.test(other);
    assert.ok(workerLanded || refusal.test(worker), worker);
    assert.ok(otherLanded || refusal.test(other), other);
    assert.ok(workerLanded || otherLanded, `neither landed:\n${worker}\n${other}`);
    assert.equal(
      fs.readFileSync(absolute, 'utf8'),
      `a = ${workerLanded ? 10 : 1}\nb = ${otherLanded ? 20 : 2}\n`,
      'each change that says it landed is in the file, and no other',
    );
    fs.rmSync(absolute, { force: true });
  });

  it('vibe mode off: the tools refuse and the chat does not offer them; on: offered', async () => {
    await chatReady();
    await setVibe(false);
    assert.match(
      await invokeText('vibe_spawn', { brief: 'x', label: 'x' }),
      /^Refused: vibe_spawn needs vibe mode \(background workers\), which is not available in this window: vibe mode is off/,
    );
    await sendChat(model, 'What tools do you have?', [() => ({ text: 'Some.' })]);
    const [off] = await model.waitForRequests(1, 90_000);
    assert.deepEqual(
      off.toolNames.filter((name) => name.startsWith('vibe_')),
      [],
    );
    await setVibe(true);
    await sendChat(model, 'And now?', [() => ({ text: 'More.' })]);
    const [on] = await model.waitForRequests(1, 90_000);
    assert.deepEqual(on.toolNames.filter((name) => name.startsWith('vibe_')).sort(), VIBE_TOOLS);
  });
});
