import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PassThrough } from 'node:stream';
import type { DebugProtocol } from '@vscode/debugprotocol';
import {
  DapClient,
  DapRequestError,
  launchToFirstStop,
  StartedAdapter,
  startDebugpy,
  startStdioAdapter,
  startDelve,
  startLldb,
  DEBIAN_PYTHON,
} from '../support/dapClient';
import { isAlive } from '../support/processes';
import { repoRoot } from '../support/repoRoot';
import { withTempDir } from '../support/tempDir';

// These drive the real adapters .ci/run installs; a missing one fails here, it is never skipped.
const debugDir = path.join(repoRoot(), 'test', 'fixtures', 'ts-project', 'debug');

function breakLine(file: string): number {
  const index = fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .findIndex((line) => /(\/\/|#) BREAK$/.test(line));
  assert.notEqual(index, -1, `${file} has no BREAK line`);
  return index + 1;
}

interface Case {
  readonly name: string;
  readonly source: string;
  readonly timeoutMs: number;
  /** Builds what is needed in `tmp`; returns the adapter and its launch arguments. */
  start(tmp: string): Promise<{ adapter: StartedAdapter; launch: Record<string, unknown> }>;
  readonly local: string;
  readonly evaluate: { expression: string; result: RegExp };
}

/** app.py under debugpy, its adapter started by `startAdapter`. */
function debugpyCase(name: string, startAdapter: () => StartedAdapter): Case {
  const program = path.join(debugDir, 'python', 'app.py');
  return {
    name,
    source: program,
    timeoutMs: 30_000,
    local: 'prices',
    evaluate: { expression: 'prices["pear"]', result: /^5$/ },
    async start() {
      const launch = {
        program,
        python: [DEBIAN_PYTHON],
        cwd: path.dirname(program),
        console: 'internalConsole',
        justMyCode: true,
      };
      return { adapter: startAdapter(), launch };
    },
  };
}

const cases: Case[] = [
  debugpyCase('debugpy (Python)', () => startDebugpy()),
  // The debug tool starts debugpy's adapter through this script (its sockets acknowledge at once).
  debugpyCase('debugpy through src/debug/python/debugpy_adapter.py (Python)', () =>
    startStdioAdapter('python', DEBIAN_PYTHON, [path.join(repoRoot(), 'src', 'debug', 'python', 'debugpy_adapter.py')]),
  ),
  {
    name: 'lldb-vscode-16 (C)',
    source: path.join(debugDir, 'c', 'main.c'),
    timeoutMs: 30_000,
    local: 'b',
    evaluate: { expression: 'b.prices[1]', result: /^5$/ },
    async start(tmp) {
      const program = path.join(tmp, 'main');
      execFileSync('gcc', ['-g', '-O0', '-o', program, path.join(debugDir, 'c', 'main.c')]);
      return { adapter: startLldb(), launch: { program, cwd: tmp, args: [], env: ['DEBUG_FIXTURE=1'] } };
    },
  },
  {
    name: 'lldb-vscode-16 (Rust)',
    source: path.join(debugDir, 'rust', 'main.rs'),
    timeoutMs: 60_000,
    local: 'basket',
    evaluate: { expression: 'sum', result: /^0$/ },
    async start(tmp) {
      const program = path.join(tmp, 'main');
      execFileSync('rustc', ['-g', '-o', program, path.join(debugDir, 'rust', 'main.rs')]);
      return { adapter: startLldb(), launch: { program, cwd: tmp, args: [], env: [] } };
    },
  },
  {
    name: 'delve (Go)',
    source: path.join(debugDir, 'go', 'main.go'),
    timeoutMs: 90_000, // the first build of a package under dlv takes ~12 s, more on a cold cache
    local: 'b',
    evaluate: { expression: 'b.prices["pear"]', result: /^5$/ },
    async start(tmp) {
      const program = path.join(debugDir, 'go');
      // dlv runs `go build` in its own working directory, not the launch's cwd.
      return {
        adapter: await startDelve(undefined, program),
        launch: { mode: 'debug', program, output: path.join(tmp, 'debugfixture'), cwd: program },
      };
    },
  },
];

function frame(message: object): Buffer {
  const json = Buffer.from(JSON.stringify(message), 'utf8');
  return Buffer.concat([Buffer.from(`Content-Length: ${json.length}\r\n\r\n`), json]);
}

describe('DAP client framing', () => {
  function connected(): { client: DapClient; fromAdapter: PassThrough; sent: () => any[] } {
    const fromAdapter = new PassThrough();
    const toAdapter = new PassThrough();
    const chunks: Buffer[] = [];
    toAdapter.on('data', (chunk: Buffer) => chunks.push(chunk));
    const sent = (): any[] =>
      Buffer.concat(chunks)
        .toString('utf8')
        .split(/Content-Length: \d+\r\n\r\n/)
        .filter(Boolean)
        .map((json) => JSON.parse(json));
    return { client: new DapClient(fromAdapter, toAdapter), fromAdapter, sent };
  }

  it('reads messages split anywhere, even inside a multi-byte character, and several in one chunk', async () => {
    const { client, fromAdapter } = connected();
    const reply = client.request('evaluate', { expression: 'x' });
    const stopped = client.waitForEvent('stopped');
    const bytes = Buffer.concat([
      frame({
        seq: 1,
        type: 'response',
        request_seq: 1,
        command: 'evaluate',
        success: true,
        body: { result: 'café 😀' },
      }),
      frame({ seq: 2, type: 'event', event: 'stopped', body: { reason: 'step', threadId: 7 } }),
    ]);
    const cut = bytes.indexOf('😀') + 2;
    fromAdapter.write(bytes.subarray(0, 10));
    fromAdapter.write(bytes.subarray(10, cut));
    fromAdapter.write(bytes.subarray(cut));
    assert.deepEqual(await reply, { result: 'café 😀' });
    assert.deepEqual(await stopped, { reason: 'step', threadId: 7 });
  });

  it("rejects with the adapter's message on success: false, and pending requests when the connection closes", async () => {
    const { client, fromAdapter } = connected();
    const failing = client.request('launch', {});
    const pending = client.request('threads');
    fromAdapter.write(
      frame({ seq: 1, type: 'response', request_seq: 1, command: 'launch', success: false, message: 'no program' }),
    );
    await assert.rejects(
      failing,
      (error: unknown) => error instanceof DapRequestError && error.message === 'launch failed: no program',
    );
    fromAdapter.end();
    await assert.rejects(pending, /threads: the adapter connection closed/);
    await assert.rejects(client.request('threads'), /the adapter connection is closed/);
  });

  it('refuses reverse requests and times out waiting for an event', async () => {
    const { client, fromAdapter, sent } = connected();
    fromAdapter.write(frame({ seq: 1, type: 'request', command: 'runInTerminal', arguments: { args: ['x'] } }));
    await assert.rejects(client.waitForEvent('stopped', undefined, 50), /no stopped event in 50 ms/);
    const [answer] = sent();
    assert.deepEqual(
      [answer.type, answer.request_seq, answer.command, answer.success],
      ['response', 1, 'runInTerminal', false],
    );
  });
});

describe('DAP client against the real adapters', () => {
  for (const testCase of cases) {
    it(`${testCase.name}: stops at BREAK, inspects, steps, runs to the end and leaves no process`, async function () {
      this.timeout(testCase.timeoutMs + 20_000);
      await withTempDir('dap-client-', async (tmp) => {
        let adapter: StartedAdapter | undefined;
        try {
          const started = await testCase.start(tmp);
          adapter = started.adapter;
          const { client } = adapter;
          const line = breakLine(testCase.source);
          const first = await launchToFirstStop(adapter, started.launch, testCase.source, line, testCase.timeoutMs);
          assert.equal(first.stopped.reason, 'breakpoint');

          const { stackFrames } = await client.request<DebugProtocol.StackTraceResponse['body']>('stackTrace', {
            threadId: first.threadId,
          });
          assert.equal(stackFrames[0]!.line, line, JSON.stringify(stackFrames[0]));
          assert.equal(path.basename(stackFrames[0]!.source?.path ?? ''), path.basename(testCase.source));
          const frameId = stackFrames[0]!.id;
          const { scopes } = await client.request<DebugProtocol.ScopesResponse['body']>('scopes', { frameId });
          const { variables } = await client.request<DebugProtocol.VariablesResponse['body']>('variables', {
            variablesReference: scopes[0]!.variablesReference,
          });
          const local = variables.find((variable) => variable.name === testCase.local);
          assert.ok(local, `${testCase.local} not among ${variables.map((variable) => variable.name).join(', ')}`);
          assert.ok(local.variablesReference > 0, `${testCase.local} should be expandable`);
          const evaluated = await client.request<DebugProtocol.EvaluateResponse['body']>('evaluate', {
            expression: testCase.evaluate.expression,
            frameId,
            context: 'watch',
          });
          assert.match(evaluated.result, testCase.evaluate.result);

          const stepped = client.waitForEvent<DebugProtocol.StoppedEvent['body']>('stopped');
          await client.request('next', { threadId: first.threadId });
          assert.equal((await stepped).reason, 'step');

          // Run to the end: without breakpoints the program prints its line and exits.
          await client.request('setBreakpoints', { source: { path: testCase.source }, breakpoints: [] });
          const pids = adapter.pids();
          assert.ok(pids.length >= 2, `expected the adapter and the debuggee, found pids ${pids.join(', ')}`);
          const terminated = client.waitForEvent('terminated', undefined, testCase.timeoutMs);
          await client.request('continue', { threadId: first.threadId });
          await terminated;
          // delve's program output comes on dlv's stdout, a pipe apart from the DAP socket: it may trail `terminated`.
          const deadline = Date.now() + 5000;
          while (!/total 15/.test(adapter.programOutput()) && Date.now() < deadline)
            await new Promise((resolve) => setTimeout(resolve, 50));
          assert.match(adapter.programOutput(), /total 15/);

          await client.request('disconnect', { terminateDebuggee: true }).catch(() => undefined); // some adapters close at once
          await adapter.dispose();
          const left = pids.filter(isAlive);
          assert.deepEqual(left, [], `processes left behind: ${left.join(', ')}`);
        } finally {
          await adapter?.dispose();
        }
      });
    });
  }
});
