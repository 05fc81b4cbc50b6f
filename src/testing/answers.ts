/**
 * Everything the `test` tool answers, worded for a model: the counts first, then each failure
 * (id, where in the test's code, expected/actual, its own frames, its output's tail, the next step),
 * a run that matched nothing, a hung or timed-out run. Every part is capped, and the answer says so.
 */
import * as path from 'node:path';
import { CaseFacts, caseFacts } from './failureFacts';
import { JunitCase } from './junitReport';
import { TestOutcome } from './runTests';
import { commandLineOf, TestPlan } from './testPlan';

/** Failures worded in full; the rest are named. */
export const FAILURES_IN_FULL = 10;
export const FAILURES_NAMED = 50;
/** A failure's output: its last lines. */
export const OUTPUT_LINES = 20;
export const OUTPUT_LINE_CHARACTERS = 300;
const RUN_OUTPUT_LINES = 30;
/** The compiler's lines shown when the tests did not build. */
export const BUILD_LINES = 40;

export interface TestAnswerInput {
  readonly plan: TestPlan;
  readonly outcome: TestOutcome;
  readonly idleSeconds: number;
  readonly timeoutSeconds: number;
}

/** A failed case with what its report says. */
export interface Failure {
  readonly testCase: JunitCase;
  readonly facts: CaseFacts;
}

export function failuresOf(
  plan: Pick<TestPlan, 'runner' | 'root' | 'workspaceFolder'>,
  cases: readonly JunitCase[],
): Failure[] {
  return cases
    .filter((testCase) => testCase.outcome === 'failed' || testCase.outcome === 'error')
    .map((testCase) => ({ testCase, facts: caseFacts(plan.runner, testCase, plan.root, plan.workspaceFolder) }));
}

export function testAnswer({ plan, outcome, idleSeconds, timeoutSeconds }: TestAnswerInput): string {
  const command = `Command: ${commandLineOf(plan)} (in ${plan.root})`;
  if (outcome.stoppedBecause === 'cancelled') return `Cancelled: the test run was ended.\n${command}`;
  if (outcome.stoppedBecause === 'hung' || outcome.stoppedBecause === 'timeout') {
    const why =
      outcome.stoppedBecause === 'hung'
        ? `Hung: no output for ${idleSeconds} s, so the run was ended (its process group killed) after ${outcome.seconds.toFixed(1)} s.`
        : `Timed out: the run was ended (its process group killed) at its ${timeoutSeconds} s limit.`;
    const running = runningTestId(plan, outcome);
    return [
      why,
      runningTest(plan, outcome),
      command,
      outputSection('Its output', outcome.outputTail, outcome.outputCharacters, RUN_OUTPUT_LINES),
      running
        ? `Next: ${debugStep(running.debugName, running.file)} — or give a larger idle_seconds if it is only slow.`
        : 'Next: run fewer tests (files or tests) to find the one that hangs, or give a larger idle_seconds if it is only slow.',
      ...(outcome.notes ?? []),
    ]
      .filter(Boolean)
      .join('\n');
  }
  const report = outcome.report;
  const buildFailure = outcome.buildFailure;
  if (buildFailure && (!report || report.cases.length + report.casesLeftOut === 0))
    return [
      `${plan.runner}: the tests did not build (${buildFailure.what}, exit code ${outcome.exitCode}); no test ran. The compiler says:`,
      ...buildLines(buildFailure.lines),
      command,
      'Next: fix the errors above in the code (diagnostics shows them too), then run the tests again.',
    ].join('\n');
  if (!report)
    return [
      `The runner ended (exit code ${outcome.exitCode}) without a test report: ${outcome.reportProblem ?? 'none was written'}.`,
      command,
      outputSection('Its output', outcome.outputTail, outcome.outputCharacters, RUN_OUTPUT_LINES),
    ].join('\n');
  const { counts } = report;
  const total = counts.passed + counts.failed + counts.error + counts.skipped;
  if (total === 0 || (counts.passed + counts.failed + counts.error === 0 && plan.tests.length > 0))
    return [
      `No test matched: ${selectionText(plan)}${total ? ` (${counts.skipped} skipped)` : ''}.`,
      command,
      'Check the names (pytest: file::name node ids, -k names; Node: the test names as test() gives them; mocha, jest, vitest: the full title, describe names and test name joined by spaces, or a part of it; go: TestX or TestX/sub; cargo: module::name paths, or a part of one) or give only `files`.',
      outputSection("The runner's output", outcome.outputTail, outcome.outputCharacters, 10),
      ...(outcome.notes ?? []),
    ].join('\n');
  const lines = [
    `${plan.runner}: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped, ${counts.error} errors (${total} tests, ${outcome.seconds.toFixed(1)} s).`,
    command,
  ];
  const failures = failuresOf(plan, report.cases);
  failures.slice(0, FAILURES_IN_FULL).forEach((failure) => lines.push('', ...failureText(plan, failure)));
  const named = failures.slice(FAILURES_IN_FULL, FAILURES_IN_FULL + FAILURES_NAMED);
  if (named.length) lines.push('', `Also failed: ${named.map((failure) => failure.facts.id).join(', ')}.`);
  const unnamed = failures.length - FAILURES_IN_FULL - named.length;
  if (unnamed > 0) lines.push(`…and ${unnamed} more failures, not listed.`);
  if (report.casesLeftOut)
    lines.push(`(${report.casesLeftOut} cases past the first ${report.cases.length} were counted only.)`);
  if (buildFailure)
    lines.push(
      '',
      `Also, the tests did not build (${buildFailure.what}); the compiler says:`,
      ...buildLines(buildFailure.lines),
    );
  if (outcome.notes?.length) lines.push('', ...outcome.notes);
  if (failures.length && plan.runner === 'node --test') {
    // Node's report has no output per test; what the tests printed reaches its TAP stream as `# ` lines.
    const printed = tapComments(outcome.outputTail);
    lines.push(
      '',
      outputSection('What the tests printed (from the end of the run)', printed, printed.length, RUN_OUTPUT_LINES),
    );
  }
  return lines.join('\n');
}

function failureText(plan: Pick<TestPlan, 'runner'>, { testCase, facts }: Failure): string[] {
  // A JavaScript test file that did not load has no test to debug: the file is what failed.
  const where = facts.location
    ? ` — ${facts.location.file}:${facts.location.line}`
    : facts.file && !facts.debugName
      ? ` — ${facts.file}`
      : '';
  const lines = [`${testCase.outcome === 'error' ? 'ERROR' : 'FAILED'} ${facts.id}${where}`];
  if (facts.sourceLine) lines.push(`  line: ${facts.sourceLine}`);
  if (facts.expected !== undefined || facts.actual !== undefined)
    lines.push(`  expected: ${facts.expected ?? '(not reported)'}`, `  actual: ${facts.actual ?? '(not reported)'}`);
  if (facts.message) lines.push(...indent(plan.runner === 'pytest' ? 'pytest: ' : 'message: ', facts.message));
  if (facts.frames.length)
    lines.push(
      `  the test's own frames: ${facts.frames.map((frame) => `${frame.file}:${frame.line}${frame.where ? ` (${frame.where})` : ''}`).join(', ')}`,
    );
  if (testCase.output)
    lines.push(outputSection('  output', testCase.output, testCase.output.length, OUTPUT_LINES).replace(/\n/g, '\n  '));
  lines.push(
    `  next: ${facts.debugName ? debugStep(facts.debugName, facts.file) : 'fix what the message says so the file loads, then run it again'}`,
  );
  return lines;
}

/** The compiler's lines, each cut, at most `BUILD_LINES` of them. */
function buildLines(lines: readonly string[]): string[] {
  const all = lines.flatMap((line) => line.replace(/\s+$/, '').split('\n'));
  const shown = all
    .slice(0, BUILD_LINES)
    .map((line) => (line.length > OUTPUT_LINE_CHARACTERS ? `${line.slice(0, OUTPUT_LINE_CHARACTERS)}…` : line));
  return all.length > shown.length ? [...shown, `(${all.length - shown.length} more lines not shown)`] : shown;
}

function indent(first: string, text: string): string[] {
  return text.split('\n').map((line, index) => `  ${index === 0 ? first : ' '.repeat(first.length)}${line}`);
}

/** The last lines of a text, each cut, and how much was left out. */
export function outputSection(title: string, text: string, characters: number, maxLines: number): string {
  const trimmed = text.replace(/\s+$/, '');
  if (!trimmed) return `${title}: none.`;
  const all = trimmed.split('\n');
  const shown = all
    .slice(-maxLines)
    .map((line) =>
      line.length > OUTPUT_LINE_CHARACTERS
        ? `${line.slice(0, OUTPUT_LINE_CHARACTERS)}… (${line.length} characters)`
        : line,
    );
  const cut = shown.length < all.length || characters > text.length;
  return `${title}${cut ? ` (last ${shown.length} lines; ${characters} characters in all)` : ''}:\n${shown.join('\n')}`;
}

function selectionText(plan: Pick<TestPlan, 'files' | 'tests'>): string {
  const parts = [
    plan.files.length ? `files ${plan.files.join(', ')}` : '',
    plan.tests.length ? `tests ${plan.tests.join(', ')}` : '',
  ].filter(Boolean);
  return parts.length ? `selected ${parts.join('; ')}` : 'selected every test the runner finds';
}

/** The step that debugs one test: the name `debug launch test` selects it by, and its file as `program`. */
function debugStep(debugName: string, file: string | undefined): string {
  return `debug with test: ${debugName}${file ? ` (debug launch, program: ${file})` : ''}`;
}

/** The test running when a hung run was ended, from its progress output or events; else the last one that finished. */
export function runningTest(
  plan: Pick<TestPlan, 'runner' | 'root' | 'workspaceFolder'>,
  outcome: Pick<TestOutcome, 'outputTail' | 'running'>,
): string {
  const running = runningTestId(plan, outcome);
  if (running) return `Running when ended: ${running.id}.`;
  if (plan.runner === 'go test' || plan.runner === 'cargo test')
    return `No test had started: ${plan.runner === 'go test' ? 'go test may still have been compiling' : 'the test executable had not started one'}.`;
  const finished = [...outcome.outputTail.matchAll(/^[ \t]*(?:not )?ok \d+ - (.+)$/gm)].pop();
  if (finished)
    return `The test running is not reported by the runner; the last one that finished: ${finished[1].trim()}.`;
  return 'Which test was running is not known (no test had finished).';
}

/**
 * The test that was running when the run was ended, when the runner's progress says (pytest -v): its id
 * as answers name tests (the file relative to the workspace folder), the node id `debug launch test`
 * takes (relative to the runner's root, where the debug tool runs pytest too) and its file; go test's
 * and libtest's events name it (`running`).
 */
export function runningTestId(
  plan: Pick<TestPlan, 'runner' | 'root' | 'workspaceFolder'>,
  { outputTail, running }: Pick<TestOutcome, 'outputTail' | 'running'>,
): { id: string; debugName: string; file?: string } | undefined {
  if (running) {
    const absolute = running.file === undefined ? undefined : path.resolve(plan.root, running.file);
    const file =
      absolute === undefined
        ? undefined
        : absolute.startsWith(plan.workspaceFolder + path.sep)
          ? path.relative(plan.workspaceFolder, absolute)
          : absolute;
    return { id: running.name, debugName: running.name, ...(file ? { file } : {}) };
  }
  if (plan.runner !== 'pytest') return undefined;
  // `pytest -v` writes a test's node id before it runs, and its result after.
  const lastLine = outputTail.slice(outputTail.lastIndexOf('\n') + 1);
  const debugName = /^(\S+::\S+)\s*$/.exec(lastLine)?.[1];
  if (!debugName) return undefined;
  const absolute = path.resolve(plan.root, debugName.slice(0, debugName.indexOf('::')));
  const file = absolute.startsWith(plan.workspaceFolder + path.sep)
    ? path.relative(plan.workspaceFolder, absolute)
    : absolute;
  return { id: file + debugName.slice(debugName.indexOf('::')), debugName, file };
}

const TAP_SUMMARY = /^(?:Subtest: |(?:tests|suites|pass|fail|cancelled|skipped|todo|duration_ms) \S+$)/;

/** The `# ` comment lines of a TAP stream (what the tests printed), without the runner's summary and subtest headers. */
export function tapComments(tap: string): string {
  return tap
    .split('\n')
    .map((line) => /^[ \t]*# (.*)$/.exec(line)?.[1])
    .filter((line): line is string => line !== undefined && !TAP_SUMMARY.test(line))
    .join('\n');
}
