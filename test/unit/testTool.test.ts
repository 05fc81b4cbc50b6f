/**
 * The `test` tool's engine on plain Node: JUnit reports as pytest (xunit1) and Node's runner write
 * them, go test's and cargo/libtest's JSON as captured from the real tools (test/fixtures/test-streams/),
 * the facts read from a failure, the answer's wording and caps, the plan's command lines, and linear
 * time on hostile reports.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  failuresOf,
  FAILURES_IN_FULL,
  outputSection,
  runningTest,
  tapComments,
  testAnswer,
} from '../../src/testing/answers';
import { CargoBuildStream, LibtestStream } from '../../src/testing/cargoTestJson';
import { caseFacts } from '../../src/testing/failureFacts';
import { GoTestLocator, GoTestStream, MAX_LINE_CHARACTERS } from '../../src/testing/goTestJson';
import { goTestLocator } from '../../src/testing/goTestFiles';
import { MAX_CASES, MAX_TEXT_CHARACTERS, parseJunit } from '../../src/testing/junitReport';
import { TestOutcome } from '../../src/testing/runTests';
import { commandLineOf, planTests, TestPlan } from '../../src/testing/testPlan';
import { TestRefusal } from '../../src/testing/testingErrors';
import { assertLinear } from './support/growth';
import { repoRoot } from '../support/repoRoot';
import { withTempDir } from '../support/tempDir';

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
  report: 'junit',
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
        runningTest({ ...pytestPlan }, { outputTail: tail });
      },
      // Large enough that the small run takes milliseconds: at 5,000 (0.5 ms) one pause read as ×30 in CI.
      20_000,
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
      runningTest({ ...pytestPlan, runner: 'node --test' }, { outputTail: 'ok 1 - first\n  not ok 2 - second\n# x' }),
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

  it('refuses a name read as an option, mixed runners, and a file no runner takes', () => {
    assert.throws(() => plan(['testtool/py/test_prices.py'], ['--collect-only']), TestRefusal);
    assert.throws(() => plan(['testtool/py/test_prices.py', 'testtool/node/cart.test.js']), /different runners/);
    assert.throws(() => plan(['notes.txt']), /No test runner is known for notes\.txt/);
  });
});

const STREAMS = path.join(repoRoot(), 'test', 'fixtures', 'test-streams');
const captured = (name: string) => fs.readFileSync(path.join(STREAMS, name), 'utf8');
/** A text in chunks of `size` characters, as a pipe hands it over (lines split anywhere). */
const chunks = (text: string, size: number) =>
  Array.from({ length: Math.ceil(text.length / size) }, (_, index) => text.slice(index * size, (index + 1) * size));
const noLocation: GoTestLocator = () => undefined;

const goPlan: TestPlan = {
  ...pytestPlan,
  runner: 'go test',
  report: 'go-json',
  root: '/tmp/gocap',
  workspaceFolder: '/tmp',
  command: '/usr/bin/go',
  args: ['test', '-json', './...'],
  env: {},
  files: [],
};

describe('test tool: go test -json', () => {
  const readGo = (text: string, size = 97, locate: GoTestLocator = noLocation) => {
    const stream = new GoTestStream();
    const shown = chunks(text, size)
      .map((chunk) => stream.stdout(chunk))
      .join('');
    return { stream, shown, result: stream.finish(locate) };
  };

  it('reads the events in any chunking: subtests as TestX/sub, a parent with subtests not a case of its own', () => {
    for (const size of [1, 13, 4096]) {
      const { result, shown } = readGo(captured('go-test.jsonl'), size);
      assert.deepEqual(
        result.report.cases.map((testCase) => [testCase.name, testCase.outcome]),
        [
          ['TestTotal', 'passed'],
          ['TestDiscount/none', 'passed'],
          ['TestDiscount/tenth', 'failed'],
          ['TestPanics', 'failed'],
        ],
      );
      assert.deepEqual(result.report.counts, { passed: 2, failed: 2, error: 0, skipped: 0 });
      assert.match(shown, /^=== RUN {3}TestTotal\n/, "what a person would see: the events' output text");
    }
  });

  it("a failing subtest's place is its t.Errorf line in the test file (not the t.Log before it), its message", () => {
    const { result } = readGo(captured('go-test.jsonl'), 97, (pkg, name) =>
      pkg === 'shop' && name === 'TestDiscount' ? { file: 'shop_test.go', line: 11 } : undefined,
    );
    const failed = result.report.cases.find((testCase) => testCase.name === 'TestDiscount/tenth');
    assert.ok(failed);
    assert.equal(failed.file, 'shop_test.go');
    assert.doesNotMatch(failed.output ?? '', /=== RUN|--- FAIL/, "go test's framing is left out");
    const facts = caseFacts('go test', failed, '/tmp/gocap', '/tmp');
    assert.deepEqual(facts.location, { file: 'gocap/shop_test.go', line: 21 });
    assert.equal(facts.message, 'Total = 30, want 27');
    assert.equal(facts.id, 'TestDiscount/tenth');
    assert.equal(facts.debugName, 'TestDiscount/tenth', 'the name debug launch test selects with -test.run');
  });

  it("a panic: the test's own frame from the goroutine trace, not runtime's or testing's", () => {
    const { result } = readGo(captured('go-test.jsonl'));
    const panicked = result.report.cases.find((testCase) => testCase.name === 'TestPanics');
    assert.ok(panicked);
    const facts = caseFacts('go test', panicked, '/tmp/gocap', '/tmp');
    assert.deepEqual(facts.location, { file: 'gocap/shop_test.go', line: 28, where: 'shop.TestPanics' });
    assert.equal(facts.message, 'panic: runtime error: index out of range [3] with length 0');
    assert.deepEqual(
      facts.frames.map((frame) => frame.where),
      ['shop.TestPanics'],
    );
  });

  it('a build failure: the package and the compiler lines from stderr, answered as such (not as no test matched)', () => {
    const stream = new GoTestStream();
    stream.stdout(captured('go-build-failed.stdout'));
    stream.stderr(captured('go-build-failed.stderr'));
    const result = stream.finish(noLocation);
    assert.deepEqual(result.buildFailure?.packages, ['shop']);
    assert.match(result.buildFailure?.lines.join('\n') ?? '', /\.\/shop\.go:7:3: invalid operation/);
    const answer = testAnswer({
      plan: goPlan,
      outcome: outcome({
        exitCode: 2,
        report: result.report,
        buildFailure: { what: 'package shop', lines: result.buildFailure?.lines ?? [] },
      }),
      idleSeconds: 60,
      timeoutSeconds: 600,
    });
    assert.match(
      answer,
      /^go test: the tests did not build \(package shop, exit code 2\); no test ran\. The compiler says:\n/,
    );
    assert.match(answer, /\.\/shop\.go:9:9: cannot use sum/);
    assert.doesNotMatch(answer, /No test matched/);
  });

  it("newer Go's build-output events are the compiler's lines too", () => {
    const stream = new GoTestStream();
    stream.stdout(
      [
        '{"ImportPath":"shop [shop.test]","Action":"build-output","Output":"# shop [shop.test]\\n"}',
        '{"ImportPath":"shop [shop.test]","Action":"build-output","Output":"./shop.go:7:3: invalid operation\\n"}',
        '{"ImportPath":"shop [shop.test]","Action":"build-fail"}',
        '{"Action":"start","Package":"shop"}',
        '{"Action":"output","Package":"shop","Output":"FAIL\\tshop [build failed]\\n"}',
        '{"Action":"fail","Package":"shop","Elapsed":0,"FailedBuild":"shop [shop.test]"}',
        '',
      ].join('\n'),
    );
    const result = stream.finish(noLocation);
    assert.deepEqual(result.buildFailure?.lines, ['# shop [shop.test]', './shop.go:7:3: invalid operation']);
  });

  it('the running test: the last one started without an end (a hung run names it)', () => {
    const stream = new GoTestStream();
    const lines = captured('go-test.jsonl').split('\n');
    const upTo = lines.findIndex((line) => line.includes('"Output":"    shop_test.go:18'));
    stream.stdout(lines.slice(0, upTo + 1).join('\n') + '\n');
    assert.deepEqual(stream.running(), { name: 'TestDiscount/tenth', packagePath: 'shop' });
    const hung = testAnswer({
      plan: goPlan,
      outcome: outcome({
        stoppedBecause: 'hung',
        running: { name: 'TestDiscount/tenth', file: 'shop_test.go' },
      }),
      idleSeconds: 5,
      timeoutSeconds: 600,
    });
    assert.match(hung, /Running when ended: TestDiscount\/tenth\./);
    assert.match(hung, /Next: debug with test: TestDiscount\/tenth \(debug launch, program: gocap\/shop_test\.go\)/);
  });

  it('caps: a line past the line cap is skipped, cases past MAX_CASES counted, output cut', () => {
    const long = `{"Action":"output","Package":"p","Test":"TestA","Output":"${'x'.repeat(MAX_LINE_CHARACTERS)}"}`;
    const many = Array.from(
      { length: MAX_CASES + 3 },
      (_, index) =>
        `{"Action":"run","Package":"p","Test":"T${index}"}\n{"Action":"pass","Package":"p","Test":"T${index}"}`,
    );
    const noisy = Array.from(
      { length: 2000 },
      () => `{"Action":"output","Package":"p","Test":"TestA","Output":"${'y'.repeat(100)}\\n"}`,
    );
    const { result } = readGo(
      [
        '{"Action":"run","Package":"p","Test":"TestA"}',
        long,
        ...noisy,
        '{"Action":"fail","Package":"p","Test":"TestA"}',
        ...many,
        '',
      ].join('\n'),
      65_536,
    );
    assert.equal(result.report.cases.length, MAX_CASES);
    assert.equal(result.report.casesLeftOut, 4);
    assert.equal(result.report.counts.passed, MAX_CASES + 3);
    assert.equal(result.report.cases[0].output?.length, MAX_TEXT_CHARACTERS);
    assert.match(result.leftOut ?? '', /1 lines over 1000000 characters/);
  });

  it('finds a test function in its package folder through go.mod (the fixture module)', () => {
    const root = path.join(repoRoot(), 'test', 'fixtures', 'ts-project', 'testtool', 'go');
    const locate = goTestLocator(root);
    const source = fs.readFileSync(path.join(root, 'shop_test.go'), 'utf8').split('\n');
    assert.deepEqual(locate('testtoolgo', 'TestDiscount'), {
      file: 'shop_test.go',
      line: source.indexOf('func TestDiscount(t *testing.T) {') + 1,
    });
    assert.equal(locate('testtoolgo', 'TestNothing'), undefined);
    assert.equal(locate('elsewhere', 'TestTotal'), undefined);
  });

  it('is linear on hostile streams', function () {
    this.timeout(60_000);
    assertLinear('lines without newlines', (size) => readGo('{'.repeat(size), 4096), 200_000);
    assertLinear(
      'many subtests of one parent',
      (size) =>
        readGo(
          Array.from({ length: size }, (_, index) => `{"Action":"run","Package":"p","Test":"T/${index}"}`).join('\n'),
          4096,
        ),
      // Milliseconds at the small size: at 500 (0.4 ms) one pause read as ×30 in CI.
      4_000,
    );
  });
});

describe('test tool: cargo test and libtest JSON', () => {
  const readLibtest = (text: string, size = 101) => {
    const stream = new LibtestStream();
    stream.begin('lib prices', 'src/lib.rs');
    for (const chunk of chunks(text, size)) stream.stdout(chunk);
    stream.end();
    return stream.report();
  };

  it('an executable that crashes is never a clean run: the test it was running, or its failed exit, is an error', () => {
    const stream = new LibtestStream();
    stream.begin('lib p', 'src/lib.rs');
    stream.stdout('{ "type": "test", "event": "started", "name": "a::dies" }\n');
    stream.exited(null);
    stream.begin('test other', 'tests/other.rs');
    stream.stdout(
      '{ "type": "test", "event": "started", "name": "b::fine" }\n{ "type": "test", "name": "b::fine", "event": "ok" }\n',
    );
    stream.exited(3);
    stream.begin('test clean', 'tests/clean.rs');
    stream.exited(0);
    const report = stream.report();
    assert.deepEqual(report.counts, { passed: 1, failed: 0, error: 2, skipped: 0 });
    const errors = report.cases.filter((testCase) => testCase.outcome === 'error');
    assert.deepEqual(
      errors.map((testCase) => [testCase.name, testCase.file, testCase.message]),
      [
        [
          'a::dies',
          'src/lib.rs',
          'the test executable was killed by a signal while this test ran (it crashed the process)',
        ],
        [
          'test other',
          'tests/other.rs',
          'the test executable exited with code 3, and none of its tests failed: see its output',
        ],
      ],
    );
  });

  it("the build's test executables, with their target's file and package folder", () => {
    const build = new CargoBuildStream();
    for (const chunk of chunks(captured('cargo-build.jsonl'), 50)) build.stdout(chunk);
    const listed = build.finish();
    assert.equal(listed.success, true);
    assert.deepEqual(
      listed.executables.map(({ sourceFile, packageDir, target }) => ({ sourceFile, packageDir, target })),
      [{ sourceFile: '/tmp/cargocap/src/lib.rs', packageDir: '/tmp/cargocap', target: 'lib prices' }],
      'the library built as a library (profile.test false) is no test executable',
    );
  });

  it("a build that failed: rustc's rendered errors, each once", () => {
    const build = new CargoBuildStream();
    build.stdout(captured('cargo-build-failed.jsonl'));
    const listed = build.finish();
    assert.equal(listed.success, false);
    assert.equal(listed.errors.length, 2);
    assert.match(listed.errors[0], /^error\[E0277\]: a value of type `String` cannot be made by summing/);
    assert.match(listed.errors[1], /^error\[E0369\]: cannot multiply `String` by `u32`\n --> src\/lib\.rs:4:15/);
  });

  for (const [version, file] of [
    ['1.95', 'libtest-1.95.jsonl'],
    ['1.63', 'libtest-1.63.jsonl'],
  ] as const)
    it(`Rust ${version}: outcomes, and the failing assert_eq!'s place, left and right`, () => {
      const report = readLibtest(captured(file));
      assert.deepEqual(
        report.cases.map((testCase) => [testCase.name, testCase.outcome]),
        [
          ['tests::ignored_on_purpose', 'skipped'],
          ['tests::adds_up', 'passed'],
          ['tests::takes_the_discount', 'failed'],
        ],
      );
      const failed = report.cases[2];
      const facts = caseFacts('cargo test', failed, '/tmp/cargocap', '/tmp');
      assert.deepEqual(
        { location: facts.location, expected: facts.expected, actual: facts.actual },
        { location: { file: 'cargocap/src/lib.rs', line: 19 }, expected: '28', actual: '27' },
      );
      assert.match(facts.message ?? '', /left == right/);
      assert.equal(facts.debugName, 'tests::takes_the_discount');
      assert.equal(facts.file, 'cargocap/src/lib.rs');
      assert.equal(failed.output, 'checking the discount', 'what the test printed, its panic apart');
      assert.match(failed.details ?? '', /^thread 'tests::takes_the_discount' .*panicked at/);
      if (version === '1.63')
        assert.deepEqual(
          facts.frames.map((frame) => `${frame.file}:${frame.line}`),
          ['cargocap/src/lib.rs:19', 'cargocap/src/lib.rs:17'],
          "the backtrace's frames in the crate, not Rust's library",
        );
    });

  it('the tests started and not ended name the running test; caps on cases and output', () => {
    const stream = new LibtestStream();
    stream.begin('lib p', 'src/lib.rs');
    stream.stdout(
      '{ "type": "test", "event": "started", "name": "a::slow" }\n{ "type": "test", "event": "started", "name": "a::quick" }\n',
    );
    stream.stdout('{ "type": "test", "name": "a::quick", "event": "ok" }\n');
    assert.deepEqual(stream.running(), ['a::slow']);
    const many = Array.from(
      { length: MAX_CASES + 2 },
      (_, index) => `{ "type": "test", "name": "t${index}", "event": "ok" }`,
    );
    const big = `{ "type": "test", "name": "big", "event": "failed", "stdout": "${'z'.repeat(MAX_TEXT_CHARACTERS * 2)}" }`;
    const report = readLibtest([big, ...many, ''].join('\n'), 65_536);
    assert.equal(report.cases.length, MAX_CASES);
    assert.equal(report.casesLeftOut, 3);
    assert.equal(report.cases[0].output?.length, MAX_TEXT_CHARACTERS);
  });

  it('the plan: cargo builds with the editor environment, each executable runs with RUSTC_BOOTSTRAP and the filters', () => {
    const workspaceFolder = path.join(repoRoot(), 'test', 'fixtures', 'ts-project');
    const run = planTests(
      {
        files: [path.join(workspaceFolder, 'testtool/cargo/src/lib.rs')],
        tests: ['tests::adds_up'],
        workspaceFolder,
      },
      '/tmp/report-dir',
      { resolve: (command) => `/usr/bin/${command}` },
    );
    assert.equal(run.runner, 'cargo test');
    assert.equal(run.root, path.join(workspaceFolder, 'testtool', 'cargo'));
    assert.deepEqual(run.args, ['test', '--no-run', '--message-format=json', '--lib']);
    assert.deepEqual(run.env, {});
    assert.deepEqual(run.eachExecutable, {
      args: ['--format', 'json', '-Z', 'unstable-options', 'tests::adds_up', '--exact'],
      env: { RUSTC_BOOTSTRAP: '1' },
    });
    assert.equal(
      commandLineOf(run),
      '/usr/bin/cargo test --no-run --message-format=json --lib, then RUSTC_BOOTSTRAP=1 <each test executable> --format json -Z unstable-options tests::adds_up --exact',
    );
  });

  it('the plan: go test -json from the module root, the files as their package, tests as an anchored -run', () => {
    const workspaceFolder = path.join(repoRoot(), 'test', 'fixtures', 'ts-project');
    const plan = (tests: string[]) =>
      planTests(
        { files: [path.join(workspaceFolder, 'testtool/go/shop_test.go')], tests, workspaceFolder },
        '/tmp/report-dir',
        { resolve: (command) => `/usr/bin/${command}` },
      );
    const run = plan(['TestDiscount/tenth']);
    assert.equal(run.runner, 'go test');
    assert.equal(run.root, path.join(workspaceFolder, 'testtool', 'go'));
    assert.deepEqual(run.args, ['test', '-json', '-run=^TestDiscount$/^tenth$', '.']);
    assert.deepEqual(plan(['TestTotal', 'TestDiscount/none']).args, [
      'test',
      '-json',
      '-run=^TestTotal$|^TestDiscount$/^none$',
      '.',
    ]);
    assert.deepEqual(
      planTests({ files: [], tests: [], workspaceFolder: path.join(workspaceFolder, 'testtool', 'go') }, '/tmp/r', {
        resolve: (command) => `/usr/bin/${command}`,
      }).args,
      ['test', '-json', './...'],
    );
  });

  it("several Go subtests of different tests run exactly those: real go test with the tool's -run", async function () {
    this.timeout(60_000);
    await withTempDir('testtool-go-run', async (module) => {
      fs.writeFileSync(path.join(module, 'go.mod'), 'module pick\n\ngo 1.19\n');
      const sub = (name: string) => `t.Run("${name}", func(t *testing.T) {})`;
      fs.writeFileSync(
        path.join(module, 'pick_test.go'),
        `package pick\n\nimport "testing"\n\nfunc TestA(t *testing.T) { ${sub('x')}; ${sub('y')} }\n\nfunc TestB(t *testing.T) { ${sub('x')}; ${sub('y')} }\n`,
      );
      const run = planTests({ files: [], tests: ['TestA/x', 'TestB/y'], workspaceFolder: module }, '/tmp/r', {
        resolve: (command) => command,
      });
      assert.deepEqual(run.args, ['test', '-json', '-run=^TestA$/^x$|^TestB$/^y$', './...']);
      const events = execFileSync('go', run.args, { cwd: module, encoding: 'utf8' })
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { Action: string; Test?: string });
      const ran = events
        .filter((event) => event.Action === 'pass' && event.Test?.includes('/'))
        .map((event) => event.Test);
      assert.deepEqual(ran.sort(), ['TestA/x', 'TestB/y']);
    });
  });

  it('answers note that doc tests were not run', () => {
    const report = readLibtest(captured('libtest-1.95.jsonl'));
    const answer = testAnswer({
      plan: { ...goPlan, runner: 'cargo test', report: 'cargo-json', root: '/tmp/cargocap' },
      outcome: outcome({ report, notes: ['Doc tests were not run (cargo test --doc runs them).'] }),
      idleSeconds: 60,
      timeoutSeconds: 600,
    });
    assert.match(answer, /^cargo test: 1 passed, 1 failed, 1 skipped, 0 errors/);
    assert.match(
      answer,
      /FAILED tests::takes_the_discount — cargocap\/src\/lib\.rs:19\n\s+expected: 28\n\s+actual: 27/,
    );
    assert.match(
      answer,
      /next: debug with test: tests::takes_the_discount \(debug launch, program: cargocap\/src\/lib\.rs\)/,
    );
    assert.match(answer, /Doc tests were not run/);
  });
});
