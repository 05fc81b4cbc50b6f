import * as assert from 'node:assert/strict';
import type { DebugProtocol } from '@vscode/debugprotocol';
import {
  DapRequestError,
  initialize,
  launchToFirstStop,
  StartedAdapter,
  startFaultAdapter,
} from '../support/dapClient';
import { isAlive } from '../support/processes';

// The fault-injection adapter (test/fixtures/faultAdapter) does what each mode promises.
const program = '/fault/program.txt';

describe('fault adapter', () => {
  let adapter: StartedAdapter;
  beforeEach(() => (adapter = startFaultAdapter()));
  afterEach(async () => {
    const pids = adapter.pids();
    await adapter.dispose();
    assert.deepEqual(pids.filter(isAlive), []);
  });

  async function scopeVariables(threadId: number): Promise<DebugProtocol.Variable[]> {
    const { client } = adapter;
    const { stackFrames } = await client.request<DebugProtocol.StackTraceResponse['body']>('stackTrace', { threadId });
    const { scopes } = await client.request<DebugProtocol.ScopesResponse['body']>('scopes', {
      frameId: stackFrames[0]!.id,
    });
    assert.equal(scopes.length, 1);
    return (
      await client.request<DebugProtocol.VariablesResponse['body']>('variables', {
        variablesReference: scopes[0]!.variablesReference,
      })
    ).variables;
  }

  it('normal: stops at the breakpoint, steps, evaluates by echo, runs to the end and exits on disconnect', async () => {
    const { client } = adapter;
    const first = await launchToFirstStop(adapter, { mode: 'normal', program }, program, 4);
    assert.equal(first.stopped.reason, 'breakpoint');
    const { stackFrames } = await client.request<DebugProtocol.StackTraceResponse['body']>('stackTrace', {
      threadId: first.threadId,
    });
    assert.deepEqual([stackFrames.length, stackFrames[0]!.line, stackFrames[0]!.source?.path], [1, 4, program]);
    assert.deepEqual(
      (await scopeVariables(first.threadId)).map((variable) => variable.name),
      ['count', 'nested'],
    );
    assert.equal(
      (await client.request('evaluate', { expression: 'count + 1', frameId: stackFrames[0]!.id })).result,
      'count + 1',
    );
    for (const command of ['next', 'stepIn', 'stepOut']) {
      const stepped = client.waitForEvent<DebugProtocol.StoppedEvent['body']>('stopped');
      await client.request(command, { threadId: first.threadId });
      assert.equal((await stepped).reason, 'step', command);
    }
    const terminated = client.waitForEvent('terminated');
    await client.request('continue', { threadId: first.threadId });
    await terminated;
    assert.match(adapter.programOutput(), /fault adapter: normal program\.txt/);
    const exited = new Promise((resolve) => adapter.process.once('exit', resolve));
    await client.request('disconnect', {});
    assert.equal(await exited, 0);
  });

  it('rejects an unknown mode with its own message', async () => {
    await initialize(adapter);
    await assert.rejects(adapter.client.request('launch', { mode: 'explode' }), (error: unknown) => {
      assert.ok(error instanceof DapRequestError);
      assert.match(error.message, /^launch failed: unknown mode "explode": one of crash, never_stop, huge, normal$/);
      return true;
    });
  });

  it('crash: stops at line 1, then exits with code 3 on the next continue, leaving it unanswered', async () => {
    const first = await launchToFirstStop(adapter, { mode: 'crash', program }, program, 5);
    assert.equal(first.stopped.reason, 'entry');
    const { stackFrames } = await adapter.client.request<DebugProtocol.StackTraceResponse['body']>('stackTrace', {
      threadId: first.threadId,
    });
    assert.equal(stackFrames[0]!.line, 1);
    const exitCode = new Promise((resolve) => adapter.process.once('exit', resolve));
    await assert.rejects(
      adapter.client.request('continue', { threadId: first.threadId }),
      /continue: the adapter connection closed/,
    );
    assert.equal(await exitCode, 3);
  });

  it('never_stop: runs until paused, then stops with reason pause', async () => {
    const { client } = adapter;
    const initialized = client.waitForEvent('initialized');
    await initialize(adapter);
    const launched = client.request('launch', { mode: 'never_stop', program });
    await initialized;
    await client.request('configurationDone');
    await launched;
    await assert.rejects(client.waitForEvent('stopped', undefined, 300), /no stopped event in 300 ms/);
    const paused = client.waitForEvent<DebugProtocol.StoppedEvent['body']>('stopped');
    await client.request('pause', { threadId: 1 });
    assert.equal((await paused).reason, 'pause');
  });

  it('huge: 100 frames, 500 variables, a 100,000-character value intact and a nested reference', async () => {
    const { client } = adapter;
    const first = await launchToFirstStop(adapter, { mode: 'huge', program }, program, 1);
    const stack = await client.request<DebugProtocol.StackTraceResponse['body']>('stackTrace', {
      threadId: first.threadId,
    });
    assert.deepEqual([stack.stackFrames.length, stack.totalFrames], [100, 100]);
    const paged = await client.request<DebugProtocol.StackTraceResponse['body']>('stackTrace', {
      threadId: first.threadId,
      startFrame: 20,
      levels: 20,
    });
    assert.deepEqual([paged.stackFrames.length, paged.stackFrames[0]!.name], [20, 'caller20']);
    const variables = await scopeVariables(first.threadId);
    assert.equal(variables.length, 500);
    assert.equal(variables.find((variable) => variable.name === 'long')?.value, 'x'.repeat(100_000));
    const nested = variables.find((variable) => variable.variablesReference > 0);
    assert.ok(nested);
    const children = await client.request<DebugProtocol.VariablesResponse['body']>('variables', {
      variablesReference: nested.variablesReference,
    });
    assert.deepEqual(
      children.variables.map((variable) => variable.name),
      ['inner', 'deeper'],
    );
  });
});
