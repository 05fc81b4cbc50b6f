/**
 * The `debug` tool in the real editor against real adapters: debugpy (a project venv made with
 * --system-site-packages), js-debug (built in), delve, lldb-vscode-16 on a C and a Rust program;
 * Dart's precise "why not"; one session per conversation; the time to live; and no adapter or
 * debuggee left running afterwards.
 */
import * as assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { browser, hasBrowser } from './support/browser';
import { commandLine, processesMatching } from '../support/processes';
import { activateExtension, invokeText, lineOf, setSetting, waitUntilAsync, workspaceRoot } from './support/tools';
import { chatReady, scriptedModel, sendChat } from './support/chat';
import { answerCard, answeringCards } from './support/vibe';
import { bridgePath, connectBridge, terminalEnvironment, textOf } from './support/mcp';
import type { ScriptedModelApi } from '../scripted-model/api';

const debug = (input: object, token?: vscode.CancellationToken) => invokeText('debug', input, token);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A call cancelled through its token: how long it took to answer after the cancel, and what it rejected with. */
async function cancelledAfter(
  call: Promise<string>,
  source: vscode.CancellationTokenSource,
  delayMs: number,
): Promise<{ ms: number; error: unknown }> {
  await sleep(delayMs);
  const cancelledAt = Date.now();
  source.cancel();
  try {
    const answer = await call;
    throw new Error(`the cancelled call answered: ${answer}`);
  } catch (error) {
    return { ms: Date.now() - cancelledAt, error };
  }
}

/** Processes whose command line mentions one of the debug fixtures or adapters. */
function debugProcesses(): string[] {
  return processesMatching(
    /-m debugpy|debugpy\/launcher|dlv dap|lldb-vscode|debug\/(c|rust)\/main|debug\/js\/(app|cart\.test|fork\/worker)\.js|node \.\/main\.js|mocha-project|debug\/python\/spin\.py|__debug_bin|debugfixture(\.test|-[0-9a-f]+)/,
  );
}

async function noDebugProcesses(): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (debugProcesses().length > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
  assert.deepEqual(debugProcesses(), []);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Waits until something listens on the port, read from /proc/net/tcp (a probe connection would be taken as the debugger). */
async function waitForPort(port: number): Promise<void> {
  const local = `0100007F:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  const deadline = Date.now() + 20_000;
  while (
    !fs
      .readFileSync('/proc/net/tcp', 'utf8')
      .split('\n')
      .some((row) => row.trim().split(/\s+/)[1] === local && row.trim().split(/\s+/)[3] === '0A')
  ) {
    if (Date.now() > deadline) throw new Error(`nothing listens on port ${port} after 20 s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

interface Case {
  readonly name: string;
  readonly program: string;
  readonly source: string;
  readonly sum: string;
  /** A local the first scope lists. */
  readonly local: string;
  readonly frame: string;
  readonly build?: () => void;
}

describe('debug tool', function () {
  this.timeout(180_000);
  let root: string;

  before(() => {
    root = workspaceRoot();
    const venv = path.join(root, 'debug', 'python', '.venv');
    if (!fs.existsSync(path.join(venv, 'bin', 'python')))
      execFileSync('/usr/bin/python3', ['-m', 'venv', '--system-site-packages', venv]);
  });

  afterEach(async () => {
    await debug({ op: 'terminate' });
    await debug({ op: 'breakpoints', exceptions: [] });
    for (const file of [
      'debug/python/app.py',
      'debug/python/spin.py',
      'debug/js/app.js',
      'debug/js/cart.js',
      'debug/go/main.go',
      'debug/c/main.c',
      'debug/c/wait.c',
      'debug/go/wait/main.go',
      'debug/rust/main.rs',
    ])
      await debug({ op: 'breakpoints', file, lines: [] });
  });

  after(async () => {
    await setSetting('liveTools.debug.sessionMinutes', undefined);
    await noDebugProcesses();
  });

  it('adapters: each one that can start here, and exactly why Dart cannot', async () => {
    const text = await debug({ op: 'adapters' });
    for (const id of ['lldb', 'delve', 'js']) assert.match(text, new RegExp(`- ${id}: can start`), text);
    assert.match(text, /- lldb: .*can start for debug\/c\/ — \/usr\/bin\/lldb-vscode-16 \(on PATH\)/, text);
    assert.match(
      text,
      /- dart: cannot start for [\w/]*dart\/ — `dart` not found \(looked in .*PATH: .*\): install the Dart or Flutter SDK/,
      text,
    );
    // debugpy is judged per project: this one's venv (made with --system-site-packages) sees Debian's debugpy.
    assert.match(
      text,
      /- debugpy: .*can start for debug\/python\/ — debug\/python\/\.venv\/bin\/python \(the project's \.venv\)/,
      text,
    );
  });

  const cases: Case[] = [
    {
      name: 'Python (debugpy, the project venv)',
      program: 'debug/python/app.py',
      source: 'debug/python/app.py',
      sum: 'sum_',
      local: 'prices',
      frame: 'total',
    },
    {
      name: 'JavaScript (js-debug)',
      program: 'debug/js/app.js',
      source: 'debug/js/app.js',
      sum: 'sum',
      local: 'prices',
      frame: 'total',
    },
    {
      name: 'Go (delve)',
      program: 'debug/go/main.go',
      source: 'debug/go/main.go',
      sum: 'sum',
      local: 'sum',
      frame: 'main.total',
    },
    {
      name: 'C (lldb)',
      program: 'debug/c/main',
      source: 'debug/c/main.c',
      sum: 'sum',
      local: 'sum',
      frame: 'total',
      build: () =>
        execFileSync('gcc', ['-g', '-O0', '-o', path.join(root, 'debug/c/main'), path.join(root, 'debug/c/main.c')]),
    },
    {
      name: 'Rust (lldb)',
      program: 'debug/rust/main',
      source: 'debug/rust/main.rs',
      sum: 'sum',
      local: 'sum',
      frame: 'main::total',
      build: () =>
        execFileSync('rustc', [
          '-g',
          '-C',
          'opt-level=0',
          '-o',
          path.join(root, 'debug/rust/main'),
          path.join(root, 'debug/rust/main.rs'),
        ]),
    },
  ];

  for (const c of cases) {
    it(`${c.name}: breakpoint, launch, stop, stack, scopes, variables, evaluate, step, continue, output, terminate`, async () => {
      c.build?.();
      const line = lineOf(c.source, 'BREAK');
      const set = await debug({ op: 'breakpoints', file: c.source, lines: [{ line }] });
      assert.match(set, new RegExp(`line ${line}: \`.*BREAK`), set);

      const launched = await debug({ op: 'launch', program: c.program, timeout_seconds: 90 });
      assert.match(
        launched,
        new RegExp(`Stopped \\(breakpoint.*at ${c.source.replace(/\./g, '\\.')}:${line} — \`.*BREAK.*\` in ${c.frame}`),
        launched,
      );
      // What was launched, and its process id as the adapter reported it (or that it reported none).
      assert.match(
        launched,
        new RegExp(
          `^Launched ${c.program.replace(/\./g, '\\.')} with .*; session "Agent: [^"]+"(, process id \\d+|; the adapter reported no process id)\\.`,
        ),
        launched,
      );
      assert.doesNotMatch(launched, /undefined/, launched);

      const stack = await debug({ op: 'stack' });
      assert.match(stack, new RegExp(`#\\d+ ${c.frame}\\S* at ${c.source.replace(/\./g, '\\.')}:${line}`), stack);
      assert.match(stack, /main/, stack);

      // The local is in one of the top frame's scopes (js-debug lists the loop's block scope first).
      const scopes = await debug({ op: 'scopes' });
      const variables: string[] = [];
      for (const [, reference] of scopes.matchAll(/reference (\d+)/g))
        variables.push(await debug({ op: 'variables', reference: Number(reference) }));
      assert.match(variables.join('\n'), new RegExp(`- ${c.local}\\b`), variables.join('\n'));

      assert.match(await debug({ op: 'evaluate', expression: c.sum }), new RegExp(`^${c.sum} = 0\\b`));
      const stepped = await debug({ op: 'step_over' });
      assert.match(stepped, /Stopped \(step/, stepped);

      // Back round the loop to the breakpoint: the sum has grown by the first price.
      let again = await debug({ op: 'continue' });
      assert.match(again, new RegExp(`Stopped \\(breakpoint.*:${line} `), again);
      assert.match(await debug({ op: 'evaluate', expression: c.sum }), new RegExp(`^${c.sum} = 3\\b`));

      const second = await debug({ op: 'launch', program: c.program });
      assert.match(second, /already running in this conversation: "Agent: .*Call op "terminate" first/, second);

      await debug({ op: 'breakpoints', file: c.source, lines: [] });
      again = await debug({ op: 'continue' });
      assert.match(again, /The program ended/, again);
      const output = again + (await debug({ op: 'output' }));
      assert.match(output, /total 15/, output);

      assert.match(await debug({ op: 'terminate' }), /No debug session|ended/);
      assert.match(await debug({ op: 'status' }), /No debug session in this conversation/);
    });
  }

  /** One test of each runner; the breakpoint is in the code under test, the stack shows the test that called it. */
  const testCases: ReadonlyArray<{
    readonly name: string;
    readonly program: string;
    readonly test: string;
    readonly source: string;
    readonly launched: RegExp;
    readonly caller: RegExp;
    readonly passed: RegExp;
    /** Makes the project (mocha: the package with mocha in its node_modules, as npm install leaves it). */
    readonly setup?: () => void;
  }> = [
    {
      name: 'pytest (debugpy)',
      program: 'debug/python/test_app.py',
      test: 'test_total',
      source: 'debug/python/app.py',
      launched:
        /^Launched the test test_total \(python -m pytest test_app\.py -k test_total, in debug\/python\) with debugpy/,
      caller: /test_total at debug\/python\/test_app\.py:\d+/,
      passed: /1 passed, 1 deselected/,
    },
    {
      name: 'go test (delve)',
      program: 'debug/go/main_test.go',
      test: 'TestTotal',
      source: 'debug/go/main.go',
      launched: /^Launched the test TestTotal \(go test '-run=\^TestTotal\$' -v \., in debug\/go\) with delve/,
      caller: /TestTotal at debug\/go\/main_test\.go:\d+/,
      passed: /--- PASS: TestTotal/,
    },
    {
      name: "Node's test runner (js-debug)",
      program: 'debug/js/cart.test.js',
      test: 'pear and apple',
      source: 'debug/js/cart.js',
      launched:
        /^Launched the test pear and apple \(node '--test-name-pattern=pear and apple' debug\/js\/cart\.test\.js, in \.\) with js/,
      caller: /at debug\/js\/cart\.test\.js:12\b/,
      passed: /# pass 1\b[\s\S]*# skipped 1\b/,
    },
    {
      name: "mocha, as package.json's test script runs it (js-debug)",
      program: 'debug/mocha-project/cart.spec.js',
      test: 'pear and apple',
      source: 'debug/js/cart.js',
      launched:
        /^Launched the test pear and apple \(npx mocha '--grep=pear and apple' cart\.spec\.js, in debug\/mocha-project\) with js/,
      caller: /at debug\/mocha-project\/cart\.spec\.js:\d+/,
      passed: /1 passing/,
      setup: () => {
        const project = path.join(root, 'debug', 'mocha-project');
        fs.mkdirSync(path.join(project, 'node_modules'), { recursive: true });
        fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ scripts: { test: 'mocha' } }));
        fs.writeFileSync(
          path.join(project, 'cart.spec.js'),
          [
            "const assert = require('node:assert');",
            "const { cartTotal } = require('../js/cart');",
            "describe('cart', () => {",
            "  it('is empty', () => assert.equal(cartTotal([]), 0));",
            "  it('pear and apple', () => assert.equal(cartTotal([{ price: 5, quantity: 1 }]), 5));",
            '});',
            '',
          ].join('\n'),
        );
        const mocha = path.dirname(require.resolve('mocha/package.json'));
        if (!fs.existsSync(path.join(project, 'node_modules', 'mocha')))
          fs.symlinkSync(mocha, path.join(project, 'node_modules', 'mocha'));
      },
    },
    {
      name: 'cargo test (lldb)',
      program: 'debug/rust/main.rs',
      test: 'adds_up',
      source: 'debug/rust/main.rs',
      launched:
        /^Launched the test tests::adds_up \(cargo test tests::adds_up -- --exact --nocapture --test-threads=1, in debug\/rust\) with lldb/,
      caller: /tests::adds_up\S* at debug\/rust\/main\.rs:\d+/,
      passed: /test tests::adds_up \.\.\. ok/,
    },
  ];

  for (const c of testCases) {
    it(`one test, ${c.name}: stops at the breakpoint in the code under test, called from that test; the runner's output shows it passed`, async () => {
      c.setup?.();
      const line = lineOf(c.source, 'BREAK');
      await debug({ op: 'breakpoints', file: c.source, lines: [{ line, line_text: 'BREAK' }] });
      const launched = await debug({ op: 'launch', test: c.test, program: c.program, timeout_seconds: 120 });
      assert.match(launched, c.launched, launched);
      assert.match(
        launched,
        new RegExp(`Stopped \\(breakpoint.*at ${c.source.replace(/\./g, '\\.')}:${line} `),
        launched,
      );
      const stack = await debug({ op: 'stack' });
      assert.match(stack, c.caller, stack);

      await debug({ op: 'breakpoints', file: c.source, lines: [] });
      const ended = await debug({ op: 'continue', timeout_seconds: 60 });
      assert.match(ended, /The program ended/, ended);
      const output = ended + (await debug({ op: 'output' }));
      assert.match(output, c.passed, output);
    });
  }

  it('one test: a runner that is not installed is named with what to do, and nothing starts', async () => {
    const project = path.join(root, 'debug', 'jest-project');
    fs.mkdirSync(project, { recursive: true });
    fs.writeFileSync(
      path.join(project, 'package.json'),
      JSON.stringify({ name: 'jest-project', scripts: { test: 'jest' } }),
    );
    fs.writeFileSync(path.join(project, 'sum.test.js'), "test('adds', () => expect(1 + 1).toBe(2));\n");
    try {
      const refused = await debug({ op: 'launch', test: 'adds', program: 'debug/jest-project/sum.test.js' });
      assert.match(
        refused,
        /Cannot debug the test with jest: the package's test script runs jest, but node_modules\/jest\/bin\/jest\.js is not in debug\/jest-project or above: run npm install first\./,
        refused,
      );
      const nowhere = await debug({ op: 'launch', test: 'adds', program: 'debug/README.md' });
      assert.match(nowhere, /No test runner is known for README\.md/, nowhere);
      const rust = await debug({ op: 'launch', test: 'no_such_test', program: 'debug/rust/main.rs' });
      assert.match(
        rust,
        /No test named no_such_test in the package's 1 test binary; nothing was launched\. Its tests: tests::adds_up, tests::is_positive\./,
        rust,
      );
    } finally {
      fs.rmSync(project, { recursive: true, force: true });
    }
    assert.match(await debug({ op: 'status' }), /^No debug session/);
  });

  it('attach: debugpy to a program waiting on a port stops at the breakpoint; detaching leaves the program to its owner', async () => {
    const source = 'debug/python/app.py';
    const line = lineOf(source, 'BREAK');
    const port = await freePort();
    const python = path.join(root, 'debug', 'python', '.venv', 'bin', 'python');
    const program = spawn(
      python,
      ['-m', 'debugpy', '--listen', `127.0.0.1:${port}`, '--wait-for-client', path.join(root, source)],
      { stdio: 'ignore' },
    );
    try {
      await waitForPort(port);
      await debug({ op: 'breakpoints', file: source, lines: [{ line }] });
      const attached = await debug({
        op: 'attach',
        adapter: 'debugpy',
        port,
        cwd: 'debug/python',
        timeout_seconds: 30,
      });
      assert.match(
        attached,
        new RegExp(
          `Attached to port ${port} with debugpy[\\s\\S]*Stopped \\(breakpoint.*debug/python/app\\.py:${line} `,
        ),
        attached,
      );
      assert.match(await debug({ op: 'evaluate', expression: 'sum_' }), /^sum_ = 0\b/);
      assert.match(await debug({ op: 'terminate' }), /ended/);
    } finally {
      program.kill('SIGKILL');
    }
  });

  const byPid = [
    {
      adapter: 'lldb',
      source: 'debug/c/wait.c',
      cwd: 'debug/c',
      build: () => {
        execFileSync('gcc', ['-g', '-O0', '-o', path.join(root, 'debug/c/wait'), path.join(root, 'debug/c/wait.c')]);
        return path.join(root, 'debug/c/wait');
      },
    },
    {
      adapter: 'delve',
      source: 'debug/go/wait/main.go',
      cwd: 'debug/go',
      build: () => {
        execFileSync('go', ['build', '-gcflags=all=-N -l', '-o', 'wait/wait', './wait'], {
          cwd: path.join(root, 'debug/go'),
        });
        return path.join(root, 'debug/go/wait/wait');
      },
    },
  ];
  for (const c of byPid) {
    it(`attach: ${c.adapter} to a running process by pid stops at the breakpoint; detaching leaves the process running`, async () => {
      const program = spawn(c.build(), [], { stdio: 'ignore' });
      try {
        const line = lineOf(c.source, 'BREAK');
        await debug({ op: 'breakpoints', file: c.source, lines: [{ line }] });
        const attached = await debug({
          op: 'attach',
          adapter: c.adapter,
          pid: program.pid,
          cwd: c.cwd,
          timeout_seconds: 60,
        });
        assert.match(
          attached,
          new RegExp(
            `^Attached to pid ${program.pid} with ${c.adapter}[\\s\\S]*Stopped \\(breakpoint.*${c.source.replace(/\./g, '\\.')}:${line} `,
          ),
          attached,
        );
        assert.match(await debug({ op: 'evaluate', expression: 'ticks' }), /^ticks = [1-9]\d*\b/);
        assert.match(await debug({ op: 'terminate' }), /ended/);
        await new Promise((resolve) => setTimeout(resolve, 500));
        assert.equal(program.exitCode, null, 'the process still runs after the detach');
        assert.equal(program.signalCode, null, 'the process still runs after the detach');
      } finally {
        program.kill('SIGKILL');
      }
    });
  }

  const raising = [
    { name: 'Python (debugpy)', source: 'debug/python/fails.py', filter: 'raised' },
    { name: 'JavaScript (js-debug)', source: 'debug/js/fails.js', filter: 'all' },
  ];
  for (const c of raising) {
    it(`${c.name}: an exception breakpoint set before launch stops where a handled exception is raised; without it the program runs through`, async () => {
      const line = lineOf(c.source, 'RAISE');
      const set = await debug({ op: 'breakpoints', exceptions: [c.filter, 'nonsense'] });
      assert.match(set, new RegExp(`^Exception breakpoints: ${c.filter}, nonsense \\(applied at launch\\)\\.`), set);

      const launched = await debug({ op: 'launch', program: c.source, timeout_seconds: 90 });
      assert.match(
        launched,
        new RegExp(`Stopped \\(exception.*at ${c.source.replace(/\./g, '\\.')}:${line} — \`.*RAISE.*\` in parse`),
        launched,
      );
      assert.match(launched, new RegExp(`no exception filter "nonsense"; it offers .*"${c.filter}"`), launched);
      // Cleared in the running session: debugpy would otherwise stop again in each frame the exception passes.
      assert.match(await debug({ op: 'breakpoints', exceptions: [] }), /^Exception breakpoints cleared\./);
      const ended = await debug({ op: 'continue' });
      assert.match(ended, /The program ended/, ended);
      assert.match(ended + (await debug({ op: 'output' })), /handled .*not a number: seven/);
      await debug({ op: 'terminate' });

      // The control: the editor's own defaults do not stop on a handled exception.
      const unfiltered = await debug({ op: 'launch', program: c.source, timeout_seconds: 90 });
      assert.match(unfiltered, /The program ended/, unfiltered);
    });
  }

  // Measured (js-debug in VS Code 1.139): a file the program never loads is answered verified: false,
  // "Unbound breakpoint", for good; a blank line of a loaded script is bound on the next line with code.
  it("js-debug: a breakpoint in a file the program never loads is not bound at launch (the adapter's message), and named again as never bound at the exit", async () => {
    const app = 'debug/js/app.js';
    const cart = 'debug/js/cart.js';
    const line = lineOf(app, 'BREAK');
    const never = lineOf(cart, 'BREAK');
    await debug({ op: 'breakpoints', file: cart, lines: [never] });
    await debug({ op: 'breakpoints', file: app, lines: [line] });
    const launched = await debug({ op: 'launch', program: app, timeout_seconds: 90 });
    assert.match(launched, new RegExp(`Stopped \\(breakpoint.*debug/js/app\\.js:${line} `), launched);
    assert.match(
      launched,
      new RegExp(`\\n1 breakpoint not bound: debug/js/cart\\.js:${never} \\(Unbound breakpoint\\)\\.\\n`),
      launched,
    );
    // Set again while the session runs: the adapter's answer, per breakpoint; a blank line of the loaded script too.
    const blank = lineOf(app, 'console.log') - 1;
    const again = await debug({ op: 'breakpoints', file: cart, lines: [never] });
    assert.match(again, new RegExp(`- line ${never}: \`.*BREAK.*\` — not bound: Unbound breakpoint$`), again);
    const loaded = await debug({ op: 'breakpoints', file: app, lines: [blank] });
    assert.match(
      loaded,
      new RegExp(`- line ${blank}: \`\` — the adapter moved it to line ${blank + 1}: \`console\\.log`),
      loaded,
    );
    await debug({ op: 'breakpoints', file: app, lines: [] });
    const ended = await debug({ op: 'continue' });
    assert.match(ended, /^The program ended/, ended);
    assert.match(
      ended,
      new RegExp(`\\n1 breakpoint never bound: debug/js/cart\\.js:${never} \\(Unbound breakpoint\\)\\.`),
      ended,
    );
  });

  // Measured (js-debug in VS Code 1.139): the forked worker runs in a session of its own, a child of the
  // program's (`worker.js [pid]`), its thread numbered after the program's; its end is a `terminated`
  // event of its session, with no `exited` (no exit code); the family ends with the launcher's session.
  describe('js-debug: a program that forks a worker', () => {
    const main = 'debug/js/fork/main.js';
    const worker = 'debug/js/fork/worker.js';
    afterEach(async () => {
      await debug({ op: 'terminate' });
      await debug({ op: 'breakpoints', file: main, lines: [] });
      await debug({ op: 'breakpoints', file: worker, lines: [] });
    });

    it("the worker's stop is named as the worker's and inspected there; continue reaches the parent's stop, named as the parent's; the worker's end is said", async () => {
      const inWorker = lineOf(worker, 'WORKER BREAK');
      const inMain = lineOf(main, 'PARENT BREAK');
      await debug({ op: 'breakpoints', file: worker, lines: [inWorker] });
      await debug({ op: 'breakpoints', file: main, lines: [inMain] });

      const launched = await debug({ op: 'launch', program: main, timeout_seconds: 90 });
      const workerStop = launched.match(
        /Stopped \(breakpoint[^)]*\) in session "(worker\.js \[(\d+)\])" on thread (\d+) at (.*)/,
      );
      assert.ok(workerStop, launched);
      assert.match(
        workerStop[4],
        new RegExp(`^debug/js/fork/worker\\.js:${inWorker} — \`return sum; // WORKER BREAK\` in total\\.`),
      );
      assert.doesNotMatch(launched, /not bound/, launched);
      const [, workerSession, workerPid, workerThread] = workerStop;
      assert.ok(
        processesMatching(/debug\/js\/fork\/worker\.js/).some((line) => line.startsWith(`${workerPid}: `)),
        `no process ${workerPid}`,
      );

      // Both processes' threads, each named by its session.
      const threads = await debug({ op: 'threads' });
      assert.match(
        threads,
        new RegExp(`- ${workerThread}: .*\\(session "${workerSession.replace(/[[\]]/g, '\\$&')}"\\)`),
        threads,
      );
      assert.match(threads, /- \d+: .*\(session "main\.js \[\d+\]"\)/, threads);

      // What was asked of the worker's session is answered from the worker's stop.
      assert.match(
        await debug({ op: 'stack' }),
        new RegExp(`^Stack of thread ${workerThread} [\\s\\S]*#\\d+ total at debug/js/fork/worker\\.js:${inWorker}`),
      );
      assert.match(await debug({ op: 'evaluate', expression: 'sum' }), /^sum = 15\b/);
      const scopes = await debug({ op: 'scopes' });
      const variables: string[] = [];
      for (const [, reference] of scopes.matchAll(/reference (\d+)/g))
        variables.push(await debug({ op: 'variables', reference: Number(reference) }));
      assert.match(variables.join('\n'), /- sum = 15\b/, variables.join('\n'));

      // The breakpoint in worker.js is bound (in the worker's session), though the parent never loads the file.
      const again = await debug({ op: 'breakpoints', file: worker, lines: [inWorker] });
      assert.match(again, new RegExp(`- line ${inWorker}: .* — bound$`), again);

      // The worker sends its total and ends; the parent stops on receiving it.
      const parentStop = await debug({ op: 'continue' });
      assert.match(
        parentStop,
        new RegExp(
          `^Stopped \\(breakpoint[^)]*\\) in session "main\\.js \\[\\d+\\]" on thread (?!${workerThread} )\\d+ at debug/js/fork/main\\.js:${inMain} — `,
        ),
        parentStop,
      );
      const reply = await debug({ op: 'evaluate', expression: 'reply' });
      assert.match(reply, /^reply = 'total 15'/);
      const stack = await debug({ op: 'stack' });
      assert.match(stack, new RegExp(`#\\d+ \\S+ at debug/js/fork/main\\.js:${inMain}`));
      // The worker's end is said once, by the answer that follows it (js-debug reports no exit code for it).
      const told = [parentStop, reply, stack, await debug({ op: 'threads' })].join('\n');
      const endNote = new RegExp(`Session "${workerSession.replace(/[[\]]/g, '\\$&')}" ended\\.`, 'g');
      assert.equal(told.match(endNote)?.length, 1, told);

      const ended = await debug({ op: 'continue' });
      assert.match(ended, /^The program ended/, ended);
      assert.match(ended + (await debug({ op: 'output' })), /total 15[\s\S]*worker exited with code 0/);
      await debug({ op: 'terminate' });
      await noDebugProcesses();
    });

    it("terminate at the worker's stop ends the worker and the parent", async () => {
      await debug({ op: 'breakpoints', file: worker, lines: [lineOf(worker, 'WORKER BREAK')] });
      const launched = await debug({ op: 'launch', program: main, timeout_seconds: 90 });
      assert.match(launched, /Stopped \(breakpoint[^)]*\) in session "worker\.js \[\d+\]"/, launched);
      // js-debug runs the program as `node ./main.js` in its folder; the worker by its full path.
      const both = processesMatching(/node \.\/main\.js|debug\/js\/fork\/worker\.js/);
      assert.equal(both.length, 2, both.join('\n'));
      assert.match(await debug({ op: 'terminate' }), /ended/);
      await noDebugProcesses();
    });
  });

  it('a launch.json compound is refused, naming its configurations', async () => {
    const refused = await debug({ op: 'launch', configuration: 'Fault: both' });
    assert.match(
      refused,
      /"Fault: both" is a compound in \.vscode\/launch\.json \("Fault: crash", "Fault: huge"\): .*Launch one of its configurations by name instead\./,
      refused,
    );
  });

  // Measured (Debian's debugpy 1.6.3): every breakpoint of a file it can read is verified; one on a
  // blank or comment line is bound on the line with code before it (a line past the end: the last).
  it('debugpy: a breakpoint on a blank line is moved by the adapter to the line with code before it, and the launch and breakpoints answers say where', async () => {
    const source = 'debug/python/app.py';
    const line = lineOf(source, 'BREAK');
    const blank = lineOf(source, 'def main') - 1;
    const bound = lineOf(source, 'return sum_');
    assert.equal(fs.readFileSync(path.join(root, source), 'utf8').split('\n')[blank - 1], '');
    await debug({ op: 'breakpoints', file: source, lines: [line, blank] });
    const launched = await debug({ op: 'launch', program: source, timeout_seconds: 90 });
    assert.match(launched, new RegExp(`Stopped \\(breakpoint.*debug/python/app\\.py:${line} `), launched);
    assert.match(
      launched,
      new RegExp(`\\n1 breakpoint moved by the adapter: debug/python/app\\.py:${blank} → line ${bound}\\.`),
      launched,
    );
    assert.doesNotMatch(launched, /not bound/, launched);
    const set = await debug({ op: 'breakpoints', file: source, lines: [line, blank] });
    assert.match(
      set,
      new RegExp(
        `- line ${line}: \`.*BREAK.*\` — bound\\n- line ${blank}: \`\` — the adapter moved it to line ${bound}: \`return sum_\`$`,
      ),
      set,
    );
  });

  it("watch (debugpy): set before the launch, the expressions' values come with each stop and change across two steps", async () => {
    const source = 'debug/python/app.py';
    const line = lineOf(source, 'BREAK');
    await debug({ op: 'breakpoints', file: source, lines: [line] });
    try {
      assert.match(await debug({ op: 'watch', expressions: ['sum_', 'item', 'nope'] }), /^Watching 3 expressions/);
      const launched = await debug({ op: 'launch', program: source, timeout_seconds: 90 });
      assert.match(
        launched,
        /\nWatch:\n- sum_ = 0 \(int\)\n- item = 'apple' \(str\)\n- nope: cannot evaluate: .*nope.*\n/,
        launched,
      );
      await debug({ op: 'breakpoints', file: source, lines: [] });
      const first = await debug({ op: 'step_over' });
      assert.match(first, /\nWatch:\n- sum_ = 3 \(int\)\n- item = 'apple' \(str\)\n/, first);
      const second = await debug({ op: 'step_over' });
      assert.match(second, /\nWatch:\n- sum_ = 3 \(int\)\n- item = 'pear' \(str\)\n/, second);
      assert.match(await debug({ op: 'watch', expressions: [] }), /^Watch expressions cleared\.$/);
      assert.doesNotMatch(await debug({ op: 'step_over' }), /Watch:/);
    } finally {
      await debug({ op: 'watch', expressions: [] });
    }
  });

  it('Python (debugpy): the launch answer gives the process id of the program, as the adapter reported it', async () => {
    const source = 'debug/python/app.py';
    await debug({ op: 'breakpoints', file: source, lines: [{ line: lineOf(source, 'BREAK') }] });
    const launched = await debug({ op: 'launch', program: source, timeout_seconds: 90 });
    const pid = /; session "Agent: app\.py", process id (\d+)\./.exec(launched)?.[1];
    assert.ok(pid, launched);
    assert.match(commandLine(Number(pid)) ?? '', /debug\/python\/app\.py/);
  });

  it('a breakpoint given with its line text, on a file edited since (two lines inserted above), stops on the intended statement; a text found nowhere is refused', async () => {
    const source = 'debug/python/anchored.py';
    const original = fs.readFileSync(path.join(root, 'debug/python/app.py'), 'utf8');
    fs.writeFileSync(path.join(root, source), original);
    const line = lineOf(source, 'BREAK');
    // The model read the file; then two lines were inserted above.
    fs.writeFileSync(path.join(root, source), `# inserted\n# inserted\n${original}`);
    try {
      const set = await debug({
        op: 'breakpoints',
        file: source,
        lines: [{ line, line_text: 'sum_ += prices[item]' }],
      });
      assert.match(
        set,
        new RegExp(
          `- line ${line + 2}: \`.*sum_ \\+= prices\\[item\\].*\` \\(moved from line ${line}: the file changed, and its text is here now\\)`,
        ),
        set,
      );
      const launched = await debug({ op: 'launch', program: source, timeout_seconds: 90 });
      assert.match(launched, new RegExp(`Stopped \\(breakpoint.*debug/python/anchored\\.py:${line + 2} `), launched);
      const nowhere = await debug({ op: 'breakpoints', file: source, lines: [{ line, line_text: 'total += price' }] });
      assert.match(
        nowhere,
        new RegExp(
          `^Error: No line of debug/python/anchored\\.py holds line_text "total \\+= price" \\(given with line ${line}\\); nothing was changed\\. The file around line ${line} now:\\n${line - 3}: `,
        ),
        nowhere,
      );
    } finally {
      await debug({ op: 'terminate' });
      await debug({ op: 'breakpoints', file: source, lines: [] });
      fs.rmSync(path.join(root, source), { force: true });
    }
  });

  it('credentials in variables, evaluate and output are masked with their length; turned off, they show', async () => {
    const source = 'debug/python/secrets.py';
    await debug({ op: 'breakpoints', file: source, lines: [{ line: lineOf(source, 'BREAK') }] });
    try {
      const launched = await debug({ op: 'launch', program: source, timeout_seconds: 90 });
      assert.match(launched, /Stopped \(breakpoint/, launched);
      const scopes = await debug({ op: 'scopes' });
      const variables: string[] = [];
      for (const [, reference] of scopes.matchAll(/reference (\d+)/g))
        variables.push(await debug({ op: 'variables', reference: Number(reference) }));
      const listed = variables.join('\n');
      assert.match(listed, /- aws_key\b.*«secret: 20 characters»/, listed);
      assert.match(listed, /- header\b.*Bearer «secret: 15 characters»/, listed);
      // A typed local (`name = value (type)`), and a dict's key, listed on its own reference.
      assert.match(listed, /^- db_password = '«secret: 16 characters»' \(str\)$/m, listed);
      const config = Number(/^- config = .* \[reference (\d+)\]$/m.exec(listed)?.[1]);
      const entries = await debug({ op: 'variables', reference: config });
      assert.match(entries, /^- 'password' = '«secret: 14 characters»' \(str\)$/m, entries);
      assert.match(entries, /^- 'user' = 'ada' \(str\)$/m, entries);
      assert.doesNotMatch(
        `${listed}\n${entries}`,
        /AKIAIOSFODNN7EXAMPLE|abc\.def-ghi_jkl|Sup3rS3cretValue|Hunter2Hunter2/,
      );
      assert.match(await debug({ op: 'evaluate', expression: 'aws_key' }), /^aws_key = '«secret: 20 characters»'/);
      assert.match(
        await debug({ op: 'evaluate', expression: 'db_password' }),
        /^db_password = '«secret: 16 characters»' \(str\)$/,
      );
      assert.match(
        await debug({ op: 'evaluate', expression: 'config["password"]' }),
        /^config\["password"\] = '«secret: 14 characters»' \(str\)$/,
      );
      const output = await debug({ op: 'output' });
      assert.match(output, /calling with Bearer «secret: 15 characters»/, output);
      await setSetting('liveTools.secrets.mask', false);
      assert.match(await debug({ op: 'evaluate', expression: 'aws_key' }), /^aws_key = 'AKIAIOSFODNN7EXAMPLE'/);
    } finally {
      await setSetting('liveTools.secrets.mask', undefined);
      await debug({ op: 'breakpoints', file: source, lines: [] });
    }
  });

  it('breakpoints given as plain line numbers ([4, 9], the natural form) stop the program there', async () => {
    const source = 'debug/python/app.py';
    const line = lineOf(source, 'BREAK');
    const set = await debug({ op: 'breakpoints', file: source, lines: [line, line + 1] });
    assert.match(set, new RegExp(`- line ${line}: \`.*BREAK.*\`\n- line ${line + 1}: \``), set);
    assert.match(
      await debug({ op: 'status' }),
      new RegExp(`Breakpoints: (.*; )?debug/python/app\\.py: ${line}, ${line + 1}[;.]`),
    );
    const launched = await debug({ op: 'launch', program: source, timeout_seconds: 90 });
    assert.match(launched, new RegExp(`Stopped \\(breakpoint.*debug/python/app\\.py:${line} `), launched);
  });

  it('the time to live ends a session while continue waits on it (debugpy, a program that never stops); continue says so', async () => {
    await setSetting('liveTools.debug.sessionMinutes', 0.25);
    try {
      const source = 'debug/python/spin.py';
      await debug({ op: 'breakpoints', file: source, lines: [{ line: lineOf(source, 'START') }] });
      assert.match(await debug({ op: 'launch', program: source, timeout_seconds: 90 }), /Stopped \(breakpoint/);
      await debug({ op: 'breakpoints', file: source, lines: [] });
      const started = Date.now();
      const continued = await debug({ op: 'continue', timeout_seconds: 600 });
      assert.match(
        continued,
        /^The session "Agent: spin\.py" reached its time to live \(15 s\) and was ended\. Launch again if you need it\./,
        continued,
      );
      assert.ok(Date.now() - started < 60_000, `continue answered ${Date.now() - started} ms after the call`);
      assert.match(await debug({ op: 'status' }), /^No debug session in this conversation/);
      await noDebugProcesses();
    } finally {
      await setSetting('liveTools.debug.sessionMinutes', undefined);
    }
  });

  it('a cancelled continue returns at once; the program runs on and the session stays usable (debugpy)', async () => {
    const source = 'debug/python/spin.py';
    await debug({ op: 'breakpoints', file: source, lines: [{ line: lineOf(source, 'START') }] });
    assert.match(await debug({ op: 'launch', program: source, timeout_seconds: 90 }), /Stopped \(breakpoint/);
    await debug({ op: 'breakpoints', file: source, lines: [] });
    const cancellation = new vscode.CancellationTokenSource();
    const { ms, error } = await cancelledAfter(
      debug({ op: 'continue', timeout_seconds: 600 }, cancellation.token),
      cancellation,
      1000,
    );
    assert.ok(ms < 10_000, `the cancelled continue answered ${ms} ms after the cancel`);
    assert.match(String(error), /cancel/i, String(error));
    assert.match(await debug({ op: 'status' }), /^Session "Agent: spin\.py" \(debugpy\), running;/);
    assert.match(await debug({ op: 'pause' }), /^Stopped \(pause/);
    assert.match(await debug({ op: 'evaluate', expression: 'ticks > 0' }), /^ticks > 0 = True/);
  });

  it('a launch cancelled while it waits for a stop returns at once; the session is kept and usable (debugpy)', async () => {
    const cancellation = new vscode.CancellationTokenSource();
    const launching = debug(
      { op: 'launch', program: 'debug/python/spin.py', timeout_seconds: 600 },
      cancellation.token,
    );
    const { ms, error } = await cancelledAfter(launching, cancellation, 5000);
    assert.ok(ms < 10_000, `the cancelled launch answered ${ms} ms after the cancel`);
    assert.match(String(error), /cancel/i, String(error));
    assert.match(await debug({ op: 'status' }), /^Session "Agent: spin\.py" \(debugpy\), running;/);
    assert.match(await debug({ op: 'pause' }), /^Stopped \(pause/);
  });

  it('Dart: launch refuses with the reason, nothing starts', async () => {
    const text = await debug({ op: 'launch', program: 'debug/dart/bin/main.dart' });
    assert.match(text, /The dart adapter cannot start: `dart` not found .*install the Dart or Flutter SDK/, text);
    assert.match(await debug({ op: 'status' }), /No debug session/);
  });

  it('a session ends at its time to live, and the next call says so', async () => {
    // Set back here, not in the suite's `after`: mocha runs the nested suites below after every test of this one.
    await setSetting('liveTools.debug.sessionMinutes', 0.05);
    try {
      const source = 'debug/python/app.py';
      await debug({ op: 'breakpoints', file: source, lines: [{ line: lineOf(source, 'BREAK') }] });
      assert.match(await debug({ op: 'launch', program: source }), /Stopped \(breakpoint/);
      assert.match(await debug({ op: 'status' }), /ends by itself in \d+ s/);
      await new Promise((resolve) => setTimeout(resolve, 5000));
      const status = await debug({ op: 'status' });
      assert.match(status, /reached its time to live \(3 s\) and was ended/, status);
      assert.match(await debug({ op: 'stack' }), /No debug session for op "stack"/);
      await noDebugProcesses();
    } finally {
      await setSetting('liveTools.debug.sessionMinutes', undefined);
    }
  });

  it('bad input is refused with what to do, and nothing starts', async () => {
    assert.match(await debug({ op: 'stack' }), /No debug session for op "stack". Start one with op "launch"/);
    assert.match(await debug({ op: 'launch' }), /needs `program`/);
    assert.match(await debug({ op: 'launch', program: 'debug/nope.py' }), /does not exist/);
    assert.match(
      await debug({ op: 'breakpoints', file: 'debug/python/app.py', lines: [{ line: 999 }] }),
      /has \d+ lines; line 999 is outside it/,
    );
    assert.match(await debug({ op: 'launch', program: 'debug/README.md' }), /Which adapter\?/);
  });
});

/** This run's fault adapter processes (test/fixtures/faultAdapter, run by the test extension's `live-fault-test` type). */
function faultAdapters(): string[] {
  return processesMatching(/faultAdapter\.js/);
}

describe('debug tool against a misbehaving adapter', function () {
  this.timeout(120_000);

  afterEach(async () => {
    await debug({ op: 'terminate' });
  });

  after(async () => {
    const deadline = Date.now() + 10_000;
    while (faultAdapters().length > 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 200));
    assert.deepEqual(faultAdapters(), []);
  });

  it('a launch.json configuration of a type that is not ours is named by its type', async () => {
    const launched = await debug({ op: 'launch', configuration: 'Fault: huge' });
    assert.match(
      launched,
      /^Launched the launch\.json configuration "Fault: huge" \(debug\/README\.md\) with live-fault-test \(an adapter of its own extension\)/,
      launched,
    );
    assert.doesNotMatch(launched, /debugpy/, launched);
  });

  it('a launch.json configuration without a program: the answer names it and says the adapter reported no process id, never "pid undefined"', async () => {
    const launched = await debug({ op: 'launch', configuration: 'Fault: no program' });
    assert.match(
      launched,
      /^Launched the launch\.json configuration "Fault: no program" \(it names no program\) with live-fault-test \(an adapter of its own extension\); session "Fault: no program"; the adapter reported no process id\./,
      launched,
    );
    assert.doesNotMatch(launched, /undefined/, launched);
  });

  it('the time to live ends a session while continue waits on a program that never stops', async () => {
    await setSetting('liveTools.debug.sessionMinutes', 0.1);
    try {
      assert.match(
        await debug({ op: 'launch', configuration: 'Fault: never_stop', timeout_seconds: 1 }),
        /Still running after 1 s/,
      );
      const started = Date.now();
      const continued = await debug({ op: 'continue', thread_id: 1, timeout_seconds: 600 });
      assert.match(
        continued,
        /^The session "Fault: never_stop" reached its time to live \(6 s\) and was ended\./,
        continued,
      );
      assert.ok(Date.now() - started < 30_000, `continue answered ${Date.now() - started} ms after the call`);
    } finally {
      await setSetting('liveTools.debug.sessionMinutes', undefined);
    }
  });

  it('the adapter crashes mid-session: continue says the session ended and how the adapter exited; stack refuses', async () => {
    const launched = await debug({ op: 'launch', configuration: 'Fault: crash' });
    assert.match(launched, /Stopped \(entry\)/, launched);
    const continued = await debug({ op: 'continue' });
    assert.match(continued, /^The program ended without stopping \(the adapter exited with code 3\)/, continued);
    const stack = await debug({ op: 'stack' });
    assert.match(stack, /has ended \(.*the adapter exited with code 3.*\)\. Launch again/, stack);
  });

  it('the program never stops: launch and continue say it is still running; pause stops it', async () => {
    const launched = await debug({ op: 'launch', configuration: 'Fault: never_stop', timeout_seconds: 2 });
    assert.match(launched, /Still running after 2 s/, launched);
    const continued = await debug({ op: 'continue', thread_id: 1, timeout_seconds: 2 });
    assert.match(continued, /Still running after 2 s/, continued);
    const paused = await debug({ op: 'pause' });
    assert.match(paused, /Stopped \(pause/, paused);
  });

  it('huge stacks, scopes and values are capped, and the answer says what was left out', async () => {
    const launched = await debug({ op: 'launch', configuration: 'Fault: huge' });
    assert.match(launched, /Stopped \(entry\)/, launched);

    const stack = await debug({ op: 'stack' });
    assert.equal(stack.split('\n').filter((line) => line.startsWith('- #')).length, 30, stack);
    assert.match(stack, /\(30 of 100 frames/, stack);
    assert.match(stack, /\(70 more frames not shown: the cap is 30\.\)/, stack);

    const scopes = await debug({ op: 'scopes' });
    const reference = Number(/reference (\d+)/.exec(scopes)?.[1]);
    const variables = await debug({ op: 'variables', reference });
    assert.equal(variables.split('\n').filter((line) => line.startsWith('- ')).length, 50, variables.slice(0, 2000));
    assert.match(variables, /^500 variables:/, variables.slice(0, 200));
    assert.match(variables, /\(450 more not shown: the cap is 50/, variables.slice(-300));
    const long = variables.split('\n').find((line) => line.startsWith('- long'));
    assert.ok(long, variables.slice(0, 2000));
    assert.match(long, new RegExp(`= ${'x'.repeat(400)}… \\(100000 characters, cut at 400\\)`), long.slice(0, 200));
    assert.doesNotMatch(long, new RegExp('x'.repeat(401)));
    assert.ok(variables.length < 20_000, `${variables.length} characters`);
  });
});

const CARD_FRAMES = ['iframe.webview.ready', 'iframe#active-frame'];

/** Waits for the approval card, returns what it shows, and denies it. */
async function denyCard(): Promise<string> {
  const card = await browser({ op: 'text', selector: '.card.active', frames: CARD_FRAMES, timeoutMs: 30_000 });
  await browser({ op: 'click', selector: '.card.active .option', text: '^\\d*Deny', frames: CARD_FRAMES });
  await browser({ op: 'click', selector: '.card.active .submit', frames: CARD_FRAMES });
  return card.text ?? '';
}

describe('debug tool: the launch confirmation shows what runs', function () {
  this.timeout(120_000);
  // A cell's tool() outside a chat is asked on the question card with the tool's own confirmation.
  const cell = (input: object) => {
    // A JSON string literal is a Python string literal too.
    const code = `import json\ntry:\n    print(tool("debug", json.loads(${JSON.stringify(JSON.stringify(input))})))\nexcept Exception as error:\n    print("raised:", error)`;
    return invokeText('eval', { code, description: 'debug confirmation test' });
  };

  before(async function () {
    if (!hasBrowser()) this.skip();
    await activateExtension();
  });

  after(async () => {
    await vscode.commands.executeCommand('liveTools.stopKernels');
  });

  it('a launch.json configuration: its program, working directory and every environment variable as the file has them, LD_PRELOAD called out', async () => {
    const answer = cell({ op: 'launch', configuration: 'Fault: env' });
    const card = await denyCard();
    assert.match(card, /wants to run debug: Debug: launch\?/, card);
    assert.match(
      card,
      /configuration \*\*Fault: env\*\* from launch\.json \(type `live-fault-test`, request `launch`\)/,
      card,
    );
    assert.match(card, /Warning:\*\* the environment sets `LD_PRELOAD` \(loads a library/, card);
    assert.match(card, /program: `\$\{workspaceFolder\}\/debug\/README\.md`/, card);
    assert.match(card, /working directory: `\$\{workspaceFolder\}\/debug`/, card);
    assert.match(card, /⚠ `LD_PRELOAD` = `\/tmp\/agent-test-evil\.so`/, card);
    assert.match(card, /`GREETING` = `hello`/, card);
    assert.match(await answer, /raised: .*the human denied this debug call/);
    assert.match(await debug({ op: 'status' }), /^No debug session/);
  });

  it("one test: the runner's command line, and that Rust's tests are built first", async () => {
    const answer = cell({
      op: 'launch',
      test: 'adds_up',
      program: 'debug/rust/main.rs',
      env: { RUST_LOG: 'debug' },
      args: ['a b', 'c'],
    });
    const card = await denyCard();
    // Each argument as a shell would need it: ["a b", "c"] does not look like ["a", "b", "c"].
    assert.match(
      card,
      /Debug the test `adds_up` under the lldb debugger: `cargo test adds_up -- --exact --nocapture --test-threads=1 'a b' c`/,
      card,
    );
    assert.match(card, /first builds the package's tests with `cargo test --no-run`/, card);
    assert.match(card, /working directory: `debug\/rust`/, card);
    assert.match(card, /`RUST_LOG` = `debug`/, card);
    assert.match(await answer, /raised: .*the human denied this debug call/);
  });

  it('a program: its arguments, working directory and environment, PYTHONPATH called out', async () => {
    const answer = cell({
      op: 'launch',
      program: 'debug/python/app.py',
      args: ['--fast'],
      cwd: 'debug',
      env: { PYTHONPATH: '/tmp/agent-test', MODE: 'fast' },
    });
    const card = await denyCard();
    assert.match(card, /Start `debug\/python\/app\.py` under the debugpy debugger\./, card);
    assert.match(card, /arguments: `--fast`/, card);
    assert.match(card, /working directory: `debug`/, card);
    assert.match(card, /⚠ `PYTHONPATH` = `\/tmp\/agent-test` — \*\*changes where Python imports modules from/, card);
    assert.match(card, /`MODE` = `fast`/, card);
    assert.match(await answer, /raised: .*the human denied this debug call/);
  });
});

describe("debug tool: the human's own session, sent to the agent", function () {
  this.timeout(240_000);
  let root: string;
  const source = 'debug/python/app.py';
  /** Sessions this suite started as the human would, and the stops the adapter reported for each. */
  const started: vscode.DebugSession[] = [];
  const stops = new Map<string, number>();
  let tracker: vscode.Disposable | undefined;
  let breakpoint: vscode.SourceBreakpoint | undefined;

  before(async function () {
    if (!hasBrowser()) this.skip();
    await activateExtension();
    await chatReady();
    root = workspaceRoot();
    const venv = path.join(root, 'debug', 'python', '.venv');
    if (!fs.existsSync(path.join(venv, 'bin', 'python')))
      execFileSync('/usr/bin/python3', ['-m', 'venv', '--system-site-packages', venv]);
    tracker = vscode.debug.registerDebugAdapterTrackerFactory('live-debugpy', {
      createDebugAdapterTracker: (session) => ({
        onDidSendMessage: (message: { type?: string; event?: string }) => {
          if (message.type === 'event' && message.event === 'stopped')
            stops.set(session.id, (stops.get(session.id) ?? 0) + 1);
        },
      }),
    });
  });

  after(async () => {
    for (const session of started) await vscode.debug.stopDebugging(session).then(undefined, () => undefined);
    if (breakpoint) vscode.debug.removeBreakpoints([breakpoint]);
    tracker?.dispose();
    await debug({ op: 'terminate' }).catch(() => undefined);
    await noDebugProcesses();
  });

  /** Starts app.py under debugpy as a person would (a plain launch configuration, not through the tool) and waits for its stop. */
  async function startAsTheHuman(name: string): Promise<vscode.DebugSession> {
    const folder = vscode.workspace.workspaceFolders?.[0];
    const seen = new Promise<vscode.DebugSession>((resolve) => {
      const subscription = vscode.debug.onDidStartDebugSession((session) => {
        if (session.name !== name) return;
        subscription.dispose();
        resolve(session);
      });
    });
    await vscode.debug.startDebugging(folder, {
      type: 'live-debugpy',
      request: 'launch',
      name,
      program: path.join(root, source),
      cwd: path.join(root, 'debug', 'python'),
      python: path.join(root, 'debug', 'python', '.venv', 'bin', 'python'),
      console: 'internalConsole',
      justMyCode: true,
    });
    const session = await seen;
    started.push(session);
    await waitUntilAsync(`${name} to stop`, async () => ((stops.get(session.id) ?? 0) > 0 ? true : undefined), 60_000);
    return session;
  }

  /** The human's breakpoint at app.py's BREAK line (set once for the suite); returns the line. */
  function breakAtTheBreakLine(): number {
    const line = lineOf(source, 'BREAK');
    if (!breakpoint) {
      breakpoint = new vscode.SourceBreakpoint(
        new vscode.Location(vscode.Uri.file(path.join(root, source)), new vscode.Position(line - 1, 0)),
      );
      vscode.debug.addBreakpoints([breakpoint]);
    }
    return line;
  }

  /** Resolves when the editor says the session ended. */
  function endOf(session: vscode.DebugSession): Promise<void> {
    return new Promise<void>((resolve) => {
      const subscription = vscode.debug.onDidTerminateDebugSession((ended) => {
        if (ended.id !== session.id) return;
        subscription.dispose();
        resolve();
      });
    });
  }

  /** The session families whose events the extension keeps, and those a tool reads. */
  async function hostState(): Promise<{ families: string[]; connections: string[]; connectionsMade: number }> {
    return vscode.commands.executeCommand('liveTools.debugHostState');
  }

  /** Where a session's first thread is, asked of its adapter directly (as the Debug view would). */
  async function topOf(session: vscode.DebugSession): Promise<{ line: number; sum: string }> {
    const { threads } = (await session.customRequest('threads')) as { threads: Array<{ id: number }> };
    const { stackFrames } = (await session.customRequest('stackTrace', {
      threadId: threads[0].id,
      startFrame: 0,
      levels: 1,
    })) as { stackFrames: Array<{ id: number; line: number }> };
    const { result } = (await session.customRequest('evaluate', {
      expression: 'sum_',
      frameId: stackFrames[0].id,
      context: 'watch',
    })) as { result: string };
    return { line: stackFrames[0].line, sum: result };
  }

  /** The text of the user messages of a chat request (the chat wraps the query in its own prompt). */
  function userText(request: {
    messages: ReadonlyArray<{ role: string; parts: ReadonlyArray<{ kind: string; text?: string }> }>;
  }): string {
    return request.messages
      .filter((message) => message.role === 'user')
      .flatMap((message) => message.parts.map((part) => part.text ?? ''))
      .join('\n');
  }

  /** Runs the command as the Call Stack view's context menu does (with the session's id) and returns what the model received. */
  async function sendToTheChat(model: ScriptedModelApi, session: vscode.DebugSession): Promise<string> {
    model.reset();
    model.script([() => ({ text: 'I see where it stopped.' })]);
    await vscode.commands.executeCommand('liveTools.sendPausedStateToAgent', session.id);
    const [request] = await model.waitForRequests(1, 90_000);
    return userText(request);
  }

  it("'Send the Paused State to the Agent' on a session the human started: the chat gets the stop, stack and a local; the agent drives it once allowed (asked once), a denial leaves it as it was; a session not sent is never reached", async () => {
    const line = breakAtTheBreakLine();
    const sent = await startAsTheHuman('Human: sent');
    const other = await startAsTheHuman('Human: not sent');

    // A chat with the scripted model selected, as the human has it open.
    const model = await scriptedModel();
    await sendChat(model, 'Hello', [() => ({ text: 'Hello.' })]);
    await model.waitForRequests(1, 90_000);

    const text = await sendToTheChat(model, sent);
    assert.match(text, /The paused state of my debug session "Human: sent" \(debugpy\):/, text);
    assert.match(
      text,
      new RegExp(
        `Stopped \\(breakpoint\\) on thread \\d+ at debug/python/app\\.py:${line} — \`sum_ \\+= prices\\[item\\]  # BREAK\` in total\\.`,
      ),
      text,
    );
    assert.match(text, /^- #\d+ total at debug\/python\/app\.py:\d+/m, text);
    assert.match(
      text,
      /^- #\d+ main at debug\/python\/app\.py:\d+ — `result = total\(\["apple", "pear", "plum"\]\)`/m,
      text,
    );
    assert.match(text, /^Locals of total \(frame #\d+, scope "Locals"\): \d+ variables:/m, text);
    assert.match(text, /^- prices = \{'apple': 3, 'pear': 5, 'plum': 7\} \(dict\)/m, text);
    assert.doesNotMatch(text, /Human: not sent/, text);

    // Reading needs no question; the status says whose session it is.
    assert.match(
      await debug({ op: 'status' }),
      /^No session of this conversation's own\. The human sent their session "Human: sent" \(debugpy, stopped \(breakpoint\)\) to the chat: stack, scopes, variables and output read it; the first continue/,
    );
    assert.match(await debug({ op: 'stack' }), new RegExp(`total at debug/python/app\\.py:${line} `));

    // Denied: the agent is told, the session is as it was, and the next driving op is refused without asking.
    const denied = await answeringCards(debug({ op: 'step_over' }), /drive your debug session/, () => 'Deny');
    assert.equal(denied.cards.length, 1, denied.cards.join('\n---\n'));
    assert.match(denied.cards[0], /another extension: Let another extension drive your debug session "Human: sent"\?/);
    assert.match(
      denied.answer,
      /is the human's \(they sent it to the chat\) and they did not let you drive it: op "step_over" was not done/,
    );
    assert.deepEqual(await topOf(sent), { line, sum: '0' });
    const again = await answeringCards(debug({ op: 'evaluate', expression: 'sum_ := 99' }), /drive your debug session/);
    assert.equal(again.cards.length, 0);
    assert.match(again.answer, /did not let you drive it/);
    assert.deepEqual(await topOf(sent), { line, sum: '0' });

    // Sent again, the human is asked again; allowed once, the next ops are not asked.
    await sendToTheChat(model, sent);
    const stepped = await answeringCards(debug({ op: 'step_over' }), /drive your debug session/, () => 'Allow');
    assert.equal(stepped.cards.length, 1, stepped.cards.join('\n---\n'));
    assert.match(stepped.answer, /^Stopped \(step\) on thread \d+ at debug\/python\/app\.py:\d+/, stepped.answer);
    const continued = await answeringCards(debug({ op: 'continue' }), /drive your debug session/);
    assert.equal(continued.cards.length, 0);
    assert.match(
      continued.answer,
      new RegExp(`^Stopped \\(breakpoint\\) on thread \\d+ at debug/python/app\\.py:${line} `),
    );
    const evaluated = await answeringCards(debug({ op: 'evaluate', expression: 'sum_' }), /drive your debug session/);
    assert.equal(evaluated.cards.length, 0);
    assert.match(evaluated.answer, /^sum_ = 3\b/);
    assert.match(await debug({ op: 'status' }), /and you are driving it \(they allowed it\)/);

    // The agent never ends it; the session not sent is where it stopped, untouched.
    assert.match(await debug({ op: 'terminate' }), /is the human's \(they sent it to the chat\): you do not end it/);
    assert.deepEqual(await topOf(sent), { line, sum: '3' });
    assert.deepEqual(await topOf(other), { line, sum: '0' });

    // Once the sent session ends, the other one (paused, never sent) is not reachable.
    const ended = endOf(sent);
    await vscode.debug.stopDebugging(sent);
    await ended;
    await waitUntilAsync('the sent session to be let go', async () =>
      /^No debug session in this conversation/.test(await debug({ op: 'status' })) ? true : undefined,
    );
    assert.match(await debug({ op: 'stack' }), /No debug session for op "stack"/);
    assert.match(await debug({ op: 'step_over' }), /No debug session for op "step_over"/);
    assert.deepEqual(await topOf(other), { line, sum: '0' });
  });

  it("a terminal agent (MCP) never reaches the session the human sent, nor takes it from the chat; a session's events are let go when it ends, sent or not", async () => {
    const line = breakAtTheBreakLine();
    const sent = await startAsTheHuman('Human: sent, asked over MCP');
    const notSent = await startAsTheHuman('Human: never sent');
    const model = await scriptedModel();
    const made = (await hostState()).connectionsMade;
    assert.match(await sendToTheChat(model, sent), /my debug session "Human: sent, asked over MCP"/);
    // Sent twice (a second click): still one connection to it.
    await sendToTheChat(model, sent);
    assert.equal((await hostState()).connectionsMade, made + 1);
    assert.ok((await hostState()).connections.includes(sent.id));

    await setSetting('liveTools.mcp.maxTier', 'exec');
    const client = await connectBridge(
      bridgePath(),
      { PATH: process.env.PATH ?? '', HOME: os.homedir(), ...(await terminalEnvironment()) },
      root,
      'terminal-agent',
    );
    try {
      // Every call over MCP is asked (the editor asks nothing for it); allowed, it still finds no session.
      const call = async (input: Record<string, unknown>): Promise<string> => {
        const [result] = await Promise.all([
          client.callTool({ name: 'debug', arguments: input }),
          answerCard([/MCP client "terminal-agent 1\.0\.0" wants to run debug/], 'Allow'),
        ]);
        return textOf(result);
      };
      assert.match(await call({ op: 'status' }), /^No debug session in this conversation/);
      assert.match(await call({ op: 'stack' }), /No debug session for op "stack"/);
      assert.match(await call({ op: 'evaluate', expression: 'sum_' }), /No debug session for op "evaluate"/);
      assert.match(await call({ op: 'continue' }), /No debug session for op "continue"/);
    } finally {
      await client.close();
      await setSetting('liveTools.mcp.maxTier', undefined);
    }
    assert.deepEqual(await topOf(sent), { line, sum: '0' });
    // The chat's conversation still has it to read: the terminal agent's calls did not take it.
    assert.match(await debug({ op: 'status' }), /The human sent their session "Human: sent, asked over MCP"/);
    assert.match(await debug({ op: 'stack' }), new RegExp(`total at debug/python/app\\.py:${line} `));

    // Both end: neither family's events are kept, nor a connection to either.
    for (const session of [sent, notSent]) {
      const ended = endOf(session);
      await vscode.debug.stopDebugging(session);
      await ended;
    }
    const ids = [sent.id, notSent.id];
    await waitUntilAsync('the ended families to be let go', async () => {
      const { families, connections } = await hostState();
      return [...families, ...connections].some((id) => ids.includes(id)) ? undefined : true;
    });
  });
});
