/**
 * Tiers and approvals hold for every caller, in the real editor: the Plan agent cannot grant more
 * than read, vibe_spawn says what it grants, a cell's tool() outside a chat and a worker's calls are
 * asked on the question card (the human clicks Allow or Deny there), a cell never reaches eval or the
 * workers, a tool of another extension counts as exec whatever its tags claim, workers and staged
 * edits belong to their conversation, and a workspace cannot choose what the extension runs.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { TOOL_CATALOG } from '../../src/tools/declarations';
import { PLAN_AGENT_NAME } from '../../src/platform/manifest';
import type { RecordedRequest, ScriptedModelApi, ScriptedReply } from '../scripted-model/api';
import { browser, hasBrowser } from './support/browser';
import { answerCard, CARD_FRAMES, setVibe, workerIdOf } from './support/vibe';
import { allowOnceInChat, chatReady, scriptedModel, sendChat, toolResults } from './support/chat';
import { activateExtension, invokeText, setSetting, waitUntilAsync, workspaceRoot } from './support/tools';

const READ_TIER = new Set<string>(TOOL_CATALOG.filter((tool) => tool.tier === 'read').map((tool) => tool.name));

const python = (code: string, extra: object = {}) =>
  invokeText('eval', { code, description: 'trust test cell', ...extra });

/** Chat confirmation: waits for it, returns its text, allows it once. */
async function allowInChat(): Promise<string> {
  const opened = await allowOnceInChat();
  return `${opened.containerLabel ?? ''} ${opened.containerText ?? ''}`;
}

/** A request of a vibe worker (its brief opens with our instructions), not of the chat. */
function isWorkerRequest(request: RecordedRequest): boolean {
  return request.messages.some((message) =>
    message.parts.some((part) => part.kind === 'text' && part.text.includes('You are a background worker')),
  );
}

describe('trust: tiers and approvals hold for every caller', function () {
  this.timeout(180_000);
  let model: ScriptedModelApi;

  before(async function () {
    if (!hasBrowser()) this.skip();
    await activateExtension();
    await chatReady();
    model = await scriptedModel();
    await setSetting('liveTools.vibe.fastModel', 'scripted-1');
    await setVibe(true);
  });

  after(async () => {
    await setVibe(false);
    await setSetting('liveTools.vibe.fastModel', undefined);
  });

  it(`the ${PLAN_AGENT_NAME} agent's request carries no way to grant write or exec`, async () => {
    await sendChat(model, 'Plan with helpers.', [() => ({ text: 'A plan.' })], PLAN_AGENT_NAME);
    const [request] = await model.waitForRequests(1, 90_000);
    const ours = request.tools.filter((tool) => TOOL_CATALOG.some((declaration) => declaration.name === tool.name));
    assert.ok(
      ours.some((tool) => tool.name === 'vibe_spawn_readonly'),
      `offered: ${request.toolNames.join(', ')}`,
    );
    assert.deepEqual(
      ours.filter((tool) => !READ_TIER.has(tool.name)).map((tool) => tool.name),
      [],
    );
    // No schema the Plan agent is sent names an access (or any value) above read.
    const granting = ours.filter((tool) => /"(write|exec)"/.test(JSON.stringify(tool.inputSchema)));
    assert.deepEqual(
      granting.map((tool) => tool.name),
      [],
    );
  });

  it('vibe_spawn asks the human which access it grants unless it is read; the answer names it', async () => {
    // The chat and the workers it starts share the scripted model: each turn answers whichever asks.
    const turn = (request: RecordedRequest): ScriptedReply => {
      if (isWorkerRequest(request)) return { text: 'hello' };
      const done = toolResults(request).length;
      if (done === 0)
        return { toolCall: { name: 'vibe_spawn', input: { brief: 'Say hello.', label: 'writer', access: 'write' } } };
      if (done === 1) return { toolCall: { name: 'vibe_spawn', input: { brief: 'Say hello.', label: 'reader' } } };
      return { text: 'Started.' };
    };
    await sendChat(
      model,
      'Start a writer.',
      Array.from({ length: 8 }, () => turn),
    );
    const confirmation = await allowInChat();
    assert.match(confirmation, /Start worker "writer" with write access\?/);
    assert.match(confirmation, /it may edit files in the workspace/);
    const chat = await waitUntilAsync(
      'the chat to get both results',
      async () => model.requests.find((request) => !isWorkerRequest(request) && toolResults(request).length === 2),
      90_000,
    );
    const results = toolResults(chat);
    assert.match(results[0], /^Started worker w\d+ "writer" .*access write\)/);
    // The read worker needed no confirmation: the chat went on by itself.
    assert.match(results[1], /^Started worker w\d+ "reader" .*access read\)/);
  });

  it("a cell's tool() outside a chat is asked on the card with the tool's own confirmation; Deny refuses, Allow writes; eval and workers are never reachable", async () => {
    const file = path.join(workspaceRoot(), '.vscode', 'trust-task.json');
    fs.rmSync(file, { force: true });
    const code =
      'try:\n    print(tool("write", {"path": ".vscode/trust-task.json", "content": "{}\\n"}))\nexcept Exception as error:\n    print("raised:", error)';
    const denied = python(code);
    const card = await answerCard(
      [
        /A Python cell of another extension wants to run write: Create file\?/,
        /\.vscode\/trust-task\.json/,
        /can execute/,
      ],
      'Deny',
      // The extension's own kind of card: its mark and title, and whom it asks for.
      async () => {
        assert.equal(
          (await browser({ op: 'count', selector: '.card.active.approval[data-kind="approval"]', frames: CARD_FRAMES }))
            .count,
          1,
        );
      },
    );
    assert.match(card, /^#\d+\s*Approval\s*for A Python cell of another extension/i, card);
    assert.match(
      card,
      /^A Python cell of another extension wants to run write: Create file\?$/m,
      'the caller label is one line',
    );
    assert.match(await denied, /raised: .*the human denied this write call/);
    assert.equal(fs.existsSync(file), false, 'a denied write wrote the file');

    const allowed = python(code);
    await answerCard([/wants to run write/], 'Allow');
    assert.match(await allowed, /Created \.vscode\/trust-task\.json/);
    assert.equal(fs.readFileSync(file, 'utf8'), '{}\n');
    fs.rmSync(file, { force: true });

    for (const name of ['eval', 'vibe_spawn', 'vibe_spawn_readonly', 'vibe_list']) {
      const answer = await python(
        `try:\n    tool("${name}", {"brief": "x", "label": "x", "code": "1", "description": "x"})\nexcept Exception as error:\n    print("raised:", error)`,
      );
      assert.match(answer, /raised: Refused: A cell cannot/, `${name}: ${answer}`);
    }
  });

  it("a worker is a caller of its own: its calls and its cells' calls are asked on the card, its cap is its access, its kernel is its own", async () => {
    await python('marker = "the window kernel"', { reset: true });
    model.reset();
    model.script([
      () => ({
        toolCall: {
          name: 'eval',
          input: {
            code: 'try:\n    print(marker)\nexcept NameError:\n    print("no marker here")\nprint(tool("write", {"path": "trust-worker.txt", "content": "x\\n"}))',
            description: 'worker cell',
          },
        },
      }),
      (request) => ({ text: toolResults(request)[0] ?? 'no result' }),
    ]);
    const id = workerIdOf(
      await invokeText('vibe_spawn', {
        brief: 'Run a cell.',
        label: 'cell\nrunner',
        access: 'exec',
        isolation: 'none',
      }),
    );
    await answerCard(
      [new RegExp(`Worker "cell runner" \\(${id}\\) wants to run eval: Run Python: worker cell\\?`)],
      'Allow',
    );
    await answerCard(
      [new RegExp(`A Python cell of Worker "cell runner" \\(${id}\\) wants to run write`), /trust-worker\.txt/],
      'Deny',
    );
    const done = await invokeText('vibe_wait', { worker_id: id, timeout_seconds: 60 });
    assert.match(done, /no marker here/, 'the worker ran in the window kernel');
    assert.match(done, /the human denied this write call/);
    assert.equal(fs.existsSync(path.join(workspaceRoot(), 'trust-worker.txt')), false);
    // The worker's kernel and the window's: both stopped (a later suite counts kernel processes).
    assert.ok((await vscode.commands.executeCommand<number>('liveTools.stopKernels')) >= 2);
  });

  it("another extension's tool tagged as our read tier counts as exec: a read worker is not offered it and cannot call it", async () => {
    model.reset();
    model.script([
      () => ({ toolCall: { name: 'scripted_tagged_read', input: { note: 'from a read worker' } } }),
      (request) => ({ text: toolResults(request)[0] ?? '' }),
    ]);
    const id = workerIdOf(await invokeText('vibe_spawn_readonly', { brief: 'Call the tagged tool.', label: 'reader' }));
    const done = await invokeText('vibe_wait', { worker_id: id, timeout_seconds: 60 });
    assert.equal(
      model.requests[0].toolNames.includes('scripted_tagged_read'),
      false,
      `offered: ${model.requests[0].toolNames.join(', ')}`,
    );
    assert.match(done, /Refused: scripted_tagged_read belongs to another extension and counts as exec/);
    assert.doesNotMatch(done, /ran: from a read worker/);
  });

  it('a read worker that names a write tool it was not offered is refused by the relay, without asking anyone; nothing is written', async () => {
    const file = path.join(workspaceRoot(), 'trust-read-worker.txt');
    fs.rmSync(file, { force: true });
    model.reset();
    model.script([
      () => ({ toolCall: { name: 'write', input: { path: 'trust-read-worker.txt', content: 'x\n' } } }),
      (request) => ({ text: toolResults(request)[0] ?? '' }),
    ]);
    const id = workerIdOf(await invokeText('vibe_spawn_readonly', { brief: 'Write a file.', label: 'reader' }));
    const done = await invokeText('vibe_wait', { worker_id: id, timeout_seconds: 60 });
    assert.equal(
      model.requests[0].toolNames.includes('write'),
      false,
      `offered: ${model.requests[0].toolNames.join(', ')}`,
    );
    assert.match(
      done,
      new RegExp(`Refused: write is a write tool, and Worker "reader" \\(${id}\\) may use read tools only`),
    );
    assert.equal(fs.existsSync(file), false, 'a read worker wrote a file');
  });

  it('workers belong to the conversation that spawned them; so do staged edits', async () => {
    model.reset();
    model.script([() => ({ text: 'idle' })]);
    const id = workerIdOf(await invokeText('vibe_spawn_readonly', { brief: 'Idle.', label: 'owned' }));
    await invokeText('vibe_wait', { worker_id: id, timeout_seconds: 30 });
    fs.writeFileSync(path.join(workspaceRoot(), 'src/trustStaged.ts'), 'export const trusted = 1;\n');
    const staged = await invokeText('ast_edit', {
      pattern: 'export const trusted = 1',
      rewrite: 'export const trusted = 2',
      path: 'src/trustStaged.ts',
    });
    const editId = /edit_\d+/.exec(staged)?.[0] ?? 'missing';
    await sendChat(model, 'Steer the worker, then accept the edit.', [
      () => ({ toolCall: { name: 'vibe_send', input: { worker_id: id, message: 'hello from another conversation' } } }),
      () => ({ toolCall: { name: 'resolve', input: { edit_id: editId, action: 'accept' } } }),
      () => ({ text: 'Done.' }),
    ]);
    await allowInChat();
    const requests = await model.waitForRequests(3, 90_000);
    const results = toolResults(requests[2]);
    assert.match(results[0], new RegExp(`^Error: ${id} was started in another conversation \\(window\\)`));
    assert.match(
      results[1],
      new RegExp(`^Error: ${editId} was staged in another conversation \\(window\\); nothing was written`),
    );
    assert.equal(
      fs.readFileSync(path.join(workspaceRoot(), 'src/trustStaged.ts'), 'utf8'),
      'export const trusted = 1;\n',
    );
    assert.match(
      await invokeText('resolve', { edit_id: editId, action: 'discard' }),
      new RegExp(`Discarded ${editId}`),
    );
  });

  it('a workspace cannot choose what runs: its value of liveTools.eval.python is ignored', async () => {
    const root = workspaceRoot();
    const trap = path.join(root, 'settings-trap');
    const marker = path.join(trap, 'ran');
    fs.mkdirSync(trap, { recursive: true });
    fs.writeFileSync(path.join(trap, 'python'), `#!/bin/sh\ntouch '${marker}'\nexec /usr/bin/python3 "$@"\n`, {
      mode: 0o755,
    });
    const settingsFile = path.join(root, '.vscode', 'settings.json');
    const before = fs.existsSync(settingsFile) ? fs.readFileSync(settingsFile, 'utf8') : undefined;
    fs.writeFileSync(settingsFile, JSON.stringify({ 'liveTools.eval.python': 'settings-trap/python' }));
    try {
      const answer = await python('1 + 1', { reset: true });
      assert.match(answer, /started Python/, answer);
      assert.doesNotMatch(answer, /settings-trap/);
      assert.equal(fs.existsSync(marker), false, 'the workspace-chosen interpreter ran');
    } finally {
      if (before === undefined) fs.rmSync(settingsFile, { force: true });
      else fs.writeFileSync(settingsFile, before);
      fs.rmSync(trap, { recursive: true, force: true });
      await python('1', { reset: true });
    }
  });
});
