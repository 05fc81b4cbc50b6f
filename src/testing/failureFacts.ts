/**
 * What a failed case says, read from its report text (never colored console text): its id, where it
 * failed in the test's own code, expected and actual as the runner reports them, and the test's own
 * stack frames (not the runner's). One reader per runner; each is a single pass over lines of text
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
