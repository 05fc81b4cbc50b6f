/**
 * The debug engine's rules on an in-memory editor (test/unit/support/fakeDebug.ts): the time to
 * live ends a session even while a call waits on it, waits are bounded (also past Node's timer
 * limit), a cancelled call answers at once and leaves the session usable, a launch says what it
 * started, breakpoint lines may be plain numbers, and the launch confirmation shows what runs.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DebugController } from '../../src/debug/debugController';
import { FakeHost, FakeProgram } from './support/fakeDebug';
import { settlesWithin } from './support/settles';

const CONVERSATION = 'test';

/** What a cancelled call rejects with (the tool runner turns it into a CancellationError). */
const cancelled = (error: unknown): boolean => error instanceof Error && error.name === 'DebugCancelled';

describe('debug controller', () => {
  let folder: string;
  let controllers: DebugController[] = [];

  before(() => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'debug-controller-'));
    fs.writeFileSync(path.join(folder, 'app.py'), 'a = 1\nb = 2\nc = 3\n');
  });
  after(() => fs.rmSync(folder, { recursive: true, force: true }));
  afterEach(async () => {
    await Promise.all(controllers.map((controller) => controller.disposeAll()));
    controllers = [];
  });

  function setUp(programs: Record<string, FakeProgram>, ttlMs = 60_000, configurations: Record<string, Record<string, unknown>> = {}) {
    const all = { ...configurations };
    for (const name of Object.keys(programs)) all[name] ??= { name, type: 'fake', request: 'launch' };
    const host = new FakeHost(folder, all, programs);
    const controller = new DebugController(host, () => ttlMs);
    controllers.push(controller);
    const debug = (input: object, signal?: AbortSignal) => controller.run(CONVERSATION, { op: 'status', ...input }, signal);
    return { host, controller, debug };
  }

  describe('time to live', () => {
    it('ends the session while continue waits on it, and continue says so at once', async function () {
      this.timeout(15_000);
      const { host, debug } = setUp({ spin: { behaviour: 'never' } }, 1500);
      assert.match(await debug({ op: 'launch', configuration: 'spin', timeout_seconds: 1 }), /Still running after 1 s/);
      const started = Date.now();
      const continued = await debug({ op: 'continue', thread_id: 1, timeout_seconds: 3600 });
      assert.match(continued, /^The session "spin" reached its time to live \(2 s\) and was ended\. Launch again/, continued);
      assert.ok(Date.now() - started < 10_000, `continue answered after ${Date.now() - started} ms`);
      assert.equal(host.connections[0].terminated, true, 'the adapter was told to end');
      // Said once, by the call that was waiting.
      assert.match(await debug({ op: 'status' }), /^No debug session in this conversation/);
    });

    it('a call queued behind the waiting one is told the session ended', async function () {
      this.timeout(15_000);
      const { debug } = setUp({ spin: { behaviour: 'never' } }, 1500);
      await debug({ op: 'launch', configuration: 'spin', timeout_seconds: 1 });
      const continued = debug({ op: 'continue', thread_id: 1, timeout_seconds: 3600 });
      const stack = debug({ op: 'stack', thread_id: 1 });
      assert.match(await continued, /reached its time to live/);
      await assert.rejects(stack, /No debug session for op "stack"/);
    });

    it('a time to live past Node\'s timer limit (2^31 ms) does not end the session at once', async () => {
      const { debug } = setUp({ spin: { behaviour: 'never' } }, 1e9 * 60_000);
      assert.match(await debug({ op: 'launch', configuration: 'spin', timeout_seconds: 1 }), /Still running after 1 s/);
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.match(await debug({ op: 'status' }), /^Session "spin" \(fake\), running; ends by itself in \d+ min/);
    });

    it('a session that ended by itself does not take the next one down at its old time to live', async function () {
      this.timeout(15_000);
      const { host, debug } = setUp({ first: { behaviour: 'entry' }, second: { behaviour: 'never' } }, 3000);
      await debug({ op: 'launch', configuration: 'first' });
      await host.connections[0].terminate();
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await debug({ op: 'launch', configuration: 'second', timeout_seconds: 1 });
      // Past the first session's time to live (3 s after it started), 2 s into the second's.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      assert.match(await debug({ op: 'status' }), /^Session "second" \(fake\), running/);
      assert.equal(host.connections[1].terminated, false);
    });
  });

  describe('waits', () => {
    it('a timeout past Node\'s timer limit waits instead of answering after 1 ms', async () => {
      const { debug } = setUp({ spin: { behaviour: 'never' } });
      await debug({ op: 'launch', configuration: 'spin', timeout_seconds: 1 });
      const abort = new AbortController();
      const continued = debug({ op: 'continue', thread_id: 1, timeout_seconds: 1e7 }, abort.signal);
      assert.equal(await settlesWithin(continued, 300), false, 'continue answered at once');
      abort.abort();
      await assert.rejects(continued, cancelled);
      assert.match(await debug({ op: 'pause' }), /^Stopped \(pause\)/);
    });
  });

  describe('cancellation', () => {
    it('a cancelled continue answers at once; the program runs on and the session stays usable', async () => {
      const { debug } = setUp({ spin: { behaviour: 'never' } });
      await debug({ op: 'launch', configuration: 'spin', timeout_seconds: 1 });
      const abort = new AbortController();
      const continued = debug({ op: 'continue', thread_id: 1, timeout_seconds: 3600 }, abort.signal);
      setTimeout(() => abort.abort(), 100);
      await assert.rejects(continued, cancelled);
      assert.match(await debug({ op: 'status' }), /^Session "spin" \(fake\), running/);
      assert.match(await debug({ op: 'pause' }), /^Stopped \(pause\)/);
      assert.match(await debug({ op: 'evaluate', expression: 'x' }), /^x = 42/);
    });

    it('a launch cancelled while the session starts answers at once; the session is kept and can be ended', async () => {
      const { host, debug } = setUp({ slow: { behaviour: 'never', startMs: 500 } });
      const abort = new AbortController();
      const launch = debug({ op: 'launch', configuration: 'slow', timeout_seconds: 3600 }, abort.signal);
      setTimeout(() => abort.abort(), 50);
      const cancelledAt = Date.now();
      await assert.rejects(launch, cancelled);
      assert.ok(Date.now() - cancelledAt < 400, 'the launch waited for the session to start');
      assert.match(await debug({ op: 'status' }), /^Session "slow" \(fake\), running/);
      assert.match(await debug({ op: 'terminate' }), /^Session "slow" ended/);
      assert.equal(host.connections[0].terminated, true);
    });

    it('a call cancelled while queued behind another never runs', async () => {
      const { host, debug } = setUp({ spin: { behaviour: 'never' } });
      await debug({ op: 'launch', configuration: 'spin', timeout_seconds: 1 });
      const stop = new AbortController();
      const waiting = debug({ op: 'continue', thread_id: 1, timeout_seconds: 3600 }, stop.signal);
      const abort = new AbortController();
      const evaluate = debug({ op: 'evaluate', expression: 'x' }, abort.signal);
      abort.abort();
      await assert.rejects(evaluate, cancelled);
      stop.abort();
      await assert.rejects(waiting, cancelled);
      assert.match(await debug({ op: 'pause' }), /^Stopped \(pause\)/);
      assert.equal(host.connections[0].requests.includes('evaluate'), false, 'the cancelled evaluate ran');
    });
  });

  describe('what a launch says it started', () => {
    it('a launch.json configuration without a program: named, and no process id is said to be none, never "undefined"', async () => {
      const { debug } = setUp({ bare: { behaviour: 'entry' } });
      const launched = await debug({ op: 'launch', configuration: 'bare' });
      assert.match(launched, /^Launched the launch\.json configuration "bare" \(it names no program\) with fake \(an adapter of its own extension\); session "bare"; the adapter reported no process id\./, launched);
      assert.doesNotMatch(launched, /undefined/);
    });

    it('the process id the adapter reports, and the program the configuration names', async () => {
      const { debug } = setUp({ named: { behaviour: 'entry', processId: 4242 } }, 60_000, {
        named: { name: 'named', type: 'fake', request: 'launch', program: '${workspaceFolder}/app.py' },
      });
      const launched = await debug({ op: 'launch', configuration: 'named' });
      assert.match(launched, /^Launched the launch\.json configuration "named" \(app\.py\) with fake .*; session "named", process id 4242\./, launched);
    });
  });

  describe('breakpoints', () => {
    it('takes plain line numbers beside objects', async () => {
      const { host, debug } = setUp({});
      const answer = await debug({ op: 'breakpoints', file: 'app.py', lines: [1, { line: 3, condition: 'c > 0' }] });
      assert.deepEqual(host.breakpoints.get(path.join(folder, 'app.py')), [{ line: 1 }, { line: 3, condition: 'c > 0' }]);
      assert.match(answer, /- line 1: `a = 1`\n- line 3: `c = 3` when c > 0/, answer);
      await assert.rejects(debug({ op: 'breakpoints', file: 'app.py', lines: [9] }), /has 4 lines; line 9 is outside it/);
    });
  });

  describe('the launch confirmation', () => {
    it('a program: its arguments, working directory and every environment variable, the dangerous ones called out', () => {
      const { controller } = setUp({});
      const text = controller.describe({ op: 'launch', program: 'app.py', args: ['--fast'], cwd: 'sub', env: { LD_PRELOAD: '/tmp/evil.so', GREETING: 'hi', NODE_OPTIONS: '--require /tmp/x.js', DYLD_INSERT_LIBRARIES: '/x' } });
      assert.match(text, /^Start `app\.py` under the debugpy debugger\./);
      assert.match(text, /\*\*Warning:\*\* the environment sets `LD_PRELOAD` \(loads a library.*\), `NODE_OPTIONS` \(.*\), `DYLD_INSERT_LIBRARIES` \(/);
      assert.match(text, /- arguments: `--fast`/);
      assert.match(text, /- working directory: `sub`/);
      assert.match(text, /- environment: the editor's, plus 4 variables:/);
      assert.match(text, /  - ⚠ `LD_PRELOAD` = `\/tmp\/evil\.so` — \*\*loads a library/);
      assert.match(text, /  - `GREETING` = `hi`$/m);
    });

    it("a program without cwd: the program's folder", () => {
      const { controller } = setUp({});
      assert.match(controller.describe({ op: 'launch', program: 'app.py' }), /- working directory: `\.` \(the program's folder\)\n- environment: the editor's, nothing added/);
    });

    it('a launch.json configuration: what it runs, its working directory and environment, as the file has it', () => {
      const { controller } = setUp({}, 60_000, {
        'Py: env': { name: 'Py: env', type: 'live-debugpy', request: 'launch', program: '${workspaceFolder}/app.py', cwd: '${workspaceFolder}/sub', env: { PYTHONPATH: '/tmp/lib', MODE: 'fast' }, preLaunchTask: 'build' },
        bare: { name: 'bare', type: 'fake', request: 'launch' },
        lldb: { name: 'lldb', type: 'live-lldb', request: 'launch', program: './main', env: ['LD_LIBRARY_PATH=/tmp/lib'] },
      });
      const text = controller.describe({ op: 'launch', configuration: 'Py: env' });
      assert.match(text, /^Start the debug configuration \*\*Py: env\*\* from launch\.json \(type `live-debugpy`, request `launch`\)\. As the file has it:/);
      assert.match(text, /\*\*Warning:\*\* the environment sets `PYTHONPATH` \(changes where Python imports modules from\)/);
      assert.match(text, /- program: `\$\{workspaceFolder\}\/app\.py`/);
      assert.match(text, /- working directory: `\$\{workspaceFolder\}\/sub`/);
      assert.match(text, /  - ⚠ `PYTHONPATH` = `\/tmp\/lib`/);
      assert.match(text, /  - `MODE` = `fast`/);
      assert.match(text, /- first runs the task `build` \(preLaunchTask\)/);
      assert.match(text, /The whole configuration:\n```json\n\{/);

      const bare = controller.describe({ op: 'launch', configuration: 'bare' });
      assert.match(bare, /- program: none named \(the adapter decides what runs/);
      assert.match(bare, /- working directory: not set/);
      assert.match(controller.describe({ op: 'launch', configuration: 'lldb' }), /⚠ `LD_LIBRARY_PATH` = `\/tmp\/lib`/);
      assert.match(controller.describe({ op: 'launch', configuration: 'nope' }), /No configuration of that name was found: the call will be refused/);
    });

    it('no value breaks out of its code span', () => {
      const { controller } = setUp({});
      const text = controller.describe({ op: 'launch', program: 'app.py', env: { X: 'a`b``c', Y: 'line\nbreak' } });
      assert.match(text, /`{3}a`b``c`{3}/);
      assert.match(text, /`line\\nbreak`/);
    });
  });
});
