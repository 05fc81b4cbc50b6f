/**
 * The `eval` tool in the real editor with real interpreters: Debian's Python 3 through a venv made
 * with --system-site-packages (pandas, matplotlib), named by the liveTools.eval.python setting, and
 * the editor's own Node for JavaScript. State, results, rich output, magics, %pip from a local
 * package, tool() relaying to another tool, the idle budget, cancellation, crash and restart, output
 * floods (fd 1/2 and the message channel), the cap on images, and no kernel process left behind.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { processesMatching } from '../support/processes';
import { invokeText, setSetting, workspaceRoot } from './support/tools';

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

const python = (code: string, extra: object = {}) => invokeText('eval', { code, description: 'test cell', ...extra });
const javascript = (code: string, extra: object = {}) =>
  invokeText('eval', { code, description: 'test cell', language: 'javascript', ...extra });

/** Pids of kernel processes (the Python driver and the JavaScript host) running now. */
function kernelProcesses(): string[] {
  return processesMatching(/kernels\/(python_kernel\.py|jsKernelHost\.js)/);
}

describe('eval tool', function () {
  this.timeout(120_000);
  let root: string;

  before(async () => {
    root = workspaceRoot();
    const venv = path.join(root, 'eval', '.venv');
    if (!fs.existsSync(path.join(venv, 'bin', 'python')))
      execFileSync('/usr/bin/python3', ['-m', 'venv', '--system-site-packages', venv]);
    await setSetting('liveTools.eval.python', 'eval/.venv/bin/python');
    await setSetting('liveTools.eval.idleSeconds', undefined);
  });

  after(async () => {
    await setSetting('liveTools.eval.python', undefined);
    await setSetting('liveTools.eval.idleSeconds', undefined);
    await vscode.commands.executeCommand('liveTools.stopKernels');
  });

  it('Python: state survives between cells, the last expression is returned, stdout and stderr come in order', async () => {
    const first = await python('x = 41\nimport sys');
    // An earlier suite may have stopped the window's kernel (liveTools.stopKernels): the first cell is told.
    assert.match(
      first,
      /^(\[the human stopped the Python kernel; its state was lost\]\n)?\[started Python 3\.\d+\.\d+, eval\/\.venv\/bin\/python: from liveTools\.eval\.python\]$/,
    );
    const second = await python('print("one")\nprint("two", file=sys.stderr)\nprint("three")\nx + 1');
    assert.equal(second, 'one\ntwo\nthree\n42');
    assert.equal(await python('y = x * 2'), '(no output)');
    const fresh = await python('"x" in globals()', { reset: true });
    assert.match(
      fresh,
      /^\[reset: the previous Python kernel and its state were dropped\]\n\[started Python 3\.\d+\.\d+, eval\/\.venv\/bin\/python: from liveTools\.eval\.python\]\nFalse$/,
    );
  });

  it('Python: a credential printed by a cell is masked with its length; turned off, it shows', async () => {
    const cell = 'token = "ghp_" + "a" * 36\nprint("Authorization: Bearer", token)\ntoken';
    const masked = await python(cell);
    assert.doesNotMatch(masked, /ghp_a/);
    assert.match(masked, /Bearer «secret: 40 characters»/);
    await setSetting('liveTools.secrets.mask', false);
    try {
      assert.match(await python(cell), /Bearer ghp_a{36}/);
    } finally {
      await setSetting('liveTools.secrets.mask', undefined);
    }
  });

  it("Python: an error is a short traceback of the cell's own lines, and the state is kept", async () => {
    await python('kept = "still here"');
    const failed = await python('def ratio(a, b):\n    return a / b\n\nratio(1, 0)');
    assert.match(failed, /^The cell raised an error \(the kernel and its state are kept\):\n/);
    assert.match(failed, /ZeroDivisionError: division by zero/);
    assert.match(failed, /ratio\(1, 0\)/);
    assert.match(failed, /return a \/ b/);
    assert.doesNotMatch(failed, /python_kernel\.py|kernel\.py/);
    assert.equal(await python('kept'), "'still here'");
  });

  it('Python: display(), a DataFrame as a capped table, a matplotlib figure as a PNG image part', async () => {
    assert.equal(await python('display("shown", 7)\n"last"'), "'shown'\n7\n'last'");
    const table = await python('import pandas as pd\npd.DataFrame({"n": range(30), "sq": [i * i for i in range(30)]})');
    assert.match(table, /\bn\s+sq\b/);
    assert.match(table, /\b19\s+19\s+361\b/);
    assert.doesNotMatch(table, /\b20\s+20\s+400\b/);
    assert.match(table, /showing 20 of 30 rows/);

    const result = await vscode.lm.invokeTool('eval', {
      input: {
        code: 'import matplotlib.pyplot as plt\nplt.plot([1, 3, 2])\nplt.title("demo")\nplt.gcf()',
        description: 'plot a line',
      },
      toolInvocationToken: undefined,
    });
    const text = result.content
      .filter((part) => part instanceof vscode.LanguageModelTextPart)
      .map((part) => (part as vscode.LanguageModelTextPart).value)
      .join('');
    const images = result.content.filter(
      (part): part is vscode.LanguageModelDataPart => part instanceof vscode.LanguageModelDataPart,
    );
    assert.equal(images.length, 1, `one image part, got: ${text}`);
    assert.equal(images[0].mimeType, 'image/png');
    assert.deepEqual([...images[0].data.slice(0, 8)], PNG_SIGNATURE);
    assert.ok(images[0].data.byteLength > 5_000, `a real plot is several KB; got ${images[0].data.byteLength} bytes`);
    assert.match(text, new RegExp(`\\[image image/png, ${images[0].data.byteLength.toLocaleString('en-US')} bytes\\]`));
  });

  it('Python: !cmd, %cd, %%bash and %%timeit are rewritten into ordinary code', async () => {
    fs.mkdirSync(path.join(root, 'eval', 'sub'), { recursive: true });
    assert.equal(await python('!echo from-shell'), 'from-shell');
    const moved = await python('%cd eval/sub\nimport os\nos.getcwd()');
    assert.match(moved, new RegExp(`'${path.join(root, 'eval', 'sub').replace(/[/.]/g, '\\$&')}'$`));
    assert.equal(await python('%%bash\necho "$((6 * 7))"\npwd'), `42\n${path.join(root, 'eval', 'sub')}`);
    assert.match(await python('%%timeit\nsum(range(100))'), /per loop/);
    await python(`%cd ${root}`);
  });

  it("Python: %pip installs a local package into the kernel's own interpreter, and the next import sees the new version", async () => {
    const pkg = path.join(root, 'eval', 'tinypkg-src');
    const write = (version: string): void => {
      fs.mkdirSync(path.join(pkg, 'tinypkg'), { recursive: true });
      fs.writeFileSync(
        path.join(pkg, 'pyproject.toml'),
        `[build-system]\nrequires = ["setuptools"]\nbuild-backend = "setuptools.build_meta"\n[project]\nname = "tinypkg"\nversion = "${version}"\n`,
      );
      fs.writeFileSync(path.join(pkg, 'tinypkg', '__init__.py'), `VERSION = "${version}"\n`);
      fs.rmSync(path.join(pkg, 'build'), { recursive: true, force: true });
    };
    write('1.0');
    const first = await python(`%pip install --no-index --no-build-isolation ${pkg}\nimport tinypkg\ntinypkg.VERSION`);
    assert.match(first, /Successfully installed tinypkg-1\.0/);
    assert.match(first, /'1\.0'$/);
    write('2.0');
    const second = await python(`%pip install --no-index --no-build-isolation ${pkg}\nimport tinypkg\ntinypkg.VERSION`);
    assert.match(second, /modules purged.*tinypkg/);
    assert.match(second, /'2\.0'$/);
    assert.ok(
      fs
        .readdirSync(path.join(root, 'eval', '.venv', 'lib'))
        .some((dir) => fs.existsSync(path.join(root, 'eval', '.venv', 'lib', dir, 'site-packages', 'tinypkg'))),
      'installed into the venv that runs the kernel',
    );
  });

  it('Python: tool() calls another of our tools through the editor; eval itself and unknown tools raise', async () => {
    fs.mkdirSync(path.join(root, 'eval', 'pkg'), { recursive: true });
    fs.writeFileSync(
      path.join(root, 'eval', 'pkg', 'sample.py'),
      'def area(w, h):\n    return w * h\n\nprint(area(2, 3))\n',
    );
    const found = await python(
      'hits = tool("ast_grep", {"pattern": "area($A, $B)", "path": "eval/pkg/sample.py"})\nprint(hits)',
    );
    assert.match(found, /eval\/pkg\/sample\.py:4/);
    assert.match(found, /area\(2, 3\)  · \$A = 2, \$B = 3/);
    const refused = await python('tool("eval", {"code": "1", "description": "nested"})');
    assert.match(refused, /ToolError: Refused: A cell cannot run eval/);
    const unknown = await python('tool("no_such_tool", {})');
    assert.match(unknown, /no tool named "no_such_tool" here\. Tools A Python cell of .* can call: .*\bast_grep\b/);
  });

  it('Python: a cell past the idle budget is interrupted and the state is kept', async () => {
    await setSetting('liveTools.eval.idleSeconds', 1);
    try {
      await python('before_sleep = 5');
      const started = Date.now();
      const slept = await python('import time\nprint("going to sleep")\ntime.sleep(60)');
      assert.ok(Date.now() - started < 15_000, `interrupted promptly, took ${Date.now() - started} ms`);
      assert.match(slept, /^The cell was interrupted \(the kernel and its state are kept\):\ngoing to sleep/);
      assert.match(slept, /KeyboardInterrupt/);
      assert.match(slept, /interrupted after 1 s not waiting on a tool call \(the idle budget\)/);
    } finally {
      await setSetting('liveTools.eval.idleSeconds', undefined);
    }
    assert.equal(await python('before_sleep'), '5');
  });

  it('Python: cancelling the call interrupts the cell; the kernel keeps its state', async () => {
    await python('survivor = "yes"');
    const source = new vscode.CancellationTokenSource();
    const started = Date.now();
    const call = invokeText(
      'eval',
      { code: 'import time\ntime.sleep(60)', description: 'sleep a minute' },
      source.token,
    );
    setTimeout(() => source.cancel(), 1_500);
    await assert.rejects(
      call,
      (error: Error) => error instanceof vscode.CancellationError || /cancel/i.test(error.message),
    );
    assert.ok(Date.now() - started < 15_000);
    source.dispose();
    assert.equal(await python('survivor'), "'yes'");
  });

  it('Python: a crashed kernel gives a clear error; the next call starts a fresh one and says the state was lost', async () => {
    await python('doomed = 1');
    const crashed = await python('import os\nprint("before the crash")\nos._exit(3)');
    assert.match(
      crashed,
      /^The kernel was lost; the next cell starts a fresh one:\nbefore the crash\nthe Python kernel exited with code 3; its state is lost/,
    );
    const next = await python('"doomed" in globals()');
    assert.match(
      next,
      /^\[the previous Python kernel exited with code 3; its state was lost and a fresh kernel was started\]\n\[started Python 3\.\d+\.\d+, eval\/\.venv\/bin\/python: from liveTools\.eval\.python\]\nFalse$/,
    );
  });

  it('Python: an output flood is cut to head and tail with a note, and the editor stays responsive', async () => {
    const started = Date.now();
    const flood = await python('for i in range(100000):\n    print("line", i)\n"done"');
    assert.ok(Date.now() - started < 30_000, `took ${Date.now() - started} ms`);
    assert.ok(flood.length < 40_000, `bounded, got ${flood.length} characters`);
    assert.match(flood, /^line 0\n/);
    assert.match(flood, /\[… [\d,]+ characters of output cut …\]/);
    assert.match(flood, /line 99999\n'done'$/);
    assert.match(await invokeText('lsp', { action: 'status' }), /TypeScript/);
  });

  it('Python: 100 MB written to the message channel (fd 4) without a line break is dropped and said; the result, the next cell and the editor are intact', async () => {
    await python('before_flood = "kept"');
    const started = Date.now();
    const flooded = await python(
      'import os\njunk = memoryview(b"x" * 100_000_000)\nwhile junk:\n    junk = junk[os.write(4, junk):]\n"result"',
    );
    assert.ok(Date.now() - started < 30_000, `took ${Date.now() - started} ms`);
    assert.match(
      flooded,
      /^'result'\n+\[100,000,000 bytes on the kernel's message channel \(fd 4\) were dropped: 1 line over the 8 MB one message may hold\. fd 4 belongs to the kernel; print, display\(\) or write to a file instead\]$/,
    );
    assert.match(await invokeText('lsp', { action: 'status' }), /TypeScript/);
    assert.equal(await python('before_flood'), "'kept'");
  });

  it('JavaScript: 100 MB written to the message channel (fd 4) without a line break is dropped and said; the result and the next cell are intact', async () => {
    await javascript('const beforeFlood = "kept";');
    const flooded = await javascript(
      "const junk = Buffer.alloc(100_000_000, 'x');\nfor (let at = 0; at < junk.length; ) at += require('node:fs').writeSync(4, junk, at);\n'result'",
    );
    assert.match(
      flooded,
      /^'result'\n+\[100,000,000 bytes on the kernel's message channel \(fd 4\) were dropped: 1 line over the 8 MB one message may hold\./,
    );
    assert.equal(await javascript('beforeFlood'), "'kept'");
  });

  it('Python: a cell shows at most 10 images and 5 MB of images; the answer says how many were not shown', async () => {
    const invoke = async (code: string): Promise<{ text: string; images: vscode.LanguageModelDataPart[] }> => {
      const result = await vscode.lm.invokeTool('eval', {
        input: { code, description: 'many images' },
        toolInvocationToken: undefined,
      });
      const text = result.content
        .filter((part) => part instanceof vscode.LanguageModelTextPart)
        .map((part) => (part as vscode.LanguageModelTextPart).value)
        .join('');
      return {
        text,
        images: result.content.filter(
          (part): part is vscode.LanguageModelDataPart => part instanceof vscode.LanguageModelDataPart,
        ),
      };
    };
    const figures = await invoke(
      'import matplotlib.pyplot as plt\nfor n in range(12):\n    plt.figure()\n    plt.plot([n, 0, n])\n"drawn"',
    );
    assert.equal(figures.images.length, 10, figures.text);
    assert.match(
      figures.text,
      /\[2 of 12 images not shown \([\d,]+ bytes\): a cell shows at most 10 images and 5 MB of images in all; save the others to files, or show them in later cells\]$/,
    );
    const blobs = await invoke(
      'import os\nclass Blob:\n    def _repr_png_(self):\n        return b"\\x89PNG\\r\\n\\x1a\\n" + os.urandom(1_000_000 - 8)\nfor _ in range(200):\n    display(Blob())',
    );
    assert.equal(blobs.images.length, 5, blobs.text.slice(0, 500));
    assert.ok(blobs.images.every((part) => part.data.byteLength === 1_000_000));
    assert.match(blobs.text, /\[195 of 200 images not shown \(195,000,000 bytes\)/);
  });

  it('JavaScript: state, top-level await, let/const declared again in a later cell, and the last expression', async () => {
    const first = await javascript(
      'let n = 1;\nconst name = "first";\nconst wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));',
      { reset: true },
    );
    assert.match(first, /\[started JavaScript v\d+\.\d+\.\d+, the editor's own Node\]/);
    assert.equal(await javascript('await wait(20);\nconsole.log("waited");\nn + 41'), 'waited\n42');
    assert.equal(await javascript('let n = 10;\nconst name = "second";\n`${name} ${n}`'), "'second 10'");
    const failed = await javascript('function explode() {\n  throw new TypeError("bad value");\n}\nexplode();');
    assert.match(failed, /^The cell raised an error \(the kernel and its state are kept\):\n/);
    assert.match(failed, /TypeError: bad value/);
    assert.doesNotMatch(failed, /jsKernelHost|node:internal/);
    assert.equal(await javascript('n'), '10');
  });

  it('JavaScript: a busy loop past the idle budget is interrupted and the state is kept', async () => {
    await javascript('globalThis.kept = "js state";');
    await setSetting('liveTools.eval.idleSeconds', 1);
    try {
      const spun = await javascript('console.log("spinning");\nwhile (true) {}');
      assert.match(spun, /^The cell was interrupted \(the kernel and its state are kept\):\nspinning/);
      assert.match(spun, /interrupted after 1 s not waiting on a tool call \(the idle budget\)/);
    } finally {
      await setSetting('liveTools.eval.idleSeconds', undefined);
    }
    assert.equal(await javascript('kept'), "'js state'");
  });

  it('JavaScript: await tool() calls another of our tools', async () => {
    const answer = await javascript(
      'const found = await tool("ast_grep", { pattern: "area($A, $B)", path: "eval/pkg/sample.py" });\nfound.split("\\n").find((line) => line.includes("sample.py"))',
    );
    assert.match(answer, /eval\/pkg\/sample\.py:4/);
  });

  it('Python and JavaScript kernels run side by side; stopping them leaves no kernel process, and the next cell starts afresh', async () => {
    await python('1');
    await javascript('1');
    assert.equal(kernelProcesses().length, 2, kernelProcesses().join('\n'));
    assert.equal(await vscode.commands.executeCommand('liveTools.stopKernels'), 2);
    const deadline = Date.now() + 10_000;
    while (kernelProcesses().length > 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 100));
    assert.deepEqual(kernelProcesses(), []);
    // The agent's next cell is told the human stopped it.
    assert.match(
      await python('"again"'),
      /^\[the human stopped the Python kernel; its state was lost\]\n\[started Python .*\]\n'again'$/,
    );
  });

  it('bad input is refused with what to send instead', async () => {
    assert.match(await invokeText('eval', { code: '1' }), /^Error: .*description/);
    assert.match(await invokeText('eval', { code: '1', description: 'x', language: 'ruby' }), /^Error: .*language/);
  });
});
