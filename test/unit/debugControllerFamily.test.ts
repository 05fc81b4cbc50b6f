/**
 * The debug engine with a family of sessions (js-debug: the program's session and the session of
 * each process it forks; test/unit/support/fakeDebug.ts's FakeFamily, whose sessions number their
 * threads, frames and references alike): a stop names its session, every request about it goes to
 * that session, thread ids are told apart, a child's end is said at the next answer, and the
 * family's end is the root's.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DebugController } from '../../src/debug/debugController';
import type { DebugInput } from '../../src/tools/debug/declaration';
import { runDebugOp } from '../../src/tools/debug/tool';
import { ThreadIds } from '../../src/debug/threadIds';
import { MEMBER_ENDS_NAMED, memberEndedNote } from '../../src/debug/answers';
import { FakeHost } from './support/fakeDebug';

const NEXT =
  'Next: "stack", "scopes"/"variables", "evaluate", "step_over", "step_in", "step_out", "continue" or "terminate".';

describe('debug controller: a family of sessions (a program that forks)', () => {
  let folder: string;
  let controller: DebugController | undefined;

  before(() => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'debug-family-'));
    fs.writeFileSync(
      path.join(folder, 'main.js'),
      Array.from({ length: 8 }, () => '//').join('\n') + '\n  console.log(reply); // PARENT\n',
    );
    fs.writeFileSync(
      path.join(folder, 'worker.js'),
      Array.from({ length: 7 }, () => '//').join('\n') + '\n  return sum; // WORKER\n',
    );
  });
  after(() => fs.rmSync(folder, { recursive: true, force: true }));
  afterEach(async () => {
    await controller?.disposeAll();
    controller = undefined;
  });

  it('each stop names its session, and stack, scopes, variables, evaluate and continue go to the session that stopped', async () => {
    const host = new FakeHost(
      folder,
      { fork: { name: 'fork', type: 'fake', request: 'launch' } },
      { fork: { behaviour: 'fork' } },
    );
    controller = new DebugController(host, () => 60_000);
    const debug = (input: object) =>
      runDebugOp(controller!, 'test', { op: 'status', ...input } as DebugInput).catch(
        (error: Error) => `! ${error.message}`,
      );
    const answers: string[] = [];
    for (const input of [
      { op: 'launch', configuration: 'fork' },
      { op: 'threads' },
      { op: 'stack' },
      { op: 'scopes' },
      { op: 'variables', reference: 10 },
      { op: 'evaluate', expression: 'sum' },
      { op: 'continue' },
      { op: 'evaluate', expression: 'reply' },
      { op: 'stack', thread_id: 1 },
      { op: 'threads' },
      { op: 'continue' },
    ])
      answers.push(`→ ${JSON.stringify(input)}\n${await debug(input)}`);
    assert.equal(
      answers.join('\n\n'),
      [
        '→ {"op":"launch","configuration":"fork"}',
        'Launched the launch.json configuration "fork" (it names no program) with fake (an adapter of its own extension); session "fork", process id 100.',
        'Stopped (breakpoint) in session "worker.js [101]" on thread 1 at worker.js:8 — `return sum; // WORKER` in total. It printed output: op "output".',
        NEXT,
        '',
        '→ {"op":"threads"}',
        // The root has no threads; the program's thread 1 is told apart from the worker's thread 1.
        '2 threads:',
        '- 2: main.js (session "main.js [100]")',
        '- 1: worker.js (session "worker.js [101]")',
        '',
        '→ {"op":"stack"}',
        'Stack of thread 1 (1 frames, innermost first; #N is the frame_id):',
        '- #1 total at worker.js:8 — `return sum; // WORKER`',
        '',
        '→ {"op":"scopes"}',
        'Scopes of frame 1:',
        '- Local: reference 10',
        'Next: op "variables" with a reference.',
        '',
        '→ {"op":"variables","reference":10}',
        '1 variable:',
        '- sum = 15',
        '',
        '→ {"op":"evaluate","expression":"sum"}',
        'sum = 15',
        '',
        '→ {"op":"continue"}',
        'Stopped (breakpoint) in session "main.js [100]" on thread 2 at main.js:9 — `console.log(reply); // PARENT` in <anonymous>. It printed output: op "output".',
        NEXT,
        'Session "worker.js [101]" ended with exit code 3.',
        '',
        '→ {"op":"evaluate","expression":"reply"}',
        "reply = 'total 15'",
        '',
        // The worker's thread is gone with it: asked of the worker's session (which refuses), never of the parent's.
        '→ {"op":"stack","thread_id":1}',
        '! no session worker',
        '',
        '→ {"op":"threads"}',
        '1 thread:',
        '- 2: main.js (session "main.js [100]")',
        '',
        '→ {"op":"continue"}',
        'The program ended with exit code 0 without stopping.',
        'Output:',
        'forking\n',
      ].join('\n'),
    );
    assert.deepEqual(host.families[0].requests, [
      'stackTrace@worker threadId=1',
      'threads@root',
      'threads@parent',
      'threads@worker',
      'stackTrace@worker threadId=1',
      'stackTrace@worker threadId=1',
      'scopes@worker frameId=1',
      'variables@worker variablesReference=10',
      'stackTrace@worker threadId=1',
      'evaluate@worker frameId=1',
      'continue@worker threadId=1',
      'stackTrace@parent threadId=1',
      'stackTrace@parent threadId=1',
      'evaluate@parent frameId=1',
      'stackTrace@worker threadId=1',
      'threads@root',
      'threads@parent',
      'continue@parent threadId=1',
    ]);
  });

  it('thread ids: a session keeps its own unless another session has it; each maps back to its session', () => {
    const ids = new ThreadIds();
    assert.equal(ids.shown('a', 1), 1);
    assert.equal(ids.shown('b', 1), 2);
    assert.equal(ids.shown('b', 7), 7);
    assert.equal(ids.shown('a', 2), 8);
    assert.equal(ids.shown('a', 1), 1);
    assert.deepEqual(ids.of(2), { session: 'b', threadId: 1 });
    assert.deepEqual(ids.of(8), { session: 'a', threadId: 2 });
    assert.deepEqual(ids.of(5), { session: undefined, threadId: 5 });
  });

  it('a frame id or reference given without a thread goes to the session that answered it, with two sessions stopped', async () => {
    const host = new FakeHost(
      folder,
      { fork: { name: 'fork', type: 'fake', request: 'launch' } },
      { fork: { behaviour: 'fork', distinctIds: true } },
    );
    controller = new DebugController(host, () => 60_000);
    const debug = (input: object) =>
      runDebugOp(controller!, 'test', { op: 'status', ...input } as DebugInput).catch(
        (error: Error) => `! ${error.message}`,
      );
    await debug({ op: 'launch', configuration: 'fork' });
    host.families[0].stopParent();
    await new Promise((resolve) => setImmediate(resolve));
    // The parent's stop is the latest; the model looks at the worker's thread, then at its frame and scope.
    assert.match(await debug({ op: 'stack', thread_id: 1 }), /#5 total at worker\.js:8/);
    assert.match(await debug({ op: 'scopes', frame_id: 5 }), /Local: reference 10/);
    assert.match(await debug({ op: 'variables', reference: 10 }), /sum = 15/);
    assert.match(await debug({ op: 'evaluate', expression: 'sum', frame_id: 5 }), /^sum = 15/);
    // The parent's own, by default.
    assert.match(await debug({ op: 'scopes' }), /Local: reference 20/);
    const asked = host.families[0].requests.filter((request) => /^(scopes|variables|evaluate)@/.test(request));
    assert.deepEqual(asked, [
      'scopes@worker frameId=5',
      'variables@worker variablesReference=10',
      'evaluate@worker frameId=5',
      'scopes@parent frameId=7',
    ]);
  });

  it("names at most 10 child sessions' ends in one answer and counts the rest", () => {
    const ends = Array.from({ length: 500 }, (_, index) => ({ name: `worker.js [${index}]`, exitCode: 0 }));
    const note = memberEndedNote(ends).split('\n');
    assert.equal(note.length, MEMBER_ENDS_NAMED + 1);
    assert.equal(note[0], 'Session "worker.js [0]" ended with exit code 0.');
    assert.equal(note.at(-1), '…and 490 more sessions ended.');
    assert.equal(memberEndedNote([{ name: 'w' }]), 'Session "w" ended.');
  });
});
