/**
 * Durations from outside (a model's timeout, a setting's minutes) past Node's timer limit: a
 * `setTimeout` of 2^31 ms or more fires after 1 ms, so each engine that arms such a timer is given
 * one and must not fire at once. One row per engine; the debug engine's are in debugController.test.ts.
 */
import * as assert from 'node:assert/strict';
import * as os from 'node:os';
import * as path from 'node:path';
import { MAX_TIMER_MS, timerDelay } from '../../src/async/timers';
import { withDeadline } from '../../src/async/deadline';
import { Kernel } from '../../src/kernels/kernel';
import { pythonLaunch } from '../../src/kernels/pythonKernel';
import { runToCompletion } from '../../src/process/childProcess';
import { QuestionBoard } from '../../src/questions/questionBoard';
import { ModelTurn, WorkerHost, WorkerModel, WorkerPool } from '../../src/vibe/vibeWorkers';
import { settlesWithin } from './support/settles';
import { repoRoot } from '../support/repoRoot';

/** Far past the limit, as a model or a setting could write it (1e10 ms overflows to 1 ms). */
const HUGE_MS = 1e10;
const driverPath = path.join(repoRoot(), 'src', 'kernels', 'python', 'kernel.py');

const workerHost: WorkerHost = {
  needsApproval: () => false,
  approve: async () => true,
  invokeTool: async () => '',
  onChange: () => undefined,
};

function modelAnswering(respond: (signal: AbortSignal) => Promise<ModelTurn>): WorkerModel {
  return { name: 'slow', respond: (_transcript, signal) => respond(signal) };
}

describe('timers with durations from outside', () => {
  it('timerDelay keeps a delay setTimeout honours', () => {
    assert.deepEqual(
      [timerDelay(-5), timerDelay(0), timerDelay(1500), timerDelay(HUGE_MS), timerDelay(Infinity), timerDelay(NaN)],
      [0, 0, 1500, MAX_TIMER_MS, MAX_TIMER_MS, 0],
    );
    assert.equal(MAX_TIMER_MS, 2_147_483_647);
  });

  it('withDeadline: a deadline past the limit does not pass at once', async () => {
    let finish!: () => void;
    const work = new Promise<void>((resolve) => (finish = resolve));
    const bounded = withDeadline(work, HUGE_MS / 1000, 'nothing');
    assert.equal(await settlesWithin(bounded, 200), false);
    finish(); // which clears the deadline's timer
    await bounded;
  });

  it('ask_user: a card whose time limit is past the limit does not expire at once', async () => {
    const board = new QuestionBoard();
    const { outcome } = board.ask(
      { question: 'Which?', options: [{ label: 'a' }], allowFreeText: false, multiSelect: false },
      HUGE_MS,
    );
    try {
      assert.equal(await settlesWithin(outcome, 200), false);
    } finally {
      board.dispose();
    }
  });

  it('vibe_wait: a wait past the limit waits; a time budget past it does not stop the worker', async () => {
    const slowModel = modelAnswering(
      (signal) =>
        new Promise((resolve, reject) => {
          const timer = setTimeout(() => resolve({ text: 'done', toolCalls: [] }), 400);
          signal.addEventListener('abort', () => (clearTimeout(timer), reject(new Error('aborted'))));
        }),
    );
    const pool = new WorkerPool(workerHost, () => ({ maxTurns: 5, maxMinutes: HUGE_MS / 60_000 }));
    try {
      const { id } = pool.spawn({ brief: 'work', label: 'slow', model: slowModel });
      const waited = pool.wait(id, HUGE_MS);
      assert.equal(await settlesWithin(waited, 200), false, 'vibe_wait answered at once');
      const { finished, worker } = await waited;
      assert.equal(finished, true);
      assert.equal(worker.status, 'done', `the worker ended: ${worker.status} ${worker.result ?? ''}`);
    } finally {
      pool.disposeAll();
    }
  });

  it('eval: an idle budget past the limit does not interrupt the cell at once', async function () {
    this.timeout(30_000);
    const kernel = new Kernel({ launch: pythonLaunch('/usr/bin/python3', driverPath), cwd: os.tmpdir() });
    try {
      const result = await kernel.execute('import time\ntime.sleep(0.3)\n"slept"', {
        idleBudgetSeconds: HUGE_MS / 1000,
      });
      assert.equal(result.stoppedBecause, undefined, JSON.stringify(result.parts));
      assert.equal(result.status, 'ok');
    } finally {
      await kernel.dispose();
    }
  });

  it('a project check: a time limit past the limit does not stop the process at once', async () => {
    const done = await runToCompletion('sleep', ['0.3'], { cwd: os.tmpdir(), timeoutSeconds: HUGE_MS / 1000 });
    assert.equal(done.stoppedBecause, undefined);
    assert.equal(done.exitCode, 0);
  });
});
