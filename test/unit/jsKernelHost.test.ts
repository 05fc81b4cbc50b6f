/**
 * The JavaScript kernel as the eval tool runs it: `node dist/kernels/jsKernelHost.js` with commands
 * on fd 3 and events on fd 4 — state across cells, redeclaration, top-level await, output, errors,
 * the tool() relay, SIGINT, the output bound and the exit at end of input.
 */
import * as assert from 'node:assert/strict';
import { ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as readline from 'node:readline';
import { Readable, Writable } from 'node:stream';
import { repoRoot } from '../support/repoRoot';
import { withTempDir } from '../support/tempDir';

const HOST = path.join(repoRoot(), 'dist', 'kernels', 'jsKernelHost.js');

interface KernelEvent {
  readonly type: string;
  readonly id?: number;
  readonly call?: number;
  readonly name?: string;
  readonly input?: unknown;
  readonly text?: string;
  readonly data?: string;
  readonly ename?: string;
  readonly evalue?: string;
  readonly traceback?: string[];
  readonly pid?: number;
  readonly version?: string;
}

/** A kernel child process with the two protocol pipes; test-local, so the tests say what they send. */
class TestKernel {
  private readonly listeners = new Set<(event: KernelEvent) => void>();
  private nextId = 1;
  readonly exited: Promise<void>;
  /** Answers `tool` events; the default refuses every call. */
  onTool: (event: KernelEvent) => { ok: boolean; text: string } = () => ({ ok: false, text: 'no tools in this test' });

  private constructor(readonly child: ChildProcess) {
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    const events = readline.createInterface({ input: child.stdio[4] as Readable });
    events.on('line', (line) => {
      if (line === '') return; // every event begins with a line break too
      const event = JSON.parse(line) as KernelEvent;
      if (event.type === 'tool') this.send({ type: 'tool_result', call: event.call, ...this.onTool(event) });
      for (const listener of this.listeners) listener(event);
    });
  }

  static async start(cwd?: string): Promise<TestKernel> {
    const child = spawn(process.execPath, [HOST], { cwd, stdio: ['ignore', 'pipe', 'pipe', 'pipe', 'pipe'] });
    const kernel = new TestKernel(child);
    const ready = await kernel.next((event) => event.type === 'ready');
    assert.equal(ready.pid, child.pid);
    assert.equal(ready.version, process.version);
    return kernel;
  }

  send(command: object): void {
    (this.child.stdio[3] as Writable).write(JSON.stringify(command) + '\n');
  }

  /** The first event from now on that `accept`s. */
  next(accept: (event: KernelEvent) => boolean, timeoutMs = 10_000): Promise<KernelEvent> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.listeners.delete(listener);
        reject(new Error('no such event in time'));
      }, timeoutMs);
      const listener = (event: KernelEvent): void => {
        if (!accept(event)) return;
        clearTimeout(timer);
        this.listeners.delete(listener);
        resolve(event);
      };
      this.listeners.add(listener);
    });
  }

  /** Sends a cell; `started` is called once its first event arrives. Resolves with its events up to `done`. */
  execute(code: string, started?: (event: KernelEvent) => void): Promise<KernelEvent[]> {
    const id = this.nextId++;
    const events: KernelEvent[] = [];
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`cell ${id} did not finish: ${JSON.stringify(events).slice(0, 500)}`)),
        15_000,
      );
      const listener = (event: KernelEvent): void => {
        if (event.id !== id) return;
        if (events.length === 0) started?.(event);
        if (event.type === 'done') {
          clearTimeout(timer);
          this.listeners.delete(listener);
          resolve(events);
        } else {
          events.push(event);
        }
      };
      this.listeners.add(listener);
      this.send({ type: 'execute', id, code });
    });
  }

  /** The `result` text of a cell, undefined when it has none; fails on an error. */
  async result(code: string): Promise<string | undefined> {
    const events = await this.execute(code);
    const error = events.find((event) => event.type === 'error');
    assert.equal(error, undefined, `${code}: ${JSON.stringify(error)}`);
    return events.find((event) => event.type === 'result')?.data;
  }

  /** Closes fd 3 and waits for the exit; kills the process when it does not go. */
  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    (this.child.stdio[3] as Writable).end();
    const timeout = new Promise<'timeout'>((resolve) => setTimeout(resolve, 5_000, 'timeout'));
    if ((await Promise.race([this.exited, timeout])) === 'timeout') {
      this.child.kill('SIGKILL');
      await this.exited;
      assert.fail('the kernel did not exit when fd 3 closed');
    }
  }
}

const streamText = (events: KernelEvent[], name: string): string =>
  events
    .filter((event) => event.type === 'stream' && event.name === name)
    .map((event) => event.text)
    .join('');

describe('JavaScript kernel host', function () {
  this.timeout(30_000);
  let kernel: TestKernel;

  beforeEach(async () => (kernel = await TestKernel.start()));
  afterEach(async () => {
    await kernel.stop();
    assert.ok(kernel.child.exitCode !== null || kernel.child.signalCode !== null, 'no kernel process is left');
  });

  it('keeps state across cells and lets let, const and class be declared again', async () => {
    assert.equal(await kernel.result('const x = 1; let y = 2; class K { v() { return 1; } }'), undefined);
    assert.equal(await kernel.result('x + y'), '3');
    assert.equal(await kernel.result('const x = 2'), undefined);
    assert.equal(await kernel.result('let y = 20; class K { v() { return x + y; } }'), undefined);
    assert.equal(await kernel.result('new K().v()'), '22');
    assert.equal(
      await kernel.result('const { a, b: [c] } = { a: 1, b: [2] }; function f() { return a + c; }'),
      undefined,
    );
    assert.equal(await kernel.result('f()'), '3');
  });

  it('awaits at top level and returns the last expression, omitting undefined', async () => {
    assert.equal(await kernel.result('await new Promise(r => setTimeout(r, 10, 5))'), '5');
    assert.equal(await kernel.result('const v = await Promise.resolve({ n: 1 });\nv'), '{ n: 1 }');
    assert.equal(await kernel.result('v.n + 1'), '2');
    assert.equal(await kernel.result('undefined'), undefined);
    assert.equal(await kernel.result('await null; void 0'), undefined);
    assert.equal(await kernel.result("'text'"), "'text'");
  });

  it('sends console and process writes as streams, in order, before the result', async () => {
    const events = await kernel.execute(
      "console.log('one'); process.stdout.write('two\\n'); console.error('three'); console.warn({ w: 1 }); process.stderr.write(Buffer.from('four\\n')); 42",
    );
    assert.deepEqual(
      events.map((event) => `${event.type}:${event.name ?? ''}:${event.text ?? event.data}`),
      [
        'stream:stdout:one\n',
        'stream:stdout:two\n',
        'stream:stderr:three\n',
        'stream:stderr:{ w: 1 }\n',
        'stream:stderr:four\n',
        'result::42',
      ],
    );
  });

  it('reports an error with the cell frames only', async () => {
    await kernel.result('function fails() { null.property; }');
    const events = await kernel.execute('const ok = 1;\nfails()');
    const error = events.find((event) => event.type === 'error');
    assert.ok(error?.traceback);
    assert.equal(error.ename, 'TypeError');
    assert.match(error.evalue ?? '', /null/);
    const frames = error.traceback.filter((line) => line.startsWith('at '));
    assert.deepEqual(
      frames.map((line) => line.replace(/:\d+\)?$/, '')),
      ['at fails (<cell 1>:1', 'at <cell 2>:2'],
    );
    assert.ok(!error.traceback.some((line) => /node:|jsKernelHost/.test(line)), error.traceback.join('\n'));
  });

  it('prints errors in results and on the console with the cell frames only', async () => {
    assert.equal(await kernel.result("new Error('shown')"), 'Error: shown\n    at <cell 1>:1:1');
    const events = await kernel.execute(
      "await 0;\nfunction make() { return new RangeError('logged'); }\nconsole.log(make())",
    );
    // Line numbers are the cell's; the column of the last expression counts the `return { value: (` put before it.
    assert.equal(
      streamText(events, 'stdout'),
      'RangeError: logged\n    at make (<cell 2>:2:26)\n    at <cell 2>:3:30\n',
    );
  });

  it('reports an awaited rejection, and a late one without dying', async () => {
    const events = await kernel.execute("await Promise.reject(new RangeError('nope'))");
    const error = events.find((event) => event.type === 'error');
    assert.equal(error?.ename, 'RangeError');
    assert.equal(error?.evalue, 'nope');
    assert.ok(error?.traceback?.every((line) => !line.startsWith('at ') || line.includes('<cell 1>')));
    await kernel.result(
      "setTimeout(() => Promise.reject(new Error('late')), 1); setTimeout(() => { throw new Error('thrown late'); }, 1); 1",
    );
    const next = await kernel.execute('await new Promise(r => setTimeout(r, 50)); 2');
    assert.match(streamText(next, 'stderr'), /late[\s\S]*thrown late/);
    assert.equal(next.find((event) => event.type === 'result')?.data, '2');
  });

  it('reports a syntax error with the line', async () => {
    const events = await kernel.execute('let a = 1;\nlet b = ;');
    const error = events.find((event) => event.type === 'error');
    assert.equal(error?.ename, 'SyntaxError');
    assert.ok(
      error?.traceback?.some((line) => line.includes('<cell 1>:2')),
      JSON.stringify(error),
    );
  });

  it('answers an empty cell with done only', async () => {
    assert.deepEqual(await kernel.execute(''), []);
    assert.deepEqual(await kernel.execute('// only a comment'), []);
  });

  it('displays values', async () => {
    const events = await kernel.execute("display({ a: [1, 2] }); display('plain'); 3");
    assert.deepEqual(
      events.map((event) => `${event.type}:${event.data}`),
      ['display:{ a: [ 1, 2 ] }', 'display:plain', 'result:3'],
    );
  });

  it('relays tool() calls and rejects a refused one with ToolError', async () => {
    const calls: KernelEvent[] = [];
    kernel.onTool = (event) => {
      calls.push(event);
      return event.name === 'read'
        ? { ok: true, text: `contents of ${(event.input as { path: string }).path}` }
        : { ok: false, text: 'not allowed' };
    };
    assert.equal(
      await kernel.result("const answer = await tool('read', { path: 'a.txt' }); answer"),
      "'contents of a.txt'",
    );
    assert.equal(
      await kernel.result(
        "let caught; try { await tool('write', {}); } catch (e) { caught = `${e.name}: ${e.message}`; }\ncaught",
      ),
      "'ToolError: not allowed'",
    );
    assert.deepEqual(
      calls.map((event) => [event.id, event.call, event.name, event.input]),
      [
        [1, 1, 'read', { path: 'a.txt' }],
        [2, 2, 'write', {}],
      ],
    );
    const uncaught = await kernel.execute("await tool('write', {})");
    assert.equal(uncaught.find((event) => event.type === 'error')?.ename, 'ToolError');
  });

  it('requires and imports modules', async () => {
    assert.equal(await kernel.result("require('node:path').join('a', 'b')"), "'a/b'");
    assert.equal(
      await kernel.result(
        "import * as p from 'node:path'; import { join } from 'node:path'; import os from 'node:os'; [p.sep, join('x', 'y'), typeof os.cpus]",
      ),
      "[ '/', 'x/y', 'function' ]",
    );
    assert.equal(await kernel.result('join.name'), "'join'");
  });

  it('resolves require and import from the working directory (CommonJS, ESM, ESM with top-level await)', async () => {
    await withTempDir('js-kernel-', async (dir) => {
      fs.writeFileSync(path.join(dir, 'common.js'), 'module.exports = { a: 1 };\n');
      fs.writeFileSync(path.join(dir, 'lib.mjs'), "export const answer = 42;\nexport default 'd';\n");
      fs.writeFileSync(path.join(dir, 'slow.mjs'), 'export const late = await Promise.resolve(7);\n');
      await kernel.stop();
      kernel = await TestKernel.start(dir);
      assert.equal(await kernel.result("require('./common.js').a"), '1');
      assert.equal(
        await kernel.result(
          "import common from './common.js'; import d, { answer } from './lib.mjs'; import { late } from './slow.mjs'; [common.a, d, answer, late]",
        ),
        "[ 1, 'd', 42, 7 ]",
      );
      const missing = await kernel.execute("import x from './missing.js'");
      assert.equal(
        missing.find((event) => event.type === 'error')?.evalue?.split('\n')[0],
        "Cannot find module './missing.js'",
      );
    });
  });

  it('interrupts a synchronous loop on SIGINT and answers the next cell', async () => {
    const events = await kernel.execute("process.stdout.write('looping\\n'); while (true) {}", () =>
      kernel.child.kill('SIGINT'),
    );
    assert.equal(events.find((event) => event.type === 'error')?.ename, 'Interrupted');
    assert.equal(await kernel.result('1 + 1'), '2');
    // Again, in a cell that awaits after the loop: the listeners are back after each interrupt.
    const again = await kernel.execute("process.stdout.write('looping\\n'); for (;;) {} await 0;", () =>
      kernel.child.kill('SIGINT'),
    );
    assert.equal(again.find((event) => event.type === 'error')?.ename, 'Interrupted');
    assert.equal(await kernel.result('3'), '3');
  });

  it('interrupts a pending await on SIGINT and answers the next cell', async () => {
    // Sent a little after the synchronous part: a SIGINT in the instant it ends is lost (see the host's comment).
    const events = await kernel.execute(
      "process.stdout.write('waiting\\n'); await new Promise(r => setTimeout(r, 60_000)); 'never'",
      () => setTimeout(() => kernel.child.kill('SIGINT'), 100),
    );
    assert.equal(events.find((event) => event.type === 'error')?.ename, 'Interrupted');
    assert.equal(
      events.find((event) => event.type === 'result'),
      undefined,
    );
    assert.equal(await kernel.result('2 + 2'), '4');
  });

  it('cuts an output flood and says how much was dropped', async () => {
    const events = await kernel.execute("for (let i = 0; i < 50_000; i++) console.log('x'.repeat(99)); 'end'");
    const stdout = streamText(events, 'stdout');
    assert.ok(stdout.length <= 2 * 1024 * 1024 && stdout.length > 1024 * 1024, `${stdout.length}`);
    assert.match(streamText(events, 'stderr'), /(\d+) characters dropped/);
    const dropped = Number(/(\d+) characters dropped/.exec(streamText(events, 'stderr'))?.[1]);
    // Each write counted: 50 000 lines of 100 characters, plus the 'end' result, minus what was kept.
    assert.equal(dropped + stdout.length, 50_000 * 100 + "'end'".length);
    assert.equal(await kernel.result('1'), '1');
  });

  it('exits when fd 3 closes', async () => {
    assert.equal(await kernel.result('1'), '1');
    (kernel.child.stdio[3] as Writable).end();
    await kernel.exited;
    assert.equal(kernel.child.exitCode, 0);
  });
});
