import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { chooseTestRun, goRunPattern, pytestSelection, testCommandLine } from '../../src/debug/testLaunch';

describe('debugging one test: which runner, and how it selects the test', () => {
  let folder: string;
  const write = (file: string, text = '') => {
    fs.mkdirSync(path.dirname(path.join(folder, file)), { recursive: true });
    fs.writeFileSync(path.join(folder, file), text);
  };
  const choose = (test: string, program?: string, more: { adapter?: 'js' | 'debugpy' | 'dart'; cwd?: string } = {}) =>
    chooseTestRun(
      { test, program: program && path.join(folder, program), ...more, cwd: more.cwd && path.join(folder, more.cwd) },
      folder,
    );

  beforeEach(() => {
    folder = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'test-launch-')));
  });
  afterEach(() => fs.rmSync(folder, { recursive: true, force: true }));

  it('pytest: a name is -k in the file, a node id is passed as it is (its file added when only the test part was given)', () => {
    assert.deepEqual(pytestSelection('test_total', 'tests/test_app.py'), ['tests/test_app.py', '-k', 'test_total']);
    assert.deepEqual(pytestSelection('test_total', undefined), ['-k', 'test_total']);
    assert.deepEqual(pytestSelection('tests/test_app.py::test_total', 'tests/test_app.py'), [
      'tests/test_app.py::test_total',
    ]);
    assert.deepEqual(pytestSelection('TestCart::test_total', 'tests/test_app.py'), [
      'tests/test_app.py::TestCart::test_total',
    ]);
    // The root is the nearest folder with a pytest marker; the file is given relative to it.
    write('py/pyproject.toml');
    write('py/tests/test_app.py');
    const run = choose('test_total', 'py/tests/test_app.py');
    assert.equal(run.root, path.join(folder, 'py'));
    assert.equal(testCommandLine(run), 'python -m pytest tests/test_app.py -k test_total');
  });

  it("go test: each level of the name is matched exactly; a pattern is taken as given; the package is the file's folder", () => {
    assert.equal(goRunPattern('TestTotal'), '^TestTotal$');
    assert.equal(goRunPattern('TestTotal/empty_basket'), '^TestTotal$/^empty_basket$');
    assert.equal(goRunPattern('TestTotal|TestEmpty'), 'TestTotal|TestEmpty');
    write('go.mod', 'module x\n');
    write('cart/cart_test.go', 'package cart\n');
    const run = choose('TestTotal', 'cart/cart_test.go');
    assert.equal(run.adapter, 'delve');
    assert.equal(run.root, path.join(folder, 'cart'));
    assert.equal(testCommandLine(run), "go test '-run=^TestTotal$' -v .");
  });

  it("JavaScript: the runner the test script names (jest, mocha, vitest), found in node_modules; else Node's own, on the file", () => {
    write('web/package.json', JSON.stringify({ scripts: { test: 'npm run build && jest --ci' } }));
    write('web/src/sum.test.js');
    assert.throws(
      () => choose('adds (1+1)', 'web/src/sum.test.js'),
      /Cannot debug the test with jest: the package's test script runs jest, but node_modules\/jest\/bin\/jest\.js is not in web or above: run npm install first\./,
    );
    // npm hoists: the workspace folder's node_modules serves a package below it.
    write('node_modules/jest/bin/jest.js');
    const jest = choose('adds (1+1)', 'web/src/sum.test.js');
    assert.equal(jest.script, path.join(folder, 'node_modules/jest/bin/jest.js'));
    assert.deepEqual(jest.selection, ['--runInBand', '--testNamePattern=adds \\(1\\+1\\)', 'src/sum.test.js']);

    write('plain/package.json', JSON.stringify({ scripts: { test: 'node --test' } }));
    write('plain/sum.test.mjs');
    const node = choose('adds up', 'plain/sum.test.mjs');
    assert.equal(node.runner, 'node --test');
    assert.equal(testCommandLine(node), "node '--test-name-pattern=adds up' sum.test.mjs");
    // Node's runner is given the file: without one it cannot say which.
    assert.throws(() => choose('adds up', undefined, { cwd: 'plain' }), /Node's test runner needs the test file/);
  });

  it('no program: the project around cwd decides; two runners in one folder, or none, are refused with what to give', () => {
    write('crate/Cargo.toml');
    assert.equal(choose('adds_up', undefined, { cwd: 'crate' }).runner, 'cargo test');
    write('crate/requirements.txt');
    assert.throws(
      () => choose('adds_up', undefined, { cwd: 'crate' }),
      /Several test runners fit crate: cargo test, pytest\. Give `program` \(the test file\) or `adapter`\./,
    );
    assert.equal(choose('adds_up', undefined, { cwd: 'crate', adapter: 'debugpy' }).runner, 'pytest');
    assert.throws(() => choose('x', undefined, { adapter: 'dart' }), /The dart adapter has no test runner here/);
    write('empty/notes.txt');
    assert.throws(
      () => choose('x', undefined, { cwd: 'empty' }),
      /No test runner found for empty: no go\.mod, Cargo\.toml, pytest configuration or package\.json test script there or above/,
    );
    assert.throws(() => choose('x', 'empty/notes.txt'), /No test runner is known for notes\.txt/);
    assert.throws(() => choose('  ', 'crate/Cargo.toml'), /`test` is empty/);
  });

  it('a name starting with "-" is refused; a file starting with "-" and a name holding spaces reach the runner as one argument each', () => {
    write('py/pyproject.toml');
    write('py/-odd/test_app.py');
    for (const test of ['--collect-only', '-k', '-x::test_total'])
      assert.throws(
        () => choose(test, 'py/-odd/test_app.py'),
        /`test` starts with "-" .*a runner would take it for an option/,
      );
    write('web/package.json', JSON.stringify({ scripts: { test: 'mocha' } }));
    write('web/node_modules/mocha/bin/mocha.js');
    write('web/-spec.test.js');
    const mocha = choose('adds up --bail', 'web/-spec.test.js');
    assert.deepEqual(mocha.selection, ['--grep=adds up --bail', './-spec.test.js']);
    assert.equal(testCommandLine(mocha), "npx mocha '--grep=adds up --bail' ./-spec.test.js");
    write('web/vitest/package.json', JSON.stringify({ scripts: { test: 'vitest' } }));
    write('web/vitest/node_modules/vitest/vitest.mjs');
    write('web/vitest/a.test.ts');
    assert.deepEqual(choose('a b', 'web/vitest/a.test.ts').selection, ['run', '--testNamePattern=a b', 'a.test.ts']);
  });
});
