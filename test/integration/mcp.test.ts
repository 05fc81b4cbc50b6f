/**
 * The window's MCP endpoint, used the way an agent in the integrated terminal uses it: the SDK's own
 * client starts the `live-tools-mcp` bridge with the environment a terminal of this window has, and
 * lists and calls tools; the answers are those `vscode.lm.invokeTool` gives; the cap decides what is
 * listed; a write waits for Allow on the question card; a wrong token is refused; the bridge finds
 * its window by the discovery file, and says why when there is none.
 */
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import {
  HELLO_TIMEOUT_MS,
  processStartTime,
  SOCKET_VARIABLE,
  STATE_DIR_VARIABLE,
  TOKEN_VARIABLE,
} from '../../src/mcp/endpoint';
import { TOOL_CATALOG } from '../../src/tools/declarations';
import { browser, hasBrowser } from './support/browser';
import { chatReady, scriptedModel, sendChat } from './support/chat';
import { answerCard, setVibe } from './support/vibe';
import { bridgePath, connectBridge, terminalEnvironment, textOf } from './support/mcp';
import {
  activateExtension,
  invokeText,
  lineOf,
  logLines,
  setSetting,
  waitUntil,
  waitUntilAsync,
  workspaceRoot,
} from './support/tools';

const CLIENT_NAME = 'integration-agent';

/** Runs the bridge without a client: its exit code and what it wrote to stderr. */
function runBridge(
  bridge: string,
  env: NodeJS.ProcessEnv,
  cwd: string,
): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bridge], { env, cwd, stdio: ['pipe', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stderr }));
    const timer = setTimeout(() => child.kill(), 15_000);
    child.on('exit', () => clearTimeout(timer));
  });
}

/** Runs a hook command as an agent does (`sh -c`), with its hook event on stdin. */
function runHookCommand(
  command: string,
  env: NodeJS.ProcessEnv,
  event: unknown,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', command], { env, cwd: os.tmpdir(), stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    const timer = setTimeout(() => child.kill(), 40_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(JSON.stringify(event));
  });
}

describe('MCP endpoint: an agent outside the extension host, through live-tools-mcp', function () {
  this.timeout(120_000);
  let bridge: string;
  let terminalEnv: NodeJS.ProcessEnv;
  const clients: Client[] = [];
  const baseEnv = (): NodeJS.ProcessEnv => ({ PATH: process.env.PATH ?? '', HOME: os.homedir() });

  async function connect(env: NodeJS.ProcessEnv, cwd = workspaceRoot(), script = bridge): Promise<Client> {
    const client = await connectBridge(script, env, cwd, CLIENT_NAME);
    clients.push(client);
    return client;
  }

  /**
   * A call that waits for the question card: the card must name this client and the tool (and match
   * `shows`), and is answered with `choice`; returns the call's result.
   */
  async function callAnswered(
    client: Client,
    request: { name: string; arguments: Record<string, unknown> },
    choice: string,
    shows: RegExp[] = [],
  ): Promise<Awaited<ReturnType<Client['callTool']>>> {
    const asking = new RegExp(`MCP client "${CLIENT_NAME} 1\\.0\\.0" wants to run ${request.name}`);
    const [result] = await Promise.all([client.callTool(request), answerCard([asking, ...shows], choice)]);
    return result;
  }

  before(async () => {
    await activateExtension();
    bridge = bridgePath();
    terminalEnv = await terminalEnvironment();
  });

  after(async () => {
    for (const client of clients.splice(0)) await client.close();
    await setSetting('liveTools.mcp.maxTier', undefined);
    await setSetting('liveTools.mcp.offerExtensionTools', undefined);
    await setSetting('liveTools.eval.python', undefined);
  });

  it("a terminal carries the window's endpoint, whose socket, directory and discovery file are this user's only", () => {
    const socket = terminalEnv[SOCKET_VARIABLE] ?? '';
    assert.ok(socket && terminalEnv[TOKEN_VARIABLE], `the terminal has no ${SOCKET_VARIABLE}/${TOKEN_VARIABLE}`);
    assert.equal(fs.statSync(path.dirname(socket)).mode & 0o777, 0o700);
    assert.equal(fs.statSync(socket).mode & 0o077, 0);
    const stateDir = process.env[STATE_DIR_VARIABLE] ?? '';
    assert.equal(fs.statSync(stateDir).mode & 0o777, 0o700);
    const ours = fs
      .readdirSync(stateDir)
      .map((name) => path.join(stateDir, name))
      .filter((file) => fs.readFileSync(file, 'utf8').includes(socket));
    assert.equal(ours.length, 1, `one discovery file names ${socket}`);
    assert.equal(fs.statSync(ours[0]).mode & 0o777, 0o600);
    const record = JSON.parse(fs.readFileSync(ours[0], 'utf8')) as { folders: string[]; pid: number; started: string };
    assert.deepEqual(record.folders, [fs.realpathSync(workspaceRoot())]);
    // The record is live only while the editor that wrote it runs: its start time is in it.
    assert.equal(record.started, processStartTime(record.pid));
  });

  it("each session is its own conversation, its id unique beyond this window (the window's random nonce, then a count)", async () => {
    const { logUri } = await activateExtension();
    await connect(terminalEnv);
    await connect(terminalEnv);
    const ids = await waitUntil('two sessions in the log', () => {
      const opened = logLines(logUri, '[mcp] session ').flatMap((line) => /session (\S+) opened/.exec(line)?.[1] ?? []);
      return opened.length >= 2 ? opened : undefined;
    });
    assert.equal(new Set(ids).size, ids.length, ids.join(', '));
    for (const id of ids) assert.match(id, /^[0-9a-f]{16}-\d+$/);
    // Every id of this window starts with its own nonce (the name of its discovery file ends with it).
    assert.equal(new Set(ids.map((id) => id.split('-')[0])).size, 1);
  });

  it('lists the read tier with the declarations the chat gets, answers lsp and ast_grep as invokeTool does, and ask_user with the clicked option', async () => {
    const client = await connect({ ...baseEnv(), ...terminalEnv });
    assert.equal(client.getServerVersion()?.name, 'agent-live-tools');
    const listed = (await client.listTools()).tools;
    const readTier: string[] = TOOL_CATALOG.filter((tool) => tool.tier === 'read').map((tool) => tool.name);
    const names = listed.map((tool) => tool.name).sort();
    // Every listed tool is a read tool; the structural and question tools are among them; nothing of write or exec.
    assert.deepEqual(
      names.filter((name) => !readTier.includes(name)),
      [],
    );
    for (const name of ['ast_grep', 'ask_user'])
      assert.ok(names.includes(name), `${name} is listed: ${names.join(', ')}`);
    for (const name of ['write', 'edit', 'ast_edit', 'eval', 'debug'])
      assert.ok(!names.includes(name), `${name} is not`);
    const astGrep = listed.find((tool) => tool.name === 'ast_grep');
    const lmTool = vscode.lm.tools.find((tool) => tool.name === 'ast_grep');
    assert.equal(astGrep?.description, lmTool?.description);
    // The server's instructions say when to use which tool, naming only those listed.
    const instructions = client.getInstructions() ?? '';
    assert.match(instructions, /ask lsp \(definition, references, callers, symbols\) instead of searching text/);
    const catalog = TOOL_CATALOG.map((tool) => tool.name as string);
    assert.deepEqual(
      catalog.filter((name) => new RegExp(`(^|[^a-z_])${name}(?![a-z_])`).test(instructions) && !names.includes(name)),
      [],
      instructions,
    );
    // Each says what it is: read tools are read-only, with a title (clients' plan and ask modes read this).
    for (const tool of listed)
      assert.deepEqual(
        [tool.annotations?.readOnlyHint, typeof tool.annotations?.title, tool.annotations?.openWorldHint],
        [true, 'string', false],
        tool.name,
      );
    assert.deepEqual(astGrep?.inputSchema, lmTool?.inputSchema);
    // lsp's description says which languages have a server in this window now (the chat's cannot: package.json).
    const lspListed = listed.find((tool) => tool.name === 'lsp')?.description ?? '';
    const lspDeclared = vscode.lm.tools.find((tool) => tool.name === 'lsp')?.description ?? '';
    assert.ok(lspListed.startsWith(`${lspDeclared}\n`), lspListed);
    const live = lspListed.slice(lspDeclared.length + 1);
    const [served, unserved] = live.split(' No server for: ');
    assert.match(
      served,
      /^Languages with a language server in this window now: .*C\/C\+\+ \(clangd\), Go \(gopls\), .*TypeScript\/JavaScript \(the editor's vscode\.typescript-language-features\)\.$/,
    );
    assert.doesNotMatch(served, /Dart/);
    assert.match(unserved, /Dart \(/);

    const definition = {
      action: 'definition',
      file: 'src/main.ts',
      line: lineOf('src/main.ts', 'const greeter ='),
      symbol: 'FriendlyGreeter',
    };
    const invokedDefinition = await invokeText('lsp', definition);
    assert.match(invokedDefinition, /src\/greeter\.ts:\d+: export class FriendlyGreeter/);
    assert.equal(textOf(await client.callTool({ name: 'lsp', arguments: definition })), invokedDefinition);

    const input = { pattern: 'if ($X != null) $X.dispose()', language: 'dart' };
    const overMcp = await client.callTool({ name: 'ast_grep', arguments: input });
    assert.equal(overMcp.isError, false);
    assert.equal(textOf(overMcp), await invokeText('ast_grep', input));
    assert.match(textOf(overMcp), /counter_page\.dart:\d+/);

    if (hasBrowser()) {
      // ask_user is read: the card shows the question, and the clicked option is the answer the client reads.
      const [asked] = await Promise.all([
        client.callTool({
          name: 'ask_user',
          arguments: {
            question: 'Which cache should the MCP agent use?',
            options: [{ label: 'Memory' }, { label: 'Disk' }],
          },
        }),
        answerCard([/Which cache should the MCP agent use\?/], 'Disk'),
      ]);
      assert.equal(asked.isError, false);
      assert.match(textOf(asked), /^The user answered question #\d+: chose "Disk"\.$/);
    }

    const invalid = await client.callTool({ name: 'ast_grep', arguments: { language: 'dart' } });
    assert.equal(invalid.isError, true);
    assert.equal(textOf(invalid), await invokeText('ast_grep', { language: 'dart' }));

    const aboveCap = await client.callTool({ name: 'write', arguments: { path: 'mcp-never.txt', content: 'x' } });
    assert.equal(aboveCap.isError, true);
    assert.match(
      textOf(aboveCap),
      /^Refused: this call of write needs the write tier, and MCP client "integration-agent 1\.0\.0" may use read tools only/,
    );
    assert.ok(!fs.existsSync(path.join(workspaceRoot(), 'mcp-never.txt')));
  });

  it('raising the cap sends list_changed; a write waits for the card naming the client: Deny writes nothing, Allow writes', async function () {
    if (!hasBrowser()) this.skip();
    const client = await connect({ ...baseEnv(), ...terminalEnv });
    let changed = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changed++);
    await setSetting('liveTools.mcp.maxTier', 'write');
    await waitUntil('tools/list_changed', () => (changed > 0 ? true : undefined));
    const tools = (await client.listTools()).tools;
    const names = tools.map((tool) => tool.name);
    for (const name of ['write', 'edit', 'ast_edit'])
      assert.ok(names.includes(name), `${name} is listed after the cap was raised`);
    assert.ok(!names.includes('eval'), 'eval stays above the cap');
    // Write tools say so: write may destroy what is there (the same content again changes nothing); ast_edit only stages.
    const hints = (name: string) => {
      const annotations = tools.find((tool) => tool.name === name)?.annotations;
      return [annotations?.readOnlyHint, annotations?.destructiveHint, annotations?.idempotentHint];
    };
    assert.deepEqual(hints('write'), [false, true, true]);
    assert.deepEqual(hints('ast_edit'), [false, false, false]);
    assert.deepEqual(hints('lsp'), [true, undefined, undefined]);

    const target = path.join(workspaceRoot(), 'mcp-written.txt');
    fs.rmSync(target, { force: true });
    try {
      const write = { name: 'write', arguments: { path: 'mcp-written.txt', content: 'from an MCP client\n' } };
      const denied = await callAnswered(client, write, 'Deny', [/mcp-written\.txt/]);
      assert.equal(denied.isError, true);
      assert.match(textOf(denied), /^Refused: the human denied this write call/);
      assert.ok(!fs.existsSync(target), 'Deny wrote nothing');
      const allowed = await callAnswered(client, write, 'Allow');
      assert.equal(allowed.isError, false, textOf(allowed));
      assert.equal(fs.readFileSync(target, 'utf8'), 'from an MCP client\n');
    } finally {
      fs.rmSync(target, { force: true });
    }
  });

  it("another extension's tool: listed only with the setting at the exec cap, named with its extension, as exec; each call waits for the card: Deny refuses, Allow answers", async function () {
    if (!hasBrowser()) this.skip();
    // The scripted test extension's tool, whose tags claim the read tier.
    const qualified = 'agent-live-tools-test.scripted-model.scripted_tagged_read';
    await setSetting('liveTools.mcp.maxTier', 'exec');
    const client = await connect({ ...baseEnv(), ...terminalEnv });
    let changed = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changed++);
    const listed = async (): Promise<string[]> => (await client.listTools()).tools.map((tool) => tool.name);
    const noTool = /^Error: no tool named "/;
    try {
      const without = await listed();
      assert.ok(without.includes('eval'), 'the cap is exec');
      assert.deepEqual(
        without.filter((name) => name.includes('scripted')),
        [],
        'no tool of another extension without the setting',
      );
      for (const name of [qualified, 'scripted_tagged_read']) {
        const called = await client.callTool({ name, arguments: { note: 'unasked' } });
        assert.equal(called.isError, true);
        assert.match(textOf(called), noTool, name);
      }

      await setSetting('liveTools.mcp.offerExtensionTools', true);
      await waitUntil('list_changed after the setting', () => (changed > 0 ? true : undefined));
      const tools = (await client.listTools()).tools;
      const names = tools.map((tool) => tool.name);
      assert.deepEqual(names.filter((name) => name.includes('scripted')).sort(), [
        'agent-live-tools-test.scripted-model.scripted_confirmed_noop',
        qualified,
      ]);
      // Ours stay as they were, once each: our own extension's tools are not offered again under its id.
      for (const name of ['write', 'eval', 'debug', 'ast_grep']) assert.ok(names.includes(name), `${name} is listed`);
      assert.deepEqual(
        names.filter((name) => name.startsWith('agent-live-tools.agent-live-tools.')),
        [],
      );
      assert.equal(new Set(names).size, names.length);
      const tool = tools.find((candidate) => candidate.name === qualified);
      // Exec whatever its tags claim, titled with its extension.
      assert.deepEqual(tool?.annotations, {
        title: 'Tagged read (tests) (Scripted Model (Agent Live Tools tests))',
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: false,
        openWorldHint: true,
      });
      assert.deepEqual(tool?.inputSchema, { type: 'object', properties: { note: { type: 'string' } } });
      assert.match(tool?.description ?? '', /^Test-only: a tool of another extension whose tags claim/);
      assert.match(
        tool?.description ?? '',
        /agent-live-tools-test\.scripted-model: each call waits for the human's approval/,
      );
      // Never by its bare name, even now.
      assert.match(textOf(await client.callTool({ name: 'scripted_tagged_read', arguments: {} })), noTool);

      const call = { name: qualified, arguments: { note: 'over MCP' } };
      const asking = new RegExp(`MCP client "${CLIENT_NAME} 1\\.0\\.0" wants to run scripted_tagged_read`);
      const [denied] = await Promise.all([
        client.callTool(call),
        answerCard([asking, /a tool of another extension/, /over MCP/], 'Deny'),
      ]);
      assert.equal(denied.isError, true);
      assert.match(textOf(denied), /^Refused: the human denied this scripted_tagged_read call/);
      const [allowed] = await Promise.all([client.callTool(call), answerCard([asking], 'Allow')]);
      assert.equal(allowed.isError, false, textOf(allowed));
      assert.equal(textOf(allowed), 'scripted_tagged_read ran: over MCP');

      // Below exec it is not listed, and called anyway the runner refuses it.
      const seen = changed;
      await setSetting('liveTools.mcp.maxTier', 'write');
      await waitUntil('list_changed after the cap fell', () => (changed > seen ? true : undefined));
      assert.deepEqual(
        (await listed()).filter((name) => name.includes('scripted')),
        [],
      );
      const above = await client.callTool(call);
      assert.equal(above.isError, true);
      assert.match(
        textOf(above),
        /^Refused: scripted_tagged_read belongs to another extension and counts as exec; MCP client "integration-agent 1\.0\.0" may use write tools only\./,
      );
    } finally {
      await setSetting('liveTools.mcp.offerExtensionTools', undefined);
    }
  });

  it('the plan approved is the plan written: a file changed while the card waits makes Allow write nothing, naming the file', async () => {
    await setSetting('liveTools.mcp.maxTier', 'write');
    const client = await connect({ ...baseEnv(), ...terminalEnv });
    const target = path.join(workspaceRoot(), 'mcp-planned.txt');
    fs.writeFileSync(target, 'alpha\nbeta\n');
    try {
      const calling = client.callTool({
        name: 'edit',
        arguments: { path: 'mcp-planned.txt', old_string: 'beta', new_string: 'BETA' },
      });
      // The card shows the planned change; while the human reads it, another program rewrites the file.
      const asking = new RegExp(`MCP client "${CLIENT_NAME} 1\\.0\\.0" wants to run edit`);
      await answerCard([asking, /-beta/, /\+BETA/], 'Allow', () => {
        fs.writeFileSync(target, 'alpha (theirs)\nbeta\n');
      });
      const answer = await calling;
      assert.equal(answer.isError, true);
      assert.equal(
        textOf(answer),
        'Error: mcp-planned.txt changed since this change was planned; nothing was written. Read it again and redo the change.',
      );
      assert.equal(fs.readFileSync(target, 'utf8'), 'alpha (theirs)\nbeta\n');
    } finally {
      fs.rmSync(target, { force: true });
    }
  });

  it('turning vibe mode on and off sends list_changed each time, and its read-tier tools come and go', async () => {
    await setVibe(false);
    const client = await connect({ ...baseEnv(), ...terminalEnv });
    let changed = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changed++);
    const listed = async (): Promise<string[]> => (await client.listTools()).tools.map((tool) => tool.name);
    assert.ok(!(await listed()).includes('vibe_list'), 'vibe_list is absent while vibe mode is off');
    try {
      await setVibe(true);
      await waitUntil('list_changed after vibe mode on', () => (changed >= 1 ? true : undefined));
      const on = await listed();
      for (const name of ['vibe_list', 'vibe_spawn_readonly']) assert.ok(on.includes(name), `${name} is listed`);
      assert.ok(!on.includes('vibe_spawn'), 'vibe_spawn (exec) stays above the cap');
    } finally {
      await setVibe(false);
    }
    await waitUntil('list_changed after vibe mode off', () => (changed >= 2 ? true : undefined));
    assert.ok(!(await listed()).includes('vibe_list'), 'vibe_list is gone again');
  });

  it('eval answers with image content; disconnecting ends the session and its kernel', async function () {
    if (!hasBrowser()) this.skip();
    await setSetting('liveTools.mcp.maxTier', 'exec');
    // Debian's Python, with python3-matplotlib (.ci/run); PATH's python3 may be another.
    await setSetting('liveTools.eval.python', '/usr/bin/python3');
    const client = await connect({ ...baseEnv(), ...terminalEnv });
    const cell = {
      name: 'eval',
      arguments: {
        code: 'import os\nimport matplotlib.pyplot as plt\nprint("kernel pid", os.getpid())\nplt.plot([1, 3, 2])\nplt.gcf()',
        description: 'plot from an MCP client',
      },
    };
    const result = await callAnswered(client, cell, 'Allow');
    assert.equal(result.isError, false, textOf(result));
    const content = result.content as Array<{ type: string; data?: string; mimeType?: string }>;
    const image = content.find((part) => part.type === 'image');
    assert.equal(image?.mimeType, 'image/png', `an image part in: ${JSON.stringify(content).slice(0, 500)}`);
    assert.deepEqual([...Buffer.from(image?.data ?? '', 'base64').subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47]);
    const pid = Number(/kernel pid (\d+)/.exec(textOf(result))?.[1]);
    assert.ok(pid > 0, textOf(result));
    const alive = (): boolean => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    assert.ok(alive(), 'the kernel runs while its client is connected');
    const disconnected = await vscode.commands.executeCommand<number>('liveTools.disconnectMcpClients');
    assert.ok(disconnected >= 1, `disconnected ${disconnected}`);
    await waitUntil("the session's kernel to end", () => (alive() ? undefined : true));
    await assert.rejects(client.listTools(), 'the client sees its server gone');
  });

  it('ast_edit over MCP opens the review; the human accepts it in the browser and resolve reports that decision', async function () {
    if (!hasBrowser()) this.skip();
    await setSetting('liveTools.mcp.maxTier', 'write');
    const client = await connect({ ...baseEnv(), ...terminalEnv });
    const file = path.join(workspaceRoot(), 'mcp-staged.js');
    fs.writeFileSync(file, 'var first = 1;\nvar second = 2;\n');
    try {
      const staged = await callAnswered(
        client,
        {
          name: 'ast_edit',
          arguments: { pattern: 'var $A = $B', rewrite: 'let $A = $B', path: 'mcp-staged.js' },
        },
        'Allow',
      );
      const id = /staged as (edit_\d+):/.exec(textOf(staged))?.[1];
      assert.ok(id, textOf(staged));
      assert.equal(
        fs.readFileSync(file, 'utf8'),
        'var first = 1;\nvar second = 2;\n',
        'nothing written before the review',
      );
      await browser({
        op: 'click',
        selector: '.editor-group-container.active .editor-actions a.action-label[aria-label^="Accept Staged Edit"]',
        timeoutMs: 30_000,
      });
      await waitUntil('the accepted edit to be written', () =>
        fs.readFileSync(file, 'utf8').startsWith('let first') ? true : undefined,
      );
      // The change counts as accepted (and its review closes) once the writer is done, a moment after the disk.
      await waitUntil('the review to close', () =>
        vscode.window.tabGroups.all
          .flatMap((group) => group.tabs)
          .some((tab) => {
            const input = tab.input as { modified?: vscode.Uri; textDiffs?: { modified: vscode.Uri }[] } | undefined;
            const modified =
              input?.textDiffs?.map((diff) => diff.modified) ?? (input?.modified ? [input.modified] : []);
            return modified.some((uri) => uri.query === `edit=${id}`);
          })
          ? undefined
          : true,
      );
      const resolved = await callAnswered(
        client,
        { name: 'resolve', arguments: { edit_id: id, action: 'accept' } },
        'Allow',
      );
      assert.equal(textOf(resolved), `Error: ${id} was already accepted by the user; its changes are written.`);
      assert.equal(fs.readFileSync(file, 'utf8'), 'let first = 1;\nlet second = 2;\n');
    } finally {
      fs.rmSync(file, { force: true });
    }
  });

  it("debug over MCP: a JavaScript program stops at the breakpoint in the Debug view, in the session's own conversation", async function () {
    if (!hasBrowser()) this.skip();
    await setSetting('liveTools.mcp.maxTier', 'exec');
    const client = await connect({ ...baseEnv(), ...terminalEnv });
    const call = async (input: Record<string, unknown>): Promise<string> => {
      const result = await callAnswered(client, { name: 'debug', arguments: input }, 'Allow');
      return textOf(result);
    };
    const source = 'debug/js/app.js';
    const line = lineOf(source, 'BREAK');
    const started: string[] = [];
    const listening = vscode.debug.onDidStartDebugSession((session) => started.push(session.name));
    try {
      assert.match(
        await call({ op: 'breakpoints', file: source, lines: [{ line }] }),
        new RegExp(`line ${line}: \`.*BREAK`),
      );
      const launched = await call({ op: 'launch', program: source, timeout_seconds: 90 });
      assert.match(
        launched,
        new RegExp(`Stopped \\(breakpoint.*at debug/js/app\\.js:${line} — \`.*BREAK.*\` in total`),
        launched,
      );
      assert.ok(
        started.some((name) => name === 'Agent: app.js'),
        `the session is in the Debug view (sessions started: ${started.join(', ')})`,
      );
      assert.match(await call({ op: 'stack' }), new RegExp(`#\\d+ total\\S* at debug/js/app\\.js:${line}`));
      // The window's own conversation has no session: this one is the MCP session's.
      assert.match(await invokeText('debug', { op: 'status' }), /^No debug session/);
      assert.match(await call({ op: 'terminate' }), /terminated|ended/i);
    } finally {
      listening.dispose();
      await call({ op: 'breakpoints', file: source, lines: [] });
    }
  });

  it('test over MCP: listed at the exec cap only; the card shows the command line, and Allow runs the tests', async function () {
    if (!hasBrowser()) this.skip();
    await setSetting('liveTools.mcp.maxTier', 'write');
    const client = await connect({ ...baseEnv(), ...terminalEnv });
    assert.ok(!(await client.listTools()).tools.some((tool) => tool.name === 'test'), 'not offered below exec');
    await setSetting('liveTools.mcp.maxTier', 'exec');
    await waitUntilAsync('test to be listed', async () =>
      (await client.listTools()).tools.some((tool) => tool.name === 'test') ? true : undefined,
    );
    const result = await callAnswered(
      client,
      { name: 'test', arguments: { tests: ['testtool/py/test_prices.py::test_total_of_two'] } },
      'Allow',
      [/-m pytest -v --color=no/, /PYTHONUNBUFFERED=1/],
    );
    assert.match(textOf(result), /^pytest: 1 passed, 0 failed, 0 skipped, 0 errors/);
  });

  it("Connect an Agent copies each agent's command, and the .mcp.json it adds starts a working session; one linking out of the workspace is refused", async () => {
    const claude = await vscode.commands.executeCommand<string>('liveTools.connectAgent', { target: 'claude' });
    assert.equal(claude, `claude mcp add live-tools -- ${process.execPath} ${bridge}`);
    assert.equal(await vscode.env.clipboard.readText(), claude);
    const file = path.join(workspaceRoot(), '.mcp.json');
    const outside = path.join(os.tmpdir(), `live-tools-outside-${process.pid}.json`);
    fs.writeFileSync(file, JSON.stringify({ mcpServers: { other: { command: 'true' } } }));
    try {
      await vscode.commands.executeCommand('liveTools.connectAgent', { target: 'mcp.json', add: true });
      const config = JSON.parse(fs.readFileSync(file, 'utf8')) as {
        mcpServers: Record<string, { command: string; args: string[] }>;
      };
      assert.deepEqual(Object.keys(config.mcpServers), ['other', 'live-tools']);
      // Started as the file says, by a client outside any terminal: the discovery file leads it to this window.
      const entry = config.mcpServers['live-tools'];
      assert.equal(entry.command, process.execPath);
      const client = await connect(
        { ...baseEnv(), [STATE_DIR_VARIABLE]: process.env[STATE_DIR_VARIABLE] ?? '' },
        workspaceRoot(),
        entry.args[0],
      );
      assert.ok((await client.listTools()).tools.some((tool) => tool.name === 'lsp'));

      // A .mcp.json that links out of the workspace is refused, and what it points to is left as it was.
      fs.rmSync(file);
      fs.writeFileSync(outside, '{}');
      fs.symlinkSync(outside, file);
      await assert.rejects(
        Promise.resolve(vscode.commands.executeCommand('liveTools.connectAgent', { target: 'mcp.json', add: true })),
        /leads outside the workspace through the symbolic link/,
      );
      assert.equal(fs.readFileSync(outside, 'utf8'), '{}');
    } finally {
      fs.rmSync(file, { force: true });
      fs.rmSync(outside, { force: true });
    }
  });

  it("a terminal agent's own edits on disk: lsp diagnostics with files answers what they introduced, broke in an importer and fixed; changed_on_disk finds them", async () => {
    const client = await connect(terminalEnv);
    const folder = path.join(workspaceRoot(), 'src', 'onDisk');
    const util = path.join(folder, 'util.ts');
    const user = path.join(folder, 'user.ts');
    fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(util, 'export function add(a: number, b: number): number {\n  return a + b;\n}\n');
    fs.writeFileSync(user, "import { add } from './util';\n\nexport const three: number = add(1, 2);\n");
    const delta = async (args: Record<string, unknown>): Promise<string> =>
      textOf(await client.callTool({ name: 'lsp', arguments: { action: 'diagnostics', ...args } }));
    try {
      // The first look is the baseline, the importer's too: nothing earlier to compare with.
      const first = await delta({ files: ['src/onDisk/util.ts'] });
      assert.match(first, /src\/onDisk\/util\.ts: first look \(nothing earlier to compare with\): no problems\./);
      assert.match(first, /src\/onDisk\/user\.ts: first look \(nothing earlier to compare with\): no problems\./);
      // As a terminal agent's Edit does: the file rewritten on disk, not through the editor.
      fs.writeFileSync(util, 'export function add(a: number, b: number): number {\n  return `${a}`;\n}\n');
      const introduced = await delta({ files: ['src/onDisk/util.ts'] });
      assert.match(
        introduced,
        /^Diagnostics since your last look: 1 new problem \(2 files compared, 1 of them importing the others\)\./,
      );
      assert.match(
        introduced,
        /src\/onDisk\/util\.ts:2: error ts 2322: Type 'string' is not assignable to type 'number'\.\n {4}return `\$\{a\}`;/,
      );
      // Renamed on disk: the importer breaks, and is named.
      fs.writeFileSync(util, 'export function sum(a: number, b: number): number {\n  return `${a}`;\n}\n');
      const broken = await delta({ files: ['src/onDisk/util.ts'] });
      assert.match(broken, /^Diagnostics since your last look: 1 new problem \(2 files compared/);
      assert.match(broken, /Broken importers \(they import a changed file\): src\/onDisk\/user\.ts\./);
      assert.match(
        broken,
        /src\/onDisk\/user\.ts:1: error ts 2305: Module '"\.\/util"' has no exported member 'add'\./,
      );
      assert.match(broken, /Still there from before: src\/onDisk\/util\.ts \(1 error\)\./);
      // Fixed on disk: counted as fixed, nothing new.
      fs.writeFileSync(util, 'export function add(a: number, b: number): number {\n  return a + b;\n}\n');
      assert.match(
        await delta({ files: ['src/onDisk/util.ts'] }),
        /^Diagnostics since your last look: no new problems, 2 fixed \(2 files compared, 1 of them importing the others\)\.$/,
      );
      // The files changed on disk since the last such call: the first call takes everything since the window watched.
      await delta({ changed_on_disk: true });
      fs.writeFileSync(util, 'export function add(a: number, b: number): number {\n  return a + b + c;\n}\n');
      const changed = await waitUntilAsync('the watcher to see the change', async () => {
        const text = await delta({ changed_on_disk: true });
        return /^\d+ files? changed on disk/.test(text) ? text : undefined;
      });
      assert.match(changed, /^1 file changed on disk since your last such call: src\/onDisk\/util\.ts\./);
      assert.match(changed, /src\/onDisk\/util\.ts:2: error ts 2304: Cannot find name 'c'\./);
      assert.match(await delta({ changed_on_disk: true }), /^No file changed on disk since your last such call\./);
      // Read stays read: a delta call is offered at the default cap, and outside paths are named, not followed.
      assert.match(await delta({ files: ['../outside.ts'] }), /Not checked: \.\.\/outside\.ts \(/);
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });

  it('Connect an Agent installs the edit hook and the guidance for Claude Code; the hook as installed, fed the PreToolUse and PostToolUse events of an Edit, prints the new problem as the context Claude Code adds for its model', async () => {
    await vscode.commands.executeCommand('liveTools.connectAgent', { target: 'claude', hook: true, guidance: true });
    const settingsFile = path.join(workspaceRoot(), '.claude', 'settings.local.json');
    const settings = JSON.parse(fs.readFileSync(settingsFile, 'utf8')) as {
      hooks: Record<string, Array<{ matcher: string; hooks: Array<{ command: string; timeout: number }> }>>;
    };
    assert.deepEqual(Object.keys(settings.hooks), ['PreToolUse', 'PostToolUse']);
    const installed = settings.hooks.PostToolUse[0].hooks[0].command;
    assert.equal(settings.hooks.PreToolUse[0].hooks[0].command, installed);
    assert.match(installed, / hook$/);
    const skill = fs.readFileSync(
      path.join(workspaceRoot(), '.claude', 'skills', 'agent-live-tools', 'SKILL.md'),
      'utf8',
    );
    assert.match(skill, /^---\nname: agent-live-tools\n/);
    assert.match(skill, /ask lsp diagnostics with files/);
    const file = path.join(workspaceRoot(), 'src', 'hooked.ts');
    fs.writeFileSync(file, 'export const count: number = 1;\n');
    // Started as an agent started outside the window would start it: no terminal variables, found by the discovery file.
    const env = { ...baseEnv(), [STATE_DIR_VARIABLE]: process.env[STATE_DIR_VARIABLE] };
    const event = (name: string) => ({
      session_id: `integration-${Date.now()}`,
      transcript_path: '/tmp/t.jsonl',
      cwd: workspaceRoot(),
      hook_event_name: name,
      tool_name: 'Edit',
      tool_input: { file_path: file, old_string: '1', new_string: "'one'" },
    });
    try {
      const pre = event('PreToolUse');
      const before = await runHookCommand(installed, env, pre);
      assert.deepEqual([before.code, before.stdout], [0, '']);
      fs.writeFileSync(file, "export const count: number = 'one';\n");
      const started = Date.now();
      const after = await runHookCommand(installed, env, { ...event('PostToolUse'), session_id: pre.session_id });
      const took = Date.now() - started;
      assert.equal(after.code, 0, after.stderr);
      const output = JSON.parse(after.stdout) as {
        hookSpecificOutput: { hookEventName: string; additionalContext: string };
      };
      assert.equal(output.hookSpecificOutput.hookEventName, 'PostToolUse');
      assert.match(
        output.hookSpecificOutput.additionalContext,
        /^Agent Live Tools \(the editor's language servers\) after this edit:\nDiagnostics since your last look: 1 new problem \(1 file compared\)\.\nsrc\/hooked\.ts:1: error ts 2322: Type 'string' is not assignable to type 'number'\./,
      );
      assert.ok(took < 25_000, `the hook answered within its budget (${took} ms)`);
      // Each run is one session of its own, named as the hook, and ends with the run.
      const { logUri } = await activateExtension();
      const hookSessions = logLines(logUri, 'opened (live-tools-mcp hook (claude))');
      assert.equal(hookSessions.length >= 2, true, hookSessions.join('\n'));
      const lastId = /session (\S+) opened/.exec(hookSessions[hookSessions.length - 1])?.[1] ?? '';
      await waitUntil('the hook session to close', () =>
        logLines(logUri, `session ${lastId} closed`).length > 0 ? true : undefined,
      );
    } finally {
      fs.rmSync(file, { force: true });
      fs.rmSync(path.join(workspaceRoot(), '.claude'), { recursive: true, force: true });
    }
  });

  it('refuses a wrong token and a connection without one; without terminal variables the bridge finds its window by the discovery file, and with none it says why', async () => {
    const wrong = await runBridge(
      bridge,
      { ...baseEnv(), ...terminalEnv, [TOKEN_VARIABLE]: 'not-the-token' },
      workspaceRoot(),
    );
    assert.equal(wrong.code, 1);
    assert.match(wrong.stderr, /^live-tools-mcp: wrong or missing token/);
    assert.equal(wrong.stderr.trim().split('\n').length, 1);

    /** What the endpoint answers a raw connection that sends `first` (or nothing), until it closes. */
    const rawReply = (first?: string): Promise<string> =>
      new Promise<string>((resolve, reject) => {
        const raw = net.createConnection(terminalEnv[SOCKET_VARIABLE] ?? '');
        let text = '';
        raw.on('error', reject);
        raw.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        raw.on('close', () => resolve(text));
        if (first !== undefined) raw.write(first);
      });
    const reply = await rawReply('{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}\n');
    assert.match(reply, /^\{"ok":false,"error":"wrong or missing token/);
    const silentSince = Date.now();
    assert.match(await rawReply(), /^\{"ok":false,"error":"no token was sent in time/);
    assert.ok(Date.now() - silentSince >= HELLO_TIMEOUT_MS - 100, 'a silent connection is given the hello timeout');

    const stateDir = process.env[STATE_DIR_VARIABLE] ?? '';
    const found = await connect({ ...baseEnv(), [STATE_DIR_VARIABLE]: stateDir }, path.join(workspaceRoot(), 'src'));
    assert.ok((await found.listTools()).tools.some((tool) => tool.name === 'ast_grep'));

    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'live-tools-no-window-'));
    try {
      const none = await runBridge(bridge, { ...baseEnv(), [STATE_DIR_VARIABLE]: empty }, workspaceRoot());
      assert.equal(none.code, 1);
      assert.match(none.stderr, /^live-tools-mcp: no VS Code window with Agent Live Tools is open/);
      assert.equal(none.stderr.trim().split('\n').length, 1);
    } finally {
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });
});

describe("MCP endpoint: VS Code's own MCP hosts", function () {
  this.timeout(180_000);

  before(async function () {
    if (!hasBrowser()) this.skip();
    await activateExtension();
    await chatReady();
  });

  after(async () => {
    await setSetting('liveTools.mcp.offerToEditor', undefined);
  });

  /** The tool names the built-in chat offers the model in a fresh request. */
  async function offeredInChat(): Promise<readonly string[]> {
    const model = await scriptedModel();
    await sendChat(model, 'Which tools do you have?', [() => ({ text: 'Some.' })]);
    const [request] = await model.waitForRequests(1, 90_000);
    return request.toolNames;
  }

  it('the local chat is offered each of our tools once; offered to the editor on request, our endpoint starts without a prompt and its tools come twice', async () => {
    const ours = new Set<string>(TOOL_CATALOG.map((tool) => tool.name));
    const fromEndpoint = (names: readonly string[]): string[] =>
      names.filter((name) => name.startsWith('mcp_agent_live'));
    const before = await offeredInChat();
    assert.deepEqual(fromEndpoint(before), [], 'off by default: no tool of the endpoint');
    assert.ok(before.filter((name) => ours.has(name)).length >= 5, before.join(' '));
    // Measured in 1.139: the definition is taken eagerly, and the chat starts the server itself when a request is sent.
    await setSetting('liveTools.mcp.offerToEditor', true);
    const withEndpoint = await offeredInChat();
    const doubled = fromEndpoint(withEndpoint);
    assert.ok(
      doubled.some((name) => name.endsWith('ast_grep')),
      `the chat lists the endpoint's tools: ${withEndpoint.join(' ')}`,
    );
    assert.ok(withEndpoint.includes('ast_grep'), 'beside our language model tool of the same name');
    // Only what the cap (read) offers comes through the endpoint.
    assert.ok(!doubled.some((name) => /_(write|edit|eval|debug)$/.test(name)), doubled.join(' '));
  });
});
