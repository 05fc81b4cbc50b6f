/**
 * Kernels stay bounded, on both languages with real kernels: what a cell writes to the message
 * channel (fd 4) itself is dropped and said without stalling the host, a cell's images are capped,
 * a kernel whose host dies takes what its cells started along, and the idle budget pauses only
 * while the cell waits on a tool call.
 */
import * as assert from 'node:assert/strict';
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import * as os from 'node:os';
import * as path from 'node:path';
import * as readline from 'node:readline';
import { BoundedLineReader } from '../../src/process/boundedLineReader';
import { CallTool, Kernel, KernelLaunch } from '../../src/kernels/kernel';
import { MAX_MESSAGE_BYTES } from '../../src/kernels/kernelLimits';
import {
  formatText,
  KernelPart,
  KernelResult,
  MAX_IMAGE_BYTES_PER_CELL,
  MAX_IMAGES_PER_CELL,
  MAX_ERRORS_PER_CELL,
  MAX_RESULTS_PER_CELL,
  OutputCollector,
} from '../../src/kernels/kernelResult';
import { javascriptLaunch } from '../../src/kernels/javascriptKernel';
import { pythonLaunch } from '../../src/kernels/pythonKernel';
import { processGroupExists, signalProcessGroup } from '../../src/process/childProcess';
import { isAlive } from '../support/processes';
import { repoRoot } from '../support/repoRoot';

const ROOT = repoRoot();
const PYTHON = '/usr/bin/python3';
const PYTHON_DRIVER = path.join(ROOT, 'src', 'kernels', 'python', 'kernel.py');
const JS_HOST = path.join(ROOT, 'dist', 'kernels', 'jsKernelHost.js');
const KERNEL_HOST = path.join(ROOT, 'out', 'test', 'fixtures', 'kernelHost.js');

const LANGUAGES: ReadonlyArray<{
  name: 'python' | 'javascript';
  launch: () => KernelLaunch;
  interpreter: string;
  script: string;
}> = [
  { name: 'python', launch: () => pythonLaunch(PYTHON, PYTHON_DRIVER), interpreter: PYTHON, script: PYTHON_DRIVER },
  {
    name: 'javascript',
    launch: () => javascriptLaunch(process.execPath, JS_HOST),
    interpreter: process.execPath,
    script: JS_HOST,
  },
];

/** The cells each test runs, per language. */
const CELLS = {
  python: {
    setState: 'kept = 41',
    readState: 'kept + 1',
    flood:
      'import os\njunk = memoryview(b"x" * 100_000_000)\nwhile junk:\n    junk = junk[os.write(4, junk):]\n"result"',
    strayLast: 'import os\nwritten = os.write(4, b"stray bytes")',
    fireAndForget:
      'import threading\nthreading.Thread(target=tool, args=("slow", {}), daemon=True).start()\nwhile True:\n    pass',
    awaitSlow: 'tool("slow", {})',
  },
  javascript: {
    setState: 'const kept = 41;',
    readState: 'kept + 1',
    flood:
      "const junk = Buffer.alloc(100_000_000, 'x');\nfor (let at = 0; at < junk.length; ) at += require('node:fs').writeSync(4, junk, at);\n'result'",
    strayLast: "const written = require('node:fs').writeSync(4, 'stray bytes');",
    fireAndForget: 'tool("slow", {});\nwhile (true) {}',
    awaitSlow: 'await tool("slow", {})',
  },
};

async function settles(what: string, done: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) assert.fail(`${what} within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const resultText = (result: KernelResult): string | undefined =>
  result.parts.find((part) => part.kind === 'result')?.text;
const image = (bytes: number): KernelPart => ({ kind: 'image', mime: 'image/png', data: new Uint8Array(bytes) });

describe('bounded line reader', () => {
  /** Feeds the chunks and returns what the reader reported, lines as text and oversized ones as a count. */
  function read(maxBytes: number, chunks: string[]): string[] {
    const seen: string[] = [];
    const reader = new BoundedLineReader(
      maxBytes,
      (line, bytes) => seen.push(`${line} (${bytes})`),
      (bytes) => seen.push(`<${bytes} bytes over>`),
    );
    for (const chunk of chunks) reader.push(Buffer.from(chunk, 'utf8'));
    reader.end();
    return seen;
  }

  const cases: Array<[string, number, string[], string[]]> = [
    ['lines in one chunk', 10, ['a\nbc\n'], ['a (1)', 'bc (2)']],
    ['a line across chunks', 10, ['ab', 'cd', 'e\nf'], ['abcde (5)', 'f (1)']],
    ['empty lines', 10, ['\n\na\n'], [' (0)', ' (0)', 'a (1)']],
    ['a line of exactly the bound', 4, ['abcd\n'], ['abcd (4)']],
    [
      'a line over the bound, counted to its end; the next is whole',
      4,
      ['abc', 'de', 'fghij\nok\n'],
      ['<10 bytes over>', 'ok (2)'],
    ],
    ['an oversized line ended by the stream', 4, ['abcdef'], ['<6 bytes over>']],
  ];
  for (const [title, maxBytes, chunks, expected] of cases) {
    it(title, () => assert.deepEqual(read(maxBytes, chunks), expected));
  }

  it('splits a multi-byte character across chunks and decodes the line once', () => {
    const seen: string[] = [];
    const reader = new BoundedLineReader(
      10,
      (line) => seen.push(line),
      () => undefined,
    );
    const bytes = Buffer.from('é€\n', 'utf8');
    for (const byte of bytes) reader.push(Buffer.from([byte]));
    assert.deepEqual(seen, ['é€']);
  });
});

describe('kernel output bounds', () => {
  it('cuts a long result or error to its head and tail, saying so in place', () => {
    const collector = new OutputCollector({ headChars: 4, tailChars: 3 });
    collector.add({ kind: 'error', text: 'ABCDEFGHIJKLMNOP' });
    assert.deepEqual(collector.parts(), [{ kind: 'error', text: 'ABCD\n[… 9 characters cut …]\nNOP' }]);
    assert.equal(collector.cutChars, 9);
  });

  it(`keeps at most ${MAX_RESULTS_PER_CELL} results and 20,000 characters of them, ${MAX_ERRORS_PER_CELL} errors (a cell forging kernel messages), and says how many were not`, () => {
    const collector = new OutputCollector();
    for (let index = 0; index < 20_000; index++) collector.add({ kind: 'result', text: 'x'.repeat(100) });
    for (let index = 0; index < 12; index++) collector.add({ kind: 'error', text: `error ${index}` });
    const parts = collector.parts();
    assert.equal(parts.filter((part) => part.kind === 'result').length, MAX_RESULTS_PER_CELL);
    assert.deepEqual(
      parts.filter((part) => part.kind === 'error').map((part) => part.kind === 'error' && part.text),
      Array.from({ length: MAX_ERRORS_PER_CELL }, (_, index) => `error ${index}`),
    );
    assert.match(
      formatText({ parts, status: 'ok', notes: [], cutChars: 0, seconds: 0 }),
      /\[19,900 more results not shown \(1,990,000 characters\): a cell shows at most 100 results \(its value and each display\(\)\) and 20,000 characters of them; save the others to a file\]\n+\[2 more errors not shown \(16 characters\): a cell shows at most 10\]$/,
    );
    // Large results: the text budget is reached first.
    const large = new OutputCollector();
    for (let index = 0; index < 50; index++) large.add({ kind: 'result', text: 'y'.repeat(1000) });
    assert.equal(large.parts().filter((part) => part.kind === 'result').length, 20);
  });

  it(`keeps at most ${MAX_IMAGES_PER_CELL} images and says how many were not shown`, () => {
    const collector = new OutputCollector();
    for (let index = 0; index < 12; index++) collector.add(image(1000));
    const parts = collector.parts();
    assert.equal(parts.filter((part) => part.kind === 'image').length, 10);
    assert.match(
      formatText({ parts, status: 'ok', notes: [], cutChars: 0, seconds: 0 }),
      /\[2 of 12 images not shown \(2,000 bytes\): a cell shows at most 10 images and 5 MB of images in all; save the others to files, or show them in later cells\]$/,
    );
  });

  it('keeps images while their bytes fit, a later smaller one too', () => {
    const collector = new OutputCollector();
    const megabyte = 1024 * 1024;
    for (const size of [2 * megabyte, 2 * megabyte, 2 * megabyte, megabyte / 2, 10]) collector.add(image(size));
    const kept = collector.parts().flatMap((part) => (part.kind === 'image' ? [part.data.length] : []));
    assert.deepEqual(kept, [2 * megabyte, 2 * megabyte, megabyte / 2, 10]);
    assert.ok(kept.reduce((sum, size) => sum + size, 0) <= MAX_IMAGE_BYTES_PER_CELL);
    assert.match(
      formatText({ parts: collector.parts(), status: 'ok', notes: [], cutChars: 0, seconds: 0 }),
      /\[1 of 5 images not shown \(2,097,152 bytes\)/,
    );
  });

  it('shows at most 10 images of 200 one-megabyte ones a Python cell displays, and says so', async function () {
    this.timeout(60_000);
    const kernel = new Kernel({ launch: pythonLaunch(PYTHON, PYTHON_DRIVER), cwd: os.tmpdir() });
    try {
      const code = [
        'import os',
        'class Blob:',
        '    def __init__(self, size): self.data = b"\\x89PNG\\r\\n\\x1a\\n" + os.urandom(size - 8)',
        '    def _repr_png_(self): return self.data',
        'for _ in range(200): display(Blob(1_000_000))',
        'display(Blob(7_000_000))',
        '"after"',
      ].join('\n');
      const result = await kernel.execute(code);
      const images = result.parts.filter((part) => part.kind === 'image');
      assert.equal(images.length, 5, formatText(result)); // 5 × 1 MB: the 6th would pass 5 MB
      const text = formatText(result);
      assert.match(
        text,
        /\[195 of 200 images not shown \(195,000,000 bytes\): a cell shows at most 10 images and 5 MB/,
      );
      // One image over what a message may hold is not sent at all; the kernel says so in its place.
      assert.match(
        text,
        /\[image\/png output not shown: [\d,]+ bytes as a message, over the 8 MB one kernel message may hold; save it to a file instead\]/,
      );
      assert.equal(resultText(result), "'after'");
    } finally {
      await kernel.dispose();
    }
  });
});

describe('kernels stay bounded', function () {
  this.timeout(30_000);
  let kernels: Kernel[] = [];

  afterEach(async () => {
    const pids = kernels.map((kernel) => kernel.pid).filter((pid): pid is number => pid !== undefined);
    await Promise.all(kernels.map((kernel) => kernel.dispose()));
    kernels = [];
    assert.deepEqual(pids.filter(processGroupExists), [], 'kernel process groups still alive after the test');
  });

  function start(language: (typeof LANGUAGES)[number], callTool?: CallTool): Kernel {
    const kernel = new Kernel({ launch: language.launch(), cwd: os.tmpdir(), callTool, interruptGraceMs: 3000 });
    kernels.push(kernel);
    return kernel;
  }

  it('the Python driver holds the same message bound as the host', () => {
    const bound = execFileSync(
      PYTHON,
      [
        '-c',
        `import importlib.util as u; s = u.spec_from_file_location("k", ${JSON.stringify(PYTHON_DRIVER)}); m = u.module_from_spec(s); s.loader.exec_module(m); print(m.MAX_MESSAGE_BYTES)`,
      ],
      { encoding: 'utf8' },
    );
    assert.equal(Number(bound), MAX_MESSAGE_BYTES);
  });

  for (const language of LANGUAGES) {
    const cells = CELLS[language.name];

    it(`${language.name}: 100 MB written to fd 4 without a line break is dropped and said; the result and the next cell are intact, the host not stalled`, async () => {
      const kernel = start(language);
      await kernel.execute(cells.setState);
      let stalledMs = 0;
      let last = Date.now();
      const probe = setInterval(() => {
        stalledMs = Math.max(stalledMs, Date.now() - last);
        last = Date.now();
      }, 10);
      const started = Date.now();
      const flood = await kernel.execute(cells.flood);
      clearInterval(probe);
      const took = Date.now() - started;
      assert.equal(flood.status, 'ok', formatText(flood));
      assert.equal(resultText(flood), "'result'");
      assert.match(
        formatText(flood),
        /\[100,000,000 bytes on the kernel's message channel \(fd 4\) were dropped: 1 line over the 8 MB one message may hold\. fd 4 belongs to the kernel; print, display\(\) or write to a file instead\]/,
      );
      assert.ok(stalledMs < 2000, `the host's event loop stalled ${stalledMs} ms (the cell took ${took} ms)`);
      assert.equal(resultText(await kernel.execute(cells.readState)), '42');
    });

    it(`${language.name}: stray bytes left on fd 4 at the end of a cell do not swallow its \`done\``, async () => {
      const kernel = start(language);
      await kernel.execute(cells.setState);
      const stray = await kernel.execute(cells.strayLast);
      assert.equal(stray.status, 'ok', formatText(stray));
      assert.match(
        formatText(stray),
        /\[11 bytes on the kernel's message channel \(fd 4\) were dropped: 1 line that was no kernel message\./,
      );
      assert.equal(resultText(await kernel.execute(cells.readState)), '42');
    });

    it(`${language.name}: a tool() call the cell does not wait on leaves the idle budget running`, async () => {
      let release = (): void => undefined;
      const answered = new Promise<void>((resolve) => (release = resolve));
      const kernel = start(language, async () => {
        await answered;
        return { ok: true, text: 'late' };
      });
      try {
        const result = await kernel.execute(cells.fireAndForget, { idleBudgetSeconds: 1 });
        assert.equal(result.stoppedBecause, 'idle-budget', formatText(result));
        assert.equal(result.status, 'interrupted', formatText(result));
      } finally {
        release();
      }
    });

    it(`${language.name}: a cell waiting on a tool call longer than its idle budget is not interrupted`, async () => {
      const kernel = start(
        language,
        () => new Promise((resolve) => setTimeout(() => resolve({ ok: true, text: 'slow' }), 2000)),
      );
      const result = await kernel.execute(cells.awaitSlow, { idleBudgetSeconds: 1 });
      assert.equal(result.status, 'ok', formatText(result));
      assert.equal(resultText(result), "'slow'");
    });
  }

  it('javascript: a call chained with a callback, or only gathered into Promise.all, is not waited on; one awaited through then() or Promise.all is', async () => {
    let release = (): void => undefined;
    const answered = new Promise<void>((resolve) => (release = resolve));
    const kernel = start(LANGUAGES[1], async (name) => {
      await (name === 'never' ? answered : new Promise((resolve) => setTimeout(resolve, 2000)));
      return { ok: true, text: name };
    });
    try {
      for (const code of [
        'tool("never", {}).then((text) => console.log(text));\nwhile (true) {}',
        'Promise.all([tool("never", {})]);\nwhile (true) {}',
      ]) {
        const result = await kernel.execute(code, { idleBudgetSeconds: 1 });
        assert.equal(result.stoppedBecause, 'idle-budget', `${code}: ${formatText(result)}`);
      }
    } finally {
      release();
    }
    const waited = await kernel.execute(
      'const [a, b] = await Promise.all([tool("slow", {}), tool("slow", {})]);\n(await tool("slow", {}).then((text) => text.toUpperCase())) + a + b',
      { idleBudgetSeconds: 1 },
    );
    assert.equal(waited.status, 'ok', formatText(waited));
    assert.equal(resultText(waited), "'SLOWslowslow'");
  });

  it('python: a tool() input over the message bound is refused in the cell, not sent', async () => {
    let calls = 0;
    const kernel = start(LANGUAGES[0], async () => {
      calls++;
      return { ok: true, text: 'sent' };
    });
    const result = await kernel.execute(
      'try:\n    tool("write", {"text": "x" * 9_000_000})\nexcept ToolError as error:\n    print(error)',
    );
    assert.match(
      formatText(result),
      /^tool\('write'\) was not called: its input is [\d,]+ bytes as JSON, over the 8 MB one kernel message may hold; write the data to a file and pass its path$/,
    );
    assert.equal(calls, 0);
  });

  it('javascript: a tool() input over the message bound is refused in the cell, not sent', async () => {
    let calls = 0;
    const kernel = start(LANGUAGES[1], async () => {
      calls++;
      return { ok: true, text: 'sent' };
    });
    const result = await kernel.execute(
      'try { await tool("write", { text: "x".repeat(9_000_000) }); } catch (error) { console.log(`${error.name}: ${error.message}`); }',
    );
    assert.match(
      formatText(result),
      /^ToolError: tool\("write"\) was not called: its input is \d+ bytes as JSON, over the 8 MB one kernel message may hold; write the data to a file and pass its path$/,
    );
    assert.equal(calls, 0);
  });

  it('an error whose message is megabytes long still arrives, cut', async () => {
    for (const [language, code] of [
      [LANGUAGES[0], 'raise ValueError("x" * 20_000_000)'],
      [LANGUAGES[1], 'throw new RangeError("x".repeat(20_000_000))'],
    ] as const) {
      const result = await start(language).execute(code);
      assert.equal(result.status, 'error', formatText(result));
      const text = formatText(result);
      assert.ok(text.length < 40_000, `${language.name}: ${text.length} characters`);
      assert.match(text, /(ValueError|RangeError): x+/);
    }
  });
});

describe('kernels do not outlive their host', function () {
  this.timeout(40_000);
  let left: number[] = [];
  let host: ChildProcess | undefined;

  afterEach(() => {
    // Whatever a failed test left running, by pid: the kernel's group, the sleep, the pipe holder.
    for (const pid of left) {
      signalProcessGroup(pid, 'SIGKILL');
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone
      }
    }
    if (host?.pid !== undefined && host.exitCode === null && host.signalCode === null) host.kill('SIGKILL');
    left = [];
    host = undefined;
  });

  /** Starts the stand-in host; resolves with the pids it reports once its kernel runs `sleep 300`. */
  async function startHost(
    language: (typeof LANGUAGES)[number],
    flags: string[],
  ): Promise<{ kernel: number; sleep: number; holder?: number }> {
    host = spawn(process.execPath, [KERNEL_HOST, language.name, language.interpreter, language.script, ...flags], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    host.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const lines = readline.createInterface({ input: host.stdout! });
    const line = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the host reported no pids: ${stderr}`)), 20_000);
      lines.once('line', (first) => {
        clearTimeout(timer);
        resolve(first);
      });
      host!.once('exit', (code) => reject(new Error(`the host exited (${code}): ${stderr}`)));
    });
    const pids = JSON.parse(line) as { kernel: number; sleep: number; holder?: number };
    left = [pids.kernel, pids.sleep, ...(pids.holder ? [pids.holder] : [])];
    return pids;
  }

  const situations: Array<[string, string[]]> = [
    ['between cells', []],
    ['while a cell loops', ['busy']],
    ['while another process keeps the command pipe open', ['keep-pipe']],
  ];
  for (const language of LANGUAGES) {
    for (const [situation, flags] of situations) {
      it(`${language.name}: a kernel whose host is SIGKILLed ${situation} ends, with the sleep its cell started`, async () => {
        const pids = await startHost(language, flags);
        assert.ok(isAlive(pids.kernel) && isAlive(pids.sleep), 'kernel and sleep run before the host dies');
        host!.kill('SIGKILL');
        await settles('the kernel and its sleep end', () => !isAlive(pids.kernel) && !isAlive(pids.sleep));
      });
    }
  }
});
