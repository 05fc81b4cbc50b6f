import * as assert from 'node:assert/strict';
import { PatternError } from '../../src/structural/pattern';
import { matchesIn, MatchSpec, matchTexts, registry, rewritten } from './support/structuralEngine';

/** One or more specs per shipped language: pattern + source in, matched texts out. */
const SPECS: readonly MatchSpec[] = [
  // Dart: at the top level `dispose(x)` is a function signature; the ladder makes it the call.
  {
    language: 'dart',
    pattern: 'dispose($X)',
    source: 'void main() {\n  dispose(a);\n  b.dispose(c);\n}\n',
    matches: ['dispose(a)'],
  },
  {
    language: 'dart',
    pattern: 'if ($X != null) $X.dispose();',
    source: 'void f() {\n  if (a != null) a.dispose();\n  if (a != null) b.dispose();\n}\n',
    matches: ['if (a != null) a.dispose();'],
  },
  {
    language: 'dart',
    pattern: '$C.dispose()',
    source: 'class S {\n  void dispose() {\n    _controller.dispose();\n  }\n}\n',
    matches: ['_controller.dispose()'],
  },
  {
    language: 'python',
    pattern: 'print($$$A)',
    source: 'print(1, 2)\nprint()\nx = "print(3)"\n# print(4)\n',
    matches: ['print(1, 2)', 'print()'],
  },
  {
    language: 'python',
    pattern: 'def $F(self): $$$BODY',
    source: 'class A:\n    def f(self):\n        return 1\n    def g(self, x):\n        pass\n',
    matches: ['def f(self):\n        return 1'],
  },
  {
    language: 'rust',
    pattern: '$X.unwrap()',
    source: 'fn main() {\n    let a = b.unwrap();\n    let s = "c.unwrap()";\n}\n',
    matches: ['b.unwrap()'],
  },
  {
    language: 'rust',
    pattern: 'let $N = $V;',
    source: 'fn f() { let a = 1; let mut b = 2; }\n',
    matches: ['let a = 1;'],
  },
  {
    language: 'c',
    pattern: 'free($P)',
    source: 'void f(char *p) {\n  free(p);\n  /* free(q) */\n}\n',
    matches: ['free(p)'],
  },
  {
    language: 'cpp',
    pattern: 'std::move($X)',
    source: 'void f() { auto b = std::move(a); }\n',
    matches: ['std::move(a)'],
  },
  {
    language: 'typescript',
    pattern: 'console.log($$$A)',
    source: 'console.log("a", b);\nconsole.error(c);\n// console.log(d)\n',
    matches: ['console.log("a", b)'],
  },
  {
    language: 'tsx',
    pattern: '<Button $$$P />',
    source: 'const x = <div><Button a="1" /><Link /></div>;\n',
    matches: ['<Button a="1" />'],
  },
  {
    language: 'javascript',
    pattern: 'foo($A)',
    source: 'foo(1); foo(1, 2); foo( /* c */ x ); "foo(1)"; // foo(2)\n',
    matches: ['foo(1)', 'foo( /* c */ x )'],
  },
  {
    language: 'go',
    pattern: 'fmt.Println($$$A)',
    source: 'package main\n\nfunc main() {\n\tfmt.Println("a", b)\n\tfmt.Printf("%d", c)\n}\n',
    matches: ['fmt.Println("a", b)'],
  },
  {
    language: 'go',
    pattern: 'if err != nil { return $E }',
    source: 'package p\n\nfunc f() error {\n\tif err != nil {\n\t\treturn err\n\t}\n\treturn nil\n}\n',
    matches: ['if err != nil {\n\t\treturn err\n\t}'],
  },
  {
    language: 'java',
    pattern: '$X.dispose()',
    source: 'class A { void f() { a.dispose(); b.close(); } }\n',
    matches: ['a.dispose()'],
  },
  {
    language: 'kotlin',
    pattern: 'println($A)',
    source: 'fun main() {\n    println("hi")\n    print("no")\n}\n',
    matches: ['println("hi")'],
  },
  {
    language: 'swift',
    pattern: 'print($A)',
    source: 'func f() {\n    print("hi")\n    debugPrint("no")\n}\n',
    matches: ['print("hi")'],
  },
  { language: 'ruby', pattern: 'puts $A', source: 'def f\n  puts "hi"\n  print "no"\nend\n', matches: ['puts "hi"'] },
  {
    language: 'php',
    pattern: 'echo $A;',
    source: '<?php\nfunction f($x) {\n  echo $x;\n  print $x;\n}\n',
    matches: ['echo $x;'],
  },
  {
    language: 'c_sharp',
    pattern: 'Console.WriteLine($A)',
    source: 'class A { void F() { Console.WriteLine(x); Console.Write(y); } }\n',
    matches: ['Console.WriteLine(x)'],
  },
  {
    language: 'bash',
    pattern: 'rm -rf $A',
    source: 'rm -rf "$dir"\nrm -f x\necho "rm -rf y"\n',
    matches: ['rm -rf "$dir"'],
  },
  {
    language: 'lua',
    pattern: 'print($A)',
    source: 'print("a")\nlocal x = print(1)\nio.write("b")\n',
    matches: ['print("a")', 'print(1)'],
  },
  {
    language: 'json',
    pattern: '"version": $V',
    source: '{\n  "name": "x",\n  "version": "1.0.0",\n  "nested": { "version": 2 }\n}\n',
    matches: ['"version": "1.0.0"', '"version": 2'],
  },
  {
    language: 'yaml',
    pattern: 'image: $I',
    source: 'services:\n  web:\n    image: nginx\n    ports: [80]\n',
    matches: ['image: nginx'],
  },
  {
    language: 'css',
    pattern: 'color: $C',
    source: 'a { color: red; background: blue; }\nb { color: #fff }\n',
    matches: ['color: red;', 'color: #fff'],
  },
  {
    language: 'html',
    pattern: '<img $$$A>',
    source: '<p>text <img src="a.png"> <b>bold</b></p>\n',
    matches: ['<img src="a.png">'],
  },
];

describe('structural engine: one spec per language', function () {
  this.timeout(20_000);
  for (const spec of SPECS) {
    it(`${spec.language}: ${spec.pattern}`, async () => {
      assert.deepEqual(await matchTexts(spec.language, spec.pattern, spec.source), spec.matches);
    });
  }

  it('covers every shipped grammar', () => {
    const covered = new Set(SPECS.map((spec) => spec.language));
    assert.deepEqual(
      registry.ids.filter((id) => !covered.has(id)),
      [],
    );
  });
});

describe('structural engine: metavariables', function () {
  this.timeout(20_000);
  it('a repeated metavariable must capture the same code, whatever its layout', async () => {
    const source = 'if (a != null) a.dispose();\nif (a != null) b.dispose();\nif (a.b != null) a . b.dispose();\n';
    assert.deepEqual(await matchTexts('typescript', 'if ($X != null) $X.dispose()', source), [
      'if (a != null) a.dispose();',
      'if (a.b != null) a . b.dispose();',
    ]);
  });

  it('$_ binds nothing: two $_ may match different code', async () => {
    assert.deepEqual(await matchTexts('javascript', 'f($_, $_)', 'f(1, 2); f(3, 3); f(4)'), ['f(1, 2)', 'f(3, 3)']);
  });

  it('$$$ matches zero or more siblings and keeps separators', async () => {
    const [a, b] = await matchesIn('javascript', 'foo($$$ARGS)', 'foo(); foo(1,  2)');
    assert.equal(a.captures.get('ARGS')?.text, '');
    assert.equal(b.captures.get('ARGS')?.text, '1,  2');
  });

  it('a run in the middle backs off to let the rest match', async () => {
    const [match] = await matchesIn('javascript', 'f($$$A, last)', 'f(1, 2, last)');
    assert.equal(match.captures.get('A')?.text, '1, 2');
  });

  it('lower-case $x is literal (a PHP variable)', async () => {
    assert.deepEqual(await matchTexts('php', 'echo $x;', '<?php echo $x; echo $y;'), ['echo $x;']);
  });

  it('a single metavariable matches one named node, not several', async () => {
    assert.deepEqual(await matchTexts('python', 'f($A)', 'f(1)\nf(1, 2)\nf()\n'), ['f(1)']);
  });

  it('comments in the pattern and the file are ignored', async () => {
    assert.deepEqual(await matchTexts('javascript', 'foo(/* any */ $A)', 'foo(\n  // note\n  x\n)'), [
      'foo(\n  // note\n  x\n)',
    ]);
  });

  it('never matches inside string literals or comments', async () => {
    assert.deepEqual(await matchTexts('python', 'eval($X)', 's = "eval(x)"\n# eval(y)\n"""eval(z)"""\n'), []);
  });

  it('reports UTF-16 offsets and 0-based rows with non-ASCII source', async () => {
    const source = 'const s = "€😀";\nfoo(ünï);\n';
    const [match] = await matchesIn('javascript', 'foo($A)', source);
    assert.equal(source.slice(match.start, match.end), 'foo(ünï)');
    assert.equal(match.startRow, 1);
    assert.equal(match.captures.get('A')?.text, 'ünï');
  });
});

describe('structural engine: unparseable patterns', () => {
  it('names the contexts tried', async () => {
    await assert.rejects(matchesIn('javascript', 'foo(', 'x'), (error: unknown) => {
      assert.ok(error instanceof PatternError);
      assert.match(error.message, /does not parse as javascript in any context tried \(.*statement.*\)/);
      return true;
    });
  });

  it('an empty pattern is refused', async () => {
    await assert.rejects(matchesIn('python', '   ', 'x'), /empty/);
  });

  it('several statements are refused as not one node', async () => {
    await assert.rejects(matchesIn('javascript', 'a = 1; b = 2', 'a = 1; b = 2;'), /not as one node/);
  });

  it('a name used both as one node and as a run is refused', async () => {
    await assert.rejects(matchesIn('javascript', 'f($A, $$$A)', 'f(1)'), /both as \$A and \$\$\$A/);
  });
});

describe('structural engine: rewrite', () => {
  it('substitutes captures', async () => {
    assert.equal(
      await rewritten('javascript', '$X.dispose()', 'dispose($X)', 'a.dispose(); b.c.dispose();'),
      'dispose(a); dispose(b.c);',
    );
  });

  it('$$$ keeps the original separators', async () => {
    assert.equal(await rewritten('python', 'print($$$A)', 'log($$$A)', 'print(1,\n      2)\n'), 'log(1,\n      2)\n');
  });

  it('a multi-line rewrite follows the indentation of the match', async () => {
    const source = 'def f():\n    if x:\n        go(a)\n';
    const rewrite = 'if ready:\n    go($A)';
    assert.equal(
      await rewritten('python', 'go($A)', rewrite, source),
      'def f():\n    if x:\n        if ready:\n            go(a)\n',
    );
  });

  it('nested matches give way to the outermost', async () => {
    assert.equal(await rewritten('javascript', 'f($A)', 'g($A)', 'f(f(1));'), 'g(f(1));');
  });

  it('refuses a rewrite that uses an unbound name', async () => {
    await assert.rejects(
      rewritten('javascript', 'f($A)', 'g($B)', 'f(1)'),
      /uses \$B, which the pattern does not bind\. The pattern binds \$A/,
    );
  });

  it('rewrites non-ASCII text at the right offsets', async () => {
    assert.equal(
      await rewritten('javascript', 'foo($A)', 'bar($A)', 'const s = "€😀"; foo(ünï);'),
      'const s = "€😀"; bar(ünï);',
    );
  });
});

describe('structural engine: JSON metavariables are strings', () => {
  it('a metavariable stands for any value, or for a key when written in quotes', async () => {
    const source = '{ "a": 1, "b": [2], "c": { "a": true } }';
    assert.deepEqual(await matchTexts('json', '"a": $V', source), ['"a": 1', '"a": true']);
    assert.deepEqual(await matchTexts('json', '"$K": [$$$ITEMS]', source), ['"b": [2]']);
  });
});

describe('structural search: files over the size cap', function () {
  this.timeout(20_000);

  it('every search skips files over the cap, a file named alone too, and says how the cap is raised; a raised cap searches it', async () => {
    const { StructuralSearch, MAX_SEARCHED_FILE_LENGTH } = await import('../../src/structural/search');
    const { searchAnswer } = await import('../../src/structural/answers');
    // One long name: over the cap, yet a tree of a few nodes when the raised cap has it parsed.
    const big = `foo(1);\n${'x'.repeat(MAX_SEARCHED_FILE_LENGTH)}\n`;
    const texts: Record<string, string> = { '/w/small.js': 'foo(2);\n', '/w/bundle.js': big };
    const search = new StructuralSearch(registry, async (file) => texts[file]);
    const context = { display: (file: string) => file.slice(3), sizeCapHint: () => 'Raise it with the setting.' };
    const both = await search.search({ pattern: 'foo($A)', files: ['/w/small.js', '/w/bundle.js'], maxResults: 50 });
    assert.deepEqual(both.skippedFiles, [{ file: '/w/bundle.js', reason: 'too large', length: big.length }]);
    assert.equal(both.matchCount, 1);
    const capLine =
      /Not searched: 1 file over the size cap of 8 M characters: bundle\.js \([\d,]+ characters\)\. Raise it with the setting\.$/;
    assert.match(searchAnswer('foo($A)', both, context, 50), capLine);
    const alone = await search.search({ pattern: 'foo($A)', files: ['/w/bundle.js'], maxResults: 50 });
    assert.equal(alone.matchCount, 0);
    assert.deepEqual(alone.skippedFiles, both.skippedFiles);
    assert.match(searchAnswer('foo($A)', alone, context, 50), capLine);
    const raised = await search.search({
      pattern: 'foo($A)',
      files: ['/w/bundle.js'],
      maxResults: 50,
      maxFileLength: big.length,
    });
    assert.deepEqual([raised.matchCount, raised.skippedFiles], [1, []]);
  });
});
