/**
 * Rewrites keep the code whole: a rewrite replaces what the pattern covered, from its first to its
 * last token, and the matched node's tokens outside that (a statement's `;`, a leading `async`, an
 * `else` the pattern stopped before) stay. Per language, a realistic rewrite gives the exact text,
 * and the result parses again with the language's grammar without an ERROR or MISSING node.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ParsePool } from '../../src/structural/parsePool';
import { StructuralSearch } from '../../src/structural/search';
import { applyEdits } from '../../src/edits/textEdits';
import { matchesIn, parseErrors, registry, rewritten } from './support/structuralEngine';
import { repoRoot } from '../support/repoRoot';
import { suiteTempDir } from '../support/tempDir';

describe('structural rewrite: what a rewrite replaces', () => {
  it('keeps a terminator the pattern did not write', async () => {
    assert.equal(
      await rewritten('typescript', 'var $A = $B', 'let $A = $B', 'var first = 1;\nvar second = 2\n'),
      'let first = 1;\nlet second = 2\n',
    );
  });

  it('does not double a terminator the rewrite writes too', async () => {
    assert.equal(
      await rewritten('typescript', 'var $A = $B', 'let $A = $B;', 'var first = 1;\nvar second = 2\n'),
      'let first = 1;\nlet second = 2;\n',
    );
  });

  it('replaces a terminator the pattern wrote: the rewrite says what takes its place', async () => {
    assert.equal(
      await rewritten('typescript', 'var $A = $B;', 'let $A = $B', 'var first = 1;\nvar second = 2\n'),
      'let first = 1\nvar second = 2\n',
    );
  });

  it("a member written with its terminator, which the grammar keeps beside the member, covers the file's", async () => {
    const source = 'class A {\n  @Input() a: string;\n  @Input() b: number\n}\n';
    assert.equal(
      await rewritten('typescript', '@Input() $P: $T;', '@Input() readonly $P: $T;', source),
      'class A {\n  @Input() readonly a: string;\n  @Input() readonly b: number;\n}\n',
    );
    assert.equal(
      await rewritten('typescript', '@Input() $P: $T;', '@Input() readonly $P: $T', source),
      'class A {\n  @Input() readonly a: string\n  @Input() readonly b: number\n}\n',
    );
    assert.equal(
      await rewritten('rust', 'pub $N: $T,', 'pub(crate) $N: $T,', 'struct S {\n    pub a: u8,\n    pub b: u8\n}\n'),
      'struct S {\n    pub(crate) a: u8,\n    pub(crate) b: u8,\n}\n',
    );
  });

  it("a member's terminator the pattern wrote is covered past a comment, not past what the pattern stopped before", async () => {
    assert.equal(
      await rewritten(
        'typescript',
        '@Input() $P: $T;',
        '@Input() readonly $P: $T;',
        'class A {\n  @Input() a: string /* x */ ;\n}\n',
      ),
      'class A {\n  @Input() readonly a: string;\n}\n',
    );
    // The file's `;` follows `= 1`, which the pattern did not write: it is kept after what the pattern stopped before.
    assert.equal(
      await rewritten('typescript', '@Input() $P;', '@Input() readonly $P', 'class A {\n  @Input() a = 1;\n}\n'),
      'class A {\n  @Input() readonly a = 1;\n}\n',
    );
  });

  it('keeps a comment and spacing before the kept terminator', async () => {
    assert.equal(
      await rewritten('javascript', 'var $A = $B', 'let $A = $B', 'var a = 1 /* one */ ;\n'),
      'let a = 1 /* one */ ;\n',
    );
  });

  it('keeps a leading token the pattern did not write, and does not double one the rewrite writes', async () => {
    const source = 'async function load() {\n  await fetch();\n}\n';
    assert.equal(
      await rewritten('typescript', 'function $F() { $$$B }', 'function $F(): Promise<void> { $$$B }', source),
      'async function load(): Promise<void> { await fetch(); }\n',
    );
    assert.equal(
      await rewritten('typescript', 'function $F() { $$$B }', 'async function $F() { $$$B }', source),
      'async function load() { await fetch(); }\n',
    );
    assert.equal(
      await rewritten(
        'python',
        'def $F($$$A): $$$B',
        'def $F($$$A) -> None:\n    $$$B',
        'async def f(x):\n    await g(x)\n',
      ),
      'async def f(x) -> None:\n    await g(x)\n',
    );
  });

  it('a rewrite that merely begins with the same letters does not write the kept token', async () => {
    assert.equal(
      await rewritten('typescript', 'function $F() { $$$B }', 'asyncTask($F)', 'async function load() {}\n'),
      'async asyncTask(load)\n',
    );
  });

  it('keeps the children the pattern stopped before: an else, the rest of an import', async () => {
    assert.equal(
      await rewritten(
        'javascript',
        'if ($X == null) { $$$B }',
        'if ($X === undefined) { $$$B }',
        'if (a == null) { init(); } else { use(a); }\n',
      ),
      'if (a === undefined) { init(); } else { use(a); }\n',
    );
    assert.equal(
      await rewritten('python', 'import $X', 'import $X as np', 'import numpy, os\n'),
      'import numpy as np, os\n',
    );
  });

  it('a token skipped between the tokens the pattern wrote is replaced with the rest', async () => {
    assert.equal(await rewritten('typescript', 'f($A)', 'g($A)', 'f(x,);\n'), 'g(x);\n');
  });

  it('a $$$ run takes the tokens after it, as in ast-grep, so writing the run keeps them', async () => {
    const [match] = await matchesIn('typescript', 'f($$$A)', 'f(x,);');
    assert.equal(match.captures.get('A')?.text, 'x,');
    assert.equal(await rewritten('typescript', 'f($$$A)', 'g($$$A)', 'f(x,);\nf(a, b,);\n'), 'g(x,);\ng(a, b,);\n');
    assert.equal(
      await rewritten(
        'typescript',
        'class $C { $$$B }',
        'class $C extends Base {\n  $$$B\n}',
        'class A {\n  x = 1;\n  y = 2;\n}\n',
      ),
      'class A extends Base {\n  x = 1;\n  y = 2;\n}\n',
    );
  });

  describe('on parsing threads', function () {
    this.timeout(30_000);
    const dir = suiteTempDir('rewrite-pool-');
    let pool: ParsePool;

    beforeEach(() => (pool = new ParsePool({ script: path.join(repoRoot(), 'dist', 'parseWorker.js'), size: 1 })));
    afterEach(() => pool.dispose());

    it('a match sent from a parsing thread keeps what it did not cover', async () => {
      const file = path.join(dir(), 'vars.ts');
      const source = 'var first = 1;\nasync function load() {}\n';
      fs.writeFileSync(file, source);
      const search = new StructuralSearch(registry, (name) => fs.promises.readFile(name, 'utf8'), { pool });
      const rewrites = await Promise.all(
        [
          { pattern: 'var $A = $B', rewrite: 'let $A = $B' },
          { pattern: 'function $F() {}', rewrite: 'function $F(): Promise<void> {}' },
        ].map((request) => search.rewrite({ ...request, files: [file], maxReplacements: 10 })),
      );
      const edits = rewrites.flatMap((result) => result.files[0].replacements.map(({ edit }) => edit));
      assert.equal(applyEdits(source, edits), 'let first = 1;\nasync function load(): Promise<void> {}\n');
    });
  });
});

interface RewriteSpec {
  readonly language: string;
  readonly pattern: string;
  readonly rewrite: string;
  readonly source: string;
  readonly result: string;
}

/** Per language, realistic rewrites: a declaration keyword, a call inside a statement, a statement. */
const SPECS: readonly RewriteSpec[] = [
  {
    language: 'typescript',
    pattern: 'var $A = $B',
    rewrite: 'let $A = $B',
    source: 'var first = 1;\nvar second = 2\n',
    result: 'let first = 1;\nlet second = 2\n',
  },
  {
    language: 'typescript',
    pattern: 'console.log($$$A)',
    rewrite: 'logger.debug($$$A)',
    source: "function f(x: number) {\n  console.log('x', x);\n}\n",
    result: "function f(x: number) {\n  logger.debug('x', x);\n}\n",
  },
  {
    language: 'tsx',
    pattern: 'var $A = $B',
    rewrite: 'const $A = $B',
    source: 'var el = <A />;\n',
    result: 'const el = <A />;\n',
  },
  {
    language: 'javascript',
    pattern: 'var $A = $B',
    rewrite: 'const $A = $B',
    source: 'function f() {\n  var x = g();\n  return x;\n}\n',
    result: 'function f() {\n  const x = g();\n  return x;\n}\n',
  },
  {
    language: 'javascript',
    pattern: 'if ($X == null) { $$$B }',
    rewrite: 'if ($X === null || $X === undefined) { $$$B }',
    source: 'if (a == null) {\n  init();\n} else {\n  use(a);\n}\n',
    result: 'if (a === null || a === undefined) { init(); } else {\n  use(a);\n}\n',
  },
  {
    language: 'dart',
    pattern: 'final $A = $B',
    rewrite: 'var $A = $B',
    source: 'void main() {\n  final x = 1;\n  dispose(x);\n}\n',
    result: 'void main() {\n  var x = 1;\n  dispose(x);\n}\n',
  },
  {
    language: 'dart',
    pattern: 'if ($X != null) $X.dispose();',
    rewrite: '$X?.dispose();',
    source: 'void main() {\n  if (a != null) a.dispose();\n}\n',
    result: 'void main() {\n  a?.dispose();\n}\n',
  },
  {
    language: 'dart',
    pattern: 'void $F() { $$$B }',
    rewrite: 'Future<void> $F() async {\n  $$$B\n}',
    source: 'void main() {\n  dispose(x);\n  final x = 1;\n}\n',
    result: 'Future<void> main() async {\n  dispose(x);\n  final x = 1;\n}\n',
  },
  {
    language: 'dart',
    pattern: 'if ($X == null) return;',
    rewrite: "if ($X == null) throw StateError('missing');",
    source: 'void f(Object? a) {\n  if (a == null) return;\n  else use(a);\n}\n',
    result: "void f(Object? a) {\n  if (a == null) throw StateError('missing');\n  else use(a);\n}\n",
  },
  {
    language: 'c',
    pattern: 'free($P)',
    rewrite: 'xfree($P)',
    source: 'void f(char *p) {\n    free(p);\n}\n',
    result: 'void f(char *p) {\n    xfree(p);\n}\n',
  },
  {
    language: 'c',
    pattern: 'int $A = $B;',
    rewrite: 'long $A = $B;',
    source: 'void f(void) {\n    int x = 1;\n    g(x);\n}\n',
    result: 'void f(void) {\n    long x = 1;\n    g(x);\n}\n',
  },
  {
    language: 'c',
    pattern: 'if ($X == NULL) { $$$B }',
    rewrite: 'if (!$X) { $$$B }',
    source: 'void f(char *p) {\n    if (p == NULL) {\n        return;\n    } else {\n        use(p);\n    }\n}\n',
    result: 'void f(char *p) {\n    if (!p) { return; } else {\n        use(p);\n    }\n}\n',
  },
  {
    language: 'cpp',
    pattern: 'if ($X == NULL) { $$$B }',
    rewrite: 'if ($X == nullptr) { $$$B }',
    source: 'void f(int *p) {\n    if (p == NULL) {\n        return;\n    } else {\n        g(p);\n    }\n}\n',
    result: 'void f(int *p) {\n    if (p == nullptr) { return; } else {\n        g(p);\n    }\n}\n',
  },
  {
    language: 'cpp',
    pattern: 'std::cout << $X',
    rewrite: 'std::println("{}", $X)',
    source: 'void f(int x) {\n    std::cout << x;\n}\n',
    result: 'void f(int x) {\n    std::println("{}", x);\n}\n',
  },
  {
    language: 'java',
    pattern: 'System.out.println($X)',
    rewrite: 'LOG.info($X)',
    source: 'class C {\n  void f() {\n    System.out.println(x);\n  }\n}\n',
    result: 'class C {\n  void f() {\n    LOG.info(x);\n  }\n}\n',
  },
  {
    language: 'java',
    pattern: 'if ($X == null) { $$$B }',
    rewrite: 'if (Objects.isNull($X)) { $$$B }',
    source:
      'class C {\n  void f() {\n    if (x == null) {\n      return;\n    } else {\n      use(x);\n    }\n  }\n}\n',
    result: 'class C {\n  void f() {\n    if (Objects.isNull(x)) { return; } else {\n      use(x);\n    }\n  }\n}\n',
  },
  {
    language: 'c_sharp',
    pattern: 'var $A = $B',
    rewrite: 'using var $A = $B',
    source: 'class C {\n  void F() {\n    var x = Open();\n    G(x);\n  }\n}\n',
    result: 'class C {\n  void F() {\n    using var x = Open();\n    G(x);\n  }\n}\n',
  },
  {
    language: 'c_sharp',
    pattern: 'Console.WriteLine($X)',
    rewrite: 'logger.LogInformation($X)',
    source: 'class C {\n  void F() {\n    Console.WriteLine(x);\n  }\n}\n',
    result: 'class C {\n  void F() {\n    logger.LogInformation(x);\n  }\n}\n',
  },
  {
    language: 'c_sharp',
    pattern: 'if ($X == null) return;',
    rewrite: 'if ($X is null) return;',
    source: 'class C {\n  void F() {\n    if (x == null) return; else G();\n  }\n}\n',
    result: 'class C {\n  void F() {\n    if (x is null) return; else G();\n  }\n}\n',
  },
  {
    language: 'rust',
    pattern: '$X.unwrap()',
    rewrite: '$X?',
    source: 'fn f() -> R {\n    let x = g().unwrap();\n    Ok(x)\n}\n',
    result: 'fn f() -> R {\n    let x = g()?;\n    Ok(x)\n}\n',
  },
  // A match arm owns its `,`: dropping it would run into the next arm.
  {
    language: 'rust',
    pattern: 'Some($X) => $Y',
    rewrite: 'Some($X) => Ok($Y)',
    source: 'fn f(x: Option<i32>) -> R {\n    match x {\n        Some(y) => y,\n        None => Err(E),\n    }\n}\n',
    result:
      'fn f(x: Option<i32>) -> R {\n    match x {\n        Some(y) => Ok(y),\n        None => Err(E),\n    }\n}\n',
  },
  {
    language: 'rust',
    pattern: 'if $C { $$$B }',
    rewrite: 'if $C && ready() { $$$B }',
    source: 'fn f() {\n    if a {\n        g();\n    } else {\n        h();\n    }\n}\n',
    result: 'fn f() {\n    if a && ready() { g(); } else {\n        h();\n    }\n}\n',
  },
  {
    language: 'go',
    pattern: 'fmt.Println($$$A)',
    rewrite: 'log.Println($$$A)',
    source: 'package p\n\nfunc f() {\n\tfmt.Println(1, 2)\n}\n',
    result: 'package p\n\nfunc f() {\n\tlog.Println(1, 2)\n}\n',
  },
  {
    language: 'go',
    pattern: 'var $A = $B',
    rewrite: '$A := $B',
    source: 'package p\n\nfunc f() {\n\tvar x = 1\n\tg(x)\n}\n',
    result: 'package p\n\nfunc f() {\n\tx := 1\n\tg(x)\n}\n',
  },
  {
    language: 'go',
    pattern: 'errors.New(fmt.Sprintf($$$A))',
    rewrite: 'fmt.Errorf($$$A)',
    source: 'package p\n\nfunc f(n int) error {\n\treturn errors.New(fmt.Sprintf("bad %d", n))\n}\n',
    result: 'package p\n\nfunc f(n int) error {\n\treturn fmt.Errorf("bad %d", n)\n}\n',
  },
  {
    language: 'python',
    pattern: 'print($$$A)',
    rewrite: 'logging.info($$$A)',
    source: 'def f():\n    print(1, 2)\n',
    result: 'def f():\n    logging.info(1, 2)\n',
  },
  {
    language: 'python',
    pattern: 'import $X',
    rewrite: 'import $X as np',
    source: 'import numpy, os\n',
    result: 'import numpy as np, os\n',
  },
  {
    language: 'python',
    pattern: 'def $F($$$A): $$$B',
    rewrite: 'def $F($$$A) -> None:\n    $$$B',
    source: 'async def f(x):\n    await g(x)\n    h()\n',
    result: 'async def f(x) -> None:\n    await g(x)\n    h()\n',
  },
  {
    language: 'typescript',
    pattern: '@Input() $P: $T;',
    rewrite: '@Input() readonly $P: $T;',
    source: 'class A {\n  @Input() a: string;\n  @Input() b = 1;\n}\n',
    result: 'class A {\n  @Input() readonly a: string;\n  @Input() b = 1;\n}\n',
  },
  {
    language: 'rust',
    pattern: 'pub $N: $T,',
    rewrite: 'pub(crate) $N: $T,',
    source: 'struct S {\n    pub a: u8,\n    b: u8,\n}\n',
    result: 'struct S {\n    pub(crate) a: u8,\n    b: u8,\n}\n',
  },
  {
    language: 'kotlin',
    pattern: 'val $N: $T = $V;',
    rewrite: 'var $N: $T = $V;',
    source: 'class A {\n    val a: Int = 1;\n    val b = 2\n}\n',
    result: 'class A {\n    var a: Int = 1;\n    val b = 2\n}\n',
  },
  {
    language: 'kotlin',
    pattern: 'val $A = $B',
    rewrite: 'var $A = $B',
    source: 'fun f() {\n    val x = 1\n    g(x)\n}\n',
    result: 'fun f() {\n    var x = 1\n    g(x)\n}\n',
  },
  {
    language: 'kotlin',
    pattern: 'println($X)',
    rewrite: 'logger.info($X)',
    source: 'fun f() {\n    println(x)\n}\n',
    result: 'fun f() {\n    logger.info(x)\n}\n',
  },
  {
    language: 'kotlin',
    pattern: 'if ($X != null) { $$$B }',
    rewrite: '$X?.let { $$$B }',
    source: 'fun f() {\n    if (x != null) {\n        g()\n    }\n}\n',
    result: 'fun f() {\n    x?.let { g() }\n}\n',
  },
  {
    language: 'php',
    pattern: 'var_dump($X)',
    rewrite: 'error_log(print_r($X, true))',
    source: '<?php\nvar_dump($x);\n',
    result: '<?php\nerror_log(print_r($x, true));\n',
  },
  {
    language: 'php',
    pattern: 'array_push($A, $B)',
    rewrite: 'array_unshift($A, $B)',
    source: '<?php\narray_push($xs, 1);\n',
    result: '<?php\narray_unshift($xs, 1);\n',
  },
  {
    language: 'php',
    pattern: 'if ($C) { $$$B }',
    rewrite: 'if (!($C)) { $$$B }',
    source: '<?php\nif ($a) {\n  f();\n} else {\n  g();\n}\n',
    result: '<?php\nif (!($a)) { f(); } else {\n  g();\n}\n',
  },
  {
    language: 'swift',
    pattern: 'var $A = $B',
    rewrite: 'let $A = $B',
    source: 'func f() {\n  var x = 1;\n  g(x)\n}\n',
    result: 'func f() {\n  let x = 1;\n  g(x)\n}\n',
  },
  {
    language: 'ruby',
    pattern: 'puts $X',
    rewrite: 'logger.info $X',
    source: 'puts x\n',
    result: 'logger.info x\n',
  },
  {
    language: 'lua',
    pattern: 'local $A = $B',
    rewrite: '$A = $B',
    source: 'local x = 1;\nf(x)\n',
    result: 'x = 1;\nf(x)\n',
  },
];

describe('structural rewrite: per language, the result parses cleanly', () => {
  for (const spec of SPECS) {
    it(`${spec.language}: \`${spec.pattern}\` → \`${spec.rewrite.replace(/\n/g, '\\n')}\``, async () => {
      assert.deepEqual(await parseErrors(spec.language, spec.source), [], 'the source itself parses');
      const result = await rewritten(spec.language, spec.pattern, spec.rewrite, spec.source);
      assert.equal(result, spec.result);
      assert.deepEqual(await parseErrors(spec.language, result), [], result);
    });
  }
});
