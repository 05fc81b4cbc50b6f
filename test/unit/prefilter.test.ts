/**
 * The prefilter (src/structural/prefilter.ts): the runs of leaves a pattern writes side by side,
 * found across comments, whitespace and the keywords the matcher skips; and, on real code, never
 * a file refused that the matcher would have found a match in.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { compilePattern } from '../../src/structural/pattern';
import { mayMatch } from '../../src/structural/prefilter';
import { matchTexts, registry, repoRoot } from './support/structuralEngine';

async function compiled(language: string, pattern: string) {
  return compilePattern(await registry.load(language), pattern);
}

describe('prefilter: runs of leaves in order', function () {
  this.timeout(120_000);

  it('takes the leaves in order into child nodes and on past `a.b`, from the first word, broken by a metavariable or an optional token', async () => {
    // On past `a.b` (nothing follows its property) into the arguments.
    assert.deepEqual((await compiled('javascript', 'console.log($$$A)')).requiredRuns, [['console', '.', 'log', '(']]);
    assert.deepEqual((await compiled('javascript', '$A.dispose()')).requiredRuns, [['dispose', '(', ')']]);
    // Into a node (`function`), not past one that may have more (parameters after `$F`, a body after them).
    assert.deepEqual((await compiled('javascript', 'export default function $F() { return $X; }')).requiredRuns, [['export', 'default', 'function']]);
    assert.deepEqual((await compiled('typescript', 'for (const $X of $Y) $B')).requiredRuns, [['for', '(', 'const']]);
    // Only the languages whose comments and keywords are known here.
    assert.deepEqual((await compiled('python', 'print($A)')).requiredRuns, []);
  });

  it('finds a run across comments, line breaks and the keywords the matcher skips, and refuses what has a name between', async () => {
    const cases: Array<[string, string, boolean]> = [
      ['console.log($$$A)', 'console /* a . log */ . // b\n log(1);', true],
      ['console.log($$$A)', 'console\n  .log(1);', true],
      ['console.log($$$A)', 'console; log(1);', false],
      ['console.log($$$A)', 'consoles.log(1); console.info(log);', false],
      ['console.log($$$A)', 'console.log /* a */ (1);', true],
      ['console.log($$$A)', 'const log = console.log; log(1); console.log.call(console, 2);', false],
      ['new Promise(($R) => $B)', 'new Promise(executor); f((r) => r);', false],
      ['new Promise(($R) => $B)', 'new Promise( // c\n  (r) => r());', true],
      ['for (const $X of $Y) $B', 'async function f() { for await (const x of y) g(x); }', true],
      ['for (const $X of $Y) $B', 'for (let x of y) g(x); const z = 1;', false],
    ];
    for (const [pattern, text, expected] of cases) {
      const matched = (await matchTexts('javascript', pattern, text)).length > 0;
      assert.equal(matched, expected, `the matcher, ${pattern} in ${JSON.stringify(text)}`);
      assert.equal(mayMatch(text, await compiled('javascript', pattern)), expected, `the prefilter, ${pattern} in ${JSON.stringify(text)}`);
    }
  });

  it('never refuses a file of real code the matcher finds a match in', async () => {
    const patterns = [
      'console.log($$$A)', 'Object.defineProperty($O, $K, $D)', 'for (const $X of $Y) $B', 'export default function $F($$$P) { $$$B }',
      'typeof $X === "function"', 'new Promise(($R) => $B)', 'require($M)', '$A.forEach(($X) => { $$$B })', 'process.env.$V',
    ];
    const files = fs
      .readdirSync(path.join(repoRoot, 'node_modules'), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && /\.(js|mjs|ts)$/.test(entry.name) && !entry.name.endsWith('.d.ts'))
      .map((entry) => path.join(entry.parentPath, entry.name))
      .filter((_, i) => i % 5 === 0);
    let refused = 0;
    for (const file of files) {
      const text = fs.readFileSync(file, 'utf8');
      if (text.length > 300_000) continue;
      const language = file.endsWith('.ts') ? 'typescript' : 'javascript';
      for (const pattern of patterns) {
        const summary = await compiled(language, pattern);
        // Files the required texts let through but the runs refuse: the matcher must find nothing there.
        if (!summary.requiredTexts.every((required) => text.includes(required)) || mayMatch(text, summary)) continue;
        refused++;
        assert.deepEqual(await matchTexts(language, pattern, text), [], `${pattern} in ${path.relative(repoRoot, file)}`);
      }
    }
    assert.ok(files.length > 500 && refused > 20, `${files.length} files, ${refused} refused by the runs alone`);
  });
});
