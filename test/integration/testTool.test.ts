/**
 * The `test` tool in the real editor: pytest (Debian's python3-pytest) and Node's own runner on the
 * fixtures of test/fixtures/ts-project/testtool/, answered from their JUnit reports; mocha (this
 * repository's, linked into the fixture's node_modules) from its JSON report; go test (-json) and cargo
 * test (its build's JSON, then libtest's) with the `go` and `cargo` first on PATH; a hung run ended and
 * named with no process left; each run's results in our Test Explorer controller; coverage runs
 * (coverage.py from Debian's python3-coverage, Node's own) answered and shown in the editor.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { processesMatching } from '../support/processes';
import { browser, hasBrowser } from './support/browser';
import { activateExtension, invokeText, lineOf, waitUntilAsync, workspaceRoot } from './support/tools';

interface ExplorerState {
  items: Array<{ id: string; label: string; children: string[] }>;
  runs: Array<{
    name: string;
    results: Array<{
      id: string;
      state: string;
      durationMs?: number;
      message?: string;
      location?: { file: string; line: number };
    }>;
    coverage?: Array<{ file: string; covered: number; total: number; linesRun: number[]; linesNotRun: number[] }>;
  }>;
  coverageDetailsLoaded: string[];
}

const explorerState = () => vscode.commands.executeCommand<ExplorerState>('liveTools.testExplorerState');
const lastRun = async () => (await explorerState()).runs.at(-1);

/**
 * Runs the tests of `file`, launches the answer's "debug with test" step as a model would take it,
 * and checks what the launch answered (with the test it names); the session is ended after.
 */
async function launchNextStep(file: string, check: (launched: string, test: string) => Promise<void>): Promise<void> {
  const answer = await invokeText('test', { files: [file] });
  const step = /next: debug with test: (.+) \(debug launch, program: (\S+)\)/.exec(answer);
  assert.ok(step, answer);
  try {
    const launched = await invokeText('debug', { op: 'launch', test: step[1], program: step[2], timeout_seconds: 120 });
    await check(launched, step[1]);
  } finally {
    await invokeText('debug', { op: 'terminate' });
  }
}

describe('test tool', function () {
  this.timeout(120_000);

  before(() => {
    // The project's own venv, as a project has one: Debian's python3-pytest and debugpy through --system-site-packages.
    const venv = path.join(workspaceRoot(), 'testtool', 'py', '.venv');
    if (!fs.existsSync(path.join(venv, 'bin', 'python')))
      execFileSync('/usr/bin/python3', ['-m', 'venv', '--system-site-packages', venv]);
    // The mocha project's own mocha, where npm install puts it (node_modules/mocha, its bin linked in .bin).
    const modules = path.join(workspaceRoot(), 'testtool', 'mocha', 'node_modules');
    fs.mkdirSync(path.join(modules, '.bin'), { recursive: true });
    if (!fs.existsSync(path.join(modules, 'mocha')))
      fs.symlinkSync(path.dirname(require.resolve('mocha/package.json')), path.join(modules, 'mocha'));
    if (!fs.existsSync(path.join(modules, '.bin', 'mocha')))
      fs.symlinkSync('../mocha/bin/mocha.js', path.join(modules, '.bin', 'mocha'));
  });

  it('pytest: counts, then the failure with the assertion line, the rewritten comparison and the next step', async () => {
    const answer = await invokeText('test', { files: ['testtool/py/test_prices.py'] });
    assert.match(answer, /^pytest: 1 passed, 1 failed, 1 skipped, 0 errors \(3 tests/);
    assert.match(
      answer,
      /testtool\/py\/\.venv\/bin\/python3 -m pytest .*-o junit_family=xunit1/,
      "the command line is shown, the project's Python first",
    );
    const line = lineOf('testtool/py/test_prices.py', 'assert discounted == 27');
    assert.ok(
      answer.includes(
        `FAILED testtool/py/test_prices.py::test_total_with_discount — testtool/py/test_prices.py:${line}`,
      ),
      answer,
    );
    assert.match(answer, /line: assert discounted == 27/);
    assert.match(answer, /pytest: assert 30 == 27/, 'actual 30 and expected 27 as pytest rewrites them');
    assert.match(answer, /output:\n\s+checking the discount/);
    assert.match(
      answer,
      /next: debug with test: test_prices\.py::test_total_with_discount \(debug launch, program: testtool\/py\/test_prices\.py\)/,
    );
    assert.doesNotMatch(answer, /\x1b\[/, 'no colored text');
    assert.doesNotMatch(answer, /test_total_of_two/, 'a passing test is only counted');

    const run = await lastRun();
    assert.ok(run, 'a run is in Test Explorer');
    const states = Object.fromEntries(run.results.map((result) => [result.id, result.state]));
    assert.deepEqual(states, {
      'testtool/py/test_prices.py::test_total_of_two': 'passed',
      'testtool/py/test_prices.py::test_total_with_discount': 'failed',
      'testtool/py/test_prices.py::test_skipped_on_purpose': 'skipped',
    });
    const failed = run.results.find((result) => result.state === 'failed');
    assert.equal(failed?.location?.line, line);
    assert.match(failed?.location?.file ?? '', /testtool\/py\/test_prices\.py$/);
    assert.match(failed?.message ?? '', /assert 30 == 27/);
    const file = (await explorerState()).items.find((item) => item.id === 'testtool/py/test_prices.py');
    assert.ok(file?.children.includes('testtool/py/test_prices.py::test_total_of_two'), JSON.stringify(file));
  });

  it('the human sees the run in the Testing view: the file marked failed', async function () {
    if (!hasBrowser()) this.skip();
    await invokeText('test', { files: ['testtool/py/test_prices.py'] });
    await vscode.commands.executeCommand('workbench.view.testing.focus');
    const row = '.test-explorer .monaco-list-row[aria-label*="test_prices.py"][aria-label*="(Failed)"]';
    await waitUntilAsync('the failed file in the Testing view', async () =>
      ((await browser({ op: 'count', selector: row })).count ?? 0) > 0 ? true : undefined,
    );
  });

  it("pytest: the answer's next step is a launch debug takes: the failing test runs under the debugger (exit code 1, not 4 = none found)", async () => {
    await launchNextStep('testtool/py/test_prices.py', async (launched) => {
      assert.doesNotMatch(launched, /^(Error|Refused)/, launched);
      // Without breakpoints the test runs through: pytest's exit code 1 is a test that failed (4 would be none found).
      const ended = launched.includes('exit code')
        ? launched
        : await invokeText('debug', { op: 'continue', timeout_seconds: 60 });
      assert.match(ended, /exit code 1\b/, ended);
    });
  });

  it('pytest: one passing test by node id', async () => {
    const answer = await invokeText('test', { tests: ['testtool/py/test_prices.py::test_total_of_two'] });
    assert.match(answer, /^pytest: 1 passed, 0 failed, 0 skipped, 0 errors \(1 tests/);
    assert.doesNotMatch(answer, /FAILED/);
  });

  it('says when no test matched, and what was selected', async () => {
    const answer = await invokeText('test', { tests: ['testtool/py/test_prices.py::test_nothing_here'] });
    assert.match(answer, /^No test matched: selected tests testtool\/py\/test_prices\.py::test_nothing_here\./);
  });

  it("Node's runner: the failing assertion's expected and actual, at its line", async () => {
    const answer = await invokeText('test', { files: ['testtool/node/cart.test.js'] });
    assert.match(answer, /^node --test: 1 passed, 1 failed, 0 skipped, 0 errors/);
    const line = lineOf('testtool/node/cart.test.js', 'assert.strictEqual(cartTotal([{ price: 2 }]), 7)');
    assert.ok(answer.includes(`FAILED counts the shipping — testtool/node/cart.test.js:${line}`), answer);
    assert.match(answer, /expected: 7\n\s+actual: 2/);
    assert.match(answer, /the test's own frames: testtool\/node\/cart\.test\.js:\d+/);
    assert.doesNotMatch(answer, /node:internal/, "the runner's frames are left out");
    assert.match(answer, /cart output line/);
    assert.match(
      answer,
      /next: debug with test: counts the shipping \(debug launch, program: testtool\/node\/cart\.test\.js\)/,
    );
    const run = await lastRun();
    assert.deepEqual(
      run?.results.map((result) => [result.id, result.state]),
      [
        ['sums the prices', 'passed'],
        ['counts the shipping', 'failed'],
      ],
    );
  });

  it('pytest coverage: the module under test, lines run and not run, in the answer and in the editor', async function () {
    const answer = await invokeText('test', { files: ['testtool/py/test_prices.py'], mode: 'coverage' });
    assert.match(answer, /^pytest: 1 passed, 1 failed, 1 skipped, 0 errors/);
    assert.match(answer, /\.venv\/bin\/python3 -m coverage run --data-file=\S+ --source=\. -m pytest -v/);
    const discount = lineOf('testtool/py/prices.py', 'if percent > 100:');
    assert.ok(
      answer.includes(`- testtool/py/prices.py: 3/6 lines (50%); not run: ${discount}-${discount + 2}`),
      answer,
    );
    assert.match(
      answer,
      /^Coverage \(coverage\.py, lines run\): 3 of 6 lines in 1 files \(50%\); 2 test files listed last\.$/m,
    );
    assert.match(answer, /- testtool\/py\/test_prices\.py \(test file\): 10\/10 lines/);
    assert.match(answer, /The editor shows it: the Testing view's Test Coverage section/);

    const prices = (await lastRun())?.coverage?.find((file) => file.file === 'testtool/py/prices.py');
    assert.deepEqual(prices, {
      file: 'testtool/py/prices.py',
      covered: 3,
      total: 6,
      linesRun: [1, 2, discount - 1],
      linesNotRun: [discount, discount + 1, discount + 2],
    });
    // The editor asks for the file's lines when it shows the file with coverage.
    const file = path.join(workspaceRoot(), 'testtool', 'py', 'prices.py');
    await vscode.window.showTextDocument(vscode.Uri.file(file));
    await waitUntilAsync("the editor loads prices.py's lines", async () =>
      (await explorerState()).coverageDetailsLoaded.includes(file) ? true : undefined,
    );
    if (!hasBrowser()) return;
    // The human sees them: not-run lines marked in the gutter (their line numbers), run lines too.
    const gutter = (kind: string) => browser({ op: 'count', selector: `.monaco-editor .coverage-deco-gutter.${kind}` });
    await waitUntilAsync('the not-run lines of prices.py marked in the gutter', async () =>
      (await gutter('coverage-deco-miss')).count === 3 ? true : undefined,
    );
    assert.equal((await gutter('coverage-deco-hit')).count, 3);
  });

  it("Node's runner coverage: the module the tests import, its branch never taken", async () => {
    const answer = await invokeText('test', { files: ['testtool/node/cart-module.test.js'], mode: 'coverage' });
    assert.match(answer, /^node --test: 1 passed, 0 failed/);
    assert.match(
      answer,
      /--experimental-test-coverage --test-reporter=lcov --test-reporter-destination=\S+coverage\.lcov/,
    );
    const branch = lineOf('testtool/node/cart.js', 'return sum - 10;');
    assert.ok(answer.includes(`- testtool/node/cart.js: 7/9 lines (77.7%); not run: ${branch}-${branch + 1}`), answer);
    const cart = (await lastRun())?.coverage?.find((file) => file.file === 'testtool/node/cart.js');
    assert.deepEqual(cart?.linesNotRun, [branch, branch + 1]);
    assert.equal(cart?.covered, 7);
  });

  it("mocha (package.json's test script): counts, the failing strictEqual at its line, expected and actual, from its JSON report", async () => {
    const answer = await invokeText('test', { files: ['testtool/mocha/cart.spec.js'] });
    assert.match(answer, /^mocha: 1 passed, 1 failed, 0 skipped, 0 errors \(2 tests/);
    assert.match(
      answer,
      /Command: \S*testtool\/mocha\/node_modules\/\.bin\/mocha --no-watch --reporter=json --reporter-option=output=\S+report\.json cart\.spec\.js \(in \S*testtool\/mocha\)/,
      "the project's own mocha, its json reporter to our file",
    );
    const line = lineOf('testtool/mocha/cart.spec.js', 'assert.strictEqual(cartTotal([{ price: 2 }]), 7)');
    assert.ok(answer.includes(`FAILED cart counts the shipping — testtool/mocha/cart.spec.js:${line}`), answer);
    assert.match(answer, /expected: 7\n\s+actual: 2/);
    assert.match(answer, /message: Expected values to be strictly equal:/);
    assert.match(answer, /the test's own frames: testtool\/mocha\/cart\.spec\.js:\d+ \(Context\.<anonymous>\)$/m);
    assert.doesNotMatch(answer, /node:internal|node_modules\/mocha\/lib/, "mocha's and node's frames are left out");
    assert.match(
      answer,
      /next: debug with test: cart counts the shipping \(debug launch, program: testtool\/mocha\/cart\.spec\.js\)/,
    );
    assert.doesNotMatch(answer, /\x1b\[/, 'no colored text');
    const run = await lastRun();
    assert.deepEqual(
      run?.results.map((result) => [result.id, result.state]),
      [
        ['cart sums the prices', 'passed'],
        ['cart counts the shipping', 'failed'],
      ],
    );
    const failed = run?.results.find((result) => result.state === 'failed');
    assert.equal(failed?.location?.line, line);
    assert.match(failed?.location?.file ?? '', /testtool\/mocha\/cart\.spec\.js$/);
    const file = (await explorerState()).items.find((item) => item.id === 'testtool/mocha/cart.spec.js');
    assert.ok(file?.children.includes('cart counts the shipping'), JSON.stringify(file));
  });

  it('mocha: one test selected by its full title (an escaped --grep); a title that matches nothing is said', async () => {
    const answer = await invokeText('test', {
      files: ['testtool/mocha/cart.spec.js'],
      tests: ['cart sums the prices'],
    });
    assert.match(answer, /^mocha: 1 passed, 0 failed, 0 skipped, 0 errors \(1 tests/);
    assert.match(answer, /'--grep=cart sums the prices'/);
    const none = await invokeText('test', { files: ['testtool/mocha/cart.spec.js'], tests: ['cart (no such) test'] });
    assert.match(
      none,
      /^No test matched: selected files cart\.spec\.js; tests cart \(no such\) test\./,
      'mocha ran, its report has no test',
    );
    assert.match(none, /'--grep=cart \\\(no such\\\) test'/);
  });

  it("mocha: the answer's next step is a launch debug takes: under the debugger mocha runs that one test (it fails again)", async () => {
    await launchNextStep('testtool/mocha/cart.spec.js', async (launched, test) => {
      assert.equal(test, 'cart counts the shipping');
      assert.doesNotMatch(launched, /^(Error|Refused)/, launched);
      // js-debug reports no exit code: mocha's own summary says what ran (none would be "0 passing" alone).
      // The launch answers with the output when the program ended at once, else it is read as it comes.
      let last = launched;
      const output = await waitUntilAsync(
        "mocha's summary in the debug output",
        async () => {
          if (!/\b1 failing\b/.test(last)) last = await invokeText('debug', { op: 'output' });
          return /\b1 failing\b/.test(last) ? last : undefined;
        },
        60_000,
      ).catch((error: Error) => assert.fail(`${error.message}\nlaunch: ${launched}\noutput: ${last}`));
      assert.match(output, /\b0 passing\b[\s\S]*\b1 failing\b/, output);
      assert.match(output, /cart counts the shipping/);
      assert.doesNotMatch(output, /sums the prices/, 'only the selected test ran');
    });
  });

  it("mocha: a test file that does not load is answered with mocha's own output", async () => {
    const broken = path.join(workspaceRoot(), 'testtool', 'mocha', 'broken.spec.js');
    fs.writeFileSync(broken, "describe('broken', () => { it('x', () => { ) });\n");
    try {
      const answer = await invokeText('test', { files: ['testtool/mocha/broken.spec.js'] });
      assert.match(answer, /^The runner ended \(exit code 1\) without a test report: the runner wrote no report\./);
      assert.match(answer, /Its output[^\n]*:\n[\s\S]*broken\.spec\.js:1[\s\S]*SyntaxError: Unexpected token '\)'/);
    } finally {
      fs.rmSync(broken, { force: true });
    }
  });

  it('a hung run is ended, the running test named, its processes gone', async () => {
    const started = Date.now();
    const answer = await invokeText('test', { files: ['testtool/py/test_hang.py'], idle_seconds: 3 });
    assert.ok(Date.now() - started < 30_000, 'ended long before the test would finish');
    assert.match(answer, /^Hung: no output for 3 s, so the run was ended/);
    assert.match(answer, /Running when ended: testtool\/py\/test_hang\.py::test_waits_forever\./);
    assert.match(
      answer,
      /Next: debug with test: test_hang\.py::test_waits_forever \(debug launch, program: testtool\/py\/test_hang\.py\)/,
    );
    assert.deepEqual(processesMatching(/pytest.*test_hang\.py/), [], 'the process group was killed');
    const run = await lastRun();
    assert.deepEqual(
      run?.results.find((result) => result.id === 'testtool/py/test_hang.py::test_waits_forever')?.state,
      'errored',
    );
  });

  it('a cancelled run ends at once and leaves no process', async () => {
    const source = new vscode.CancellationTokenSource();
    const pending = invokeText('test', { files: ['testtool/py/test_hang.py'] }, source.token).catch(
      (error: Error) => `rejected: ${error.name}`,
    );
    const started = Date.now();
    setTimeout(() => source.cancel(), 1500);
    const answer = await pending;
    assert.ok(Date.now() - started < 15_000, answer);
    assert.match(answer, /Cancel/);
    await new Promise((resolve) => setTimeout(resolve, 2500));
    assert.deepEqual(processesMatching(/pytest.*test_hang\.py/), []);
  });
});

describe('test tool: go test and cargo test', function () {
  this.timeout(240_000);

  after(() => {
    // cargo's build output stays out of the fixture (it is ignored by git, and removed here).
    const cargo = path.join(workspaceRoot(), 'testtool', 'cargo');
    fs.rmSync(path.join(cargo, 'target'), { recursive: true, force: true });
    fs.rmSync(path.join(cargo, 'Cargo.lock'), { force: true });
  });

  it("go test: counts, the failing subtest at its t.Errorf line in the test file, its message, and Test Explorer's items", async () => {
    const answer = await invokeText('test', { files: ['testtool/go/shop_test.go'] });
    assert.match(answer, /^go test: 2 passed, 1 failed, 0 skipped, 0 errors \(3 tests/, answer);
    assert.match(answer, /Command: \S*go test -json \. \(in \S*testtool\/go\)/, answer);
    const line = lineOf('testtool/go/shop_test.go', 't.Errorf("Total = %d, want %d", got, 28)');
    assert.ok(answer.includes(`FAILED TestDiscount/tenth — testtool/go/shop_test.go:${line}`), answer);
    assert.match(answer, /message: Total = 27, want 28/);
    assert.match(answer, /output:\n\s+shop_test\.go:\d+: checking the discount/);
    assert.match(
      answer,
      /next: debug with test: TestDiscount\/tenth \(debug launch, program: testtool\/go\/shop_test\.go\)/,
    );
    assert.doesNotMatch(answer, /"Action"/, 'no raw JSON events');

    const run = await lastRun();
    assert.deepEqual(
      run?.results.map((result) => [result.id, result.state]),
      [
        ['TestTotal', 'passed'],
        ['TestDiscount/none', 'passed'],
        ['TestDiscount/tenth', 'failed'],
      ],
    );
    const failed = run?.results.find((result) => result.state === 'failed');
    assert.equal(failed?.location?.line, line);
    assert.match(failed?.location?.file ?? '', /testtool\/go\/shop_test\.go$/);
    assert.match(failed?.message ?? '', /Total = 27, want 28/);
    const file = (await explorerState()).items.find((item) => item.id === 'testtool/go/shop_test.go');
    assert.deepEqual(file?.children.slice().sort(), ['TestDiscount/none', 'TestDiscount/tenth', 'TestTotal']);
  });

  it("go test coverage: -coverprofile's statements, the function no test calls not run, in the answer and the editor", async () => {
    const answer = await invokeText('test', {
      files: ['testtool/go/shop_test.go'],
      tests: ['TestTotal'],
      mode: 'coverage',
    });
    assert.match(answer, /^go test: 1 passed, 0 failed/, answer);
    assert.match(answer, /go test -coverprofile=\S+coverage\.out -json '-run=\^TestTotal\$' \./, answer);
    const refund = lineOf('testtool/go/shop.go', 'func Refund(price int) int {');
    assert.match(
      answer,
      new RegExp(`^- testtool/go/shop\\.go: 4/7 statements \\(57\\.1%\\); not run: ${refund}-`, 'm'),
      answer,
    );
    const shop = (await lastRun())?.coverage?.find((file) => file.file === 'testtool/go/shop.go');
    assert.equal(shop?.covered, 4);
    assert.equal(shop?.total, 7);
    assert.ok(shop?.linesNotRun.includes(refund + 1), JSON.stringify(shop));
  });

  it('go test: one test selected by name (an anchored -run), and a subtest by TestX/sub', async () => {
    const one = await invokeText('test', { files: ['testtool/go/shop_test.go'], tests: ['TestTotal'] });
    assert.match(one, /^go test: 1 passed, 0 failed, 0 skipped, 0 errors \(1 tests/, one);
    assert.match(one, /go test -json '-run=\^TestTotal\$' \./, one);
    const sub = await invokeText('test', { files: ['testtool/go/shop_test.go'], tests: ['TestDiscount/none'] });
    assert.match(sub, /^go test: 1 passed, 0 failed, 0 skipped, 0 errors \(1 tests/, sub);
    const none = await invokeText('test', { files: ['testtool/go/shop_test.go'], tests: ['TestNothing'] });
    assert.match(none, /^No test matched: selected files shop_test\.go; tests TestNothing\./, none);
  });

  it("go test: a package that does not compile is answered with the compiler's lines, not as no test matched", async () => {
    const broken = path.join(workspaceRoot(), 'testtool', 'go-broken');
    fs.mkdirSync(broken, { recursive: true });
    try {
      fs.writeFileSync(path.join(broken, 'go.mod'), 'module broken\n\ngo 1.19\n');
      fs.writeFileSync(
        path.join(broken, 'broken_test.go'),
        'package broken\n\nimport "testing"\n\nfunc TestBroken(t *testing.T) {\n\tvar n int = "text"\n\t_ = n\n}\n',
      );
      const answer = await invokeText('test', { files: ['testtool/go-broken/broken_test.go'] });
      assert.match(
        answer,
        /^go test: the tests did not build \(package broken, exit code 2\); no test ran\. The compiler says:\n/,
        answer,
      );
      assert.match(answer, /broken_test\.go:6:\d+: cannot use "text"/, answer);
      assert.doesNotMatch(answer, /No test matched/);
    } finally {
      fs.rmSync(broken, { recursive: true, force: true });
    }
  });

  it("go test: the answer's next step is a launch debug takes: the failing subtest runs under delve (exit status 1, not 0 = none matched)", async () => {
    await launchNextStep('testtool/go/shop_test.go', async (launched) => {
      assert.match(
        launched,
        /^Launched the test TestDiscount\/tenth \(go test '-run=\^TestDiscount\$\/\^tenth\$'/,
        launched,
      );
      // The test binary may end before the launch answers; without breakpoints it runs through.
      const ended = /has ended|exited/.test(launched)
        ? launched
        : await invokeText('debug', { op: 'continue', timeout_seconds: 60 });
      const output = ended + (await invokeText('debug', { op: 'output' }));
      // go test exits 1 for a test that failed (a -run that matched nothing exits 0).
      assert.match(output, /exited with status 1\b/, output);
    });
  });

  it("cargo test: the failing assert_eq!'s place, left as actual and right as expected, its output; doc tests said not run", async () => {
    const answer = await invokeText('test', { files: ['testtool/cargo/src/lib.rs'], timeout_seconds: 200 });
    assert.match(answer, /^cargo test: 1 passed, 1 failed, 0 skipped, 0 errors \(2 tests/, answer);
    assert.match(
      answer,
      /Command: \S*cargo test --no-run --message-format=json --lib, then RUSTC_BOOTSTRAP=1 <each test executable> --format json -Z unstable-options \(in \S*testtool\/cargo\)/,
      answer,
    );
    const line = lineOf('testtool/cargo/src/lib.rs', 'assert_eq!(total(&[10, 20], 10), 28);');
    assert.ok(answer.includes(`FAILED tests::takes_the_discount — testtool/cargo/src/lib.rs:${line}`), answer);
    assert.match(answer, /expected: 28\n\s+actual: 27/);
    assert.match(answer, /left == right/);
    assert.match(answer, /checking the discount/);
    assert.match(
      answer,
      /next: debug with test: tests::takes_the_discount \(debug launch, program: testtool\/cargo\/src\/lib\.rs\)/,
    );
    assert.match(answer, /Doc tests were not run/);

    const run = await lastRun();
    assert.deepEqual(run?.results.map((result) => [result.id, result.state]).sort(), [
      ['tests::adds_up', 'passed'],
      ['tests::takes_the_discount', 'failed'],
    ]);
    const failed = run?.results.find((result) => result.state === 'failed');
    assert.equal(failed?.location?.line, line);
    assert.match(failed?.location?.file ?? '', /testtool\/cargo\/src\/lib\.rs$/);
  });

  it('cargo test: one test by its full path (--exact)', async () => {
    const answer = await invokeText('test', {
      files: ['testtool/cargo/src/lib.rs'],
      tests: ['tests::adds_up'],
      timeout_seconds: 200,
    });
    assert.match(answer, /^cargo test: 1 passed, 0 failed, 0 skipped, 0 errors \(1 tests/, answer);
    assert.match(answer, /tests::adds_up --exact/, answer);
  });

  it("cargo test: the confirmation card shows the build, each executable's command line, the folder and RUSTC_BOOTSTRAP", async function () {
    if (!hasBrowser()) this.skip();
    await activateExtension();
    const input = { files: ['testtool/cargo/src/lib.rs'], tests: ['tests::adds_up'] };
    const code = `import json\ntry:\n    print(tool("test", json.loads(${JSON.stringify(JSON.stringify(input))})))\nexcept Exception as error:\n    print("raised:", error)`;
    const answer = invokeText('eval', { code, description: 'test confirmation test' });
    try {
      const card = await browser({ op: 'text', selector: '.card.active', frames: CARD_FRAMES, timeoutMs: 30_000 });
      await browser({ op: 'click', selector: '.card.active .option', text: '^\\d*Deny', frames: CARD_FRAMES });
      await browser({ op: 'click', selector: '.card.active .submit', frames: CARD_FRAMES });
      const text = card.text ?? '';
      assert.match(text, /cargo test --no-run --message-format=json --lib/, text);
      assert.match(
        text,
        /RUSTC_BOOTSTRAP=1 <each test executable> --format json -Z unstable-options tests::adds_up --exact/,
        text,
      );
      assert.match(text, /working directory: \S*testtool\/cargo/, text);
      assert.match(text, /RUSTC_BOOTSTRAP=1\S* set for the executables only/, text);
      assert.match(text, /doc tests are not run/, text);
      assert.match(await answer, /raised: .*denied/);
    } finally {
      await vscode.commands.executeCommand('liveTools.stopKernels');
    }
  });
});

const CARD_FRAMES = ['iframe.webview.ready', 'iframe#active-frame'];
