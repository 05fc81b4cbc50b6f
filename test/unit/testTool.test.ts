/**
 * The `test` tool's engine on plain Node: JUnit reports as pytest (xunit1) and Node's runner write
 * them, the facts read from a failure, the answer's wording and caps, the plan's command lines, and
 * linear time on hostile reports.
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import {
  failuresOf,
  FAILURES_IN_FULL,
  outputSection,
  runningTest,
  tapComments,
  testAnswer,
} from '../../src/testing/answers';
import { caseFacts } from '../../src/testing/failureFacts';
import { MAX_CASES, MAX_TEXT_CHARACTERS, parseJunit } from '../../src/testing/junitReport';
import { TestOutcome } from '../../src/testing/runTests';
import { planTests, TestPlan } from '../../src/testing/testPlan';
import { TestRefusal } from '../../src/testing/testingErrors';
import { assertLinear } from './support/growth';
import { repoRoot } from '../support/repoRoot';

const PYTEST_REPORT = `<?xml version="1.0" encoding="utf-8"?><testsuites name="pytest tests"><testsuite name="pytest" errors="0" failures="1" skipped="1" tests="3" time="0.017"><testcase classname="tests.test_c" name="test_ok" file="tests/test_c.py" line="0" time="0.001"/><testcase classname="tests.test_c.TestBox" name="test_helper" file="tests/test_c.py" line="4" time="0.250"><failure message="assert 6 == 7">self = &lt;tests.test_c.TestBox object at 0x7ff7304b3f90&gt;

    def test_helper(self):
&gt;       check(6)

tests/test_c.py:6: 
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _

value = 6

    def check(value):
&gt;       assert value == 7
E       assert 6 == 7

tests/helpers.py:2: AssertionError</failure><system-out>--------------------------------- Captured Out ---------------------------------
printed by the test

</system-out><system-err>--------------------------------- Captured Err ---------------------------------

</system-err></testcase><testcase classname="tests.test_c" name="test_later" file="tests/test_c.py" line="9" time="0.000"><skipped type="pytest.skip" message="not yet">tests/test_c.py:10: not yet</skipped></testcase></testsuite></testsuites>`;

const NODE_REPORT = `<?xml version="1.0" encoding="utf-8"?>
<testsuites>
	<testcase name="adds" time="0.000442" classname="test" file="/w/node/a.test.js"/>
	<testsuite name="group" time="0.001112" disabled="0" errors="0" tests="1" failures="1" skipped="0">
		<testcase name="inner deep" time="0.000945" classname="test" file="/w/node/a.test.js" failure="Expected values to be strictly deep-equal:&#10;+ actual - expected">
			<failure type="testCodeFailure" message="Expected values to be strictly deep-equal:&#10;+ actual - expected">
Error [ERR_TEST_FAILURE]: Expected values to be strictly deep-equal:
    at TestContext.&lt;anonymous> (/w/node/a.test.js:9:38)
    at Test.runInAsyncScope (node:async_hooks:206:9) {
  code: 'ERR_TEST_FAILURE',
  cause: AssertionError [ERR_ASSERTION]: Expected values to be strictly deep-equal:
      at check (/w/node/node_modules/lib/index.js:3:3)
      at TestContext.&lt;anonymous> (/w/node/a.test.js:9:72)
      at Test.run (node:internal/test_runner/test:796:25)
      at TestContext.&lt;anonymous> (/w/node/a.test.js:9:38) {
    generatedMessage: true,
    code: 'ERR_ASSERTION',
    actual: { a: 1 },
    expected: { a: 2 },
    operator: 'deepStrictEqual'
  }
}
			</failure>
		</testcase>
	</testsuite>
	<!-- tests 2 -->
</testsuites>`;

const pytestPlan: TestPlan = {
  runner: 'pytest',
  root: '/w/py',
  workspaceFolder: '/w',
  command: '/usr/bin/python3',
  args: ['-m', 'pytest', 'tests/test_c.py'],
  env: { PYTHONUNBUFFERED: '1' },
  reportFile: '/tmp/r/report.xml',
  files: ['tests/test_c.py'],
  tests: [],
};

const outcome = (extra: Partial<TestOutcome>): TestOutcome => ({
  exitCode: 1,
  seconds: 1.25,
  outputTail: '',
  outputCharacters: 0,
  ...extra,
});

describe('test tool: JUnit reports', () => {
  it("reads pytest's xunit1 report: outcomes, file and line, details and output without pytest's headers", () => {
    const report = parseJunit(PYTEST_REPORT);
    assert.deepEqual(report.counts, { passed: 1, failed: 1, error: 0, skipped: 1 });
    const [ok, failed, skipped] = report.cases;
    assert.equal(ok.outcome, 'passed');
    assert.equal(failed.file, 'tests/test_c.py');
    assert.equal(failed.seconds, 0.25);
    assert.equal(failed.message, 'assert 6 == 7');
    assert.match(failed.details ?? '', /^self = <tests\.test_c\.TestBox/, 'entities decoded');
    assert.equal(failed.output, 'printed by the test');
    assert.equal(skipped.outcome, 'skipped');
    assert.equal(skipped.message, 'not yet');
  });

  it("reads Node's report: suites around a case, the message's line breaks", () => {
    const report = parseJunit(NODE_REPORT);
    assert.deepEqual(report.counts, { passed: 1, failed: 1, error: 0, skipped: 0 });
    assert.deepEqual(report.cases[1].suites, ['group']);
    assert.equal(report.cases[1].message, 'Expected values to be strictly deep-equal:\n+ actual - expected');
  });

  it('keeps at most MAX_CASES cases and MAX_TEXT_CHARACTERS of a text, counting the rest', () => {
    const many = `<testsuites>${'<testcase name="t" time="0"/>'.repeat(MAX_CASES + 3)}</testsuites>`;
    const report = parseJunit(many);
    assert.equal(report.cases.length, MAX_CASES);
    assert.equal(report.casesLeftOut, 3);
    assert.equal(report.counts.passed, MAX_CASES + 3);
    const long = parseJunit(
      `<testcase name="t"><failure message="m">${'x'.repeat(MAX_TEXT_CHARACTERS * 2)}</failure></testcase>`,
    );
    assert.equal(long.cases[0].details?.length, MAX_TEXT_CHARACTERS);
  });

  it('attribute values may hold ">" and either quote; comments and CDATA are handled', () => {
    const report = parseJunit(
      `<testcase name='a > b' classname="x"><!-- <failure> --><error message="e"><![CDATA[raw <text> &amp;]]></error></testcase>`,
    );
    assert.equal(report.cases[0].name, 'a > b');
    assert.equal(report.cases[0].outcome, 'error');
    assert.equal(report.cases[0].details, 'raw <text> &amp;');
  });

  it('is linear on hostile reports', function () {
    this.timeout(60_000);
    assertLinear('unclosed tags', (size) => parseJunit('<a '.repeat(size)), 20_000);
    assertLinear('one long attribute name', (size) => parseJunit(`<testcase ${'a'.repeat(size)}>`), 5_000);
    assertLinear('unterminated quotes', (size) => parseJunit(`<testcase name="${'<'.repeat(size)}`), 50_000);
    assertLinear(
      'deep suites',
      (size) => parseJunit('<testsuite name="s">'.repeat(size) + '<testcase name="t"/>'.repeat(size)),
      5_000,
    );
    assertLinear(
      'entities',
      (size) => parseJunit(`<testcase name="t"><failure>${'&amp;&#10;&&'.repeat(size)}</failure></testcase>`),
      20_000,
    );
    assertLinear('comments', (size) => parseJunit('<!--'.repeat(size)), 50_000);
    assertLinear(
      'frames of a long failure',
      (size) => {
        const [testCase] = parseJunit(
          `<testcase name="t" file="a.py"><failure>${'a.py:1: x\n'.repeat(size)}${' ('.repeat(size)}:</failure></testcase>`,
        ).cases;
        caseFacts('pytest', testCase, '/w', '/w');
        caseFacts('node --test', testCase, '/w', '/w');
      },
      1_000,
    );
    assertLinear(
      'TAP comments and the running test',
      (size) => {
        const tail = '# x\nok 1 - y\n'.repeat(size) + 'a::b'.repeat(size);
        tapComments(tail);
        runningTest({ ...pytestPlan }, tail);
      },
      5_000,
    );
  });
});

describe('test tool: facts of a failure', () => {
  it("pytest: the node id with its class, the failing line in the test's own file, the rewritten comparison", () => {
    const [, failed] = parseJunit(PYTEST_REPORT).cases;
    const facts = caseFacts('pytest', failed, '/w/py', '/w');
    assert.equal(facts.id, 'py/tests/test_c.py::TestBox::test_helper');
    assert.equal(
      facts.debugName,
      'tests/test_c.py::TestBox::test_helper',
      "from pytest's root, as debug launch test runs it",
    );
    assert.deepEqual(facts.location, { file: 'py/tests/test_c.py', line: 6, where: undefined });
    assert.equal(facts.sourceLine, 'check(6)');
    assert.equal(facts.message, 'assert 6 == 7');
    assert.deepEqual(
      facts.frames.map((frame) => `${frame.file}:${frame.line}`),
      ['py/tests/test_c.py:6', 'py/tests/helpers.py:2'],
    );
  });

  it("Node: the cause's stack in the test file (not node: or node_modules), expected and actual", () => {
    const [, failed] = parseJunit(NODE_REPORT).cases;
    const facts = caseFacts('node --test', failed, '/w/node', '/w');
    assert.equal(facts.id, 'group > inner deep');
    assert.equal(facts.debugName, 'inner deep');
    assert.deepEqual(facts.location, { file: 'node/a.test.js', line: 9, where: 'TestContext.<anonymous>' });
    assert.equal(facts.expected, '{ a: 2 }');
    assert.equal(facts.actual, '{ a: 1 }');
    assert.deepEqual(
      facts.frames.map((frame) => frame.file),
      ['node/a.test.js'],
      "the runner's and node_modules' frames are left out; the same frame once",
    );
  });
});

describe('test tool: answers', () => {
  it('counts first, then each failure with its place, message, output and next step', () => {
    const answer = testAnswer({
      plan: pytestPlan,
      outcome: outcome({ report: parseJunit(PYTEST_REPORT) }),
      idleSeconds: 60,
      timeoutSeconds: 600,
    });
    assert.equal(
      answer,
      [
        'pytest: 1 passed, 1 failed, 1 skipped, 0 errors (3 tests, 1.3 s).',
        'Command: /usr/bin/python3 -m pytest tests/test_c.py (in /w/py)',
        '',
        'FAILED py/tests/test_c.py::TestBox::test_helper — py/tests/test_c.py:6',
        '  line: check(6)',
        '  pytest: assert 6 == 7',
        "  the test's own frames: py/tests/test_c.py:6, py/tests/helpers.py:2 (AssertionError)",
        '  output:',
        '  printed by the test',
        '  next: debug with test: tests/test_c.py::TestBox::test_helper (debug launch, program: py/tests/test_c.py)',
      ].join('\n'),
    );
  });

  it('words failures past the first ten by name only', () => {
    const cases = Array.from(
      { length: 14 },
      (_, index) =>
        `<testcase classname="t" name="test_${index}" file="t.py"><failure message="m">t.py:1: E</failure></testcase>`,
    );
    const answer = testAnswer({
      plan: pytestPlan,
      outcome: outcome({ report: parseJunit(`<testsuites>${cases.join('')}</testsuites>`) }),
      idleSeconds: 60,
      timeoutSeconds: 600,
    });
    assert.equal(answer.match(/^FAILED /gm)?.length, FAILURES_IN_FULL);
    assert.match(
      answer,
      /Also failed: py\/t\.py::test_10, py\/t\.py::test_11, py\/t\.py::test_12, py\/t\.py::test_13\./,
    );
    assert.equal(failuresOf(pytestPlan, parseJunit(`<testsuites>${cases.join('')}</testsuites>`).cases).length, 14);
  });

  it('says no test matched, and what was selected', () => {
    const answer = testAnswer({
      plan: { ...pytestPlan, tests: ['py/tests/test_c.py::nope'] },
      outcome: outcome({
        exitCode: 4,
        report: parseJunit('<testsuites><testsuite name="pytest" tests="0"/></testsuites>'),
      }),
      idleSeconds: 60,
      timeoutSeconds: 600,
    });
    assert.match(answer, /^No test matched: selected files tests\/test_c\.py; tests py\/tests\/test_c\.py::nope\.\n/);
  });

  it('a hung run names the test pytest -v said was running; Node names the last one that finished', () => {
    const hung = testAnswer({
      plan: pytestPlan,
      outcome: outcome({
        stoppedBecause: 'hung',
        outputTail: 'tests/test_c.py::test_a PASSED\ntests/test_c.py::test_b ',
      }),
      idleSeconds: 5,
      timeoutSeconds: 600,
    });
    assert.match(
      hung,
      /^Hung: no output for 5 s, so the run was ended \(its process group killed\) after 1\.3 s\.\nRunning when ended: py\/tests\/test_c\.py::test_b\./,
    );
    assert.match(
      hung,
      /Next: debug with test: tests\/test_c\.py::test_b \(debug launch, program: py\/tests\/test_c\.py\) —/,
    );
    assert.match(
      runningTest({ ...pytestPlan, runner: 'node --test' }, 'ok 1 - first\n  not ok 2 - second\n# x'),
      /the last one that finished: second\./,
    );
  });

  it('caps output by lines and says how much there was', () => {
    const text = Array.from({ length: 50 }, (_, index) => `line ${index}`).join('\n');
    const section = outputSection('output', text, text.length, 5);
    assert.equal(
      section,
      `output (last 5 lines; ${text.length} characters in all):\nline 45\nline 46\nline 47\nline 48\nline 49`,
    );
    assert.match(outputSection('output', 'x'.repeat(1000), 1000, 5), /x{300}… \(1000 characters\)$/);
    assert.equal(tapComments('# printed\n# Subtest: a\nok 1 - a\n# tests 1\n# pass 1'), 'printed');
  });
});

describe('test tool: plans', () => {
  const workspaceFolder = path.join(repoRoot(), 'test', 'fixtures', 'ts-project');
  const resolve = (command: string) => `/usr/bin/${command}`;
  const plan = (files: string[], tests: string[] = []) =>
    planTests(
      { files: files.map((file) => path.join(workspaceFolder, file)), tests, workspaceFolder },
      '/tmp/report-dir',
      { resolve },
    );

  it('pytest from its root: the report in our folder, names as -k, node ids as given', () => {
    const run = plan(
      ['testtool/py/test_prices.py'],
      ['test_total_of_two', 'testtool/py/test_hang.py::test_finishes_first'],
    );
    assert.equal(run.runner, 'pytest');
    assert.equal(run.root, path.join(workspaceFolder, 'testtool', 'py'));
    assert.deepEqual(run.args, [
      '-m',
      'pytest',
      '-v',
      '--color=no',
      '--junitxml=/tmp/report-dir/report.xml',
      '-o',
      'junit_family=xunit1',
      '-o',
      'junit_logging=out-err',
      '-k',
      'test_total_of_two',
      'test_prices.py',
      'test_hang.py::test_finishes_first',
    ]);
    assert.deepEqual(run.env, { PYTHONUNBUFFERED: '1' });
  });

  it("Node's runner: the junit report to our file, TAP to stdout, names escaped as patterns", () => {
    const run = plan(['testtool/node/cart.test.js'], ['counts (the) shipping']);
    assert.equal(run.runner, 'node --test');
    assert.deepEqual(run.args, [
      '--test',
      '--test-reporter=junit',
      '--test-reporter-destination=/tmp/report-dir/report.xml',
      '--test-reporter=tap',
      '--test-reporter-destination=stdout',
      '--test-name-pattern=counts \\(the\\) shipping',
      'cart.test.js',
    ]);
  });

  it('refuses a name read as an option, mixed runners, and runners not supported yet', () => {
    assert.throws(() => plan(['testtool/py/test_prices.py'], ['--collect-only']), TestRefusal);
    assert.throws(() => plan(['testtool/py/test_prices.py', 'testtool/node/cart.test.js']), /different runners/);
    assert.throws(() => plan(['debug/go/main_test.go']), /go test, which the test tool does not run yet/);
    assert.throws(() => plan(['notes.txt']), /No test runner is known for notes\.txt/);
  });
});
