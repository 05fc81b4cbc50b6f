/**
 * The debug engine's rules on an in-memory editor (test/unit/support/fakeDebug.ts): golden
 * transcripts of the main flows (every answer the model reads, asserted whole), the time to
 * live ends a session even while a call waits on it, waits are bounded (also past Node's timer
 * limit), a cancelled call answers at once and leaves the session usable, a launch says what it
 * started, breakpoint lines may be plain numbers, and the launch confirmation shows what runs.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DebugController } from '../../src/debug/debugController';
import type { DebugInput } from '../../src/tools/debug/declaration';
import { debugConfirmation, runDebugOp } from '../../src/tools/debug/tool';
import { OUTPUT_KEEP_CHARS } from '../../src/debug/debugSession';
import { planSession } from '../../src/debug/launchPlan';
import { FakeConnection, FakeHost, FakeProgram } from './support/fakeDebug';
import { settlesWithin } from './support/settles';

const CONVERSATION = 'test';

const LOOP_SOURCE =
  'def total(items):\n    sum = 0\n    for item in items:\n        sum += item\n    return sum\n\n\nprint(total([1, 2, 3]))\n';

/** What a cancelled call rejects with (the tool runner turns it into a CancellationError). */
const cancelled = (error: unknown): boolean => error instanceof Error && error.name === 'DebugCancelled';

describe('debug controller', () => {
  let folder: string;
  let controllers: DebugController[] = [];

  before(() => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'debug-controller-'));
    fs.writeFileSync(path.join(folder, 'app.py'), 'a = 1\nb = 2\nc = 3\n');
    fs.writeFileSync(path.join(folder, 'loop.py'), LOOP_SOURCE);
    fs.writeFileSync(path.join(folder, 'app.js'), 'console.log(1);\n');
  });
  after(() => fs.rmSync(folder, { recursive: true, force: true }));
  afterEach(async () => {
    await Promise.all(controllers.map((controller) => controller.disposeAll()));
    controllers = [];
  });

  function setUp(
    programs: Record<string, FakeProgram>,
    ttlMs = 60_000,
    configurations: Record<string, Record<string, unknown>> = {},
  ) {
    const all = { ...configurations };
    for (const name of Object.keys(programs)) all[name] ??= { name, type: 'fake', request: 'launch' };
    const host = new FakeHost(folder, all, programs);
    const controller = new DebugController(host, () => ttlMs);
    controllers.push(controller);
    // Through the tool's mapping of its input onto the controller's typed calls: what the model sends.
    const debug = (input: object, signal?: AbortSignal) =>
      runDebugOp(controller, CONVERSATION, { op: 'status', ...input } as DebugInput, signal);
    const confirm = (input: DebugInput) => debugConfirmation(controller, input);
    return { host, controller, debug, confirm };
  }

  /**
   * Plays calls in order and returns what the model read: each call as `→ op {rest}`, then its
   * answer, or `! ` and the refusal.
   */
  async function transcript(
    debug: (input: object) => Promise<string>,
    calls: ReadonlyArray<{ op: string } & Record<string, unknown>>,
  ): Promise<string> {
    const blocks: string[] = [];
    for (const { op, ...rest } of calls) {
      const answer = await debug({ op, ...rest }).catch((error: Error) => `! ${error.message}`);
      blocks.push(`→ ${op}${Object.keys(rest).length > 0 ? ` ${JSON.stringify(rest)}` : ''}\n${answer}`);
    }
    return blocks.join('\n\n');
  }

  const items = {
    name: 'items',
    value: '[1, 2, 3]',
    type: 'list',
    children: [
      { name: '0', value: '1', type: 'int' },
      { name: '1', value: '2', type: 'int' },
      { name: '2', value: '3', type: 'int' },
    ],
  };
  /** Stops at the breakpoint on line 4, steps to line 3, stops on line 4 again, then runs to its end. */
  const loop = (): FakeProgram => ({
    behaviour: 'script',
    processId: 4242,
    source: path.join(folder, 'loop.py'),
    output: 'starting\n',
    stops: [
      {
        reason: 'breakpoint',
        line: 4,
        locals: [
          { name: 'sum', value: '0', type: 'int' },
          { name: 'item', value: '1', type: 'int' },
          items,
          { name: 'long', value: 'x'.repeat(450), type: 'str' },
        ],
      },
      {
        reason: 'step',
        line: 3,
        locals: [{ name: 'sum', value: '1', type: 'int' }, { name: 'item', value: '1', type: 'int' }, items],
      },
      {
        reason: 'breakpoint',
        line: 4,
        output: 'tick\n',
        locals: [{ name: 'sum', value: '1', type: 'int' }, { name: 'item', value: '2', type: 'int' }, items],
      },
    ],
    finalOutput: '6\n',
    exitCode: 0,
  });
  const NEXT =
    'Next: "stack", "scopes"/"variables", "evaluate", "step_over", "step_in", "step_out", "continue" or "terminate".';

  describe('transcripts: what the model reads, call by call', () => {
    const loopConfiguration = {
      loop: { name: 'loop', type: 'fake', request: 'launch', program: '${workspaceFolder}/loop.py' },
    };
    const LAUNCHED_LOOP = [
      'Launched the launch.json configuration "loop" (loop.py) with fake (an adapter of its own extension); session "loop", process id 4242.',
      'Stopped (breakpoint) on thread 1 at loop.py:4 — `sum += item` in main. It printed output: op "output".',
      NEXT,
    ];
    const LONG = `${'x'.repeat(400)}… (450 characters, cut at 400)`;

    it('launch → stop at a breakpoint → variables → step → continue → the program ends', async () => {
      const { debug } = setUp({ loop: loop() }, 30 * 60_000, loopConfiguration);
      const text = await transcript(debug, [
        { op: 'breakpoints', file: 'loop.py', lines: [4] },
        { op: 'launch', configuration: 'loop' },
        { op: 'stack' },
        { op: 'scopes' },
        { op: 'variables', reference: 10 },
        { op: 'variables', reference: 20 },
        { op: 'step_over' },
        { op: 'continue' },
        { op: 'output' },
        { op: 'breakpoints', file: 'loop.py', lines: [] },
        { op: 'continue' },
        { op: 'status' },
        { op: 'stack' },
        { op: 'terminate' },
        { op: 'status' },
      ]);
      assert.equal(
        text,
        [
          '→ breakpoints {"file":"loop.py","lines":[4]}',
          'Breakpoints in loop.py:',
          '- line 4: `sum += item`',
          'They apply when you launch.',
          '',
          '→ launch {"configuration":"loop"}',
          ...LAUNCHED_LOOP,
          '',
          '→ stack',
          'Stack of thread 1 (2 frames, innermost first; #N is the frame_id):',
          '- #1 main at loop.py:4 — `sum += item`',
          '- #2 <module> at loop.py:1 — `def total(items):`',
          '',
          '→ scopes',
          'Scopes of frame 1:',
          '- Locals: reference 10',
          '- Globals: reference 11 (expensive)',
          'Next: op "variables" with a reference.',
          '',
          '→ variables {"reference":10}',
          '4 variables:',
          '- sum = 0 (int)',
          '- item = 1 (int)',
          '- items = [1, 2, 3] (list) [reference 20]',
          `- long = ${LONG} (str)`,
          '',
          '→ variables {"reference":20}',
          '3 variables:',
          '- 0 = 1 (int)',
          '- 1 = 2 (int)',
          '- 2 = 3 (int)',
          '',
          '→ step_over',
          'Stopped (step) on thread 1 at loop.py:3 — `for item in items:` in main. It printed output: op "output".',
          NEXT,
          '',
          '→ continue',
          'Stopped (breakpoint) on thread 1 at loop.py:4 — `sum += item` in main. It printed output: op "output".',
          NEXT,
          '',
          '→ output',
          'starting',
          'tick',
          '',
          '',
          '→ breakpoints {"file":"loop.py","lines":[]}',
          'Breakpoints in loop.py cleared.',
          '',
          '→ continue',
          'The program ended with exit code 0 without stopping.',
          'Output:',
          '6',
          '',
          '',
          '→ status',
          'Session "loop" (fake), ended with exit code 0; ends by itself in 30 min.',
          'Breakpoints: none.',
          '',
          '→ stack',
          '! The session "loop" has ended (ended with exit code 0). Launch again; "output" still returns what it printed.',
          '',
          '→ terminate',
          'Session "loop" ended; the adapter and the program are stopped.',
          '',
          '→ status',
          'No debug session in this conversation. Start one with op "launch" (or "attach").',
          'Breakpoints: none.',
        ].join('\n'),
      );
    });

    it('evaluate: in the top frame, in a frame named by frame_id, a long value cut, and when it cannot', async () => {
      const { debug } = setUp({ loop: loop() }, 60_000, loopConfiguration);
      const text = await transcript(debug, [
        { op: 'evaluate', expression: 'sum' },
        { op: 'launch', configuration: 'loop' },
        { op: 'evaluate', expression: 'sum' },
        { op: 'evaluate', expression: 'items' },
        { op: 'evaluate', expression: 'len(items)', frame_id: 2 },
        { op: 'evaluate', expression: 'long' },
        { op: 'evaluate' },
        { op: 'terminate' },
        { op: 'evaluate', expression: 'sum' },
      ]);
      assert.equal(
        text,
        [
          '→ evaluate {"expression":"sum"}',
          '! No debug session for op "evaluate". Start one with op "launch".',
          '',
          '→ launch {"configuration":"loop"}',
          ...LAUNCHED_LOOP,
          '',
          '→ evaluate {"expression":"sum"}',
          'sum = 0 (int)',
          '',
          '→ evaluate {"expression":"items"}',
          'items = [1, 2, 3] (list) [reference 20]',
          '',
          '→ evaluate {"expression":"len(items)","frame_id":2}',
          'len(items) = len(items) (frame 2)',
          '',
          '→ evaluate {"expression":"long"}',
          `long = ${LONG} (str)`,
          '',
          '→ evaluate',
          '! op "evaluate" needs `expression`.',
          '',
          '→ terminate',
          'Session "loop" ended; the adapter and the program are stopped.',
          'Last output:',
          'starting',
          '',
          '',
          '→ evaluate {"expression":"sum"}',
          '! No debug session for op "evaluate". Start one with op "launch".',
        ].join('\n'),
      );
    });

    it('output: what the program printed since the last look, then nothing new; an overflow says what was dropped', async () => {
      const { debug } = setUp(
        {
          chatty: { behaviour: 'never', output: 'hello\nworld\n' },
          flood: {
            behaviour: 'script',
            source: path.join(folder, 'loop.py'),
            stops: [{ reason: 'breakpoint', line: 4, output: 'y'.repeat(OUTPUT_KEEP_CHARS + 5) }],
          },
        },
        60_000,
      );
      const text = await transcript(debug, [
        { op: 'launch', configuration: 'chatty', timeout_seconds: 1 },
        { op: 'output' },
        { op: 'output' },
        { op: 'pause' },
        { op: 'terminate' },
        { op: 'launch', configuration: 'flood' },
        { op: 'output' },
      ]);
      assert.equal(
        text,
        [
          '→ launch {"configuration":"chatty","timeout_seconds":1}',
          'Launched the launch.json configuration "chatty" (it names no program) with fake (an adapter of its own extension); session "chatty"; the adapter reported no process id.',
          'Still running after 1 s (no breakpoint hit). Next: op "pause" to stop it, "output" to see what it printed, or "continue" to wait longer.',
          '',
          '→ output',
          'hello',
          'world',
          '',
          '',
          '→ output',
          'No new output. The program is running.',
          '',
          '→ pause',
          'Stopped (pause) on thread 1 at fake:1 in main.',
          NEXT,
          '',
          '→ terminate',
          'Session "chatty" ended; the adapter and the program are stopped.',
          '',
          '→ launch {"configuration":"flood"}',
          'Launched the launch.json configuration "flood" (it names no program) with fake (an adapter of its own extension); session "flood"; the adapter reported no process id.',
          'Stopped (breakpoint) on thread 1 at loop.py:4 — `sum += item` in main. It printed output: op "output".',
          NEXT,
          '',
          '→ output',
          `(5 earlier characters dropped: only the last ${OUTPUT_KEEP_CHARS} are kept between calls.)`,
          'y'.repeat(OUTPUT_KEEP_CHARS),
        ].join('\n'),
      );
    });

    it('the time to live ends the session under a waiting continue, which says so with the last output', async function () {
      this.timeout(15_000);
      const { debug } = setUp({ spin: { behaviour: 'never', output: 'working\n' } }, 1500);
      const text = await transcript(debug, [
        { op: 'launch', configuration: 'spin', timeout_seconds: 1 },
        { op: 'continue' },
        { op: 'continue', thread_id: 1, timeout_seconds: 3600 },
        { op: 'status' },
        { op: 'output' },
      ]);
      assert.equal(
        text,
        [
          '→ launch {"configuration":"spin","timeout_seconds":1}',
          'Launched the launch.json configuration "spin" (it names no program) with fake (an adapter of its own extension); session "spin"; the adapter reported no process id.',
          'Still running after 1 s (no breakpoint hit). Next: op "pause" to stop it, "output" to see what it printed, or "continue" to wait longer.',
          '',
          '→ continue',
          '! The program is running, not stopped. Use op "pause" first, or wait with "continue".',
          '',
          '→ continue {"thread_id":1,"timeout_seconds":3600}',
          'The session "spin" reached its time to live (2 s) and was ended. Launch again if you need it.',
          'Last output:',
          'working',
          '',
          '',
          '→ status',
          'No debug session in this conversation. Start one with op "launch" (or "attach").',
          'Breakpoints: none.',
          '',
          '→ output',
          '! No debug session for op "output". Start one with op "launch".',
        ].join('\n'),
      );
    });
  });

  describe('transcripts: what the adapter made of the breakpoints, and watch expressions', () => {
    /** loop.py's three stops; the adapter does not bind the blank lines 6 and 7, and binds line 1 on line 2. */
    const picky = (): FakeProgram => ({
      ...loop(),
      processId: undefined,
      output: undefined,
      unbound: { 6: 'Breakpoint on a line with no code\n(it is blank)', 7: '' },
      moved: { 1: 2 },
      failing: { nope: "NameError: name 'nope' is not defined" },
    });

    it('breakpoints: bound, moved or not bound, per breakpoint once a session runs; every stop and the exit name the unbound', async () => {
      const { debug } = setUp({ picky: picky() });
      const text = await transcript(debug, [
        { op: 'breakpoints', file: 'loop.py', lines: [4, 6, 1] },
        { op: 'launch', configuration: 'picky' },
        { op: 'breakpoints', file: 'loop.py', lines: [4, 7, 1] },
        { op: 'step_over' },
        { op: 'breakpoints', file: 'loop.py', lines: [7] },
        { op: 'continue' },
        { op: 'continue' },
      ]);
      assert.equal(
        text,
        [
          '→ breakpoints {"file":"loop.py","lines":[4,6,1]}',
          'Breakpoints in loop.py:',
          '- line 4: `sum += item`',
          '- line 6: ``',
          '- line 1: `def total(items):`',
          'They apply when you launch.',
          '',
          '→ launch {"configuration":"picky"}',
          'Launched the launch.json configuration "picky" (it names no program) with fake (an adapter of its own extension); session "picky"; the adapter reported no process id.',
          'Stopped (breakpoint) on thread 1 at loop.py:4 — `sum += item` in main.',
          '1 breakpoint not bound: loop.py:6 (Breakpoint on a line with no code (it is blank)).',
          '1 breakpoint moved by the adapter: loop.py:1 → line 2.',
          NEXT,
          '',
          '→ breakpoints {"file":"loop.py","lines":[4,7,1]}',
          'Breakpoints in loop.py:',
          '- line 4: `sum += item` — bound',
          '- line 7: `` — not bound: the adapter gave no reason',
          '- line 1: `def total(items):` — the adapter moved it to line 2: `sum = 0`',
          '',
          '→ step_over',
          'Stopped (step) on thread 1 at loop.py:3 — `for item in items:` in main.',
          '1 breakpoint not bound: loop.py:7 (no reason given).',
          NEXT,
          '',
          '→ breakpoints {"file":"loop.py","lines":[7]}',
          'Breakpoints in loop.py:',
          '- line 7: `` — not bound: the adapter gave no reason',
          '',
          '→ continue',
          'Stopped (breakpoint) on thread 1 at loop.py:4 — `sum += item` in main. It printed output: op "output".',
          '1 breakpoint not bound: loop.py:7 (no reason given).',
          NEXT,
          '',
          '→ continue',
          'The program ended with exit code 0 without stopping.',
          '1 breakpoint never bound: loop.py:7 (no reason given).',
          'Output:',
          'tick',
          '6',
          '',
        ].join('\n'),
      );
    });

    it('watch: set before the launch, shown with every stop, replaced while stopped (a failure and a long value said), capped, cleared', async () => {
      const { host, debug } = setUp({ picky: picky() }, 30 * 60_000);
      const text = await transcript(debug, [
        { op: 'watch', expressions: ['sum', 'item'] },
        { op: 'launch', configuration: 'picky' },
        { op: 'step_over' },
        { op: 'watch', expressions: ['sum', 'nope', 'long'] },
        { op: 'status' },
        { op: 'watch', expressions: Array.from({ length: 11 }, (_, index) => `x${index}`) },
        { op: 'watch' },
        { op: 'watch', expressions: [] },
        { op: 'continue' },
      ]);
      assert.equal(
        text,
        [
          '→ watch {"expressions":["sum","item"]}',
          'Watching 2 expressions, shown with every stop: sum, item. They are evaluated at the next stop.',
          '',
          '→ launch {"configuration":"picky"}',
          'Launched the launch.json configuration "picky" (it names no program) with fake (an adapter of its own extension); session "picky"; the adapter reported no process id.',
          'Stopped (breakpoint) on thread 1 at loop.py:4 — `sum += item` in main.',
          'Watch:',
          '- sum = 0 (int)',
          '- item = 1 (int)',
          NEXT,
          '',
          '→ step_over',
          'Stopped (step) on thread 1 at loop.py:3 — `for item in items:` in main.',
          'Watch:',
          '- sum = 1 (int)',
          '- item = 1 (int)',
          NEXT,
          '',
          '→ watch {"expressions":["sum","nope","long"]}',
          'Watching 3 expressions, shown with every stop: sum, nope, long.',
          'Watch:',
          '- sum = 1 (int)',
          "- nope: cannot evaluate: NameError: name 'nope' is not defined",
          '- long = long (frame 1)',
          '',
          '→ status',
          'Session "picky" (fake), stopped (step); ends by itself in 30 min.',
          'Breakpoints: none.',
          'Watch: sum, nope, long.',
          '',
          `→ watch {"expressions":[${Array.from({ length: 11 }, (_, index) => `"x${index}"`).join(',')}]}`,
          '! At most 10 watch expressions; 11 were given. Nothing was changed.',
          '',
          '→ watch',
          '! op "watch" needs `expressions`: a list of expressions (an empty list clears them).',
          '',
          '→ watch {"expressions":[]}',
          'Watch expressions cleared.',
          '',
          '→ continue',
          'Stopped (breakpoint) on thread 1 at loop.py:4 — `sum += item` in main. It printed output: op "output".',
          NEXT,
        ].join('\n'),
      );
      // Evaluated as the Watch view does (adapters may word a watch's value differently from a REPL's).
      assert.deepEqual([...new Set(host.connections[0].evaluateContexts)], ['watch']);
    });

    it('watch: a value past 400 characters is cut, as variables cut it', async () => {
      const { debug } = setUp({ picky: picky() });
      await debug({ op: 'watch', expressions: ['long'] });
      const launched = await debug({ op: 'launch', configuration: 'picky' });
      assert.match(
        launched,
        new RegExp(`\\nWatch:\\n- long = ${'x'.repeat(400)}… \\(450 characters, cut at 400\\) \\(str\\)\\n`),
      );
    });
  });

  describe('launch plans (the built-in JavaScript debugger, which needs no binary)', () => {
    const planHost = () => {
      const fake = new FakeHost(folder, {}, {});
      return Object.assign(fake, {
        contextFor: () => ({
          folder,
          adapter: { root: folder, workspaceFolder: folder, pathVariable: '', hasJsDebug: true },
        }),
      });
    };

    it("a program: its adapter's launch configuration, in the program's folder", async () => {
      const plan = await planSession(
        { kind: 'launch', program: 'app.js', args: ['--fast'], env: { MODE: 'x' } },
        planHost(),
        ['uncaught'],
      );
      assert.deepEqual(plan.configuration, {
        type: 'node',
        name: 'Agent: app.js',
        request: 'launch',
        program: path.join(folder, 'app.js'),
        args: ['--fast'],
        cwd: folder,
        env: { MODE: 'x' },
        console: 'internalConsole',
        outputCapture: 'std',
      });
      assert.equal(plan.adapter, 'js');
      assert.deepEqual(plan.exceptions, ['uncaught']);
    });

    it('attach: by port, with the adapter named', async () => {
      const plan = await planSession({ kind: 'attach', adapter: 'js', port: 9229 }, planHost(), []);
      assert.deepEqual(plan.configuration, { type: 'node', name: 'Agent: js attach', request: 'attach', port: 9229 });
    });

    it('refuses, saying what is missing, before anything starts', async () => {
      const host = planHost();
      await assert.rejects(planSession({ kind: 'launch' }, host, []), /^DebugRefusal: op "launch" needs `program`/);
      await assert.rejects(
        planSession({ kind: 'attach', adapter: 'js' }, host, []),
        /^DebugRefusal: op "attach" needs `port`/,
      );
      await assert.rejects(
        planSession({ kind: 'launch', program: 'nope.js' }, host, []),
        /^DebugRefusal: nope\.js does not exist\./,
      );
      await assert.rejects(
        planSession({ kind: 'attach', port: 1 }, host, []),
        /^DebugRefusal: Which adapter\? Pass `adapter` \(debugpy, lldb, delve, dart, js\); attach needs it\.$/,
      );
      await assert.rejects(
        planSession({ kind: 'launch', configuration: 'nope' }, host, []),
        /^DebugRefusal: No configuration named "nope" in \.vscode\/launch\.json\.$/,
      );
    });
  });

  describe('time to live', () => {
    it('ends the session while continue waits on it, and continue says so at once', async function () {
      this.timeout(15_000);
      const { host, debug } = setUp({ spin: { behaviour: 'never' } }, 1500);
      assert.match(await debug({ op: 'launch', configuration: 'spin', timeout_seconds: 1 }), /Still running after 1 s/);
      const started = Date.now();
      const continued = await debug({ op: 'continue', thread_id: 1, timeout_seconds: 3600 });
      assert.match(
        continued,
        /^The session "spin" reached its time to live \(2 s\) and was ended\. Launch again/,
        continued,
      );
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

    it("a time to live past Node's timer limit (2^31 ms) does not end the session at once", async () => {
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
    it("a timeout past Node's timer limit waits instead of answering after 1 ms", async () => {
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
      assert.match(
        launched,
        /^Launched the launch\.json configuration "bare" \(it names no program\) with fake \(an adapter of its own extension\); session "bare"; the adapter reported no process id\./,
        launched,
      );
      assert.doesNotMatch(launched, /undefined/);
    });

    it('the process id the adapter reports, and the program the configuration names', async () => {
      const { debug } = setUp({ named: { behaviour: 'entry', processId: 4242 } }, 60_000, {
        named: { name: 'named', type: 'fake', request: 'launch', program: '${workspaceFolder}/app.py' },
      });
      const launched = await debug({ op: 'launch', configuration: 'named' });
      assert.match(
        launched,
        /^Launched the launch\.json configuration "named" \(app\.py\) with fake .*; session "named", process id 4242\./,
        launched,
      );
    });
  });

  describe('breakpoints', () => {
    it('takes plain line numbers beside objects', async () => {
      const { host, debug } = setUp({});
      const answer = await debug({
        op: 'breakpoints',
        file: 'app.py',
        lines: [1, { line: 2, log_message: 'b is {b}' }, { line: 3, condition: 'c > 0' }],
      });
      assert.deepEqual(host.breakpoints.get(path.join(folder, 'app.py')), [
        { line: 1 },
        { line: 2, logMessage: 'b is {b}' },
        { line: 3, condition: 'c > 0' },
      ]);
      assert.match(
        answer,
        /- line 1: `a = 1`\n- line 2: `b = 2` logs "b is \{b\}"\n- line 3: `c = 3` when c > 0/,
        answer,
      );
      await assert.rejects(
        debug({ op: 'breakpoints', file: 'app.py', lines: [9] }),
        /has 4 lines; line 9 is outside it/,
      );
    });

    it('reads the lines from the open document, unsaved changes included, else from the disk', async () => {
      const { host, debug } = setUp({
        edited: {
          behaviour: 'script',
          source: path.join(folder, 'app.py'),
          stops: [{ reason: 'breakpoint', line: 5 }],
        },
      });
      // On disk app.py has 3 lines of code; the editor holds two more, not yet saved.
      host.openDocuments.set(path.join(folder, 'app.py'), 'a = 1\nb = 2\nc = 3\nd = 4\ne = 5\n');
      assert.equal(
        await debug({ op: 'breakpoints', file: 'app.py', lines: [5] }),
        'Breakpoints in app.py:\n- line 5: `e = 5`\nThey apply when you launch.',
      );
      assert.match(
        await debug({ op: 'launch', configuration: 'edited' }),
        /^Stopped \(breakpoint\) on thread 1 at app\.py:5 — `e = 5` in main\./m,
      );
      assert.match(
        await debug({ op: 'stack' }),
        /- #1 main at app\.py:5 — `e = 5`\n- #2 <module> at app\.py:1 — `a = 1`/,
      );
      host.openDocuments.clear();
      await assert.rejects(
        debug({ op: 'breakpoints', file: 'app.py', lines: [5] }),
        /^DebugRefusal: app\.py has 4 lines; line 5 is outside it\. Nothing was changed\.$/,
      );
      await assert.rejects(
        debug({ op: 'breakpoints', file: 'gone.py', lines: [1] }),
        /^DebugRefusal: gone\.py does not exist\. Give the path of a source file relative to the workspace folder\.$/,
      );
    });
  });

  describe('the launch confirmation', () => {
    it('a program: its arguments, working directory and every environment variable, the dangerous ones called out', () => {
      const { confirm } = setUp({});
      const text = confirm({
        op: 'launch',
        program: 'app.py',
        args: ['--fast'],
        cwd: 'sub',
        env: {
          LD_PRELOAD: '/tmp/evil.so',
          GREETING: 'hi',
          NODE_OPTIONS: '--require /tmp/x.js',
          DYLD_INSERT_LIBRARIES: '/x',
        },
      });
      assert.match(text, /^Start `app\.py` under the debugpy debugger\./);
      assert.match(
        text,
        /\*\*Warning:\*\* the environment sets `LD_PRELOAD` \(loads a library.*\), `NODE_OPTIONS` \(.*\), `DYLD_INSERT_LIBRARIES` \(/,
      );
      assert.match(text, /- arguments: `--fast`/);
      assert.match(text, /- working directory: `sub`/);
      assert.match(text, /- environment: the editor's, plus 4 variables:/);
      assert.match(text, /  - ⚠ `LD_PRELOAD` = `\/tmp\/evil\.so` — \*\*loads a library/);
      assert.match(text, /  - `GREETING` = `hi`$/m);
    });

    it("a program without cwd: the program's folder", () => {
      const { confirm } = setUp({});
      assert.match(
        confirm({ op: 'launch', program: 'app.py' }),
        /- working directory: `\.` \(the program's folder\)\n- environment: the editor's, nothing added/,
      );
    });

    it('a launch.json configuration: what it runs, its working directory and environment, as the file has it', () => {
      const { confirm } = setUp({}, 60_000, {
        'Py: env': {
          name: 'Py: env',
          type: 'live-debugpy',
          request: 'launch',
          program: '${workspaceFolder}/app.py',
          cwd: '${workspaceFolder}/sub',
          env: { PYTHONPATH: '/tmp/lib', MODE: 'fast' },
          preLaunchTask: 'build',
        },
        bare: { name: 'bare', type: 'fake', request: 'launch' },
        lldb: {
          name: 'lldb',
          type: 'live-lldb',
          request: 'launch',
          program: './main',
          env: ['LD_LIBRARY_PATH=/tmp/lib'],
        },
      });
      const text = confirm({ op: 'launch', configuration: 'Py: env' });
      assert.match(
        text,
        /^Start the debug configuration \*\*Py: env\*\* from launch\.json \(type `live-debugpy`, request `launch`\)\. As the file has it:/,
      );
      assert.match(
        text,
        /\*\*Warning:\*\* the environment sets `PYTHONPATH` \(changes where Python imports modules from\)/,
      );
      assert.match(text, /- program: `\$\{workspaceFolder\}\/app\.py`/);
      assert.match(text, /- working directory: `\$\{workspaceFolder\}\/sub`/);
      assert.match(text, /  - ⚠ `PYTHONPATH` = `\/tmp\/lib`/);
      assert.match(text, /  - `MODE` = `fast`/);
      assert.match(text, /- first runs the task `build` \(preLaunchTask\)/);
      assert.match(text, /The whole configuration:\n```json\n\{/);

      const bare = confirm({ op: 'launch', configuration: 'bare' });
      assert.match(bare, /- program: none named \(the adapter decides what runs/);
      assert.match(bare, /- working directory: not set/);
      assert.match(confirm({ op: 'launch', configuration: 'lldb' }), /⚠ `LD_LIBRARY_PATH` = `\/tmp\/lib`/);
      assert.match(
        confirm({ op: 'launch', configuration: 'nope' }),
        /No configuration of that name was found: the call will be refused/,
      );
    });

    it('no value breaks out of its code span', () => {
      const { confirm } = setUp({});
      const text = confirm({ op: 'launch', program: 'app.py', env: { X: 'a`b``c', Y: 'line\nbreak' } });
      assert.match(text, /`{3}a`b``c`{3}/);
      assert.match(text, /`line\\nbreak`/);
    });
  });

  describe("the human's own session, sent to the chat", () => {
    it('is read by a conversation without its own, driven only once allowed, never ended; a denial leaves it as it was; a session not paused is not sent', async () => {
      const { host, controller, debug } = setUp({ mine: { behaviour: 'entry' } });
      const human = new FakeConnection('Human: loop', loop());
      const sent = await controller.sendPausedState('s1', human, 'debugpy');
      assert.equal(
        sent,
        [
          'The paused state of my debug session "Human: loop" (debugpy):',
          'Stopped (breakpoint) on thread 1 at loop.py:4 — `sum += item` in main.',
          "Stack (2 of 2 frames, innermost first; the program's own, at most 10):",
          '- #1 main at loop.py:4 — `sum += item`',
          '- #2 <module> at loop.py:1 — `def total(items):`',
          'Locals of main (frame #1, scope "Locals"): 4 variables:',
          '- sum = 0 (int)',
          '- item = 1 (int)',
          '- items = [1, 2, 3] (list) [reference 20]',
          `- long = ${'x'.repeat(400)}… (450 characters, cut at 400) (str)`,
          'You may read this session with the debug tool (status, stack, scopes, variables, threads, output) while you have no session of your own. Continuing, stepping, pausing or evaluating in it is asked of me once; you never end it.',
        ].join('\n'),
      );
      assert.match(
        await debug({ op: 'status' }),
        /^No session of this conversation's own\. The human sent their session "Human: loop" \(debugpy, stopped \(breakpoint\)\) to the chat: stack/,
      );
      assert.match(await debug({ op: 'stack' }), /- #1 main at loop\.py:4/);
      // A worker or terminal agent never sees it, even before the chat uses it.
      controller.keepFromHumanSession('chat#worker-w1');
      assert.match(await runDebugOp(controller, 'chat#worker-w1', { op: 'status' } as DebugInput), /^No debug session/);
      await assert.rejects(
        runDebugOp(controller, 'chat#worker-w1', { op: 'stack' } as DebugInput),
        /No debug session for op "stack"/,
      );
      assert.equal(controller.driveQuestion('chat#worker-w1', 'step_over'), undefined);
      // The first conversation to use it has it: another never sees it.
      assert.match(await runDebugOp(controller, 'bystander', { op: 'status' } as DebugInput), /^No debug session/);
      await assert.rejects(
        runDebugOp(controller, 'bystander', { op: 'stack' } as DebugInput),
        /No debug session for op "stack"/,
      );
      assert.equal(controller.driveQuestion('bystander', 'step_over'), undefined);
      // Not asked yet (the tool asks on the card first): a driving op is refused, and nothing is sent.
      const before = human.requests.length;
      await assert.rejects(
        debug({ op: 'step_over' }),
        /did not answer whether you may drive it: op "step_over" was not done/,
      );
      const asked = controller.driveQuestion(CONVERSATION, 'step_over');
      assert.equal(asked?.session, 'Human: loop');
      assert.equal(controller.driveQuestion(CONVERSATION, 'stack'), undefined);
      controller.answerDrive(CONVERSATION, asked!, false);
      assert.equal(controller.driveQuestion(CONVERSATION, 'evaluate'), undefined);
      await assert.rejects(debug({ op: 'evaluate', expression: 'sum' }), /they did not let you drive it/);
      assert.equal(human.requests.slice(before).filter((request) => request !== 'stackTrace').length, 0);
      // Sent again: asked again; allowed, it steps, and is never ended by the agent.
      await controller.sendPausedState('s1', human, 'debugpy');
      const again = controller.driveQuestion(CONVERSATION, 'step_over');
      assert.equal(again?.session, 'Human: loop');
      // An answer about the session as it was sent before is not kept for this sending.
      controller.answerDrive(CONVERSATION, asked!, true);
      assert.equal(controller.driveQuestion(CONVERSATION, 'step_over')?.session, 'Human: loop');
      controller.answerDrive(CONVERSATION, again!, true);
      assert.equal(controller.driveQuestion(CONVERSATION, 'continue'), undefined);
      assert.match(await debug({ op: 'step_over' }), /^Stopped \(step\) on thread 1 at loop\.py:3/);
      assert.match(await debug({ op: 'status' }), /you are driving it \(they allowed it\)/);
      await assert.rejects(
        debug({ op: 'terminate' }),
        /is the human's \(they sent it to the chat\): you do not end it/,
      );
      assert.equal(human.terminated, false);
      // A conversation with its own session uses its own; its end leaves the human's running.
      assert.match(
        await runDebugOp(controller, 'other', { op: 'launch', configuration: 'mine' } as DebugInput),
        /Launched/,
      );
      assert.equal(controller.driveQuestion('other', 'step_over'), undefined);
      await controller.endConversation(CONVERSATION);
      await controller.endConversation('other');
      assert.equal(human.terminated, false);
      assert.equal(host.connections[0].terminated, true);
      // A session that is not paused is refused, and the one sent before stays the one reachable.
      const running = new FakeConnection('Human: spin', { behaviour: 'never' });
      await assert.rejects(
        controller.sendPausedState('s2', running, 'debugpy'),
        /"Human: spin" is running, not paused/,
      );
      assert.match(await debug({ op: 'status' }), /"Human: loop"/);
      // Once the sent session ends, nothing of the human's is reachable.
      await human.terminate();
      await new Promise((resolve) => setImmediate(resolve));
      assert.match(await debug({ op: 'status' }), /^No debug session in this conversation/);
    });
  });
});
