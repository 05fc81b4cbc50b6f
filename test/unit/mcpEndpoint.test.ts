import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  ensurePrivateDir,
  findWindow,
  parseHello,
  readWindowRecords,
  SOCKET_VARIABLE,
  STATE_DIR_VARIABLE,
  TOKEN_VARIABLE,
  WindowRecord,
  windowFor,
} from '../../src/mcp/endpoint';
import { agentConfig, withServerAdded } from '../../src/mcp/connectConfig';
import { LineLimit } from '../../src/mcp/mcpSession';
import { suiteTempDir } from '../support/tempDir';

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
    assert.equal(windowFor(records, '/work/repo/packages/app/src'), inner);
    assert.equal(windowFor(records, '/work/repo/packages/lib'), outer);
    assert.equal(windowFor(records, '/work/repo'), outer);
    assert.equal(windowFor(records, '/srv/x/y'), other);
    // A sibling whose name starts the same is not inside.
    assert.equal(windowFor(records, '/work/repository'), undefined);
    assert.equal(windowFor(records, '/'), undefined);
  });

  it('reads the records of live windows only, leaving out stale, malformed and foreign files', () => {
    const dir = path.join(tempDir(), 'records');
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, 'live.json'), JSON.stringify(record(['/a'])));
    fs.writeFileSync(path.join(dir, 'stale.json'), JSON.stringify(record(['/b'], 2 ** 22 + 17)));
    fs.writeFileSync(path.join(dir, 'broken.json'), '{"socket": ');
    fs.writeFileSync(path.join(dir, 'wrong.json'), JSON.stringify({ socket: 1, token: 't', folders: [], pid: 1 }));
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'not a record');
    const alive = (pid: number): boolean => pid === process.pid;
    assert.deepEqual(
      readWindowRecords(dir, alive).map((found) => found.folders[0]),
      ['/a'],
    );
    assert.deepEqual(readWindowRecords(path.join(dir, 'missing')), []);
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
    assert.equal(parseHello('{"jsonrpc":"2.0","method":"initialize"}'), undefined);
    assert.equal(parseHello('GET / HTTP/1.1'), undefined);
  });

  it('the bridge takes the terminal variables first, else the discovery file of the folder, else says why not', () => {
    const state = path.join(tempDir(), 'bridge-state');
    fs.mkdirSync(state);
    const project = fs.realpathSync(tempDir());
    const fromTerminal = findWindow(
      { [SOCKET_VARIABLE]: '/s', [TOKEN_VARIABLE]: 'k', [STATE_DIR_VARIABLE]: state },
      '/',
    );
    assert.deepEqual(fromTerminal, { socket: '/s', token: 'k' });
    const none = findWindow({ [STATE_DIR_VARIABLE]: state }, project);
    assert.match(String(none), /^no VS Code window with Agent Live Tools is open \(no live window in .*bridge-state\)/);
    fs.writeFileSync(path.join(state, 'w.json'), JSON.stringify({ ...record([project]), socket: '/w', token: 'wk' }));
    const found = findWindow({ [STATE_DIR_VARIABLE]: state }, path.join(project, 'records'));
    assert.equal((found as WindowRecord).socket, '/w');
    const elsewhere = findWindow({ [STATE_DIR_VARIABLE]: state }, '/');
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
