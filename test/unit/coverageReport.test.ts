/**
 * Coverage on plain Node: lcov and Go cover profiles as coverage.py 6.5, Node 20/24 and go 1.19 wrote
 * them (test/fixtures/coverage/), Go's import paths mapped to files, the caps, linear time on hostile
 * reports, the coverage part of the answer, the plans' commands, and a Python without coverage.py.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { coverageSection, coverageToolMissingAnswer, summarize } from '../../src/testing/coverageAnswer';
import {
  goFileFor,
  goModulePath,
  MAX_COVERAGE_FILES,
  parseGoCoverProfile,
  parseLcov,
} from '../../src/testing/coverageReport';
import { MeasuredCoverage, runTests, TestOutcome } from '../../src/testing/runTests';
import { coverageCommandLineOf, planTests } from '../../src/testing/testPlan';
import { TestRefusal } from '../../src/testing/testingErrors';
import { testConfirmation } from '../../src/tools/test/confirmation';
import { repoRoot } from '../support/repoRoot';
import { withTempDir } from '../support/tempDir';
import { assertLinear } from './support/growth';

const captured = (name: string) => fs.readFileSync(path.join(repoRoot(), 'test', 'fixtures', 'coverage', name), 'utf8');
const linesOf = (report: ReturnType<typeof parseLcov>, file: string) =>
  report.files
    .find((covered) => covered.file === file)
    ?.statements.map((statement) => [statement.line, statement.hits]);

describe('coverage: lcov', () => {
  it("coverage.py 6.5's report: each file's lines and hits, its checksums ignored", () => {
    const report = parseLcov(captured('coveragepy-6.5.lcov'));
    assert.equal(report.unit, 'lines');
    assert.deepEqual(
      report.files.map((file) => file.file),
      ['prices.py', 'test_hang.py', 'test_prices.py'],
    );
    assert.deepEqual(linesOf(report, 'prices.py'), [
      [1, 1],
      [2, 1],
      [5, 1],
      [6, 0],
      [7, 0],
      [8, 0],
    ]);
    assert.equal(report.filesLeftOut + report.statementsLeftOut, 0);
  });

  it("Node's reports: 20 lists the test file too, 24 the module only; hits are counts", () => {
    const node20 = parseLcov(captured('node-20.lcov'));
    assert.deepEqual(
      node20.files.map((file) => file.file),
      ['cart.js', 'cart.test.js'],
    );
    const node24 = parseLcov(captured('node-24.lcov'));
    assert.deepEqual(
      node24.files.map((file) => file.file),
      ['cart.js'],
    );
    assert.deepEqual(linesOf(node24, 'cart.js'), linesOf(node20, 'cart.js'));
    assert.deepEqual(
      linesOf(node24, 'cart.js')?.filter(([, hits]) => hits === 0),
      [
        [4, 0],
        [5, 0],
      ],
    );
  });

  it('merges a file named twice (hits summed), skips what is not a DA line, takes CRLF', () => {
    const report = parseLcov(
      'SF:a.js\r\nDA:1,2\r\nDA:x,1\r\nDA:2,-1\r\nBRDA:1,0,0,1\r\nend_of_record\r\nSF:a.js\nDA:1,3\nDA:3,0\nend_of_record\nDA:9,9\n',
    );
    assert.deepEqual(linesOf(report, 'a.js'), [
      [1, 5],
      [3, 0],
    ]);
  });

  it('caps the files read, counting the rest', () => {
    const many = Array.from({ length: MAX_COVERAGE_FILES + 3 }, (_, index) => `SF:f${index}.js\nDA:1,1\nend_of_record`);
    const report = parseLcov(many.join('\n'));
    assert.equal(report.files.length, MAX_COVERAGE_FILES);
    assert.equal(report.filesLeftOut, 3);
  });

  it('is linear on hostile reports', function () {
    this.timeout(60_000);
    assertLinear('many lines of one file', (size) => parseLcov(`SF:a\n${'DA:1,1\n'.repeat(size)}`), 20_000);
    assertLinear('one long line', (size) => parseLcov(`SF:${'DA:'.repeat(size)}`), 50_000);
    assertLinear('many files', (size) => parseLcov('SF:x\n'.repeat(size)), 20_000);
    assertLinear('commas', (size) => parseLcov(`SF:a\nDA:${','.repeat(size)}`), 50_000);
  });
});

describe('coverage: Go cover profiles', () => {
  it('go test -coverprofile: blocks with columns, statement counts and hits; set and count modes', () => {
    const set = parseGoCoverProfile(captured('go-set.coverprofile'));
    assert.equal(set.unit, 'statements');
    const [file] = set.files;
    assert.equal(file.file, 'example.com/shop/shop/cart.go');
    assert.deepEqual(file.statements[0], { line: 4, column: 30, endLine: 6, endColumn: 27, hits: 1, weight: 2 });
    assert.deepEqual(
      file.statements.filter((statement) => statement.hits === 0),
      [{ line: 9, column: 15, endLine: 11, endColumn: 3, hits: 0, weight: 1 }],
    );
    const countMode = parseGoCoverProfile(captured('go-count.coverprofile'));
    assert.equal(countMode.files[0].statements.find((statement) => statement.line === 6)?.hits, 2);
    const summary = summarize(
      { ...set, files: [{ file: '/m/shop/cart.go', statements: file.statements }], otherFiles: 0 },
      '/m',
    );
    // go test says "coverage: 83.3% of statements": 5 of 6.
    assert.deepEqual(
      summary.map(({ relative, covered, total, notRun }) => ({ relative, covered, total, notRun })),
      [{ relative: 'shop/cart.go', covered: 5, total: 6, notRun: [[9, 11]] }],
    );
  });

  it('a block named twice (profiles of several packages): set mode takes either, count mode sums', () => {
    const line = 'm/a.go:1.1,2.2 1 ';
    assert.equal(parseGoCoverProfile(`mode: set\n${line}1\n${line}0\n`).files[0].statements[0].hits, 1);
    assert.equal(parseGoCoverProfile(`mode: count\n${line}2\n${line}3\n`).files[0].statements[0].hits, 5);
    assert.equal(parseGoCoverProfile('mode: set\nm/a.go 1 1\nnot a block\n').files.length, 0);
  });

  it('counts each file past the cap once, though a merged profile names it again later', () => {
    const names = Array.from({ length: MAX_COVERAGE_FILES + 10 }, (_, index) => `m/f${index}.go:1.1,2.2 1 1`);
    const report = parseGoCoverProfile(['mode: set', ...names, ...names].join('\n'));
    assert.equal(report.files.length, MAX_COVERAGE_FILES);
    assert.equal(report.filesLeftOut, 10);
  });

  it("maps import paths to the module's files; other modules' files are not ours", () => {
    assert.equal(goModulePath('// c\nmodule "example.com/shop" // here\n\ngo 1.19\n'), 'example.com/shop');
    assert.equal(goModulePath('go 1.19\n'), undefined);
    assert.equal(goFileFor('example.com/shop/shop/cart.go', '/m', 'example.com/shop'), '/m/shop/cart.go');
    assert.equal(goFileFor('example.com/shopping/x.go', '/m', 'example.com/shop'), undefined);
    assert.equal(goFileFor('example.com/shop/../../etc/x.go', '/m', 'example.com/shop'), undefined);
    assert.equal(goFileFor('/abs/x.go', '/m', 'example.com/shop'), '/abs/x.go');
  });

  it('is linear on hostile profiles', function () {
    this.timeout(60_000);
    assertLinear('spaces', (size) => parseGoCoverProfile(`a:${' '.repeat(size)}1`), 50_000);
    assertLinear('colons', (size) => parseGoCoverProfile(`${':'.repeat(size)} 1 1`), 50_000);
    assertLinear('many blocks', (size) => parseGoCoverProfile('m/a.go:1.1,2.2 1 1\n'.repeat(size)), 20_000);
  });
});

describe('coverage: the answer', () => {
  const plan = {
    workspaceFolder: '/w',
    coverage: { format: 'lcov' as const, measuredBy: 'coverage.py', reportFile: '/tmp/c.lcov', installHint: 'pip' },
  };
  const outcomeWith = (coverage: MeasuredCoverage): TestOutcome => ({
    exitCode: 0,
    seconds: 1,
    outputTail: '',
    outputCharacters: 0,
    coverage,
  });
  const lines = (hits: number[]) => hits.map((hit, index) => ({ line: index + 1, hits: hit, weight: 1 }));

  it('code first, test files last; lines never run as ranges; files outside the folder left out, said', () => {
    const text = coverageSection(
      plan,
      outcomeWith({
        unit: 'lines',
        files: [
          { file: '/w/tests/test_a.py', statements: lines([1, 1]) },
          { file: '/w/pkg/b.py', statements: lines([1, 0, 0, 1, 0]) },
          { file: '/usr/lib/python3/x.py', statements: lines([1]) },
        ],
        filesLeftOut: 0,
        statementsLeftOut: 0,
        otherFiles: 0,
      }),
    );
    assert.equal(
      text,
      [
        'Coverage (coverage.py, lines run): 2 of 5 lines in 1 files (40%); 1 test files listed last.',
        '- pkg/b.py: 2/5 lines (40%); not run: 2-3, 5',
        '- tests/test_a.py (test file): 2/2 lines (100%)',
        '(1 measured files outside the workspace folder are left out.)',
        "The editor shows it: the Testing view's Test Coverage section, and run and not-run lines in each file's gutter.",
      ].join('\n'),
    );
  });

  it('caps the files listed and the ranges of a file, and says so', () => {
    const files = Array.from({ length: 40 }, (_, index) => ({
      file: `/w/m${String(index).padStart(2, '0')}.js`,
      statements: lines(Array.from({ length: 40 }, (_, line) => line % 2)),
    }));
    const text = coverageSection(
      plan,
      outcomeWith({ unit: 'lines', files, filesLeftOut: 0, statementsLeftOut: 2, otherFiles: 0 }),
    );
    assert.equal(text.split('\n').filter((line) => line.startsWith('- ')).length, 30);
    assert.match(text, /- m00\.js: 20\/40 lines \(50%\); not run: 1, 3, 5, .*, 29 and 5 more ranges/);
    assert.match(text, /…and 10 more files, not listed/);
    assert.match(text, /2 lines past its caps were left out/);
  });

  it('says when coverage was not measured, and what to install when the tool is missing', () => {
    assert.equal(
      coverageSection(plan, {
        ...outcomeWith(undefined as never),
        coverageProblem: 'coverage.py wrote no coverage report',
      }),
      'Coverage: not measured — coverage.py wrote no coverage report.',
    );
    assert.equal(coverageSection({ workspaceFolder: '/w' }, outcomeWith(undefined as never)), '');
  });
});

describe('coverage: plans and runs', () => {
  const workspaceFolder = path.join(repoRoot(), 'test', 'fixtures', 'ts-project');
  const plan = (file: string, resolve = (command: string) => `/usr/bin/${command}`) =>
    planTests({ files: [path.join(workspaceFolder, file)], tests: [], workspaceFolder, coverage: true }, '/tmp/r', {
      resolve,
    });

  it('pytest under coverage.py with --source=., then coverage lcov; Node with its lcov reporter', () => {
    const pytest = plan('testtool/py/test_prices.py');
    assert.deepEqual(pytest.args.slice(0, 7), [
      '-m',
      'coverage',
      'run',
      '--data-file=/tmp/r/coverage.data',
      '--source=.',
      '-m',
      'pytest',
    ]);
    assert.equal(
      coverageCommandLineOf(pytest),
      '/usr/bin/python3 -m coverage lcov --data-file=/tmp/r/coverage.data -o /tmp/r/coverage.lcov',
    );
    const node = plan('testtool/node/cart-module.test.js');
    assert.deepEqual(node.args.slice(0, 4), [
      '--experimental-test-coverage',
      '--test-reporter=lcov',
      '--test-reporter-destination=/tmp/r/coverage.lcov',
      '--test',
    ]);
    assert.equal(coverageCommandLineOf(node), undefined);
    const go = plan('testtool/go/shop_test.go');
    assert.deepEqual(go.args.slice(0, 3), ['test', '-coverprofile=/tmp/r/coverage.out', '-json']);
    assert.equal(go.coverage?.format, 'go');
    // cargo test measures no coverage without tools this machine has not (llvm-cov): refused, nothing runs.
    assert.throws(() => plan('testtool/cargo/src/lib.rs'), TestRefusal);
  });

  it('the confirmation card shows both commands coverage.py runs, and Node its one', () => {
    const pytest = testConfirmation(plan('testtool/py/test_prices.py'), { mode: 'coverage' });
    assert.equal(pytest.title, 'Run pytest tests with coverage?');
    assert.ok(
      pytest.message.includes(
        [
          '```sh',
          '/usr/bin/python3 -m coverage run --data-file=/tmp/r/coverage.data --source=. -m pytest -v --color=no --junitxml=/tmp/r/report.xml -o junit_family=xunit1 -o junit_logging=out-err test_prices.py',
          '# then, to write the coverage report:',
          '/usr/bin/python3 -m coverage lcov --data-file=/tmp/r/coverage.data -o /tmp/r/coverage.lcov',
          '```',
        ].join('\n'),
      ),
      pytest.message,
    );
    const node = testConfirmation(plan('testtool/node/cart-module.test.js'), { mode: 'coverage' });
    assert.match(node.message, /coverage measured by Node's --experimental-test-coverage:/);
    assert.match(node.message, /```sh\n\/usr\/bin\/node --experimental-test-coverage .*cart-module\.test\.js\n```/);
  });

  it('a Python without coverage.py: the run says so, what to install, and no test ran', async function () {
    this.timeout(60_000);
    await withTempDir('no-coverage-', async (dir) => {
      // A venv of its own, without the system's packages: no coverage.py (and no pytest) in it.
      execFileSync('/usr/bin/python3', ['-m', 'venv', '--without-pip', path.join(dir, 'venv')]);
      const python = path.join(dir, 'venv', 'bin', 'python3');
      const run = plan('testtool/py/test_prices.py', () => python);
      const reportDir = path.join(dir, 'report');
      const outcome = await runTests(
        { ...run, reportFile: path.join(reportDir, 'report.xml') },
        { timeoutSeconds: 30, idleSeconds: 30 },
        process.env,
      );
      assert.equal(outcome.coverageToolMissing, true, outcome.outputTail);
      const answer = coverageToolMissingAnswer(run);
      assert.match(answer, /^Not run: .*python3 cannot measure coverage \(coverage\.py is not installed for it\)/);
      assert.match(answer, /Next: install coverage\.py 6\.3 or later .*apt install python3-coverage/);
      assert.ok(!fs.existsSync(reportDir), 'the report folder is removed');
    });
  });

  it('a real coverage.py run of the fixture: prices.py measured, its discount never run', async function () {
    this.timeout(60_000);
    await withTempDir('coverage-run-', async (dir) => {
      const run = plan('testtool/py/test_prices.py', () => '/usr/bin/python3');
      const reportDir = path.join(dir, 'report');
      const outcome = await runTests(
        {
          ...run,
          reportFile: path.join(reportDir, 'report.xml'),
          args: run.args.map((arg) => arg.replace('/tmp/r/', `${reportDir}/`)),
          coverage: {
            ...run.coverage!,
            reportFile: path.join(reportDir, 'coverage.lcov'),
            afterArgs: run.coverage!.afterArgs!.map((arg) => arg.replace('/tmp/r/', `${reportDir}/`)),
          },
        },
        { timeoutSeconds: 30, idleSeconds: 30 },
        process.env,
      );
      assert.equal(outcome.report?.counts.failed, 1, outcome.outputTail);
      const prices = summarize(outcome.coverage!, workspaceFolder).find(
        (file) => file.relative === 'testtool/py/prices.py',
      );
      assert.deepEqual(prices && { covered: prices.covered, total: prices.total, notRun: prices.notRun }, {
        covered: 3,
        total: 6,
        notRun: [[6, 8]],
      });
    });
  });
});
