/**
 * The JSON reports of the JavaScript runners read into the cases a JUnit report gives (junitReport.ts):
 * mocha's `json` reporter, and jest's `--json` (vitest's `json` reporter writes the same shape). The text
 * is parsed once (`JSON.parse`, linear); every kept text is cut at `MAX_TEXT_CHARACTERS`, the cases at
 * `MAX_CASES` (the rest counted), color codes dropped. A text that is not such a report throws.
 */
import { CaseOutcome, JunitCase, JunitReport, MAX_CASES, MAX_TEXT_CHARACTERS } from './junitReport';

type Json = Record<string, unknown>;

/** The name given to a file's case when the file itself failed to run (jest, vitest: a syntax error, an import that throws). */
export const FILE_FAILED = 'the test file failed to run';

/** mocha's `--reporter=json`: `tests` (every test that ran), `failures` (hooks' too), `pending`. */
export function parseMochaJson(text: string): JunitReport {
  const json = reportObject(text, 'tests');
  const key = (test: Json): string => `${textOf(test.file)}\u0000${textOf(test.fullTitle)}`;
  const pending = new Set(objects(json.pending).map(key));
  const failures = new Map(objects(json.failures).map((test) => [key(test), test]));
  const cases = new CaseList();
  const ran = new Set<string>();
  for (const test of objects(json.tests)) {
    ran.add(key(test));
    const failure = failures.get(key(test));
    cases.add(mochaCase(failure ?? test, failure ? 'failed' : pending.has(key(test)) ? 'skipped' : 'passed'));
  }
  // A hook's failure ("before each" hook for "x") is no test of its own: an error of its own.
  for (const [name, failure] of failures) if (!ran.has(name)) cases.add(mochaCase(failure, 'error'));
  return cases.report();
}

function mochaCase(test: Json, outcome: CaseOutcome): JunitCase {
  const err = (isObject(test.err) ? test.err : {}) as Json;
  const title = textOf(test.title);
  const fullTitle = textOf(test.fullTitle) || title;
  const suite = fullTitle.endsWith(' ' + title) ? fullTitle.slice(0, -title.length - 1) : '';
  const failed = outcome === 'failed' || outcome === 'error';
  return {
    name: title,
    classname: fullTitle,
    suites: suite ? [suite] : [],
    ...(typeof test.file === 'string' ? { file: test.file } : {}),
    seconds: (Number(test.duration) || 0) / 1000,
    outcome,
    ...(failed && err.message !== undefined ? { message: cut(textOf(err.message)) } : {}),
    ...(failed && typeof err.stack === 'string' ? { details: cut(err.stack) } : {}),
    ...(failed && 'expected' in err ? { expected: valueText(err.expected, 'as is') } : {}),
    ...(failed && 'actual' in err ? { actual: valueText(err.actual, 'as is') } : {}),
  };
}

/** jest's `--json` and vitest's `json` reporter: `testResults` per file, `assertionResults` per test. */
export function parseJestJson(text: string): JunitReport {
  const json = reportObject(text, 'testResults');
  const cases = new CaseList();
  for (const file of objects(json.testResults)) {
    const name = typeof file.name === 'string' ? file.name : undefined;
    const tests = objects(file.assertionResults);
    for (const test of tests) cases.add(jestCase(test, name));
    // The file failed without a failed test: it did not load (syntax error, import error, no tests in it).
    const message = cut(stripColors(typeof file.message === 'string' ? file.message : '').trim());
    if (file.status === 'failed' && !tests.some((test) => test.status === 'failed'))
      cases.add({
        name: FILE_FAILED,
        classname: '',
        suites: [],
        ...(name ? { file: name } : {}),
        seconds: 0,
        outcome: 'error',
        message: cut(message || 'the runner gave no message'),
        ...(message ? { details: cut(message) } : {}),
      });
  }
  return cases.report();
}

const JEST_OUTCOMES: Readonly<Record<string, CaseOutcome>> = {
  passed: 'passed',
  failed: 'failed',
  pending: 'skipped',
  skipped: 'skipped',
  todo: 'skipped',
  disabled: 'skipped',
  focused: 'passed',
};

function jestCase(test: Json, file: string | undefined): JunitCase {
  const outcome = JEST_OUTCOMES[textOf(test.status)] ?? 'error';
  const title = textOf(test.title);
  // Colors out first, then cut: the cut counts characters a model reads. The whole file is at most MAX_REPORT_BYTES.
  const messages = Array.isArray(test.failureMessages) ? test.failureMessages : [];
  const stack = cut(stripColors(messages.map((message) => (typeof message === 'string' ? message : '')).join('\n\n')));
  const location = isObject(test.location) ? (test.location as Json) : undefined;
  const line = Number(location?.line);
  // jest's own matchers give expected and actual apart (`matcherResult`); an assertion library's error may.
  const detail = objects(test.failureDetails)
    .map((entry) => (isObject(entry.matcherResult) ? (entry.matcherResult as Json) : entry))
    .find((entry) => 'expected' in entry || 'actual' in entry);
  return {
    name: title,
    classname: textOf(test.fullName) || title,
    suites: (Array.isArray(test.ancestorTitles) ? test.ancestorTitles : []).map((suite) => textOf(suite)),
    ...(file ? { file } : {}),
    ...(Number.isInteger(line) && line > 0 ? { line } : {}),
    seconds: (Number(test.duration) || 0) / 1000,
    outcome,
    ...(stack ? { message: cut(messageOfStack(stack)), details: cut(stack) } : {}),
    ...(detail && 'expected' in detail ? { expected: valueText(detail.expected, 'json') } : {}),
    ...(detail && 'actual' in detail ? { actual: valueText(detail.actual, 'json') } : {}),
  };
}

/** Cases kept up to `MAX_CASES`, all counted. */
class CaseList {
  private readonly cases: JunitCase[] = [];
  private readonly counts: Record<CaseOutcome, number> = { passed: 0, failed: 0, error: 0, skipped: 0 };
  private leftOut = 0;

  add(testCase: JunitCase): void {
    this.counts[testCase.outcome]++;
    if (this.cases.length < MAX_CASES) this.cases.push(testCase);
    else this.leftOut++;
  }

  report(): JunitReport {
    return { cases: this.cases, casesLeftOut: this.leftOut, counts: this.counts };
  }
}

function reportObject(text: string, key: string): Json {
  const json: unknown = JSON.parse(text);
  if (!isObject(json) || !Array.isArray((json as Json)[key]))
    throw new Error(`the report has no "${key}" list: it is not the runner's JSON report`);
  return json as Json;
}

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function objects(value: unknown): Json[] {
  return Array.isArray(value) ? (value.filter(isObject) as Json[]) : [];
}

function textOf(value: unknown): string {
  return typeof value === 'string' ? value.slice(0, MAX_TEXT_CHARACTERS) : value === undefined ? '' : String(value);
}

function cut(text: string): string {
  return text.length > MAX_TEXT_CHARACTERS ? text.slice(0, MAX_TEXT_CHARACTERS) : text;
}

/** A value as the report gives it: mocha's already as text, jest's as JSON (a string quoted, so "7" and 7 differ). */
function valueText(value: unknown, form: 'as is' | 'json'): string {
  if (typeof value === 'string' && form === 'as is') return cut(value);
  if (value === undefined) return 'undefined';
  try {
    return cut(JSON.stringify(value) ?? String(value));
  } catch {
    return cut(String(value));
  }
}

/** The text of a stack before its first `at` line: the error's message. */
function messageOfStack(stack: string): string {
  const lines: string[] = [];
  for (const line of stack.split('\n')) {
    if (/^\s+at /.test(line)) break;
    lines.push(line);
  }
  return lines.join('\n').trim();
}

/** ANSI color and style sequences left out (a runner that colors its messages when forced to). */
export function stripColors(text: string): string {
  return text.includes('\u001b') ? text.replace(/\u001b\[[0-9;]{0,20}m/g, '') : text;
}
