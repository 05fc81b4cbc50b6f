import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as net from 'node:net';
import { ChildProcess, spawn } from 'node:child_process';
import * as path from 'node:path';
import {
  ensurePrivateDir,
  findWindows,
  parseHello,
  processStartTime,
  readWindowRecords,
  recordLive,
  removeStaleRecords,
  SOCKET_VARIABLE,
  STATE_DIR_VARIABLE,
  TOKEN_VARIABLE,
  unsafeSocket,
  WindowRecord,
  windowsFor,
} from '../../src/mcp/endpoint';
import {
  AgentFileChange,
  agentConfig,
  guidanceInstall,
  hookInstall,
  withServerAdded,
} from '../../src/mcp/connectConfig';
import { acceptHello, EndpointServer } from '../../src/mcp/endpointServer';
import { nullLogger } from '../../src/log/logger';
import { LineLimit } from '../../src/mcp/lineLimit';
import { MAX_MESSAGE_BYTES, McpHost, McpSession, serveSession } from '../../src/mcp/mcpSession';
import { suiteTempDir } from '../support/tempDir';
import { repoRoot } from '../support/repoRoot';

describe('MCP endpoint: discovery and hello', () => {
  const tempDir = suiteTempDir('mcp-endpoint');

  function record(folders: string[], pid = process.pid): WindowRecord {
    return { socket: `/sockets/${folders[0] ?? 'none'}`, token: 't', folders, pid };
  }

  it('picks the window whose folder holds the directory most closely, and none outside every folder', () => {
    const outer = record(['/work/repo']);
    const inner = record(['/work/repo/packages/app']);
    const other = record(['/work/other', '/srv/x']);
    const records = [outer, inner, other];
    assert.deepEqual(windowsFor(records, '/work/repo/packages/app/src'), [inner, outer]);
    assert.deepEqual(windowsFor(records, '/work/repo/packages/lib'), [outer]);
    assert.deepEqual(windowsFor(records, '/work/repo'), [outer]);
    assert.deepEqual(windowsFor(records, '/srv/x/y'), [other]);
    // A sibling whose name starts the same is not inside.
    assert.deepEqual(windowsFor(records, '/work/repository'), []);
    assert.deepEqual(windowsFor(records, '/'), []);
  });

  it('reads the records of live windows only, leaving out stale, malformed and foreign files', () => {
    const dir = path.join(tempDir(), 'records');
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, 'live.json'), JSON.stringify(record(['/a'])));
    fs.writeFileSync(path.join(dir, 'stale.json'), JSON.stringify(record(['/b'], 2 ** 22 + 17)));
    fs.writeFileSync(path.join(dir, 'broken.json'), '{"socket": ');
    fs.writeFileSync(path.join(dir, 'wrong.json'), JSON.stringify({ socket: 1, token: 't', folders: [], pid: 1 }));
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'not a record');
    const alive = (found: WindowRecord): boolean => found.pid === process.pid;
    assert.deepEqual(
      readWindowRecords(dir, alive).map((found) => found.folders[0]),
      ['/a'],
    );
    assert.deepEqual(readWindowRecords(path.join(dir, 'missing')), []);
  });

  it('a record is live only while its process runs and is the one that started then; the dead ones are removed, what is not a record is left', () => {
    const started = processStartTime(process.pid);
    assert.ok(started && /^\d+$/.test(started), `start time ${started}`);
    assert.equal(recordLive({ pid: process.pid, started }), true);
    // The pid now belongs to another process (it started at another time).
    assert.equal(recordLive({ pid: process.pid, started: String(Number(started) + 1) }), false);
    assert.equal(recordLive({ pid: 2 ** 22 + 17 }), false);
    const dir = path.join(tempDir(), 'stale');
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, 'live.json'), JSON.stringify({ ...record(['/a']), started }));
    fs.writeFileSync(path.join(dir, 'reused.json'), JSON.stringify({ ...record(['/b']), started: '1' }));
    fs.writeFileSync(path.join(dir, 'gone.json'), JSON.stringify(record(['/c'], 2 ** 22 + 17)));
    fs.writeFileSync(path.join(dir, 'writing.json'), '{"socket": ');
    assert.deepEqual(
      readWindowRecords(dir).map((found) => found.folders[0]),
      ['/a'],
    );
    assert.deepEqual(
      removeStaleRecords(dir)
        .map((file) => path.basename(file))
        .sort(),
      ['gone.json', 'reused.json'],
    );
    assert.deepEqual(fs.readdirSync(dir).sort(), ['live.json', 'writing.json']);
  });

  it('the token goes only to a socket of this user in a directory only this user can enter', async () => {
    const uid = process.getuid?.() as number;
    const serve = async (dir: string): Promise<{ socket: string; close: () => void }> => {
      fs.mkdirSync(dir, { recursive: true });
      const socket = path.join(dir, 'mcp.sock');
      const server = net.createServer();
      await new Promise<void>((resolve) => server.listen(socket, resolve));
      return { socket, close: () => server.close() };
    };
    const own = await serve(path.join(tempDir(), 'own'));
    const open = await serve(path.join(tempDir(), 'open'));
    try {
      fs.chmodSync(path.dirname(own.socket), 0o700);
      fs.chmodSync(path.dirname(open.socket), 0o755);
      assert.equal(unsafeSocket(own.socket), undefined);
      assert.match(String(unsafeSocket(open.socket)), /open\/? is open to other users \(mode 755\)$/);
      // Another user's directory and socket (as seen by a user of another uid).
      assert.match(String(unsafeSocket(own.socket, uid + 1)), /own is not a directory of this user$/);
      const file = path.join(path.dirname(own.socket), 'plain');
      fs.writeFileSync(file, '');
      assert.match(String(unsafeSocket(file)), /plain is not a socket of this user$/);
      assert.match(String(unsafeSocket(path.join(tempDir(), 'none', 'mcp.sock'))), /does not exist$/);
    } finally {
      own.close();
      open.close();
    }
  });

  it('makes its state directory private, and refuses none of its own', () => {
    const dir = path.join(tempDir(), 'state');
    fs.mkdirSync(dir, { mode: 0o755 });
    fs.chmodSync(dir, 0o755);
    ensurePrivateDir(dir);
    assert.equal(fs.statSync(dir).mode & 0o777, 0o700);
    const fresh = path.join(tempDir(), 'fresh', 'windows');
    ensurePrivateDir(fresh);
    assert.equal(fs.statSync(fresh).mode & 0o777, 0o700);
  });

  it('reads a hello line, and nothing else as one', () => {
    assert.deepEqual(parseHello('{"token":"abc","client":"x"}'), { token: 'abc', client: 'x' });
    assert.equal(parseHello('{"token":"abc"}'), undefined);
    assert.deepEqual(parseHello('{"token":"abc","client":"x","agentSession":"claude:0f1e-2d"}'), {
      token: 'abc',
      client: 'x',
      agentSession: 'claude:0f1e-2d',
    });
    assert.equal(parseHello('{"token":"abc","client":"x","agentSession":"a\\nb"}'), undefined);
    assert.equal(parseHello(`{"token":"abc","client":"x","agentSession":"${'a'.repeat(201)}"}`), undefined);
    assert.equal(parseHello('{"jsonrpc":"2.0","method":"initialize"}'), undefined);
    assert.equal(parseHello('GET / HTTP/1.1'), undefined);
  });

  it('the bridge takes the terminal variables first, else the discovery file of the folder, else says why not', () => {
    const state = path.join(tempDir(), 'bridge-state');
    fs.mkdirSync(state);
    const project = fs.realpathSync(tempDir());
    const fromTerminal = findWindows(
      { [SOCKET_VARIABLE]: '/s', [TOKEN_VARIABLE]: 'k', [STATE_DIR_VARIABLE]: state },
      '/',
    );
    assert.deepEqual(fromTerminal, [{ socket: '/s', token: 'k' }]);
    const none = findWindows({ [STATE_DIR_VARIABLE]: state }, project);
    assert.match(String(none), /^no VS Code window with Agent Live Tools is open \(no live window in .*bridge-state\)/);
    fs.writeFileSync(path.join(state, 'w.json'), JSON.stringify({ ...record([project]), socket: '/w', token: 'wk' }));
    const found = findWindows({ [STATE_DIR_VARIABLE]: state }, path.join(project, 'records'));
    assert.deepEqual(
      (found as WindowRecord[]).map((window) => window.socket),
      ['/w'],
    );
    // The terminal's window first, then the folder's.
    const both = findWindows({ [SOCKET_VARIABLE]: '/s', [TOKEN_VARIABLE]: 'k', [STATE_DIR_VARIABLE]: state }, project);
    assert.deepEqual(
      (both as WindowRecord[]).map((window) => window.socket),
      ['/s', '/w'],
    );
    const elsewhere = findWindows({ [STATE_DIR_VARIABLE]: state }, '/');
    assert.match(String(elsewhere), /^no open VS Code window has a folder holding \/ \(open: .*\)/);
  });
});

describe('MCP endpoint: agent configurations', () => {
  it('gives each agent its command line, quoting paths that need it', () => {
    assert.equal(
      agentConfig('claude', 'node', '/ext/dist/mcpBridge.js').text,
      'claude mcp add live-tools -- node /ext/dist/mcpBridge.js',
    );
    assert.equal(
      agentConfig('codex', '/opt/my node/bin/node', "/home/o'brien/dist/mcpBridge.js").text,
      `codex mcp add live-tools -- '/opt/my node/bin/node' '/home/o'\\''brien/dist/mcpBridge.js'`,
    );
    assert.equal(agentConfig('gemini', 'node', '/b.js').text, 'gemini mcp add live-tools node /b.js');
    assert.deepEqual(JSON.parse(agentConfig('mcp.json', 'node', '/b.js').text), {
      mcpServers: { 'live-tools': { command: 'node', args: ['/b.js'] } },
    });
  });

  it("adds itself to a project's .mcp.json keeping what is there, and refuses a file it cannot read as one", () => {
    const kept = JSON.parse(
      withServerAdded('{"mcpServers": {"other": {"command": "x"}}, "extra": 1}', 'node', '/b.js'),
    ) as Record<string, unknown>;
    assert.deepEqual(kept, {
      mcpServers: { other: { command: 'x' }, 'live-tools': { command: 'node', args: ['/b.js'] } },
      extra: 1,
    });
    assert.deepEqual(JSON.parse(withServerAdded(undefined, 'node', '/b.js')), {
      mcpServers: { 'live-tools': { command: 'node', args: ['/b.js'] } },
    });
    assert.throws(() => withServerAdded('[1]', 'node', '/b.js'), /does not hold a JSON object/);
    assert.throws(() => withServerAdded('{"mcpServers": 3}', 'node', '/b.js'), /"mcpServers" that is not an object/);
    assert.throws(() => withServerAdded('{"mcpServers": ', 'node', '/b.js'), SyntaxError);
  });

  it("installs the edit hook in each agent's project settings beside the user's own hooks, once however often it is installed", () => {
    const claude = hookInstall('claude', 'node', '/ext/dist/mcpBridge.js');
    assert.ok(claude);
    assert.equal(claude.file, '.claude/settings.local.json');
    const theirs = { matcher: 'Bash', hooks: [{ type: 'command', command: 'echo hi' }] };
    const existing = JSON.stringify({ model: 'x', hooks: { PostToolUse: [theirs] } });
    const once = claude.apply(existing);
    const twice = JSON.parse(claude.apply(once)) as { model: string; hooks: Record<string, unknown[]> };
    assert.equal(twice.model, 'x');
    const ours = {
      matcher: 'Edit|Write|MultiEdit|NotebookEdit',
      hooks: [{ type: 'command', command: 'node /ext/dist/mcpBridge.js hook', timeout: 30 }],
    };
    assert.deepEqual(twice.hooks, { PostToolUse: [theirs, ours], PreToolUse: [ours] });
    // What the human is shown is what is added.
    assert.deepEqual(JSON.parse(claude.added), { hooks: { PreToolUse: [ours], PostToolUse: [ours] } });
    // Another build's hook (another path) is replaced too.
    const moved = hookInstall('claude', 'node', '/new place/dist/mcpBridge.js') as AgentFileChange;
    const replaced = JSON.parse(moved.apply(once)) as {
      hooks: { PreToolUse: Array<{ hooks: Array<{ command: string }> }> };
    };
    assert.deepEqual(
      replaced.hooks.PreToolUse.map((entry) => entry.hooks[0].command),
      ["node '/new place/dist/mcpBridge.js' hook"],
    );
    // A group of the user's that also holds our hook keeps the user's hook.
    const shared = JSON.stringify({
      hooks: {
        PostToolUse: [{ matcher: 'Edit', hooks: [{ type: 'command', command: 'prettier --write' }, ours.hooks[0]] }],
      },
    });
    assert.deepEqual((JSON.parse(claude.apply(shared)) as { hooks: { PostToolUse: unknown[] } }).hooks.PostToolUse, [
      { matcher: 'Edit', hooks: [{ type: 'command', command: 'prettier --write' }] },
      ours,
    ]);
    assert.throws(() => claude.apply('{ // a comment\n}'), /not plain JSON/);
    assert.throws(() => claude.apply('{"hooks": {"PreToolUse": 1}}'), /"hooks.PreToolUse" that is not a list/);

    const gemini = JSON.parse((hookInstall('gemini', 'node', '/b.js') as AgentFileChange).apply(undefined)) as {
      hooks: Record<string, Array<{ matcher: string; hooks: Array<{ timeout: number }> }>>;
    };
    assert.deepEqual(Object.keys(gemini.hooks), ['BeforeTool', 'AfterTool']);
    assert.equal(gemini.hooks.AfterTool[0].matcher, 'write_file|replace');
    assert.equal(gemini.hooks.AfterTool[0].hooks[0].timeout, 30_000);
    assert.equal((hookInstall('codex', 'node', '/b.js') as AgentFileChange).file, '.codex/hooks.json');
    assert.equal(hookInstall('mcp.json', 'node', '/b.js'), undefined);
  });

  it("puts the guidance where each agent reads project guidance: Claude Code's own skill, a section of AGENTS.md or GEMINI.md written again in place", () => {
    const claude = guidanceInstall('claude', 'Use lsp.\nUse edit.') as AgentFileChange;
    assert.equal(claude.file, '.claude/skills/agent-live-tools/SKILL.md');
    assert.match(
      claude.apply(undefined),
      /^---\nname: agent-live-tools\ndescription: .+\n---\n\n## Agent Live Tools \(MCP server "live-tools"\)\n\n- Use lsp\.\n- Use edit\.\n$/,
    );
    const codex = guidanceInstall('codex', 'Use lsp.') as AgentFileChange;
    assert.equal(codex.file, 'AGENTS.md');
    const first = codex.apply('# Project\n\nOur rules.\n');
    assert.match(
      first,
      /^# Project\n\nOur rules\.\n\n<!-- agent-live-tools: start[^\n]*-->\n## Agent Live Tools[\s\S]*- Use lsp\.\n<!-- agent-live-tools: end -->\n$/,
    );
    const again = (guidanceInstall('codex', 'Use ast_grep.') as AgentFileChange).apply(`${first}\nMore of ours.\n`);
    assert.match(again, /- Use ast_grep\.\n<!-- agent-live-tools: end -->\n\nMore of ours\.\n$/);
    assert.doesNotMatch(again, /Use lsp/);
    assert.equal((guidanceInstall('gemini', 'x') as AgentFileChange).file, 'GEMINI.md');
    assert.equal(guidanceInstall('mcp.json', 'x'), undefined);
  });
});

describe('MCP endpoint: a message past the cap ends the connection', () => {
  async function through(max: number, chunks: string[]): Promise<{ passed: string; exceeded: number }> {
    let exceeded = 0;
    const limit = new LineLimit(max, () => exceeded++);
    let passed = '';
    limit.on('data', (chunk: Buffer) => (passed += chunk.toString('utf8')));
    for (const chunk of chunks) limit.write(Buffer.from(chunk));
    limit.end();
    await new Promise((resolve) => limit.on('end', resolve));
    return { passed, exceeded };
  }

  it('passes lines up to the cap unchanged, across chunks', async () => {
    assert.deepEqual(await through(5, ['abc', 'de\nfg', 'hij\n', '12345\n']), {
      passed: 'abcde\nfghij\n12345\n',
      exceeded: 0,
    });
  });

  it('stops at a line past the cap, whether it grows over chunks, ends in one or sits inside one', async () => {
    assert.equal((await through(5, ['abc', 'def'])).exceeded, 1);
    assert.equal((await through(5, ['abcd', 'ef\nok\n'])).exceeded, 1);
    assert.equal((await through(5, ['ok\nabcdefgh\nok\n'])).exceeded, 1);
    const stopped = await through(5, ['ok\n', 'abcdefgh', 'later\n']);
    assert.deepEqual(stopped, { passed: 'ok\n', exceeded: 1 });
  });
});

describe('MCP endpoint: a session over a real socket', () => {
  const tempDir = suiteTempDir('mcp-session');

  /** A session served on one end of a Unix socket; the other end is the client's. */
  async function connected(
    host: McpHost,
  ): Promise<{ client: net.Socket; session: McpSession; received: () => string }> {
    const socketPath = path.join(tempDir(), 's.sock');
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(socketPath, resolve));
    const accepted = new Promise<net.Socket>((resolve) => server.once('connection', resolve));
    const client = net.connect(socketPath);
    const session = serveSession(await accepted, host, { id: 's1', bridge: 'test', version: '0' });
    server.close();
    let received = '';
    client.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
    return { client, session, received: () => received };
  }

  const echoLength: McpHost = {
    tools: () => [],
    call: (_name, input) =>
      Promise.resolve({
        content: [{ type: 'text', text: String((input as { text: string }).text.length) }],
        isError: false,
      }),
  };

  it('takes a message larger than the SDK’s own 10 MiB cap, sent in many chunks', async () => {
    const { client, session, received } = await connected(echoLength);
    const text = 'x'.repeat(20 * 1024 * 1024);
    const call = `${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text } } })}\n`;
    client.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } })}\n`,
    );
    for (let at = 0; at < call.length; at += 64 * 1024) client.write(call.slice(at, at + 64 * 1024));
    for (let waited = 0; !received().includes('"id":2') && waited < 200; waited++)
      await new Promise((resolve) => setTimeout(resolve, 50));
    const reply = received()
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { id: number; result?: { content: { text: string }[] } })
      .find((message) => message.id === 2);
    assert.equal(reply?.result?.content[0]?.text, String(text.length));
    client.destroy();
    await session.closed;
  });

  it('a message past the cap is answered with an invalid-request error naming the cap, and the connection ends', async () => {
    const { client, session, received } = await connected(echoLength);
    const ended = new Promise<void>((resolve) => client.on('end', resolve));
    const piece = Buffer.alloc(1024 * 1024, 0x61);
    for (let written = 0; written <= MAX_MESSAGE_BYTES; written += piece.length) {
      if (!client.write(piece)) await Promise.race([new Promise((resolve) => client.once('drain', resolve)), ended]);
      if (received()) break;
    }
    await ended;
    const reply = JSON.parse(received().trim()) as { id: null; error: { code: number; message: string } };
    assert.equal(reply.error.code, -32600);
    assert.match(reply.error.message, /over 64 MiB .* the connection is closed/);
    client.destroy();
    await session.closed;
  });
});

describe('MCP bridge: which window it connects to', function () {
  this.timeout(30_000);
  const tempDir = suiteTempDir('mcp-bridge');
  const BRIDGE = path.join(repoRoot(), 'dist', 'mcpBridge.js');

  /** A server on a socket in `dir` (made with `mode`) that keeps what it receives and answers a hello. */
  async function window(
    dir: string,
    mode: number,
  ): Promise<{ socket: string; received: () => string; close: () => void }> {
    fs.mkdirSync(dir, { recursive: true });
    fs.chmodSync(dir, mode);
    const socket = path.join(dir, 'mcp.sock');
    let received = '';
    const server = net.createServer((connection) => {
      connection.on('data', (chunk: Buffer) => {
        received += chunk.toString('utf8');
        if (received.includes('\n')) connection.write('{"ok":true}\n');
      });
    });
    await new Promise<void>((resolve) => server.listen(socket, resolve));
    return { socket, received: () => received, close: () => server.close() };
  }

  function runBridge(cwd: string, state: string): ChildProcess {
    const env: NodeJS.ProcessEnv = { ...process.env, [STATE_DIR_VARIABLE]: state };
    delete env[SOCKET_VARIABLE];
    delete env[TOKEN_VARIABLE];
    return spawn(process.execPath, [BRIDGE], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
  }

  it('passes over a window whose socket it cannot trust (the token never goes there) and one it cannot reach, and connects to the next', async () => {
    const project = fs.realpathSync(tempDir());
    const inner = path.join(project, 'inner');
    fs.mkdirSync(inner);
    const state = path.join(project, 'state');
    fs.mkdirSync(state, { mode: 0o700 });
    const hostile = await window(path.join(project, 'hostile'), 0o755);
    const good = await window(path.join(project, 'good'), 0o700);
    const started = processStartTime(process.pid);
    const write = (name: string, socket: string, token: string, folder: string) =>
      fs.writeFileSync(
        path.join(state, `${name}.json`),
        JSON.stringify({ socket, token, folders: [folder], pid: process.pid, started }),
      );
    // The deepest folders first: the untrusted socket, then one that is gone, then the good window.
    write('hostile', hostile.socket, 'hostile-token', inner);
    write('gone', path.join(project, 'good', 'gone.sock'), 'gone-token', path.join(project));
    write('good', good.socket, 'good-token', '/');
    const bridge = runBridge(inner, state);
    try {
      for (let waited = 0; !good.received().includes('\n') && waited < 100; waited++)
        await new Promise((resolve) => setTimeout(resolve, 100));
      assert.equal((JSON.parse(good.received().split('\n')[0]) as { token: string }).token, 'good-token');
      assert.equal(hostile.received(), '');
    } finally {
      bridge.kill();
      hostile.close();
      good.close();
    }
  });

  it('with no window it can trust, says why on one line and exits', async () => {
    const project = fs.realpathSync(tempDir());
    const state = path.join(project, 'state-none');
    fs.mkdirSync(state, { mode: 0o700 });
    const hostile = await window(path.join(project, 'hostile-only'), 0o775);
    fs.writeFileSync(
      path.join(state, 'w.json'),
      JSON.stringify({ socket: hostile.socket, token: 't', folders: [project], pid: process.pid }),
    );
    const bridge = runBridge(project, state);
    let stderr = '';
    bridge.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const code = await new Promise<number | null>((resolve) => bridge.on('exit', resolve));
    hostile.close();
    assert.equal(code, 1);
    assert.match(
      stderr,
      /^live-tools-mcp: no window could be reached \(not trusted: .*hostile-only is open to other users \(mode 775\)\)\. Is the window still open\?/,
    );
    assert.equal(stderr.trim().split('\n').length, 1);
    assert.equal(hostile.received(), '');
  });
});

describe("MCP endpoint: a connection's hello", () => {
  const tempDir = suiteTempDir('mcp-hello');

  /** A connection to an endpoint that runs `acceptHello`; what the client receives, and what the endpoint saw. */
  async function connect(timeoutMs?: number) {
    const socketPath = path.join(tempDir(), 'h.sock');
    const seen: { refused?: string; client?: string; after?: string } = {};
    const server = net.createServer((connection) =>
      acceptHello(connection, {
        token: 'the-token',
        timeoutMs,
        refused: (why) => (seen.refused = why),
        authenticated: (authenticated, client) => {
          seen.client = client;
          authenticated.once('data', (chunk: Buffer) => (seen.after = chunk.toString('utf8')));
          authenticated.resume();
        },
      }),
    );
    await new Promise<void>((resolve) => server.listen(socketPath, resolve));
    const client = net.connect(socketPath);
    let received = '';
    client.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
    const ended = new Promise<void>((resolve) => client.on('end', resolve));
    const close = () => {
      client.destroy();
      server.close();
    };
    return { client, seen, received: () => received, ended, close };
  }

  const until = async (what: () => unknown) => {
    for (let waited = 0; !what() && waited < 100; waited++) await new Promise((resolve) => setTimeout(resolve, 20));
  };

  it('the right token is answered ok, the client named on one bounded line, and what came after the hello is kept', async () => {
    const { client, seen, received, close } = await connect();
    try {
      client.write(`${JSON.stringify({ token: 'the-token', client: `agent\n${'x'.repeat(300)}` })}\n{"jsonrpc":"2.0"}`);
      await until(() => seen.after);
      assert.equal(received(), '{"ok":true}\n');
      assert.ok(seen.client && !seen.client.includes('\n') && seen.client.length <= 100, seen.client);
      assert.equal(seen.after, '{"jsonrpc":"2.0"}');
    } finally {
      close();
    }
  });

  it('a wrong token, a first line past 1 KiB and silence are each refused with one line, and the connection ends', async () => {
    for (const [what, send, timeoutMs] of [
      ['wrong token', `${JSON.stringify({ token: 'the-tokeN', client: 'x' })}\n`, undefined],
      ['too long', 'x'.repeat(2000), undefined],
      ['silence', '', 200],
    ] as const) {
      const { client, seen, received, ended, close } = await connect(timeoutMs);
      try {
        if (send) client.write(send);
        await ended;
        const reply = JSON.parse(received()) as { ok: boolean; error: string };
        assert.equal(reply.ok, false, what);
        assert.match(reply.error, what === 'silence' ? /no token was sent in time/ : /wrong or missing token/, what);
        assert.equal(seen.refused, reply.error);
        assert.equal(seen.client, undefined, `${what}: not authenticated`);
      } finally {
        close();
      }
    }
  });
});

describe('MCP endpoint: the window side (socket, record, sessions)', function () {
  this.timeout(20_000);
  const tempDir = suiteTempDir('mcp-window');
  const host: McpHost = { tools: () => [], call: () => Promise.resolve({ content: [], isError: false }) };

  /** An endpoint serving real MCP sessions; what it logged, and the conversations it ended. */
  async function openEndpoint(name: string) {
    const logged: string[] = [];
    const ended: string[] = [];
    const log = {
      ...nullLogger,
      info: (_: string, line: string) => logged.push(line),
      warn: (_: string, line: string) => logged.push(line),
    };
    const stateDir = path.join(tempDir(), `${name}-state`);
    const sockets = path.join(tempDir(), `${name}-sockets`);
    fs.mkdirSync(sockets);
    const endpoint = EndpointServer.open({
      log,
      stateDir,
      tempDir: sockets,
      folders: () => ['/work/repo'],
      serve: (connection, id, bridge) => serveSession(connection, host, { id, bridge, version: '0' }),
      sessionsChanged: () => undefined,
      sessionClosed: (session) => Promise.resolve(void ended.push(session.peer.id)),
    });
    assert.ok(endpoint);
    await endpoint.listening;
    return { endpoint, logged, ended, stateDir };
  }

  /** Connects and sends a hello; the first line the endpoint answers. */
  async function hello(socket: string, token: string): Promise<{ client: net.Socket; reply: string }> {
    const client = net.connect(socket);
    client.write(`${JSON.stringify({ token, client: 'test-bridge' })}\n`);
    const reply = await new Promise<string>((resolve) => {
      let received = '';
      client.on('data', (chunk: Buffer) => {
        received += chunk.toString('utf8');
        if (received.includes('\n')) resolve(received.split('\n')[0]);
      });
    });
    return { client, reply };
  }

  const until = async (what: () => unknown) => {
    for (let waited = 0; !what() && waited < 200; waited++) await new Promise((resolve) => setTimeout(resolve, 20));
  };

  it('listens on a socket only this user can use, writes its record once listening (removing those of windows that are gone), and removes both when disposed', async () => {
    const stateDir = path.join(tempDir(), 'first-state');
    fs.mkdirSync(stateDir, { mode: 0o700 });
    fs.writeFileSync(
      path.join(stateDir, 'crashed.json'),
      JSON.stringify({ socket: '/gone.sock', token: 't', folders: ['/old'], pid: 2 ** 22 + 17 }),
    );
    const { endpoint, logged } = await openEndpoint('first');
    const socketDir = path.dirname(endpoint.socket);
    assert.equal(fs.statSync(socketDir).mode & 0o777, 0o700);
    assert.equal(fs.statSync(endpoint.socket).mode & 0o777, 0o600);
    assert.equal(unsafeSocket(endpoint.socket), undefined);
    assert.deepEqual(fs.readdirSync(stateDir), [path.basename(endpoint.discoveryFile)]);
    assert.equal(fs.statSync(endpoint.discoveryFile).mode & 0o777, 0o600);
    const written = JSON.parse(fs.readFileSync(endpoint.discoveryFile, 'utf8')) as WindowRecord;
    assert.deepEqual(written, {
      socket: endpoint.socket,
      token: endpoint.token,
      folders: ['/work/repo'],
      pid: process.pid,
      started: processStartTime(process.pid),
    });
    assert.ok(
      logged.some(
        (line) => line.startsWith('removed the record of a window that is gone') && line.includes('crashed.json'),
      ),
    );
    endpoint.dispose();
    assert.equal(fs.existsSync(endpoint.discoveryFile), false);
    assert.equal(fs.existsSync(socketDir), false);
  });

  it('serves a session per connection that sent the token, with ids unique beyond this window; a wrong token gets none; a closed session ends its conversation', async () => {
    const one = await openEndpoint('one');
    const two = await openEndpoint('two');
    const clients: net.Socket[] = [];
    try {
      const refused = await hello(one.endpoint.socket, two.endpoint.token);
      clients.push(refused.client);
      assert.equal((JSON.parse(refused.reply) as { ok: boolean }).ok, false);
      assert.equal(one.endpoint.sessions().size, 0);
      for (const endpoint of [one.endpoint, one.endpoint, two.endpoint]) {
        const accepted = await hello(endpoint.socket, endpoint.token);
        clients.push(accepted.client);
        assert.equal(accepted.reply, '{"ok":true}');
      }
      await until(() => one.endpoint.sessions().size === 2 && two.endpoint.sessions().size === 1);
      const ids = [...one.endpoint.sessions().keys(), ...two.endpoint.sessions().keys()];
      assert.equal(new Set(ids).size, 3, ids.join(' '));
      assert.match(ids[0], /^[0-9a-f]{16}-1$/);
      assert.match(ids[1], /^[0-9a-f]{16}-2$/);
      assert.notEqual(ids[0].split('-')[0], ids[2].split('-')[0]);
      // The client hangs up: its session is gone and its conversation ended.
      clients[1].destroy();
      await until(() => one.ended.length === 1);
      assert.deepEqual(one.ended, [ids[0]]);
      assert.deepEqual([...one.endpoint.sessions().keys()], [ids[1]]);
      assert.equal(await one.endpoint.closeSessions(), 1);
      await until(() => one.endpoint.sessions().size === 0);
      assert.deepEqual(one.ended, [ids[0], ids[1]]);
    } finally {
      for (const client of clients) client.destroy();
      one.endpoint.dispose();
      two.endpoint.dispose();
    }
  });
});
