/**
 * The `test` tool with mocha, jest and vitest on plain Node: their JSON reports (real ones, captured from
 * mocha 11.8, jest 30.5 and vitest 4.1 runs and cut to three frames a stack, in test/fixtures/test-reports/)
 * read into cases, the facts of a failure, the answer's wording, the caps, and the plans' command lines.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { testAnswer } from '../../src/testing/answers';
import { caseFacts } from '../../src/testing/failureFacts';
import { FILE_FAILED, parseJestJson, parseMochaJson, stripColors } from '../../src/testing/jsonReports';
import { JunitReport, MAX_CASES, MAX_REPORT_BYTES, MAX_TEXT_CHARACTERS } from '../../src/testing/junitReport';
import { readReport, TestOutcome } from '../../src/testing/runTests';
import { planTests, TestPlan } from '../../src/testing/testPlan';
import { repoRoot } from '../support/repoRoot';
import { suiteTempDir } from '../support/tempDir';
import { assertLinear } from './support/growth';

const reportText = (name: string): string =>
  fs.readFileSync(path.join(repoRoot(), 'test', 'fixtures', 'test-reports', name), 'utf8');

const plan = (runner: TestPlan['runner'], root: string, extra: Partial<TestPlan> = {}): TestPlan => ({
  runner,
  report: 'json-file',
  root,
  workspaceFolder: '/w',
  command: `/w/node_modules/.bin/${runner}`,
  args: [],
  env: {},
  reportFile: '/tmp/r/report.json',
  files: [],
  tests: [],
  ...extra,
});

const outcome = (report: JunitReport, extra: Partial<TestOutcome> = {}): TestOutcome => ({
  exitCode: 1,
  seconds: 0.5,
  outputTail: '',
  outputCharacters: 0,
  report,
  ...extra,
});

const answerOf = (testPlan: TestPlan, report: JunitReport, extra: Partial<TestOutcome> = {}): string =>
  testAnswer({ plan: testPlan, outcome: outcome(report, extra), idleSeconds: 60, timeoutSeconds: 600 });

describe('test tool: mocha', () => {
  it("reads mocha's json report: outcomes, the full title, file, expected and actual", () => {
    const report = parseMochaJson(reportText('mocha.json'));
    assert.deepEqual(report.counts, { passed: 1, failed: 1, skipped: 1, error: 0 });
    const failed = report.cases.find((testCase) => testCase.outcome === 'failed');
    assert.equal(failed?.classname, 'cart counts the shipping');
    assert.deepEqual(failed?.suites, ['cart']);
    assert.equal(failed?.file, '/w/mocha/cart.spec.js');
    assert.equal(failed?.expected, '7');
    assert.equal(failed?.actual, '2');
  });

  it("the failure's place is the test file's frame (mocha writes it relative to the run's folder), not node's", () => {
    const report = parseMochaJson(reportText('mocha.json'));
    const failed = report.cases.find((testCase) => testCase.outcome === 'failed')!;
    const facts = caseFacts('mocha', failed, '/w/mocha', '/w');
    assert.equal(facts.id, 'cart counts the shipping');
    assert.equal(facts.debugName, 'cart counts the shipping', 'what debug launch test gives --grep');
    assert.equal(facts.file, 'mocha/cart.spec.js');
    assert.deepEqual(facts.location, { file: 'mocha/cart.spec.js', line: 14, where: 'Context.<anonymous>' });
    assert.deepEqual(
      facts.frames.map((frame) => frame.file),
      ['mocha/cart.spec.js'],
    );
    assert.match(facts.message ?? '', /^Expected values to be strictly equal:\n\n2 !== 7$/);
  });

  it('answers counts, the failure at its line with expected and actual, and the debug step', () => {
    const answer = answerOf(
      plan('mocha', '/w/mocha', { args: ['--reporter=json', 'cart.spec.js'], files: ['cart.spec.js'] }),
      parseMochaJson(reportText('mocha.json')),
    );
    assert.equal(
      answer,
      [
        'mocha: 1 passed, 1 failed, 1 skipped, 0 errors (3 tests, 0.5 s).',
        'Command: /w/node_modules/.bin/mocha --reporter=json cart.spec.js (in /w/mocha)',
        '',
        'FAILED cart counts the shipping — mocha/cart.spec.js:14',
        '  expected: 7',
        '  actual: 2',
        '  message: Expected values to be strictly equal:',
        '           ',
        '           2 !== 7',
        "  the test's own frames: mocha/cart.spec.js:14 (Context.<anonymous>)",
        '  next: debug with test: cart counts the shipping (debug launch, program: mocha/cart.spec.js)',
      ].join('\n'),
    );
  });

  it("a hook's failure is an error of its own; a selection that matched nothing is said", () => {
    const report = parseMochaJson(
      JSON.stringify({
        tests: [],
        pending: [],
        passes: [],
        failures: [
          {
            title: '"before each" hook for "x"',
            fullTitle: 'cart "before each" hook for "x"',
            file: '/w/mocha/cart.spec.js',
            err: { message: 'boom', stack: 'Error: boom\n    at Context.<anonymous> (cart.spec.js:3:11)' },
          },
        ],
      }),
    );
    assert.deepEqual(report.counts, { passed: 0, failed: 0, skipped: 0, error: 1 });
    assert.equal(caseFacts('mocha', report.cases[0], '/w/mocha', '/w').location?.line, 3);
    const none = parseMochaJson(JSON.stringify({ tests: [], pending: [], failures: [], passes: [] }));
    assert.match(
      answerOf(plan('mocha', '/w/mocha', { tests: ['nothing here'] }), none, { exitCode: 0 }),
      /^No test matched: selected tests nothing here\./,
    );
  });
});

describe('test tool: jest and vitest', () => {
  it("jest: the matcher's expected and actual as JSON, the failing line in the test file, the test's declared line", () => {
    const report = parseJestJson(reportText('jest.json'));
    assert.deepEqual(report.counts, { passed: 1, failed: 2, skipped: 1, error: 0 });
    const [toBe, strict] = report.cases.filter((testCase) => testCase.outcome === 'failed');
    const facts = caseFacts('jest', toBe, '/w/jest', '/w');
    assert.equal(facts.id, 'cart counts the shipping');
    assert.deepEqual(facts.location, { file: 'jest/cart.test.js', line: 12, where: 'Object.toBe' });
    assert.equal(facts.line, 10, "jest's testLocationInResults: where the test is declared");
    assert.equal(facts.expected, '7');
    assert.equal(facts.actual, '2');
    assert.match(facts.message ?? '', /^Error: expect\(received\)\.toBe\(expected\)/);
    assert.deepEqual(
      facts.frames.map((frame) => frame.file),
      ['jest/cart.test.js'],
      "jest-circus's frames are left out",
    );
    const strictFacts = caseFacts('jest', strict, '/w/jest', '/w');
    assert.equal(strictFacts.location?.line, 16);
    assert.equal(strictFacts.expected, undefined, 'jest rewrites node:assert errors: no expected apart');
    assert.match(strictFacts.message ?? '', /Expected value to strictly be equal to:\n {2}3\nReceived:\n {2}2/);
  });

  it('vitest: its json reporter has the same shape; the message carries expected and actual', () => {
    const report = parseJestJson(reportText('vitest.json'));
    assert.deepEqual(report.counts, { passed: 1, failed: 2, skipped: 1, error: 0 });
    const failed = report.cases.find((testCase) => testCase.outcome === 'failed')!;
    const facts = caseFacts('vitest', failed, '/w/vitest', '/w');
    assert.deepEqual(facts.location, { file: 'vitest/cart.test.js', line: 15, where: undefined });
    assert.equal(facts.message, 'AssertionError: expected 2 to be 7 // Object.is equality');
    assert.equal(facts.expected, undefined);
    const answer = answerOf(plan('vitest', '/w/vitest'), report);
    assert.match(answer, /^vitest: 1 passed, 2 failed, 1 skipped, 0 errors/);
    assert.ok(answer.includes('FAILED cart counts the shipping — vitest/cart.test.js:15'), answer);
    assert.match(
      answer,
      /next: debug with test: cart counts the shipping \(debug launch, program: vitest\/cart\.test\.js\)/,
    );
  });

  it("a test file that does not load is an error named by its file, with the runner's message", () => {
    for (const [runner, name, says] of [
      ['jest', 'jest-file-failed.json', /SyntaxError: \/w\/jest\/bad\.test\.js: Unexpected token \(1:18\)/],
      ['vitest', 'vitest-file-failed.json', /Failed to parse source for import analysis/],
    ] as const) {
      const report = parseJestJson(reportText(name));
      assert.deepEqual(report.counts, { passed: 0, failed: 0, skipped: 0, error: 1 }, runner);
      assert.equal(report.cases[0].name, FILE_FAILED);
      const answer = answerOf(plan(runner, `/w/${runner}`), report);
      assert.ok(answer.includes(`ERROR ${FILE_FAILED} — ${runner}/bad.test.js`), answer);
      assert.doesNotMatch(answer, /@babel\/parser/, "the transformer's frames are left out");
      assert.match(answer, says);
      assert.match(answer, /next: fix what the message says so the file loads, then run it again/);
      assert.doesNotMatch(answer, /debug with test/);
    }
  });

  it('jest: no test matched when every test was left pending by the name pattern', () => {
    const report = parseJestJson(
      JSON.stringify({
        testResults: [
          {
            name: '/w/jest/cart.test.js',
            status: 'passed',
            assertionResults: [{ fullName: 'cart a', title: 'a', status: 'pending', ancestorTitles: ['cart'] }],
          },
        ],
      }),
    );
    assert.match(
      answerOf(plan('jest', '/w/jest', { tests: ['nothing'] }), report, { exitCode: 0 }),
      /^No test matched: selected tests nothing \(1 skipped\)\./,
    );
  });
});

describe('test tool: JSON report caps', () => {
  const dir = suiteTempDir('json-reports-');

  it('keeps at most MAX_CASES cases and MAX_TEXT_CHARACTERS of a text, counting the rest; colors dropped', () => {
    const many = parseMochaJson(
      JSON.stringify({
        tests: Array.from({ length: MAX_CASES + 3 }, (_, index) => ({ title: `t${index}`, fullTitle: `t${index}` })),
      }),
    );
    assert.equal(many.cases.length, MAX_CASES);
    assert.equal(many.casesLeftOut, 3);
    assert.equal(many.counts.passed, MAX_CASES + 3);
    const long = parseJestJson(
      JSON.stringify({
        testResults: [
          {
            name: '/w/a.test.js',
            assertionResults: [
              {
                title: 'a',
                fullName: 'a',
                status: 'failed',
                failureMessages: ['\u001b[31mx'.repeat(MAX_TEXT_CHARACTERS)],
                failureDetails: [{ matcherResult: { expected: 'e'.repeat(MAX_TEXT_CHARACTERS * 2), actual: 1 } }],
              },
            ],
          },
        ],
      }),
    );
    assert.equal(long.cases[0].details?.length, MAX_TEXT_CHARACTERS);
    assert.doesNotMatch(long.cases[0].details ?? '', /\u001b/);
    assert.equal(long.cases[0].expected?.length, MAX_TEXT_CHARACTERS);
    assert.equal(long.cases[0].actual, '1');
    assert.equal(stripColors('\u001b[1m\u001b[31mred\u001b[39m\u001b[22m'), 'red');
  });

  it("a report's size is checked before it is read; a text that is not the runner's report is said", () => {
    const big = path.join(dir(), 'big.json');
    fs.writeFileSync(big, '');
    fs.truncateSync(big, MAX_REPORT_BYTES + 1);
    assert.deepEqual(readReport(big, parseMochaJson), {
      problem: `its report is ${MAX_REPORT_BYTES + 1} bytes, over the ${MAX_REPORT_BYTES} bytes read`,
    });
    const wrong = path.join(dir(), 'wrong.json');
    fs.writeFileSync(wrong, '{"stats": {}}');
    assert.match(
      readReport(wrong, parseMochaJson).problem ?? '',
      /^its report could not be read \(the report has no "tests" list/,
    );
    fs.writeFileSync(wrong, '{"stats": ');
    assert.match(readReport(wrong, parseJestJson).problem ?? '', /^its report could not be read \(/);
    const mocha = path.join(dir(), 'mocha.json');
    fs.writeFileSync(mocha, reportText('mocha.json'));
    assert.equal(readReport(mocha, parseMochaJson).report?.counts.failed, 1);
  });

  it('reading frames is linear on hostile stacks', function () {
    this.timeout(60_000);
    assertLinear(
      'frames of a long stack',
      (size) => {
        const stack = 'at a (b.js:1:2)\n'.repeat(size) + 'at ' + ' ('.repeat(size) + ':1:1)';
        const report = parseJestJson(
          JSON.stringify({
            testResults: [
              { name: '/w/b.js', assertionResults: [{ title: 't', status: 'failed', failureMessages: [stack] }] },
            ],
          }),
        );
        caseFacts('jest', report.cases[0], '/w', '/w');
      },
      1_000,
    );
  });
});

describe('test tool: mocha, jest and vitest plans', () => {
  const workspaceFolder = path.join(repoRoot(), 'test', 'fixtures', 'ts-project');
  const dir = suiteTempDir('js-runner-plans-');
  const resolve = (command: string) => `/usr/bin/${command}`;
  const project = (runner: 'jest' | 'vitest'): string => {
    const root = path.join(dir(), runner);
    fs.mkdirSync(root, { recursive: true });
    fs.writeFileSync(path.join(root, 'package.json'), JSON.stringify({ scripts: { test: `${runner} --silent` } }));
    fs.writeFileSync(path.join(root, 'cart.test.js'), '');
    return root;
  };

  it('mocha: its json reporter to our file, never watching, names as one --grep pattern, escaped', () => {
    const run = planTests(
      {
        files: [path.join(workspaceFolder, 'testtool/mocha/cart.spec.js')],
        tests: ['cart counts (the) shipping', 'a|b'],
        workspaceFolder,
      },
      '/tmp/report-dir',
      { resolve },
    );
    assert.equal(run.runner, 'mocha');
    assert.equal(run.root, path.join(workspaceFolder, 'testtool', 'mocha'));
    assert.equal(run.command, '/usr/bin/mocha');
    assert.equal(run.reportFile, '/tmp/report-dir/report.json');
    assert.deepEqual(run.args, [
      '--no-watch',
      '--reporter=json',
      '--reporter-option=output=/tmp/report-dir/report.json',
      '--grep=cart counts \\(the\\) shipping|a\\|b',
      'cart.spec.js',
    ]);
  });

  it('jest: --json to our file, watch off, the files by path; vitest: run (never watch), json and verbose reporters', () => {
    const jestRoot = project('jest');
    const jest = planTests(
      { files: [path.join(jestRoot, 'cart.test.js')], tests: ['cart sums'], workspaceFolder: dir() },
      '/tmp/report-dir',
      { resolve },
    );
    assert.equal(jest.runner, 'jest');
    assert.deepEqual(jest.args, [
      '--watch=false',
      '--watchAll=false',
      '--json',
      '--outputFile=/tmp/report-dir/report.json',
      '--testLocationInResults',
      '--testNamePattern=cart sums',
      '--runTestsByPath',
      'cart.test.js',
    ]);
    assert.deepEqual(jest.env, { FORCE_COLOR: '0' });
    const vitestRoot = project('vitest');
    const vitest = planTests(
      { files: [path.join(vitestRoot, 'cart.test.js')], tests: ['cart.sums'], workspaceFolder: dir() },
      '/tmp/report-dir',
      { resolve },
    );
    assert.equal(vitest.runner, 'vitest');
    assert.deepEqual(vitest.args, [
      'run',
      '--reporter=json',
      '--outputFile.json=/tmp/report-dir/report.json',
      '--reporter=verbose',
      '--includeTaskLocation',
      '--testNamePattern=cart\\.sums',
      'cart.test.js',
    ]);
    assert.deepEqual(vitest.env, { NO_COLOR: '1' });
  });

  it("refuses when the project's runner is not installed, saying how to install it", () => {
    const root = project('jest');
    assert.throws(
      () =>
        planTests({ files: [path.join(root, 'cart.test.js')], tests: [], workspaceFolder: dir() }, '/tmp/r', {
          resolve: () => undefined,
        }),
      /jest is not in the project .*npm install --save-dev jest/,
    );
  });
});
