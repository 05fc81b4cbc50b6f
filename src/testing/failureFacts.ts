/**
 * What a failed case says, read from its report text (never colored console text): its id, where it
 * failed in the test's own code, expected and actual as the runner reports them, and the test's own
 * stack frames (not the runner's): pytest's and Node's JUnit text, go test's and libtest's output. One reader per runner; each is a single pass over lines of text
 * already cut at the report's bound.
 */
import * as path from 'node:path';
import { TestRunnerId } from '../project/testRunners';
import { JunitCase } from './junitReport';

export interface Frame {
  /** Relative to the run's root where inside it, else as reported. */
  readonly file: string;
  readonly line: number;
  readonly where?: string;
}

export interface CaseFacts {
  /** What to name the test by: pytest's node id, Node's "suite > name". */
  readonly id: string;
  /** What `debug launch test` selects it by, with the file as `program`: pytest's node id from the runner's root (where the debug tool runs pytest too), Node's test name. */
  readonly debugName: string;
  /** The test's file, relative to the run's root, when known. */
  readonly file?: string;
  /** Where it failed in the test's own code. */
  readonly location?: Frame;
  /** The failing source line (pytest's `>` line). */
  readonly sourceLine?: string;
  /** The runner's message (pytest's assert-rewriting explanation, Node's assertion message), a few lines. */
  readonly message?: string;
  readonly expected?: string;
  readonly actual?: string;
  /** Frames in the project's code, innermost last for pytest, as the stack lists them for Node. */
  readonly frames: readonly Frame[];
  /** The line the test is declared at, when the report says (jest, vitest). */
  readonly line?: number;
}

const MESSAGE_LINES = 12;
/** The message of a test file that did not load (jest explains at length before it names the syntax error). */
const FILE_MESSAGE_LINES = 30;
const FRAME_COUNT = 8;
/** Longer lines are no frame (a path and a function name are far shorter); the patterns look at bounded text only. */
const FRAME_LINE_CHARACTERS = 2000;

/** Paths in the facts are relative to `workspaceFolder` (as the model names files), absolute outside it. */
export function caseFacts(runner: TestRunnerId, testCase: JunitCase, root: string, workspaceFolder: string): CaseFacts {
  const facts =
    runner === 'pytest'
      ? pytestFacts(testCase)
      : runner === 'node --test'
        ? nodeFacts(testCase)
        : runner === 'go test'
          ? goFacts(testCase)
          : runner === 'cargo test'
            ? cargoFacts(testCase)
            : javaScriptRunnerFacts(testCase, root);
  const shown = (file: string): string => {
    const absolute = path.resolve(root, file);
    return absolute.startsWith(workspaceFolder + path.sep) ? path.relative(workspaceFolder, absolute) : absolute;
  };
  const frame = (at: Frame): Frame => ({ ...at, file: shown(at.file) });
  const id =
    runner === 'pytest' && facts.file && facts.id.startsWith(facts.file + '::')
      ? shown(facts.file) + facts.id.slice(facts.file.length)
      : facts.id;
  return {
    ...facts,
    id,
    ...(facts.file ? { file: shown(facts.file) } : {}),
    ...(facts.location ? { location: frame(facts.location) } : {}),
    frames: facts.frames.map(frame),
  };
}

/** pytest (xunit1): `file` is relative to its rootdir; the traceback ends each entry with `file:line: …`. */
function pytestFacts(testCase: JunitCase): CaseFacts {
  const file = testCase.file;
  const modulePath = file?.replace(/\.py$/, '').split('/').join('.');
  const className =
    modulePath && testCase.classname.startsWith(modulePath + '.')
      ? testCase.classname.slice(modulePath.length + 1)
      : '';
  const id = file ? [file, ...(className ? className.split('.') : []), testCase.name].join('::') : testCase.name;
  const frames: Frame[] = [];
  const explanation: string[] = [];
  let sourceLine: string | undefined;
  let lastPointer: string | undefined;
  let location: Frame | undefined;
  for (const line of (testCase.details ?? '').split('\n')) {
    if (line.startsWith('>')) lastPointer = line.slice(1).trim();
    else if (line.startsWith('E ')) {
      if (explanation.length < MESSAGE_LINES) explanation.push(line.slice(1).trim());
    }
    // pytest cuts its own frames from the traceback: every entry is the project's code.
    const frame = line.length <= FRAME_LINE_CHARACTERS ? /^(\S[^:\n]*):(\d+): ?(.*)$/.exec(line) : null;
    if (frame && frames.length < 200) {
      frames.push({ file: frame[1], line: Number(frame[2]), where: frame[3] || undefined });
      if (file === undefined || frame[1] === file) {
        location = frames[frames.length - 1];
        sourceLine = lastPointer;
      }
    }
  }
  const message = explanation.length ? explanation.join('\n') : testCase.message;
  return {
    id,
    debugName: id,
    ...(file ? { file } : {}),
    ...(location ? { location } : {}),
    ...(sourceLine ? { sourceLine } : {}),
    ...(message ? { message } : {}),
    frames: frames.slice(-FRAME_COUNT),
  };
}

/** Node: the stack's frames outside node: and node_modules; `actual:` and `expected:` of the AssertionError. */
function nodeFacts(testCase: JunitCase): CaseFacts {
  const id = [...testCase.suites, testCase.name].join(' > ');
  const frames: Frame[] = [];
  let expected: string | undefined;
  let actual: string | undefined;
  for (const line of (testCase.details ?? '').split('\n')) {
    const trimmed = line.trim();
    // The runner wraps the test's error: its cause's stack is the one that points at the assertion.
    if (trimmed.startsWith('cause: ')) frames.length = 0;
    const frame =
      trimmed.length <= FRAME_LINE_CHARACTERS
        ? /^at (?:(.*?) \()?((?:file:\/\/)?\/[^():]*):(\d+):\d+\)?$/.exec(trimmed)
        : null;
    if (frame) {
      const file = frame[2].replace(/^file:\/\//, '');
      if (!file.includes('/node_modules/') && frames.length < 50) {
        if (!frames.some((known) => known.file === file && known.line === Number(frame[3])))
          frames.push({ file, line: Number(frame[3]), where: frame[1] });
      }
      continue;
    }
    if (actual === undefined && trimmed.startsWith('actual: ')) actual = trimmed.slice(8).replace(/,$/, '');
    else if (expected === undefined && trimmed.startsWith('expected: ')) expected = trimmed.slice(10).replace(/,$/, '');
  }
  const file = testCase.file;
  const inTestFile = frames.filter((frame) => file === undefined || frame.file === file);
  const location = inTestFile[0] ?? frames[0];
  const message = (testCase.message ?? '').split('\n').slice(0, MESSAGE_LINES).join('\n').trim();
  return {
    id,
    debugName: testCase.name,
    ...((file ?? location) ? { file: file ?? location.file } : {}),
    ...(location ? { location } : {}),
    ...(message ? { message } : {}),
    ...(expected !== undefined ? { expected } : {}),
    ...(actual !== undefined ? { actual } : {}),
    frames: frames.slice(0, FRAME_COUNT),
  };
}

/**
 * mocha, jest, vitest: the test's full title (what `--grep` and `--testNamePattern` match) names it; the
 * stack's frames outside node: and node_modules (mocha writes them relative to the run's folder); the
 * failure's place is the first frame in the test's file; expected and actual as the report gives them.
 */
function javaScriptRunnerFacts(testCase: JunitCase, root: string): CaseFacts {
  const id = testCase.classname || testCase.name;
  const frames: Frame[] = [];
  for (const line of (testCase.details ?? '').split('\n')) {
    const trimmed = line.trim();
    const frame =
      trimmed.length <= FRAME_LINE_CHARACTERS
        ? /^at (?:(.*?) \()?((?:file:\/\/)?[^\s():][^():]*):(\d+):\d+\)?$/.exec(trimmed)
        : null;
    if (!frame || frames.length >= 50) continue;
    const file = frame[2].replace(/^file:\/\//, '');
    if (file.startsWith('node:') || file.includes('/node_modules/') || file.startsWith('node_modules/')) continue;
    if (!frames.some((known) => known.file === file && known.line === Number(frame[3])))
      frames.push({ file, line: Number(frame[3]), where: frame[1] });
  }
  const file = testCase.file;
  const testFile = file === undefined ? undefined : path.resolve(root, file);
  const location = frames.find((frame) => path.resolve(root, frame.file) === testFile) ?? frames[0];
  // A file that did not load: its message is all there is to go on (jest's explains before it names the error).
  const messageLines = (testCase.message ?? '')
    .split('\n')
    .filter((line) => testCase.classname || (line.trim() && !/^\s*at /.test(line)));
  const message = messageLines
    .slice(0, testCase.classname ? MESSAGE_LINES : FILE_MESSAGE_LINES)
    .join('\n')
    .trim();
  return {
    id,
    // A file that did not load has no test to debug (its case has no title of the runner's).
    debugName: testCase.classname,
    ...((file ?? location) ? { file: file ?? location.file } : {}),
    ...(location ? { location } : {}),
    ...(message ? { message } : {}),
    ...(testCase.expected !== undefined ? { expected: testCase.expected } : {}),
    ...(testCase.actual !== undefined ? { actual: testCase.actual } : {}),
    frames: frames.slice(0, FRAME_COUNT),
    ...(testCase.line !== undefined ? { line: testCase.line } : {}),
  };
}

/** Go's `    file_test.go:12: message` (t.Error, t.Fatal, t.Log), its message continued on lines indented deeper. */
const GO_MESSAGE = /^( +)([\w.+-]+\.go):(\d+): (.*)$/;
/** A goroutine trace's location line: `\t/abs/file.go:28 +0x1a`. */
const GO_FRAME = /^\t(\/[^:]+\.go):(\d+)(?: \+0x[0-9a-f]+)?$/;
/** Go's own frames in a panic's trace. */
const GO_RUNNER_FUNCTION = /^(?:testing\.|runtime\.|panic\(|created by (?:testing|runtime)\.)/;

/**
 * go test: the test's output (from -json). A failure's place is the last `file.go:N:` message (the
 * assertion's line: t.Error/t.Fatal write it; a t.Log before it is an earlier line), or for a panic the
 * first frame of the goroutine trace in the test's own code. The file is in the test's package folder.
 */
function goFacts(testCase: JunitCase): CaseFacts {
  const dir = testCase.file ? path.dirname(testCase.file) : '.';
  const lines = (testCase.output ?? '').split('\n');
  let location: Frame | undefined;
  let message: string[] = [];
  let messageIndent = -1;
  const frames: Frame[] = [];
  let panic: string | undefined;
  let lastFunction: string | undefined;
  for (const line of lines) {
    if (line.length > FRAME_LINE_CHARACTERS) continue;
    const said = GO_MESSAGE.exec(line);
    if (said && panic === undefined) {
      location = { file: path.join(dir, said[2]), line: Number(said[3]) };
      message = [said[4]];
      messageIndent = said[1].length;
      continue;
    }
    if (messageIndent >= 0 && panic === undefined && line.startsWith(' '.repeat(messageIndent + 4))) {
      if (message.length < MESSAGE_LINES) message.push(line.slice(messageIndent + 4));
      continue;
    }
    messageIndent = -1;
    if (panic === undefined && /^\s*panic: /.test(line)) panic = line.trim().replace(/ \[recovered\]$/, '');
    const frame = GO_FRAME.exec(line);
    if (frame) {
      if (lastFunction && !GO_RUNNER_FUNCTION.test(lastFunction) && frames.length < FRAME_COUNT)
        frames.push({ file: frame[1], line: Number(frame[2]), where: lastFunction.replace(/\(.*\)$/, '') });
    } else lastFunction = line.trim();
  }
  if (panic !== undefined) {
    const own = frames.find((frame) => frame.file.endsWith('_test.go')) ?? frames[0];
    location = own;
    message = [panic];
  }
  return {
    id: testCase.name,
    debugName: testCase.name,
    ...((testCase.file ?? location) ? { file: testCase.file ?? location?.file } : {}),
    ...(location ? { location } : {}),
    ...(message.length ? { message: message.join('\n') } : testCase.message ? { message: testCase.message } : {}),
    frames,
  };
}

/** Rust's panic line: `panicked at src/lib.rs:10:9:` (1.73 and later), or `panicked at 'message', src/lib.rs:10:9` before. */
const RUST_PANIC_AT = /^thread '.*?' (?:\(\d+\) )?panicked at (\S+?):(\d+):(\d+):$/;
const RUST_PANIC_QUOTED = /^thread '.*?' (?:\(\d+\) )?panicked at '(.*)$/;
const RUST_QUOTED_END = /^(.*)', (\S+?):(\d+):(\d+)$/;
/** A backtrace's source line (`at ./src/lib.rs:19:9`), and the paths of Rust's own library. */
const RUST_FRAME = /^\s+at (\S+?):(\d+):\d+$/;
const RUST_LIBRARY = /\/(?:rustc|rustc-[^/]+|library)\/|\/\.cargo\/registry\//;

/** cargo test: the panic in what libtest captured for a failure (its `details`): its place and message, assert_eq!'s left and right. */
function cargoFacts(testCase: JunitCase): CaseFacts {
  const lines = (testCase.details ?? testCase.output ?? '').split('\n');
  let location: Frame | undefined;
  const message: string[] = [];
  let inMessage = false;
  let left: string | undefined;
  let right: string | undefined;
  const frames: Frame[] = [];
  let lastFunction: string | undefined;
  for (const line of lines) {
    if (line.length > FRAME_LINE_CHARACTERS) continue;
    const at = RUST_PANIC_AT.exec(line);
    const quoted = at ? null : RUST_PANIC_QUOTED.exec(line);
    if (location === undefined && (at || quoted)) {
      if (at) {
        location = { file: at[1], line: Number(at[2]) };
        inMessage = true;
      } else if (quoted) {
        const end = RUST_QUOTED_END.exec(quoted[1]);
        if (end) location = { file: end[2], line: Number(end[3]) };
        message.push(end ? end[1] : quoted[1]);
        inMessage = !end;
      }
      continue;
    }
    if (inMessage) {
      const end = RUST_QUOTED_END.exec(line);
      if (/^(?:note: |stack backtrace:)/.test(line)) inMessage = false;
      else if (end && location === undefined) {
        location = { file: end[2], line: Number(end[3]) };
        inMessage = false;
        if (message.length < MESSAGE_LINES) message.push(end[1]);
      } else if (message.length < MESSAGE_LINES) message.push(line);
    }
    const side = /^\s*(left|right): (.*)$/.exec(line);
    if (side) {
      // Before 1.73 each value is in backticks and the left ends with a comma.
      const value = side[2].replace(/,$/, '').replace(/^`(.*)`$/, '$1');
      if (side[1] === 'left' && left === undefined) left = value;
      else if (side[1] === 'right' && right === undefined) right = value.replace(/',.*$/, '').replace(/^`(.*)`$/, '$1');
    }
    const frame = RUST_FRAME.exec(line);
    if (frame) {
      if (!RUST_LIBRARY.test(frame[1]) && frames.length < FRAME_COUNT)
        frames.push({
          file: frame[1].replace(/^\.\//, ''),
          line: Number(frame[2]),
          ...(lastFunction ? { where: lastFunction } : {}),
        });
    } else {
      const name = /^\s*\d+: (.+)$/.exec(line);
      if (name) lastFunction = name[1];
    }
  }
  const text = message.join('\n').trim();
  return {
    id: testCase.name,
    debugName: testCase.name,
    ...((testCase.file ?? location) ? { file: testCase.file ?? location?.file } : {}),
    ...(location ? { location } : {}),
    ...(text ? { message: text } : testCase.message ? { message: testCase.message } : {}),
    // assert_eq!(left, right): the left as the value the test got, the right as the one it wanted (the usual order).
    ...(right !== undefined ? { expected: right } : {}),
    ...(left !== undefined ? { actual: left } : {}),
    frames,
  };
}
