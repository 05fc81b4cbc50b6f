/**
 * `live-ast-grep` (src/cli/astGrepCli.ts) through its `main`: arguments, JSON lines, rewrites,
 * exit codes (0 with matches, 1 without, 2 on error) and where the messages go.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runCli as run } from './support/cliRun';
import { repoRoot } from '../support/repoRoot';
import { suiteTempDir } from '../support/tempDir';

describe('live-ast-grep command line', function () {
  this.timeout(20_000);
  const dir = suiteTempDir('live-ast-grep-');

  before(() => {
    fs.mkdirSync(path.join(dir(), 'src'));
    fs.writeFileSync(path.join(dir(), 'src', 'a.ts'), 'foo(1);\nfoo(a, b);\nconst x = foo(bar);\n');
    fs.writeFileSync(path.join(dir(), 'src', 'b.py'), 'foo(2)\n');
    fs.writeFileSync(path.join(dir(), 'src', 'notes.txt'), 'foo(3)\n');
  });

  it('prints one JSON object per match and exits 0', async () => {
    const { code, out, error } = await run('--lang', 'ts', '--pattern', 'foo($A)', path.join(dir(), 'src'), '--json');
    assert.equal(code, 0);
    assert.deepEqual(error, []);
    const matches = out.map((line) => JSON.parse(line));
    assert.deepEqual(
      matches.map(({ line, column, endLine, start, end, text, captures }) => ({
        line,
        column,
        endLine,
        start,
        end,
        text,
        captures,
      })),
      [
        { line: 1, column: 1, endLine: 1, start: 0, end: 6, text: 'foo(1)', captures: { A: '1' } },
        { line: 3, column: 11, endLine: 3, start: 29, end: 37, text: 'foo(bar)', captures: { A: 'bar' } },
      ],
    );
    assert.equal(path.resolve(matches[0].file), path.join(dir(), 'src', 'a.ts'));
  });

  it('without --lang searches every file a grammar serves, each in its own language', async () => {
    const { code, out } = await run('-p', 'foo($A)', '--json', path.join(dir(), 'src'));
    assert.equal(code, 0);
    assert.deepEqual(
      out.map((line) => path.basename(JSON.parse(line).file)),
      ['a.ts', 'a.ts', 'b.py'],
    );
  });

  it('prints text lines and a summary without --json', async () => {
    const { code, out } = await run('-l', 'typescript', '-p', 'foo($A, $B)', path.join(dir(), 'src', 'a.ts'));
    assert.equal(code, 0);
    assert.match(out[0], /a\.ts:2: foo\(a, b\)$/);
    assert.equal(out[1], '1 matches in 1 files (1 parsed of 1).');
  });

  it('shows the replacement of each match with --rewrite, and writes nothing', async () => {
    const file = path.join(dir(), 'src', 'a.ts');
    const before = fs.readFileSync(file, 'utf8');
    const { code, out } = await run('--lang', 'ts', '-p', 'foo($A)', '--rewrite', 'bar($A, 0)', '--json', file);
    assert.equal(code, 0);
    assert.deepEqual(
      out.map((line) => JSON.parse(line).replacement),
      ['bar(1, 0)', 'bar(bar, 0)'],
    );
    assert.equal(fs.readFileSync(file, 'utf8'), before);
  });

  it('rewrites across a folder too (there the parsing threads read the files and send the texts back)', async () => {
    const { code, out } = await run(
      '--lang',
      'ts',
      '-p',
      'foo($A)',
      '--rewrite',
      'bar($A, 0)',
      '--json',
      path.join(dir(), 'src'),
    );
    assert.equal(code, 0);
    assert.deepEqual(
      out.map((line) => JSON.parse(line).replacement),
      ['bar(1, 0)', 'bar(bar, 0)'],
    );
  });

  it('runs as an executable through its shebang line, V8 flags included', () => {
    const cli = path.join(repoRoot(), 'dist', 'cli.js');
    assert.match(
      fs.readFileSync(cli, 'utf8').split('\n')[0],
      /^#!\/usr\/bin\/env -S node --max-semi-space-size=1 --max-old-space-size=64$/,
    );
    const ran = spawnSync(cli, ['--lang', 'ts', '-p', 'foo($A)', '--json', path.join(dir(), 'src')], {
      encoding: 'utf8',
    });
    assert.equal(ran.status, 0, ran.stderr);
    assert.deepEqual(
      ran.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).text),
      ['foo(1)', 'foo(bar)'],
    );
  });

  it('stops at --max', async () => {
    const { code, out } = await run('--lang', 'ts', '-p', 'foo($$$A)', '--max', '2', path.join(dir(), 'src'));
    assert.equal(code, 0);
    assert.equal(out.length, 3);
    assert.equal(out[2], '2+ matches in 1 files (1 parsed of 2).');
  });

  it('exits 1 when nothing matches', async () => {
    const { code, out, error } = await run('--lang', 'ts', '-p', 'zzz($A)', '--json', path.join(dir(), 'src'));
    assert.deepEqual({ code, out, error }, { code: 1, out: [], error: [] });
  });

  it('exits 2 with the reason when the pattern does not parse', async () => {
    const { code, out, error } = await run('--lang', 'ts', '-p', 'foo(', '--json', path.join(dir(), 'src'));
    assert.equal(code, 2);
    assert.deepEqual(out, []);
    assert.match(error.join('\n'), /^error: The pattern does not parse as typescript in any context tried/);
  });

  it('exits 2 on an unknown language, naming the shipped ones', async () => {
    const { code, error } = await run('--lang', 'cobol', '-p', 'x', path.join(dir(), 'src'));
    assert.equal(code, 2);
    assert.match(error.join('\n'), /Unknown language "cobol"\. Shipped grammars: .*python/);
  });

  it('exits 2 with the usage on bad arguments, and 0 for --help', async () => {
    for (const argv of [[path.join(dir(), 'src')], ['-p'], ['-p', 'x', '--frobnicate'], ['-p', 'x', '--max', 'many']]) {
      const { code, out, error } = await run(...argv);
      assert.equal(code, 2, argv.join(' '));
      assert.deepEqual(out, []);
      assert.match(error.join('\n'), /usage: live-ast-grep/);
    }
    const help = await run('--help');
    assert.equal(help.code, 0);
    assert.match(help.out.join('\n'), /^usage: live-ast-grep/);
  });
});
