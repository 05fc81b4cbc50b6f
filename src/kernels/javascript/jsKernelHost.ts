/**
 * The persistent JavaScript kernel of the eval tool, run as `node dist/kernels/jsKernelHost.js`:
 * reads `execute` and `tool_result` lines on fd 3, runs the cells one at a time, in order, and
 * answers `ready` once, then per cell `stream`/`display`/`result`/`error`/`tool` and `done` on fd 4.
 *
 * Cells run in this process's own global scope (`vm.Script#runInThisContext`), not in a
 * `vm.createContext` sandbox: a second realm makes `instanceof Array`/`Error`/`Uint8Array` false for
 * values that cross between the cell and `require`d packages (which run in the main realm), and
 * packages see other globals than the cell. What the cell can break instead is this host's globals,
 * so the host keeps its own references (`hostProcess`, the original writes) from the start.
 * `cellTransform` makes top-level declarations redeclarable globals and wraps cells with `await`.
 *
 * Interrupts (SIGINT): the synchronous part of a cell runs with `breakOnSigint`, so a `while (true) {}`
 * there is stopped; a cell waiting on a promise is abandoned with an `Interrupted` error (its work
 * keeps going in the background). Not interruptible: a synchronous loop that runs after an `await`
 * or in a timer/callback (no V8 watchdog is armed then) and native code — the host side kills the
 * process after a grace period. A SIGINT that lands in the instant Node disarms the watchdog (the
 * synchronous part just ended) reaches neither the watchdog nor our listener and is lost: the host
 * side sends it again every 250 ms until `done` comes (src/kernels/kernel.ts). Output of an abandoned cell, and of timers after
 * their cell ended, goes to the cell running then (or the next one).
 *
 * Bounds: every event begins with a line break as well as ending with one (bytes a cell writes to fd 4
 * itself end there), and none is longer than MAX_MESSAGE_BYTES: text goes in chunks, reprs and error
 * texts are cut, a tool() input over the bound is refused. When the host goes, the kernel kills its own
 * process group (what its cells started): at the end of fd 3, and — since a cell looping synchronously
 * keeps this thread from ever seeing that end, and Node has no parent-death signal (prctl) — when a
 * watcher thread sees the parent pid change.
 */
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import * as readline from 'node:readline';
import { pathToFileURL } from 'node:url';
import * as util from 'node:util';
import * as vm from 'node:vm';
import { Worker } from 'node:worker_threads';
import { Language, Parser } from 'web-tree-sitter';
import { MAX_MESSAGE_BYTES } from '../kernelLimits';
import { IMPORT_FUNCTION, ParseJavaScript, transformCell } from './cellTransform';

const COMMAND_FD = 3;
const EVENT_FD = 4;
/** Characters of stream/display/result text one cell may send; the rest is counted and dropped. */
const CELL_OUTPUT_LIMIT = 2 * 1024 * 1024;
/** Output written between cells (timers, late promises), kept for the next cell. */
const BETWEEN_CELLS_LIMIT = 64 * 1024;
const INSPECT_OPTIONS: util.InspectOptions = {
  depth: 4,
  maxArrayLength: 100,
  maxStringLength: 10_000,
  breakLength: 100,
};
const MAX_INSPECT_CHARS = 100_000;
/** Characters of stream text per event (as the Python kernel): at most ~400 KB as JSON, whatever the characters. */
const STREAM_CHUNK = 65_536;
/** Characters of an error's message and of each line of its traceback. */
const MAX_ERROR_CHARS = 10_000;
const MAX_FRAMES = 20;
/** Stack frames of the user's code: cells are compiled with the file name `<cell N>`. */
const CELL_FRAME = /<cell \d+>/;

const hostProcess = process;
/** How often the watcher thread looks at the parent pid. */
const PARENT_POLL_MS = 500;

type Command =
  { type: 'execute'; id: number; code: string } | { type: 'tool_result'; call: number; ok: boolean; text: string };

type Event =
  | { type: 'ready'; pid: number; version: string }
  | { type: 'stream'; id: number; name: 'stdout' | 'stderr'; text: string }
  | { type: 'display' | 'result'; id: number; mime: 'text/plain'; data: string }
  | { type: 'error'; id: number; ename: string; evalue: string; traceback: string[] }
  | { type: 'tool'; id: number; call: number; name: string; input: unknown }
  | { type: 'tool_awaited'; id: number; call: number }
  | { type: 'done'; id: number };

class ToolError extends Error {
  override name = 'ToolError';
}

class Interrupted extends Error {
  override name = 'Interrupted';
  constructor() {
    super('the cell was interrupted (SIGINT)');
  }
}

/** An event would be longer than the host reads; the caller sends something smaller instead. */
class MessageTooLarge extends Error {
  constructor(readonly size: number) {
    super(`a message of ${size} bytes`);
  }
}

/** Writes one event line; a host that went away ends the kernel. */
function send(event: Event): void {
  const bytes = Buffer.from(`\n${JSON.stringify(event)}\n`, 'utf8');
  if (bytes.length > MAX_MESSAGE_BYTES) throw new MessageTooLarge(bytes.length);
  let offset = 0;
  while (offset < bytes.length) {
    try {
      offset += fs.writeSync(EVENT_FD, bytes, offset, bytes.length - offset);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN') {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
        continue;
      }
      if (code === 'EPIPE') endProcessGroup();
      hostProcess.exit(1);
    }
  }
}

/** The kernel's own diagnostics go to fd 2, which the host side collects. */
function logToHost(text: string): void {
  try {
    fs.writeSync(2, `[jsKernelHost] ${text}\n`);
  } catch {
    // Nowhere left to say it.
  }
}

/** What one cell has sent so far, bounded to CELL_OUTPUT_LIMIT characters. */
class CellOutput {
  private remaining = CELL_OUTPUT_LIMIT;
  private dropped = 0;

  constructor(readonly id: number) {}

  stream(name: 'stdout' | 'stderr', text: string): void {
    const kept = this.take(text);
    for (let start = 0; start < kept.length;) {
      const end = cutPoint(kept, start + STREAM_CHUNK);
      send({ type: 'stream', id: this.id, name, text: kept.slice(start, end) });
      start = end;
    }
  }

  data(type: 'display' | 'result', data: string): void {
    const kept = this.take(data);
    if (kept) send({ type, id: this.id, mime: 'text/plain', data: kept });
  }

  finish(): void {
    if (this.dropped > 0) {
      send({
        type: 'stream',
        id: this.id,
        name: 'stderr',
        text: `\n[output limit of ${CELL_OUTPUT_LIMIT} characters reached: ${this.dropped} characters dropped]\n`,
      });
    }
    send({ type: 'done', id: this.id });
  }

  private take(text: string): string {
    if (text.length <= this.remaining) {
      this.remaining -= text.length;
      return text;
    }
    const kept = text.slice(0, cutPoint(text, this.remaining));
    this.dropped += text.length - kept.length;
    this.remaining = 0;
    return kept;
  }
}

/** `end`, or one less where it would split a surrogate pair; never past the text. */
function cutPoint(text: string, end: number): number {
  if (end >= text.length) return text.length;
  return end > 0 && /[\uD800-\uDBFF]/.test(text[end - 1]) ? end - 1 : end;
}

/** Head and tail of a long text, the cut stated in place. */
function cut(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const half = Math.floor(limit / 2);
  return `${text.slice(0, cutPoint(text, half))}… [${text.length - limit} characters cut] …${text.slice(text.length - half)}`;
}

let current: CellOutput | undefined;
let betweenCells: { name: 'stdout' | 'stderr'; text: string }[] = [];
let betweenCellsChars = 0;

function emitStream(name: 'stdout' | 'stderr', text: string): void {
  if (text.length === 0) return;
  if (current) {
    current.stream(name, text);
  } else if (betweenCellsChars < BETWEEN_CELLS_LIMIT) {
    const room = BETWEEN_CELLS_LIMIT - betweenCellsChars;
    const kept =
      text.length <= room
        ? text
        : `${text.slice(0, room)}\n[output between cells cut at ${BETWEEN_CELLS_LIMIT} characters]\n`;
    betweenCells.push({ name, text: kept });
    betweenCellsChars += text.length <= room ? text.length : room;
  }
}

/** Routes `process.stdout.write`/`process.stderr.write` (and so the console) to the running cell. */
function captureWrites(): void {
  for (const name of ['stdout', 'stderr'] as const) {
    const stream = hostProcess[name] as unknown as { write: unknown };
    stream.write = (chunk: unknown, encoding?: unknown, callback?: unknown): boolean => {
      const done = typeof encoding === 'function' ? encoding : callback;
      const text =
        typeof chunk === 'string'
          ? chunk
          : Buffer.from(chunk as Uint8Array).toString(
              typeof encoding === 'string' && Buffer.isEncoding(encoding) ? encoding : 'utf8',
            );
      emitStream(name, withoutHostFrames(text));
      if (typeof done === 'function') hostProcess.nextTick(done as () => void);
      return true;
    };
  }
}

const STACK_FRAME = /^\s+at /;

/**
 * Errors printed by the cell (console, display, results) show the cell's frames, not the host's:
 * in each run of stack lines, what lies below the last `<cell N>` frame is this host, `vm`, the
 * event loop — the same for every cell.
 */
function withoutHostFrames(text: string): string {
  if (!text.includes('<cell ')) return text;
  const lines = text.split('\n');
  const kept: string[] = [];
  for (let index = 0; index < lines.length;) {
    if (!STACK_FRAME.test(lines[index])) {
      kept.push(lines[index++]);
      continue;
    }
    let end = index;
    while (end < lines.length && STACK_FRAME.test(lines[end])) end++;
    const frames = lines.slice(index, end);
    const lastCellFrame = frames.findLastIndex((line) => CELL_FRAME.test(line));
    kept.push(...(lastCellFrame === -1 ? frames : frames.slice(0, lastCellFrame + 1)));
    index = end;
  }
  return kept.join('\n');
}

function inspect(value: unknown): string {
  return capped(withoutHostFrames(util.inspect(value, INSPECT_OPTIONS)));
}

function capped(text: string): string {
  return text.length > MAX_INSPECT_CHARS
    ? `${text.slice(0, cutPoint(text, MAX_INSPECT_CHARS))}… [${text.length - MAX_INSPECT_CHARS} more characters]`
    : text;
}

// --- tool() relay -----------------------------------------------------------------------------

interface PendingCall {
  readonly cell: number;
  readonly call: number;
  resolve(text: string): void;
  reject(error: Error): void;
  /** The host was told the cell waits on it (or will be, once the event loop turns). */
  awaited: boolean;
}

let nextCall = 1;
const pendingCalls = new Map<number, PendingCall>();

/**
 * The resolving functions the engine passes to `then` when it subscribes to a thenable (an `await`, a
 * Promise combinator, an async function returning it): native and anonymous. Taken from a real one,
 * so the check holds for whatever V8 runs this.
 */
const functionSource = Function.prototype.toString;
const ENGINE_RESOLVER = ((): { source: string; name: string } => {
  let resolver: unknown;
  void new Promise((resolve) => (resolver = resolve));
  return { source: functionSource.call(resolver), name: (resolver as () => void).name };
})();

function isEngineResolver(value: unknown): boolean {
  return (
    typeof value === 'function' &&
    value.name === ENGINE_RESOLVER.name &&
    functionSource.call(value) === ENGINE_RESOLVER.source
  );
}

/**
 * What `tool()` returns. The host pauses the cell's idle budget only while the cell waits on a call,
 * so this promise says when that starts: when the engine subscribes to it or to a promise derived from
 * it by then/catch/finally (not a callback of the cell's: `tool(...).then(log)` leaves the cell
 * running), and once the event loop turns after that — a cell that subscribed and went on computing
 * is not waiting. A subscription the cell does not itself await (`Promise.all([...])` left unawaited,
 * then an `await` of something else) still counts as waiting: the bound there is the SIGINT and kill.
 */
class ToolCall extends Promise<string> {
  #pending: PendingCall | undefined;

  /** A call's promise and the record that settles it. */
  static start(cell: number, call: number): { promise: ToolCall; pending: PendingCall } {
    let pending!: PendingCall;
    const promise = new ToolCall((resolve, reject) => (pending = { cell, call, resolve, reject, awaited: false }));
    promise.#pending = pending;
    return { promise, pending };
  }

  override then<R1 = string, R2 = never>(
    onFulfilled?: ((value: string) => R1 | PromiseLike<R1>) | null,
    onRejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    const pending = this.#pending;
    if (pending && isEngineResolver(onFulfilled)) markAwaited(pending);
    const derived = super.then(onFulfilled, onRejected);
    const link: unknown = derived; // a ToolCall (the species), typed as the promise of another value
    if (link instanceof ToolCall) link.#pending = pending;
    return derived;
  }
}

function markAwaited(pending: PendingCall): void {
  if (pending.awaited) return;
  pending.awaited = true;
  setImmediate(() => {
    if (pendingCalls.get(pending.call) === pending && current?.id === pending.cell)
      send({ type: 'tool_awaited', id: pending.cell, call: pending.call });
  });
}

function callTool(name: unknown, input: unknown): Promise<string> {
  const cell = current;
  if (!cell) return Promise.reject(new ToolError('tool() can only be called while a cell runs'));
  if (typeof name !== 'string' || name.length === 0)
    return Promise.reject(new TypeError('tool(name, input): name must be a non-empty string'));
  const { promise, pending } = ToolCall.start(cell.id, nextCall++);
  const { call } = pending;
  try {
    send({ type: 'tool', id: cell.id, call, name, input: input ?? {} });
  } catch (error) {
    if (!(error instanceof MessageTooLarge)) throw error;
    pending.reject(
      new ToolError(
        `tool(${JSON.stringify(name)}) was not called: its input is ${error.size} bytes as JSON, over the ${MAX_MESSAGE_BYTES / (1024 * 1024)} MB one kernel message may hold; write the data to a file and pass its path`,
      ),
    );
    return promise;
  }
  pendingCalls.set(call, pending);
  return promise;
}

function answerTool(command: Extract<Command, { type: 'tool_result' }>): void {
  const pending = pendingCalls.get(command.call);
  if (!pending) return logToHost(`tool_result for unknown call ${command.call}`);
  pendingCalls.delete(command.call);
  const text = typeof command.text === 'string' ? command.text : String(command.text);
  if (command.ok) pending.resolve(text);
  else pending.reject(new ToolError(text));
}

// --- imports ----------------------------------------------------------------------------------

/** `require` as the project sees it: rooted at the kernel's working directory. */
const projectRequire = createRequire(path.join(hostProcess.cwd(), '[eval]'));

/** Module namespace for a rewritten `import`: CommonJS modules get `default` = module.exports. */
async function importModule(specifier: string): Promise<unknown> {
  let loaded: unknown;
  try {
    loaded = projectRequire(specifier);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ERR_REQUIRE_ESM' && code !== 'ERR_REQUIRE_ASYNC_MODULE') throw error;
    return import(pathToFileURL(projectRequire.resolve(specifier)).href);
  }
  if (loaded !== null && (typeof loaded === 'object' || typeof loaded === 'function')) {
    const module = loaded as Record<string | symbol, unknown>;
    if (module[Symbol.toStringTag] === 'Module' || module.__esModule) return module;
    return Object.assign(Object.create(null) as object, module, { default: module });
  }
  return { default: loaded };
}

// --- running cells ----------------------------------------------------------------------------

let parse: ParseJavaScript | undefined;
/** The global naming the globals a fresh kernel has (read by the Kernels view's variables cell). */
const INITIAL_GLOBALS = '__agentInitialGlobals';
let interruptWaiting: (() => void) | undefined;

function installGlobals(): void {
  const define = (name: string, value: unknown, enumerable = true): void => {
    Object.defineProperty(globalThis, name, { value, writable: true, configurable: true, enumerable });
  };
  define('require', projectRequire);
  define('display', (value: unknown): void => {
    const text = typeof value === 'string' ? capped(value) : inspect(value);
    // From a timer after its cell finished: kept for the next cell like other late output.
    if (current) current.data('display', text);
    else emitStream('stdout', `${text}\n`);
  });
  define('tool', callTool);
  define(IMPORT_FUNCTION, importModule, false);
  // What the kernel starts with: the Kernels view lists the names the cells added beyond these.
  define(INITIAL_GLOBALS, new Set(Object.getOwnPropertyNames(globalThis).concat(INITIAL_GLOBALS)), false);
}

async function runCell(id: number, code: string): Promise<void> {
  const cell = new CellOutput(id);
  current = cell;
  for (const pending of betweenCells) cell.stream(pending.name, pending.text);
  betweenCells = [];
  betweenCellsChars = 0;
  try {
    const transformed = parse ? transformCell(code, parse) : { code, async: false };
    const script = new vm.Script(transformed.code, { filename: `<cell ${id}>` });
    const completion: unknown = script.runInThisContext({ breakOnSigint: true });
    const value = transformed.async
      ? (await untilInterrupted(completion as Promise<{ value: unknown } | undefined>))?.value
      : completion;
    if (value !== undefined) cell.data('result', inspect(value));
  } catch (error) {
    send({ type: 'error', id, ...describeError(error) });
  } finally {
    interruptWaiting = undefined;
    current = undefined;
    cell.finish();
  }
}

/** The cell's promise, or an `Interrupted` rejection when SIGINT comes first. */
function untilInterrupted<T>(promise: Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    interruptWaiting = () => reject(new Interrupted());
    promise.then(resolve, reject);
  });
}

/** ename, evalue and a traceback of the user's frames (`<cell N>`), never the host's. */
function describeError(error: unknown): { ename: string; evalue: string; traceback: string[] } {
  if (typeof error !== 'object' || error === null || !('message' in error)) {
    const evalue = inspect(error);
    return { ename: 'Uncaught', evalue, traceback: [`Uncaught ${evalue}`] };
  }
  const { code } = error as NodeJS.ErrnoException;
  if (code === 'ERR_SCRIPT_EXECUTION_INTERRUPTED') return describeError(new Interrupted());
  const ename = cut(String((error as Error).name ?? 'Error'), MAX_ERROR_CHARS);
  const evalue = cut(String((error as Error).message ?? ''), MAX_ERROR_CHARS);
  const stack = typeof (error as Error).stack === 'string' ? (error as Error).stack!.split('\n') : [];
  const header = stack.findIndex((line) => line.startsWith(ename));
  // V8 puts the offending line and a caret before the header for errors thrown at the top of a cell.
  const context =
    header > 0
      ? stack
          .slice(0, header)
          .filter((line) => line.trim() !== '')
          .map((line) => cut(line, MAX_ERROR_CHARS))
      : [];
  const frames = stack
    .filter((line) => /^\s+at /.test(line) && CELL_FRAME.test(line))
    .slice(0, MAX_FRAMES)
    .map((line) => cut(line.trim(), MAX_ERROR_CHARS));
  return { ename, evalue, traceback: [...context, `${ename}: ${evalue}`, ...frames] };
}

// --- the command loop -------------------------------------------------------------------------

const queue: { id: number; code: string }[] = [];
let draining = false;

async function drain(): Promise<void> {
  if (draining) return;
  draining = true;
  try {
    for (let next = queue.shift(); next; next = queue.shift()) await runCell(next.id, next.code);
  } finally {
    draining = false;
  }
}

function onLine(line: string): void {
  if (line.trim() === '') return;
  let command: Command;
  try {
    command = JSON.parse(line) as Command;
  } catch {
    return logToHost(`not a JSON line: ${line.slice(0, 200)}`);
  }
  if (command.type === 'execute' && typeof command.id === 'number') {
    queue.push({ id: command.id, code: typeof command.code === 'string' ? command.code : '' });
    void drain();
  } else if (command.type === 'tool_result' && typeof command.call === 'number') {
    answerTool(command);
  } else {
    logToHost(`unknown command: ${line.slice(0, 200)}`);
  }
}

async function loadParser(): Promise<ParseJavaScript> {
  const dist = path.join(__dirname, '..');
  await Parser.init({ locateFile: () => path.join(dist, 'web-tree-sitter.wasm') });
  const language = await Language.load(path.join(dist, 'grammars', 'javascript.wasm'));
  const parser = new Parser();
  parser.setLanguage(language);
  return (source) => parser.parse(source);
}

async function main(): Promise<void> {
  hostProcess.on('SIGINT', () => interruptWaiting?.());
  hostProcess.on('unhandledRejection', (reason) =>
    emitStream('stderr', `Uncaught (in promise) ${describeError(reason).traceback.join('\n')}\n`),
  );
  hostProcess.on('uncaughtException', (error) =>
    emitStream('stderr', `Uncaught ${describeError(error).traceback.join('\n')}\n`),
  );
  captureWrites();
  installGlobals();
  try {
    parse = await loadParser();
  } catch (error) {
    logToHost(
      `the JavaScript grammar did not load, cells run untransformed (no top-level await): ${(error as Error).message}`,
    );
  }
  const commands = readline.createInterface({
    input: fs.createReadStream('', { fd: COMMAND_FD }),
    crlfDelay: Infinity,
  });
  commands.on('line', onLine);
  // The host closed its end: nobody reads the answers any more.
  commands.on('close', endProcessGroup);
  watchParent();
  send({ type: 'ready', pid: hostProcess.pid, version: hostProcess.version });
}

/** The host is gone: the kernel ends and takes what its cells started (its process group) along. */
function endProcessGroup(): never {
  try {
    // Only a group this process leads has its pid as id: started any other way, nothing else is hit.
    hostProcess.kill(-hostProcess.pid, 'SIGKILL');
  } catch {
    // Not a group leader (a test started it so): this process alone ends.
  }
  return hostProcess.exit(0);
}

/**
 * A thread that ends the group when this process's parent changes (the host died and the kernel was
 * handed to init or a subreaper): it runs while a cell holds the main thread, which then never sees fd 3 end.
 */
function watchParent(): void {
  const source = `
    const { workerData } = require('node:worker_threads');
    const pause = new Int32Array(new SharedArrayBuffer(4));
    while (process.ppid === workerData.parent) Atomics.wait(pause, 0, 0, ${PARENT_POLL_MS});
    try { process.kill(-workerData.pid, 'SIGKILL'); } catch {}
    process.kill(workerData.pid, 'SIGKILL');`;
  try {
    new Worker(source, {
      eval: true,
      workerData: { parent: hostProcess.ppid, pid: hostProcess.pid },
      stdout: true,
      stderr: true,
    }).unref();
  } catch (error) {
    logToHost(`no parent watch (the end of fd 3 still ends the kernel): ${(error as Error).message}`);
  }
}

void main();
