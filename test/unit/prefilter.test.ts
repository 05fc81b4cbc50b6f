/**
 * The prefilter (src/structural/prefilter.ts): the runs of leaves a pattern writes side by side,
 * found across comments, whitespace and the keywords the matcher skips; and, on real code, never
 * a file refused that the matcher would have found a match in.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { compilePattern } from '../../src/structural/pattern';
import { mayMatch, RUN_SEARCH_STEPS } from '../../src/structural/prefilter';
import { matchTexts, registry } from './support/structuralEngine';
import { repoRoot } from '../support/repoRoot';

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
    assert.deepEqual((await compiled('javascript', 'export default function $F() { return $X; }')).requiredRuns, [
      ['export', 'default', 'function'],
    ]);
    assert.deepEqual((await compiled('typescript', 'for (const $X of $Y) $B')).requiredRuns, [['for', '(', 'const']]);
    // Only the languages whose comments and keywords are known here.
    assert.deepEqual((await compiled('python', 'os.path.join($$$A)')).requiredRuns, [
      ['os', '.', 'path', '.', 'join', '('],
    ]);
    assert.deepEqual((await compiled('go', 'fmt.Println($A)')).requiredRuns, []);
  });

  it('finds a run across comments, line breaks and the keywords the matcher skips, and refuses what has a name between', async () => {
    const cases: Array<[string, string, boolean, string?]> = [
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
      // Python: `#` comments and `\` line continuations between; a line comment runs to the line feed.
      [
        'os.path.join($$$A)',
        'p = (os.path  # the . join\n  .join(a, b))\nq = os.path \\\n  .join(c)\n',
        true,
        'python',
      ],
      ['os.path.join($$$A)', 'x = (os.path  # a\rlone carriage return\n  .join(1))\n', true, 'python'],
      ['os.path.join($$$A)', 'os.path.exists(p) and join(a)\n', false, 'python'],
      ['self.$X.append($Y)', 'self.items . append(x)\n', true, 'python'],
      ['self.$X.append($Y)', 'self.items.extend(x)\nappend = y.append\n', false, 'python'],
    ];
    for (const [pattern, text, expected, language = 'javascript'] of cases) {
      const matched = (await matchTexts(language, pattern, text)).length > 0;
      assert.equal(matched, expected, `the matcher, ${pattern} in ${JSON.stringify(text)}`);
      assert.equal(
        mayMatch(text, await compiled(language, pattern)),
        expected,
        `the prefilter, ${pattern} in ${JSON.stringify(text)}`,
      );
    }
  });

  it('gives up on a run after its budget of steps and lets the file be parsed (it may match)', async () => {
    const pattern = await compiled('javascript', 'typeof typeof typeof foo');
    // Every place of a file of keywords is in the gap: three texts to find at each.
    assert.equal(mayMatch(`${'typeof '.repeat(1000)}x foo`, pattern), false);
    const places = Math.ceil(RUN_SEARCH_STEPS / 3);
    assert.equal(mayMatch(`${'typeof '.repeat(places)}x foo`, pattern), true);
  });

  it('never refuses a JavaScript or TypeScript file of real code the matcher finds a match in', async () => {
    const patterns = [
      'console.log($$$A)',
      'Object.defineProperty($O, $K, $D)',
      'for (const $X of $Y) $B',
      'export default function $F($$$P) { $$$B }',
      'typeof $X === "function"',
      'new Promise(($R) => $B)',
      'require($M)',
      '$A.forEach(($X) => { $$$B })',
      'process.env.$V',
    ];
    const files = filesUnder(path.join(repoRoot(), 'node_modules'), /\.(js|mjs|ts)$/, 5).filter(
      (file) => !file.endsWith('.d.ts'),
    );
    await checkRefusals(files, (file) => (file.endsWith('.ts') ? 'typescript' : 'javascript'), patterns);
  });

  it("never refuses a file of Debian's Python the matcher finds a match in", async () => {
    const patterns = [
      'os.path.join($$$A)',
      'self.$X.append($Y)',
      'raise ValueError($M)',
      'isinstance($X, str)',
      'super().__init__($$$A)',
      'with open($F) as $H: $$$B',
      'for $K, $V in $D.items(): $$$B',
      'def __init__(self, $$$P): $$$B',
      'try: $$$B\nexcept Exception: pass',
    ];
    // Installed by .ci/run (python3): the standard library the differential tests use too.
    await checkRefusals(filesUnder('/usr/lib/python3.11', /\.py$/, 1), () => 'python', patterns);
  });
});

/** Every nth file under a folder whose name matches. */
function filesUnder(folder: string, name: RegExp, every: number): string[] {
  return fs
    .readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && name.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .filter((_, i) => i % every === 0);
}

/** Files the required texts let through but the runs refuse: the matcher must find nothing there. */
async function checkRefusals(
  files: readonly string[],
  languageOf: (file: string) => string,
  patterns: readonly string[],
): Promise<void> {
  let refused = 0;
  for (const file of files) {
    const text = fs.readFileSync(file, 'utf8');
    if (text.length > 300_000) continue;
    const language = languageOf(file);
    for (const pattern of patterns) {
      const summary = await compiled(language, pattern);
      if (!summary.requiredTexts.every((required) => text.includes(required)) || mayMatch(text, summary)) continue;
      refused++;
      assert.deepEqual(
        await matchTexts(language, pattern, text),
        [],
        `${pattern} in ${path.relative(repoRoot(), file)}`,
      );
    }
  }
  assert.ok(files.length > 200 && refused > 20, `${files.length} files, ${refused} refused by the runs alone`);
}
