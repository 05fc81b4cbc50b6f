/**
 * `live-tools-mcp hook`: the events of Claude Code, Codex CLI and Gemini CLI read into the files an
 * edit touches, and one run against a real endpoint serving a real MCP session (the SDK's server):
 * before an edit it asks quietly, after it prints the window's answer as the agent's additional
 * context, under the agent's session; a window that is not there, or slow, is said, never as clean.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PassThrough } from 'node:stream';
import { STATE_DIR_VARIABLE } from '../../src/mcp/endpoint';
import { EndpointServer } from '../../src/mcp/endpointServer';
import { HookEvent, hookOutput, parseHookEvent, patchFiles, runHook } from '../../src/mcp/hook';
import { McpHost, McpPeer, serveSession } from '../../src/mcp/mcpSession';
import { nullLogger } from '../../src/log/logger';
import { suiteTempDir } from '../support/tempDir';

describe('MCP hook: reading the agents’ events', () => {
  it('Claude Code: Edit, Write, MultiEdit and NotebookEdit name their file; other tools and events do nothing', () => {
    const event = (tool: string, input: Record<string, unknown>, name = 'PostToolUse') => ({
      session_id: 'abc-123',
      cwd: '/work/p',
      hook_event_name: name,
      tool_name: tool,
      tool_input: input,
    });
    assert.deepEqual(parseHookEvent(event('Edit', { file_path: '/work/p/src/a.ts', old_string: 'x' }), '/'), {
      eventName: 'PostToolUse',
      phase: 'after',
      agentSession: 'claude:abc-123',
      cwd: '/work/p',
      files: ['/work/p/src/a.ts'],
    });
    assert.equal(
      (parseHookEvent(event('Write', { file_path: 'b.ts' }, 'PreToolUse'), '/') as { phase: string }).phase,
      'before',
    );
    assert.deepEqual((parseHookEvent(event('NotebookEdit', { notebook_path: 'n.ipynb' }), '/') as HookEvent).files, [
      '/work/p/n.ipynb',
    ]);
    assert.equal(typeof parseHookEvent(event('Bash', { command: 'ls' }), '/'), 'string');
    assert.equal(typeof parseHookEvent(event('Edit', { file_path: 'a.ts' }, 'Stop'), '/'), 'string');
    assert.equal(typeof parseHookEvent([], '/'), 'string');
  });

  it('Gemini CLI: replace and write_file, a relative path resolved against its cwd; Codex: the files of apply_patch', () => {
    const gemini = parseHookEvent(
      {
        session_id: 's',
        cwd: '/w',
        hook_event_name: 'AfterTool',
        tool_name: 'replace',
        tool_input: { file_path: 'src/x.py' },
      },
      '/',
    );
    assert.deepEqual(gemini, {
      eventName: 'AfterTool',
      phase: 'after',
      agentSession: 'gemini:s',
      cwd: '/w',
      files: ['/w/src/x.py'],
    });
    const patch = [
      '*** Begin Patch',
      '*** Update File: src/a.ts',
      '@@',
      '-x',
      '+y',
      '*** Update File: b.ts',
      '*** Move to: c.ts',
      '*** Delete File: d.ts',
      '*** Add File: e.ts',
      '+hi',
      '*** End Patch',
    ].join('\n');
    assert.deepEqual(patchFiles(patch), ['src/a.ts', 'b.ts', 'c.ts', 'd.ts', 'e.ts']);
    // Trailing blanks are trimmed, in time linear in the line (a lazy group before \s*$ was quadratic).
    const blanks = ' '.repeat(200_000);
    const started = performance.now();
    assert.deepEqual(patchFiles(`*** Update File: a.ts${blanks}\n*** Add File: ${blanks}x`), ['a.ts', `${blanks}x`]);
    assert.ok(performance.now() - started < 200, `${performance.now() - started} ms`);
    const codex = parseHookEvent(
      {
        session_id: 't',
        turn_id: '1',
        cwd: '/w',
        hook_event_name: 'PreToolUse',
        tool_name: 'apply_patch',
        tool_input: { command: patch },
      },
      '/',
    ) as HookEvent;
    assert.equal(codex.agentSession, 'codex:t');
    assert.deepEqual(codex.files, ['/w/src/a.ts', '/w/b.ts', '/w/c.ts', '/w/d.ts', '/w/e.ts']);
    // A session id is kept to plain characters, bounded.
    const odd = parseHookEvent(
      {
        session_id: 'a b\n'.repeat(100),
        cwd: '/w',
        hook_event_name: 'PostToolUse',
        tool_name: 'Edit',
        tool_input: { file_path: 'a' },
      },
      '/',
    ) as { agentSession: string };
    assert.match(odd.agentSession, /^claude:[\w.:@-]{1,180}$/);
  });

  it('prints the context every agent adds for its model', () => {
    assert.deepEqual(JSON.parse(hookOutput('PostToolUse', 'Diagnostics: 1 new problem')), {
      hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'Diagnostics: 1 new problem' },
    });
  });
});

describe('MCP hook: one run against a window', function () {
  this.timeout(20_000);
  const tempDir = suiteTempDir('mcp-hook');

  async function run(
    event: unknown,
    env: NodeJS.ProcessEnv,
    budgetMs?: number,
  ): Promise<{ code: number; stdout: string; stderr: string }> {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    let out = '';
    let err = '';
    stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
    stdin.end(JSON.stringify(event));
    const code = await runHook(stdin, stdout, stderr, env, '/', budgetMs);
    return { code, stdout: out, stderr: err };
  }

  it('asks lsp diagnostics for the edited files under the agent session, quietly before the edit and printed after it', async () => {
    const project = path.join(tempDir(), 'project');
    fs.mkdirSync(path.join(project, 'src'), { recursive: true });
    const calls: Array<{ name: string; input: unknown; session?: string }> = [];
    let slow = false;
    const host: McpHost = {
      tools: () => [],
      call: async (name: string, input: unknown, peer: McpPeer) => {
        calls.push({ name, input, session: peer.agentSession });
        if (slow) await new Promise((resolve) => setTimeout(resolve, 2000));
        return {
          content: [{ type: 'text', text: `Diagnostics since your last look: 1 new problem (call ${calls.length}).` }],
          isError: false,
        };
      },
    };
    const stateDir = path.join(tempDir(), 'state');
    const sockets = path.join(tempDir(), 'sockets');
    fs.mkdirSync(sockets);
    const endpoint = EndpointServer.open({
      log: nullLogger,
      stateDir,
      tempDir: sockets,
      folders: () => [fs.realpathSync(project)],
      serve: (connection, id, bridge, agentSession) =>
        serveSession(connection, host, { id, bridge, version: '0', agentSession }),
      sessionsChanged: () => undefined,
      sessionClosed: () => Promise.resolve(),
    });
    assert.ok(endpoint);
    await endpoint.listening;
    const env = { [STATE_DIR_VARIABLE]: stateDir };
    const event = (name: string) => ({
      session_id: 'sess-1',
      cwd: project,
      hook_event_name: name,
      tool_name: 'Edit',
      tool_input: { file_path: path.join(project, 'src/a.ts') },
    });
    try {
      const before = await run(event('PreToolUse'), env);
      assert.deepEqual([before.code, before.stdout], [0, '']);
      const after = await run(event('PostToolUse'), env);
      assert.equal(after.code, 0);
      const context = JSON.parse(after.stdout) as {
        hookSpecificOutput: { hookEventName: string; additionalContext: string };
      };
      assert.equal(context.hookSpecificOutput.hookEventName, 'PostToolUse');
      assert.match(
        context.hookSpecificOutput.additionalContext,
        /after this edit:\nDiagnostics since your last look: 1 new problem \(call 2\)\./,
      );
      const files = [path.join(project, 'src/a.ts')];
      assert.deepEqual(calls, [
        { name: 'lsp', input: { action: 'diagnostics', files, baseline: true }, session: 'claude:sess-1' },
        { name: 'lsp', input: { action: 'diagnostics', files }, session: 'claude:sess-1' },
      ]);
      // Past its budget the answer is pending, never clean.
      slow = true;
      const late = await run(event('PostToolUse'), env, 300);
      assert.match(late.stdout, /Diagnostics pending: the editor did not answer within 0\.3 s; not verified/);
    } finally {
      endpoint.dispose();
    }
    // No window: the model is told it was not checked; the edit is never blocked.
    const none = await run(event('PostToolUse'), env);
    assert.equal(none.code, 0);
    assert.match(none.stdout, /Not checked: /);
  });
});
