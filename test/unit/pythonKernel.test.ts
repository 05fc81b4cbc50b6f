import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { KernelStartError } from '../../src/kernels/kernelProcess';
import { formatText, KernelResult, OutputCollector } from '../../src/kernels/kernelResult';
import { CallTool, Kernel, KernelOptions } from '../../src/kernels/kernel';
import { choosePythonInterpreter, pythonLaunch } from '../../src/kernels/pythonKernel';
import { processGroupExists } from '../../src/process/childProcess';
import { repoRoot } from '../support/repoRoot';
import { suiteTempDir } from '../support/tempDir';

// These run the real driver on Debian's Python in a venv that sees the system's pandas and matplotlib
// (the python3 on PATH may be another one that cannot import them).
const driverPath = path.join(repoRoot(), 'src', 'kernels', 'python', 'kernel.py');
const SYSTEM_PYTHON = '/usr/bin/python3';

/** Killed processes are reaped by init a moment later: wait for that, briefly. */
async function groupGone(pid: number): Promise<boolean> {
  for (let waited = 0; waited < 2000 && processGroupExists(pid); waited += 50)
    await new Promise((resolve) => setTimeout(resolve, 50));
  return !processGroupExists(pid);
}

function text(result: KernelResult): string {
  return formatText(result);
}

function streamText(result: KernelResult, stream: 'stdout' | 'stderr'): string {
  return result.parts.map((part) => (part.kind === 'text' && part.stream === stream ? part.text : '')).join('');
}

describe('python kernel', function () {
  this.timeout(60_000);
  const tmp = suiteTempDir('pykernel-');
  let python: string;
  /** Every kernel pid any test saw; each must be gone (with its whole group) when its test ends. */
  let kernels: Kernel[] = [];
  let pids: number[] = [];

  before(() => {
    execFileSync(SYSTEM_PYTHON, ['-m', 'venv', '--system-site-packages', path.join(tmp(), 'venv')]);
    python = path.join(tmp(), 'venv', 'bin', 'python');
  });

  function start(options: Partial<KernelOptions> & { python?: string; driverPath?: string } = {}): Kernel {
    const { python: interpreter = python, driverPath: driver = driverPath, ...rest } = options;
    const kernel = new Kernel({ launch: pythonLaunch(interpreter, driver), cwd: tmp(), ...rest });
    kernels.push(kernel);
    return kernel;
  }

  async function run(
    kernel: Kernel,
    code: string,
    options: Parameters<Kernel['execute']>[1] = {},
  ): Promise<KernelResult> {
    const result = await kernel.execute(code, options);
    if (kernel.pid !== undefined && !pids.includes(kernel.pid)) pids.push(kernel.pid);
    return result;
  }

  afterEach(async () => {
    await Promise.all(kernels.map((kernel) => kernel.dispose()));
    const left: number[] = [];
    for (const pid of pids) if (!(await groupGone(pid))) left.push(pid);
    kernels = [];
    pids = [];
    assert.deepEqual(left, [], 'kernel process groups still alive after the test');
  });

  it('keeps state across cells and returns the last expression (None is not shown)', async () => {
    const kernel = start();
    const first = await run(kernel, 'x = 20\ny = x + 1');
    assert.equal(first.status, 'ok');
    assert.equal(text(first), '(no output)');
    const second = await run(kernel, 'x * 2 + y');
    assert.deepEqual(second.parts, [{ kind: 'result', text: '61' }]);
    const none = await run(kernel, 'print("p")\nNone');
    assert.deepEqual(none.parts, [{ kind: 'text', stream: 'stdout', text: 'p\n' }]);
    const suppressed = await run(kernel, 'x;');
    assert.deepEqual(suppressed.parts, []);
  });

  it('keeps stdout and stderr in the order written, before the result', async () => {
    const kernel = start();
    const result = await run(
      kernel,
      'import sys\nprint("one")\nprint("two", file=sys.stderr)\nprint("three")\n"value"',
    );
    assert.deepEqual(result.parts, [
      { kind: 'text', stream: 'stdout', text: 'one\n' },
      { kind: 'text', stream: 'stderr', text: 'two\n' },
      { kind: 'text', stream: 'stdout', text: 'three\n' },
      { kind: 'result', text: "'value'" },
    ]);
  });

  it('reports C-level writes to fd 1 as the cell output without corrupting the protocol', async () => {
    const kernel = start();
    for (let round = 0; round < 5; round++) {
      const result = await run(kernel, `import os\nos.write(1, b"raw bytes ${round}\\n")\n7`);
      assert.match(streamText(result, 'stdout'), new RegExp(`raw bytes ${round}`));
      assert.ok(result.parts.some((part) => part.kind === 'result' && part.text === '7'));
    }
    const printf = await run(kernel, 'import ctypes\nctypes.CDLL(None).printf(b"from printf\\n")\nNone');
    assert.match(streamText(printf, 'stdout'), /from printf/);
  });

  it('shows a traceback of the user frames only, with the cell source lines', async () => {
    const kernel = start();
    const result = await run(
      kernel,
      'def check(n):\n    if n > 2:\n        raise ValueError(f"too big: {n}")\n\ncheck(5)',
    );
    assert.equal(result.status, 'error');
    const error = result.parts.find((part) => part.kind === 'error');
    assert.ok(error && error.kind === 'error');
    assert.match(error.text, /File "<cell 1>", line 5, in <module>\n {4}check\(5\)/);
    assert.match(error.text, /File "<cell 1>", line 3, in check\n {4}raise ValueError\(f"too big: \{n\}"\)/);
    assert.match(error.text, /ValueError: too big: 5\n?$/);
    assert.doesNotMatch(error.text, /kernel\.py/);
    // The kernel lives on.
    assert.deepEqual((await run(kernel, '1 + 1')).parts, [{ kind: 'result', text: '2' }]);
  });

  it('has display() as a builtin', async () => {
    const kernel = start();
    const result = await run(kernel, 'display({"a": 1}, [1, 2])\nprint("after")');
    assert.equal(text(result), "{'a': 1}\n[1, 2]\nafter");
  });

  it('shows a DataFrame as a table capped at 20 rows, saying so', async () => {
    const kernel = start();
    const result = await run(
      kernel,
      'import pandas as pd\npd.DataFrame({"n": range(1000), "sq": [i * i for i in range(1000)]})',
    );
    const part = result.parts[0];
    assert.ok(part.kind === 'result', text(result));
    assert.match(part.text, /^\s+n\s+sq\n0\s+0\s+0\n/);
    assert.match(part.text, /\n19\s+19\s+361\n\(showing 20 of 1000 rows\)$/);
    assert.doesNotMatch(part.text, /\n20\s+20/);
  });

  it('renders matplotlib figures as PNG: displayed, as the last expression, and left open by pyplot', async () => {
    const kernel = start();
    const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
    const last = await run(
      kernel,
      'import matplotlib.pyplot as plt\nfig, ax = plt.subplots()\nax.plot([1, 3, 2])\nfig',
    );
    const images = last.parts.filter((part) => part.kind === 'image');
    assert.equal(images.length, 1, text(last)); // the figure was the result: not shown again as an open figure
    assert.ok(images[0].kind === 'image');
    assert.deepEqual([...images[0].data.subarray(0, 8)], png);
    const open = await run(kernel, 'plt.figure()\nplt.plot([1, 2])\nprint("drawn")');
    assert.equal(open.parts.filter((part) => part.kind === 'image').length, 1, text(open));
    const shown = await run(kernel, 'display(plt.figure())\nlen(plt.get_fignums())');
    assert.deepEqual(
      shown.parts.map((part) => part.kind),
      ['image', 'result'],
    );
    assert.match(text(shown), /\[image image\/png, [\d,]+ bytes\]\n1$/);
    // Closed at the end of the cell.
    assert.deepEqual((await run(kernel, 'len(plt.get_fignums())')).parts, [{ kind: 'result', text: '0' }]);
  });

  it('runs !cmd, %cd, %%bash and %%timeit, and leaves % inside strings alone', async () => {
    const kernel = start();
    assert.equal(streamText(await run(kernel, 'x = 1\n!echo hi $((40 + 2))\nx'), 'stdout'), 'hi 42\n');
    const dir = fs.mkdtempSync(path.join(tmp(), 'cd-'));
    const cd = await run(kernel, `%cd ${dir}\nimport os\nos.getcwd()`);
    assert.deepEqual(cd.parts.at(-1), { kind: 'result', text: `'${dir}'` });
    const bash = await run(kernel, '%%bash\nfor i in 1 2; do echo "line $i"; done\npwd');
    assert.equal(streamText(bash, 'stdout'), `line 1\nline 2\n${dir}\n`);
    const timeit = await run(kernel, '%%timeit -n 50 -r 3\nsum(range(100))');
    assert.match(
      streamText(timeit, 'stdout'),
      /^[\d.]+ (ns|µs|ms|s) ± [\d.]+ (ns|µs|ms|s) per loop \(mean ± std\. dev\. of 3 runs, 50 loops each\)\n$/,
    );
    const strings = await run(kernel, 's = """\n%cd /\n!rm -rf nothing\n"""\nlen(s.splitlines())');
    assert.deepEqual(strings.parts, [{ kind: 'result', text: '3' }]);
    const unknown = await run(kernel, '%matplotlib inline');
    assert.match(text(unknown), /UsageError: %matplotlib is not supported here/);
  });

  it('%pip installs a local package and the next import sees the new version', async function () {
    this.timeout(120_000);
    const pkg = path.join(tmp(), 'tinypkg-src');
    const write = (version: string): void => {
      fs.mkdirSync(path.join(pkg, 'tinypkg'), { recursive: true });
      fs.writeFileSync(
        path.join(pkg, 'pyproject.toml'),
        `[build-system]\nrequires = ["setuptools"]\nbuild-backend = "setuptools.build_meta"\n[project]\nname = "tinypkg"\nversion = "${version}"\n`,
      );
      fs.writeFileSync(path.join(pkg, 'tinypkg', '__init__.py'), `VERSION = "${version}"\n`);
      fs.rmSync(path.join(pkg, 'build'), { recursive: true, force: true });
    };
    const kernel = start();
    write('1.0');
    const first = await run(
      kernel,
      `%pip install --no-index --no-build-isolation ${pkg}\nimport tinypkg\ntinypkg.VERSION`,
    );
    assert.match(streamText(first, 'stdout'), /Successfully installed tinypkg-1\.0/);
    assert.deepEqual(first.parts.at(-1), { kind: 'result', text: "'1.0'" });
    write('2.0');
    const second = await run(
      kernel,
      `%pip install --no-index --no-build-isolation ${pkg}\nimport tinypkg\ntinypkg.VERSION`,
    );
    assert.match(streamText(second, 'stdout'), /Successfully installed tinypkg-2\.0/);
    assert.match(streamText(second, 'stdout'), /modules purged.*tinypkg/);
    assert.deepEqual(second.parts.at(-1), { kind: 'result', text: "'2.0'" });
  });

  it('relays tool() calls to the callback; ok:false raises ToolError', async () => {
    const calls: Array<{ name: string; input: unknown }> = [];
    const callTool: CallTool = async (name, input) => {
      calls.push({ name, input });
      return name === 'fail'
        ? { ok: false, text: 'no such file' }
        : { ok: true, text: `answer to ${JSON.stringify(input)}` };
    };
    const kernel = start({ callTool });
    const ok = await run(kernel, 'reply = tool("read", {"path": "a.txt", "n": 2})\nreply.upper()');
    assert.deepEqual(calls, [{ name: 'read', input: { path: 'a.txt', n: 2 } }]);
    assert.deepEqual(ok.parts, [{ kind: 'result', text: `'ANSWER TO {"PATH":"A.TXT","N":2}'` }]);
    const failed = await run(kernel, 'try:\n    tool("fail", {})\nexcept ToolError as e:\n    print("caught", e)');
    assert.equal(streamText(failed, 'stdout'), 'caught no such file\n');
  });

  it('interrupts a cell that runs past the idle budget, and the kernel keeps its state', async () => {
    const kernel = start();
    await run(kernel, 'kept = "yes"');
    const started = Date.now();
    const result = await run(kernel, 'while True:\n    pass', { idleBudgetSeconds: 1 });
    assert.ok(Date.now() - started < 5000);
    assert.equal(result.status, 'interrupted');
    assert.equal(result.stoppedBecause, 'idle-budget');
    assert.match(text(result), /KeyboardInterrupt/);
    assert.match(text(result), /interrupted after 1 s not waiting on a tool call/);
    assert.deepEqual((await run(kernel, 'kept')).parts, [{ kind: 'result', text: "'yes'" }]);
  });

  it('does not count time spent waiting on a tool call against the idle budget', async () => {
    const callTool: CallTool = () =>
      new Promise((resolve) => setTimeout(() => resolve({ ok: true, text: 'slow' }), 2000));
    const kernel = start({ callTool });
    const result = await run(kernel, 'tool("slow", {})', { idleBudgetSeconds: 1 });
    assert.equal(result.status, 'ok', text(result));
    assert.deepEqual(result.parts, [{ kind: 'result', text: "'slow'" }]);
  });

  it('kills a cell that ignores the interrupt after the grace, and says the state is lost', async () => {
    const kernel = start({ interruptGraceMs: 500 });
    const first = await run(
      kernel,
      'import time\nwhile True:\n    try:\n        time.sleep(10)\n    except KeyboardInterrupt:\n        pass',
      { idleBudgetSeconds: 0.5 },
    );
    assert.equal(first.status, 'killed');
    assert.match(
      text(first),
      /the Python kernel was killed: the cell ran 0.5 s not waiting on a tool call .* its state is lost/,
    );
    const next = await run(kernel, '1');
    assert.match(next.notes.join('\n'), /state was lost/);
  });

  it('interrupts on cancellation (AbortSignal and token)', async () => {
    const kernel = start();
    const abort = new AbortController();
    setTimeout(() => abort.abort(), 300);
    const result = await run(kernel, 'import time\ntime.sleep(30)', { cancellation: abort.signal });
    assert.equal(result.status, 'interrupted');
    assert.equal(result.stoppedBecause, 'cancelled');
    assert.match(text(result), /was cancelled/);
    const listeners: Array<() => void> = [];
    const token = {
      isCancellationRequested: false,
      onCancellationRequested: (listener: () => void) => (listeners.push(listener), { dispose: () => undefined }),
    };
    setTimeout(() => listeners.forEach((listener) => listener()), 300);
    const second = await run(kernel, 'import time\ntime.sleep(30)', { cancellation: token });
    assert.equal(second.stoppedBecause, 'cancelled');
  });

  it('interrupts (does not kill) a cell cancelled the moment it is sent', async () => {
    const kernel = start({ interruptGraceMs: 3000 });
    await run(kernel, 'ready = True');
    for (let round = 0; round < 3; round++) {
      const abort = new AbortController();
      const pending = run(kernel, 'import time\ntime.sleep(30)', { cancellation: abort.signal });
      setImmediate(() => abort.abort());
      const result = await pending;
      assert.equal(result.status, 'interrupted', text(result));
    }
    assert.deepEqual((await run(kernel, 'ready')).parts, [{ kind: 'result', text: 'True' }]);
    const aborted = new AbortController();
    aborted.abort();
    const never = await run(kernel, 'ran = True', { cancellation: aborted.signal });
    assert.equal(never.stoppedBecause, 'cancelled');
    assert.deepEqual((await run(kernel, "'ran' in globals()")).parts, [{ kind: 'result', text: 'False' }]);
  });

  it('reports a crash clearly, then starts a fresh kernel whose result says the state was lost', async () => {
    const kernel = start();
    await run(kernel, 'x = 1');
    const crashed = await run(kernel, 'import os\nprint("before")\nos._exit(3)');
    assert.equal(crashed.status, 'crashed');
    assert.match(text(crashed), /before\n/);
    assert.match(text(crashed), /the Python kernel exited with code 3; its state is lost/);
    const next = await run(kernel, "'x' in globals()");
    assert.deepEqual(next.parts, [{ kind: 'result', text: 'False' }]);
    assert.match(next.notes.join('\n'), /exited with code 3; its state was lost and a fresh kernel was started/);
    const again = await run(kernel, '2');
    assert.deepEqual(again.notes, []);
    // Killed from outside between cells: the next cell says so too.
    process.kill(kernel.pid as number, 'SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const afterKill = await run(kernel, '3');
    assert.deepEqual(afterKill.parts, [{ kind: 'result', text: '3' }]);
    assert.match(afterKill.notes.join('\n'), /the previous Python kernel was ended by SIGKILL; its state was lost/);
  });

  it('reset ends the kernel; the next cell starts a fresh one', async () => {
    const kernel = start();
    await run(kernel, 'x = 1');
    const firstPid = kernel.pid as number;
    await kernel.reset();
    const result = await run(kernel, "'x' in globals()");
    assert.deepEqual(result.parts, [{ kind: 'result', text: 'False' }]);
    assert.notEqual(kernel.pid, firstPid);
    assert.equal(await groupGone(firstPid), true);
  });

  it('cuts an output flood to head and tail with a note, promptly', async () => {
    const kernel = start();
    const started = Date.now();
    const result = await run(kernel, 'print("x" * 5_000_000)\nfor i in range(100_000):\n    print(i)\n"end"');
    assert.ok(Date.now() - started < 15_000, `took ${Date.now() - started} ms`);
    const all = text(result);
    assert.ok(all.length < 25_000, `${all.length} chars`);
    assert.match(all, /\[… [\d,]+ characters of output cut …\]/);
    assert.ok(result.cutChars > 5_000_000, String(result.cutChars));
    assert.match(all, /'end'$/);
    // The next cell is unaffected.
    assert.deepEqual((await run(kernel, '3')).parts, [{ kind: 'result', text: '3' }]);
  });

  it('rejects with KernelStartError when the interpreter is missing or the driver dies before ready', async () => {
    await assert.rejects(
      start({ python: path.join(tmp(), 'no-such-python') }).execute('1'),
      (error: Error) => error instanceof KernelStartError && /ENOENT/.test(error.message),
    );
    const broken = path.join(tmp(), 'broken_driver.py');
    fs.writeFileSync(broken, 'import sys\nprint("driver cannot start", file=sys.stderr)\nsys.exit(4)\n');
    await assert.rejects(
      start({ driverPath: broken }).execute('1'),
      (error: Error) =>
        error instanceof KernelStartError &&
        /exited with code 4 before it was ready:\ndriver cannot start/.test(error.message),
    );
  });

  it('leaves no process behind after dispose, including what cells started', async () => {
    const kernel = start();
    const result = await run(kernel, 'import subprocess\np = subprocess.Popen(["sleep", "60"])\np.pid');
    const child = Number((result.parts[0] as { text: string }).text);
    const pid = kernel.pid as number;
    assert.doesNotThrow(() => process.kill(child, 0), 'the sleep should run until the kernel goes');
    await kernel.dispose();
    assert.equal(processGroupExists(pid), false);
    assert.throws(() => process.kill(child, 0));
  });
});

describe('python interpreter choice', () => {
  const executables = new Set<string>();
  const isExecutable = (file: string): boolean => executables.has(file);
  beforeEach(() => executables.clear());

  it('prefers .venv, then venv, then the setting, then python3 on PATH', () => {
    const inputs = {
      root: '/p',
      setting: 'tools/py',
      settingName: 'liveTools.eval.python',
      pathVariable: '/usr/local/bin:/usr/bin',
      isExecutable,
    };
    executables.add('/usr/bin/python3');
    assert.deepEqual(choosePythonInterpreter({ ...inputs, setting: undefined }), {
      python: '/usr/bin/python3',
      why: 'python3 on PATH (no project venv; set liveTools.eval.python to choose another)',
    });
    executables.add('/p/tools/py');
    assert.deepEqual(choosePythonInterpreter(inputs), { python: '/p/tools/py', why: 'from liveTools.eval.python' });
    executables.add('/p/venv/bin/python');
    assert.deepEqual(choosePythonInterpreter(inputs), { python: '/p/venv/bin/python', why: "the project's venv" });
    executables.add('/p/.venv/bin/python');
    assert.deepEqual(choosePythonInterpreter(inputs), { python: '/p/.venv/bin/python', why: "the project's .venv" });
  });

  it('says when the setting names no executable', () => {
    executables.add('/usr/bin/python3');
    const choice = choosePythonInterpreter({
      root: '/p',
      setting: '/opt/missing/python',
      settingName: 'liveTools.eval.python',
      pathVariable: '/usr/bin',
      isExecutable,
    });
    assert.deepEqual(choice, {
      python: '/usr/bin/python3',
      why: 'python3 on PATH (no project venv; liveTools.eval.python names /opt/missing/python, which is not an executable file)',
    });
  });

  it('finds none when nothing is executable', () => {
    assert.equal(choosePythonInterpreter({ root: '/p', pathVariable: '/usr/bin', isExecutable }), undefined);
  });
});

describe('kernel output collector', () => {
  it('keeps head and tail and states the cut in place', () => {
    const collector = new OutputCollector({ headChars: 10, tailChars: 5 });
    collector.addText('0123456789abcdefghij', 'stdout');
    collector.add({ kind: 'result', text: 'r' });
    assert.deepEqual(collector.parts(), [
      { kind: 'text', stream: 'stdout', text: '0123456789' },
      { kind: 'text', text: '\n[… 5 characters of output cut …]\n' },
      { kind: 'text', stream: 'stdout', text: 'fghij' },
      { kind: 'result', text: 'r' },
    ]);
    assert.equal(collector.cutChars, 5);
  });
});
