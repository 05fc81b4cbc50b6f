/**
 * The worker loop with a scripted model (a stand-in for a language model) and recorded tools:
 * tool calls run and feed back, approvals gate write tools, messages arrive at tool boundaries,
 * finished workers continue on a message, kill, budgets, and clear errors.
 */
import * as assert from 'node:assert/strict';
import {
  ModelTurn,
  NotYourWorker,
  TranscriptEntry,
  UnknownWorker,
  WorkerHost,
  WorkerModel,
  WorkerPool,
  WorkerSummary,
  WorkerTier,
} from '../../src/vibe/vibeWorkers';

type Step = ModelTurn | ((transcript: readonly TranscriptEntry[]) => ModelTurn | Promise<ModelTurn>);

/** Answers each request with the next scripted step; a step may look at the transcript. */
class ScriptedModel implements WorkerModel {
  readonly seen: TranscriptEntry[][] = [];
  constructor(
    readonly name: string,
    private readonly steps: Step[],
  ) {}

  async respond(transcript: readonly TranscriptEntry[], signal: AbortSignal): Promise<ModelTurn> {
    this.seen.push([...transcript]);
    const step = this.steps.shift();
    if (!step) throw new Error('the script ran out');
    if (signal.aborted) throw new Error('aborted');
    return typeof step === 'function' ? step(transcript) : step;
  }
}

const call = (name: string, input: unknown = {}, callId = `${name}-${Math.random()}`) => ({ callId, name, input });
const say = (text: string): ModelTurn => ({ text, toolCalls: [] });

function makeHost(
  models: Partial<Record<WorkerTier, WorkerModel>>,
  options: { approve?: (tool: string) => Promise<boolean> | boolean } = {},
) {
  const invoked: Array<{ tool: string; input: unknown }> = [];
  const approvals: string[] = [];
  const changes: WorkerSummary[] = [];
  const host: WorkerHost = {
    needsApproval: (_worker, tool) => tool === 'write',
    async approve({ tool }) {
      approvals.push(tool);
      return options.approve ? options.approve(tool) : true;
    },
    async invokeTool(_worker, tool, input) {
      invoked.push({ tool, input });
      if (tool === 'broken') throw new Error('it broke');
      return `${tool} answered ${JSON.stringify(input)}`;
    },
    onChange: (worker) => changes.push(worker),
  };
  /** Starts a worker on the model of its tier, as the editor glue does after choosing one. */
  const spawn = (pool: WorkerPool, brief: string, label: string, tier: WorkerTier = 'fast', owner?: string) => {
    const model = models[tier];
    if (!model) throw new Error(`no model for the ${tier} tier`);
    return pool.spawn({ brief, label, tier, model, owner });
  };
  return { host, invoked, approvals, changes, spawn };
}

const budget = { maxTurns: 20, maxMinutes: 1 };

describe('vibe workers', () => {
  it('runs tool calls and feeds their results back until the model answers without one', async () => {
    const model = new ScriptedModel('scripted (fast)', [
      { text: 'looking', toolCalls: [call('lsp', { action: 'status' }, 'c1')] },
      (transcript) => say(`done after ${(transcript.at(-1) as { text: string }).text}`),
    ]);
    const { host, invoked, spawn } = makeHost({ fast: model });
    const pool = new WorkerPool(host, () => budget);
    const spawned = spawn(pool, 'check the servers', 'servers');
    assert.deepEqual([spawned.id, spawned.status, spawned.model], ['w1', 'running', 'scripted (fast)']);
    const { finished, worker } = await pool.wait('w1', 5_000);
    assert.equal(finished, true);
    assert.equal(worker.status, 'done');
    assert.equal(worker.result, 'done after lsp answered {"action":"status"}');
    assert.deepEqual(invoked, [{ tool: 'lsp', input: { action: 'status' } }]);
    assert.deepEqual(
      model.seen[1].map((entry) => entry.role),
      ['brief', 'assistant', 'tool'],
    );
  });

  it("a worker's work is settled before it counts as finished, and a message sent meanwhile continues it only after that (and after resume)", async () => {
    const model = new ScriptedModel('m', [say('first'), say('second')]);
    const { host, spawn } = makeHost({ fast: model });
    const events: string[] = [];
    let settleFirst: (review: string) => void = () => undefined;
    let settles = 0;
    host.settle = (worker, keep) => {
      events.push(`settle ${worker.result} keep=${String(keep)}`);
      return ++settles === 1
        ? new Promise<string>((resolve) => (settleFirst = resolve))
        : Promise.resolve('staged as edit_2');
    };
    host.resume = async (worker) => void events.push(`resume ${worker.id}`);
    const pool = new WorkerPool(host, () => budget);
    spawn(pool, 'work', 'settled');
    const waited = pool.wait('w1', 5_000);
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(pool.list()[0].status, 'done');
    let waitEnded = false;
    void waited.then(() => (waitEnded = true));
    pool.send('w1', 'go on');
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(waitEnded, false, 'vibe_wait returns only once the work is settled');
    assert.deepEqual(events, ['settle first keep=true'], 'the continued run waits for the settle');
    settleFirst('staged as edit_1');
    await new Promise((resolve) => setTimeout(resolve, 20));
    const { worker } = await pool.wait('w1', 5_000);
    assert.deepEqual(events, ['settle first keep=true', 'resume w1', 'settle second keep=true']);
    assert.equal(worker.review, 'staged as edit_2');
    assert.equal(worker.result, 'second');
  });

  it('a worker runs on the model it was given and reports its name', () => {
    const { host, spawn } = makeHost({ good: new ScriptedModel('careful', [say('ok')]) });
    const pool = new WorkerPool(host, () => budget);
    assert.equal(spawn(pool, 'review', 'review', 'good').model, 'careful');
    assert.throws(() => spawn(pool, 'x', 'x', 'fast'), /no model for the fast tier/);
  });

  it('asks for approval before a write tool; a denial is told to the model and nothing runs', async () => {
    const model = new ScriptedModel('m', [
      { text: '', toolCalls: [call('write', { file: 'a.ts' })] },
      (transcript) => say((transcript.at(-1) as { text: string }).text),
    ]);
    const { host, invoked, approvals, spawn } = makeHost({ fast: model }, { approve: () => false });
    const pool = new WorkerPool(host, () => budget);
    spawn(pool, 'write a file', 'writer');
    const { worker } = await pool.wait('w1', 5_000);
    assert.deepEqual(approvals, ['write']);
    assert.deepEqual(invoked, []);
    assert.match(worker.result ?? '', /^The human denied this write call\. Do not retry it/);
  });

  it('shows "awaiting approval" while the human decides, and runs the tool once approved', async () => {
    let allow: (value: boolean) => void = () => undefined;
    const decided = new Promise<boolean>((resolve) => (allow = resolve));
    const model = new ScriptedModel('m', [{ text: '', toolCalls: [call('write', { file: 'b.ts' })] }, say('written')]);
    const { host, invoked, spawn } = makeHost({ fast: model }, { approve: () => decided });
    const pool = new WorkerPool(host, () => budget);
    spawn(pool, 'write b', 'writer');
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(pool.list()[0].status, 'awaiting approval');
    allow(true);
    const { worker } = await pool.wait('w1', 5_000);
    assert.equal(worker.result, 'written');
    assert.deepEqual(invoked, [{ tool: 'write', input: { file: 'b.ts' } }]);
  });

  it('delivers a message at the next tool boundary and notes it in the transcript', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const model = new ScriptedModel('m', [
      async () => {
        await held;
        return { text: 'first step', toolCalls: [call('lsp')] };
      },
      (transcript) =>
        say(
          `saw: ${transcript
            .filter((entry) => entry.role === 'user')
            .map((entry) => (entry as { text: string }).text)
            .join(', ')}`,
        ),
    ]);
    const { host, spawn } = makeHost({ fast: model });
    const pool = new WorkerPool(host, () => budget);
    spawn(pool, 'do it', 'steered');
    assert.equal(pool.send('w1', 'use tabs, not spaces').delivered, 'queued');
    release();
    const { worker } = await pool.wait('w1', 5_000);
    assert.equal(worker.result, 'saw: use tabs, not spaces');
    const roles = pool.transcript('w1').map((entry) => entry.role);
    assert.deepEqual(roles, ['brief', 'assistant', 'tool', 'user', 'note', 'assistant']);
  });

  it('a message to a finished worker continues it from its transcript', async () => {
    const model = new ScriptedModel('m', [
      say('first answer'),
      (transcript) => say(`continued with ${transcript.length} entries`),
    ]);
    const { host, spawn } = makeHost({ fast: model });
    const pool = new WorkerPool(host, () => budget);
    spawn(pool, 'brief', 'twice');
    await pool.wait('w1', 5_000);
    assert.equal(pool.send('w1', 'now also this').delivered, 'relaunched');
    const { worker } = await pool.wait('w1', 5_000);
    assert.equal(worker.result, 'continued with 3 entries');
  });

  it('kill stops a worker waiting on its model; wait times out without stopping it', async () => {
    const model = new ScriptedModel('m', [() => new Promise<ModelTurn>(() => undefined)]);
    const { host, spawn } = makeHost({ fast: model });
    const pool = new WorkerPool(host, () => budget);
    spawn(pool, 'never ends', 'stuck');
    const waited = await pool.wait('w1', 50);
    assert.deepEqual([waited.finished, waited.worker.status], [false, 'running']);
    const killed = pool.kill('w1');
    assert.deepEqual([killed.status, killed.result], ['killed', 'killed']);
    assert.equal((await pool.wait('w1', 50)).finished, true);
  });

  it('stops a worker at its turn budget, keeping its last message', async () => {
    const model = new ScriptedModel('m', [
      { text: 'step 1', toolCalls: [call('lsp')] },
      { text: 'step 2', toolCalls: [call('lsp')] },
      say('never reached'),
    ]);
    const { host, spawn } = makeHost({ fast: model });
    const pool = new WorkerPool(host, () => ({ maxTurns: 2, maxMinutes: 1 }));
    spawn(pool, 'loop', 'looper');
    const { worker } = await pool.wait('w1', 5_000);
    assert.equal(worker.status, 'failed');
    assert.equal(worker.result, 'stopped: its budget of 2 model turns ran out. Its last message: step 2');
  });

  it('a failing tool is an error result for the model, a failing model fails the worker, and unknown ids are named', async () => {
    const model = new ScriptedModel('m', [{ text: '', toolCalls: [call('broken')] }]);
    const { host, spawn } = makeHost({ fast: model });
    const pool = new WorkerPool(host, () => budget);
    spawn(pool, 'break', 'breaker');
    const { worker } = await pool.wait('w1', 5_000);
    assert.equal(worker.status, 'failed');
    assert.equal(worker.result, 'the worker failed: the script ran out');
    assert.equal(
      (pool.transcript('w1').find((entry) => entry.role === 'tool') as { text: string }).text,
      'Error: broken failed: it broke',
    );
    assert.throws(
      () => pool.kill('w9'),
      (error: Error) => error instanceof UnknownWorker && error.message === 'No worker "w9"; workers: w1.',
    );
  });

  it('a worker belongs to the conversation that spawned it: another is refused, naming the owner; the human (no conversation) may stop any', async () => {
    const { host, spawn } = makeHost({ fast: new ScriptedModel('m', [say('one'), say('two')]) });
    const pool = new WorkerPool(host, () => budget);
    spawn(pool, 'first', 'mine', 'fast', 'chat-a');
    spawn(pool, 'second', 'theirs', 'fast', 'chat-b');
    await pool.wait('w1', 5_000, undefined, 'chat-a');
    const notYours = (error: unknown) =>
      error instanceof NotYourWorker && error.owner === 'chat-b' && error.id === 'w2';
    assert.throws(() => pool.send('w2', 'hi', 'chat-a'), notYours);
    assert.throws(() => pool.kill('w2', 'x', 'chat-a'), notYours);
    await assert.rejects(pool.wait('w2', 10, undefined, 'chat-a'), notYours);
    assert.deepEqual(
      pool.list('chat-a').map((worker) => worker.id),
      ['w1'],
    );
    assert.throws(
      () => pool.kill('w9', 'x', 'chat-a'),
      (error: Error) => error instanceof UnknownWorker && error.message === 'No worker "w9"; workers: w1.',
    );
    assert.equal(pool.kill('w2', 'stopped by the human').id, 'w2');
  });

  it('asks approval for each call as the host judges it, with the worker and the input', async () => {
    const model = new ScriptedModel('m', [
      { text: '', toolCalls: [call('vibe_spawn', { access: 'write' }), call('vibe_spawn', { access: 'read' })] },
      say('done'),
    ]);
    const asked: unknown[] = [];
    const { host, spawn } = makeHost({ fast: model });
    const pool = new WorkerPool(
      {
        ...host,
        needsApproval: (worker, tool, input) => (
          asked.push([worker.id, tool, input]),
          (input as { access: string }).access !== 'read'
        ),
      },
      () => budget,
    );
    spawn(pool, 'spawn two', 'spawner');
    await pool.wait('w1', 5_000);
    assert.deepEqual(asked, [
      ['w1', 'vibe_spawn', { access: 'write' }],
      ['w1', 'vibe_spawn', { access: 'read' }],
    ]);
  });
});
