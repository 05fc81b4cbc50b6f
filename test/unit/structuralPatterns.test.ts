/**
 * Patterns whose own node a plain scaffold does not give (issue 18): a statement written without
 * the `;` the scaffold adds, a block of `$$$`, a metavariable that is the body of a compound
 * statement, a member written with its terminator, an annotation alone. One table per class, a spec
 * per language where the class exists: pattern + source in, matched texts out, each source holding
 * code the pattern must not match. The survey behind the tables is in docs/architecture.md.
 */
import * as assert from 'node:assert/strict';
import { PatternError } from '../../src/structural/pattern';
import { matchesIn, matchesOnTreeAndIndex, MatchSpec, matchTexts, rewritten } from './support/structuralEngine';

/** A statement written without its `;`: the node takes in the `;` the "statement;" scaffold adds. */
const STATEMENTS_WITHOUT_TERMINATOR: readonly MatchSpec[] = [
  {
    language: 'dart',
    pattern: 'if ($X != null) $X.dispose()',
    source: 'void f() {\n  if (a != null) a.dispose();\n  if (a != null) b.dispose();\n}\n',
    matches: ['if (a != null) a.dispose();'],
  },
  {
    language: 'c',
    pattern: 'int $A = $B',
    source: 'void f(void) {\n  int a = 1;\n  long b = 2;\n}\n',
    matches: ['int a = 1;'],
  },
  {
    language: 'cpp',
    pattern: 'auto $X = std::make_unique<$T>($$$A)',
    source: 'void f() {\n  auto a = std::make_unique<A>(1);\n  auto b = std::make_shared<B>();\n}\n',
    matches: ['auto a = std::make_unique<A>(1);'],
  },
  {
    language: 'java',
    pattern: 'int $A = $B',
    source: 'class A {\n  void f() {\n    int a = 1;\n    long b = 2;\n  }\n}\n',
    matches: ['int a = 1;'],
  },
  {
    language: 'rust',
    pattern: 'let $N = $V',
    source: 'fn f() {\n    let a = 1;\n    let mut b = 2;\n}\n',
    matches: ['let a = 1;'],
  },
  {
    language: 'php',
    pattern: 'return $X',
    source: '<?php\nfunction f() {\n    return 1;\n}\nfunction g() {\n    yield 1;\n}\n',
    matches: ['return 1;'],
  },
];

/** A block holding a `$$$` run (or one statement metavariable), where the grammar ends statements with `;`. */
const BLOCKS_OF_RUNS: readonly MatchSpec[] = [
  {
    language: 'dart',
    pattern: 'setState(() { $$$A })',
    source: 'void f() {\n  setState(() { x = 1; y(); });\n  other(() { x = 2; });\n}\n',
    matches: ['setState(() { x = 1; y(); })'],
  },
  {
    language: 'dart',
    pattern: 'try { $$$A } catch ($E) { $$$B }',
    source: 'void f() {\n  try { a(); } catch (e) { b(e); }\n  try { a(); } finally { b(); }\n}\n',
    matches: ['try { a(); } catch (e) { b(e); }'],
  },
  // Without the run made a statement, Dart reads this body as a set literal.
  {
    language: 'dart',
    pattern: 'if ($X != null) { $$$B }',
    source: 'void f() {\n  if (a != null) {\n    a.dispose();\n  }\n  if (a == null) {\n    b();\n  }\n}\n',
    matches: ['if (a != null) {\n    a.dispose();\n  }'],
  },
  {
    language: 'dart',
    pattern: 'while ($C) { $S }',
    source: 'void f() {\n  while (a) { g(); }\n  while (a) { g(); h(); }\n}\n',
    matches: ['while (a) { g(); }'],
  },
  {
    language: 'dart',
    pattern: 'setState(() {\n  $$$A\n})',
    source: 'void f() {\n  setState(() {\n    x = 1;\n  });\n}\n',
    matches: ['setState(() {\n    x = 1;\n  })'],
  },
  {
    language: 'c',
    pattern: 'if ($C) { $$$B }',
    source: 'void f(void) {\n  if (a) { g(); h(); }\n  while (a) { g(); }\n}\n',
    matches: ['if (a) { g(); h(); }'],
  },
  {
    language: 'cpp',
    pattern: 'for (auto& $X : $C) { $$$B }',
    source: 'void f() {\n  for (auto& x : xs) { g(x); }\n  for (auto x : xs) { g(x); }\n}\n',
    matches: ['for (auto& x : xs) { g(x); }'],
  },
  {
    language: 'java',
    pattern: 'try { $$$A } catch ($T $E) { $$$B }',
    source:
      'class A {\n  void f() {\n    try { g(); } catch (IOException e) { h(e); }\n    try { g(); } finally { h(); }\n  }\n}\n',
    matches: ['try { g(); } catch (IOException e) { h(e); }'],
  },
  {
    language: 'java',
    pattern: 'if ($C) { $$$B } else { $$$E }',
    source: 'class A { void f() { if (a) { g(); } else { h(); } if (a) { g(); } } }\n',
    matches: ['if (a) { g(); } else { h(); }'],
  },
  // C# has no statement that is a bare name: the run is made one as `mvm_B();`.
  {
    language: 'c_sharp',
    pattern: 'if ($X != null) { $$$B }',
    source:
      'class A {\n    void F() {\n        if (a != null) { a.Dispose(); }\n        if (a == null) { B(); }\n    }\n}\n',
    matches: ['if (a != null) { a.Dispose(); }'],
  },
  {
    language: 'c_sharp',
    pattern: 'using (var $X = $Y) { $$$B }',
    source:
      'class A {\n    void F() {\n        using (var s = Open()) { s.Read(); }\n        lock (s) { s.Read(); }\n    }\n}\n',
    matches: ['using (var s = Open()) { s.Read(); }'],
  },
  {
    language: 'c_sharp',
    pattern: 'while ($C) { $S }',
    source: 'class A { void F() { while (a) { G(); } while (a) { G(); H(); } } }\n',
    matches: ['while (a) { G(); }'],
  },
  {
    language: 'php',
    pattern: 'foreach ($L as $V) { $$$B }',
    source: '<?php\nforeach ($xs as $x) { f($x); }\nwhile ($a) { f(); }\n',
    matches: ['foreach ($xs as $x) { f($x); }'],
  },
  {
    language: 'rust',
    pattern: 'unsafe { $$$A }',
    source: 'fn f() {\n    unsafe { g(); h(); }\n    { g(); }\n}\n',
    matches: ['unsafe { g(); h(); }'],
  },
  {
    language: 'typescript',
    pattern: 'try { $$$A } catch ($E) { $$$B }',
    source: 'try { f(); } catch (e) { g(e); }\ntry { f(); } finally { g(); }\n',
    matches: ['try { f(); } catch (e) { g(e); }'],
  },
  {
    language: 'tsx',
    pattern: 'useEffect(() => { $$$A }, [$$$D])',
    source: 'useEffect(() => { f(); }, [a]);\nuseMemo(() => { f(); }, [a]);\n',
    matches: ['useEffect(() => { f(); }, [a])'],
  },
  {
    language: 'javascript',
    pattern: 'describe($N, () => { $$$A })',
    source: "describe('a', () => { it('x', f); });\nit('b', () => { f(); });\n",
    matches: ["describe('a', () => { it('x', f); })"],
  },
  {
    language: 'go',
    pattern: 'if err != nil { $$$A }',
    source:
      'package p\n\nfunc f() error {\n\tif err != nil {\n\t\treturn err\n\t}\n\tif err == nil {\n\t\treturn nil\n\t}\n\treturn nil\n}\n',
    matches: ['if err != nil {\n\t\treturn err\n\t}'],
  },
  {
    language: 'kotlin',
    pattern: 'runBlocking { $$$A }',
    source: 'fun main() {\n    runBlocking { f() }\n    launch { f() }\n}\n',
    matches: ['runBlocking { f() }'],
  },
  {
    language: 'swift',
    pattern: 'DispatchQueue.main.async { $$$A }',
    source: 'func f() {\n    DispatchQueue.main.async { g() }\n    DispatchQueue.global().async { g() }\n}\n',
    matches: ['DispatchQueue.main.async { g() }'],
  },
  {
    language: 'python',
    pattern: 'try:\n    $$$A\nexcept $E:\n    $$$B',
    source: 'try:\n    f()\nexcept ValueError:\n    g()\ntry:\n    f()\nfinally:\n    g()\n',
    matches: ['try:\n    f()\nexcept ValueError:\n    g()'],
  },
  {
    language: 'ruby',
    pattern: '$X.each do |$I|\n  $$$B\nend',
    source: 'xs.each do |x|\n  f(x)\nend\nxs.map do |x|\n  f(x)\nend\n',
    matches: ['xs.each do |x|\n  f(x)\nend'],
  },
  {
    language: 'lua',
    pattern: 'for $I, $V in ipairs($T) do $$$B end',
    source: 'for i, v in ipairs(t) do print(v) end\nfor k, v in pairs(t) do print(v) end\n',
    matches: ['for i, v in ipairs(t) do print(v) end'],
  },
  {
    language: 'bash',
    pattern: 'if $C; then\n  $$$B\nfi',
    source: 'if true; then\n  echo a\nfi\nwhile true; do\n  echo b\ndone\n',
    matches: ['if true; then\n  echo a\nfi'],
  },
  {
    language: 'css',
    pattern: '@media $Q { $$$R }',
    source: '@media print { a { color: red; } }\n@supports (x: y) { b {} }\n',
    matches: ['@media print { a { color: red; } }'],
  },
  {
    language: 'json',
    pattern: '"files": [$$$F]',
    source: '{\n  "files": ["a", "b"],\n  "main": "x"\n}\n',
    matches: ['"files": ["a", "b"]'],
  },
  {
    language: 'yaml',
    pattern: 'steps:\n  $$$S',
    source: 'steps:\n  - a\n  - b\njobs: 1\n',
    matches: ['steps:\n  - a\n  - b'],
  },
  {
    language: 'html',
    pattern: '<ul>$$$I</ul>',
    source: '<ul><li>a</li></ul><ol><li>b</li></ol>\n',
    matches: ['<ul><li>a</li></ul>'],
  },
];

/** A metavariable that is the body of a compound statement, last in the pattern or before `else`. */
const STATEMENT_BODIES: readonly MatchSpec[] = [
  {
    language: 'dart',
    pattern: 'for (final $E in $L) $BODY',
    source: 'void f() {\n  for (final e in items) print(e);\n  for (var e in items) print(e);\n}\n',
    matches: ['for (final e in items) print(e);'],
  },
  {
    language: 'dart',
    pattern: 'if ($C) $S else $E',
    source: 'void f() {\n  if (a) g(); else h();\n  if (a) g();\n}\n',
    matches: ['if (a) g(); else h();'],
  },
  {
    language: 'c',
    pattern: 'for ($I = 0; $I < $N; $I++) $BODY',
    source: 'void f(void) {\n  for (i = 0; i < n; i++) g(i);\n  for (i = 0; i <= n; i++) g(i);\n}\n',
    matches: ['for (i = 0; i < n; i++) g(i);'],
  },
  {
    language: 'c',
    pattern: 'while ($C) $BODY',
    source: 'void f(void) {\n  while (a) g();\n  do g(); while (a);\n}\n',
    matches: ['while (a) g();'],
  },
  {
    language: 'cpp',
    pattern: 'for (auto& $X : $C) $BODY',
    source: 'void f() {\n  for (auto& x : xs) g(x);\n  for (auto x : xs) g(x);\n}\n',
    matches: ['for (auto& x : xs) g(x);'],
  },
  {
    language: 'java',
    pattern: 'for ($T $X : $L) $BODY',
    source: 'class A {\n  void f() {\n    for (String s : xs) g(s);\n    for (int i = 0; i < n; i++) g(i);\n  }\n}\n',
    matches: ['for (String s : xs) g(s);'],
  },
  // The body is a block, a statement or anything else a C# statement can be.
  {
    language: 'c_sharp',
    pattern: 'foreach (var $X in $L) $BODY',
    source:
      'class A {\n    void F() {\n        foreach (var x in xs) G(x);\n        foreach (int x in xs) G(x);\n        foreach (var y in ys) { H(y); }\n    }\n}\n',
    matches: ['foreach (var x in xs) G(x);', 'foreach (var y in ys) { H(y); }'],
  },
  {
    language: 'c_sharp',
    pattern: 'if ($C) $A; else $B',
    source: 'class A {\n    void F() {\n        if (a) G(); else H();\n        if (a) G();\n    }\n}\n',
    matches: ['if (a) G(); else H();'],
  },
  {
    language: 'php',
    pattern: 'if ($C) $S',
    source: '<?php\nif ($a) f();\nwhile ($a) f();\n',
    matches: ['if ($a) f();'],
  },
  {
    language: 'typescript',
    pattern: 'for (const $X of $L) $BODY',
    source: 'for (const x of xs) f(x);\nfor (let x of xs) f(x);\n',
    matches: ['for (const x of xs) f(x);'],
  },
  {
    language: 'tsx',
    pattern: 'if ($C) $S',
    source: 'if (a) f();\nwhile (a) f();\n',
    matches: ['if (a) f();'],
  },
  {
    language: 'javascript',
    pattern: 'while ($C) $BODY',
    source: 'while (a) f();\ndo f(); while (a);\n',
    matches: ['while (a) f();'],
  },
  {
    language: 'kotlin',
    pattern: 'for ($X in $L) $BODY',
    source: 'fun f() {\n    for (x in xs) g(x)\n    while (a) g(a)\n}\n',
    matches: ['for (x in xs) g(x)'],
  },
  {
    language: 'python',
    pattern: 'if $C: $BODY',
    source: 'if a: return 1\nwhile b: pass\n',
    matches: ['if a: return 1'],
  },
  {
    language: 'ruby',
    pattern: 'if $C then $S end',
    source: 'if a then f end\nunless a then f end\n',
    matches: ['if a then f end'],
  },
  // Where bodies are always blocks, the metavariable stands in the block.
  {
    language: 'rust',
    pattern: 'for $I in $R { $BODY }',
    source: 'fn f() {\n    for i in 0..n { g(i); }\n    for i in 0..n { g(i); h(i); }\n}\n',
    matches: ['for i in 0..n { g(i); }'],
  },
  {
    language: 'go',
    pattern: 'for $K, $V := range $M { $BODY }',
    source:
      'package p\n\nfunc f() {\n\tfor k, v := range m {\n\t\tg(k, v)\n\t}\n\tfor k := range m {\n\t\tg(k)\n\t}\n}\n',
    matches: ['for k, v := range m {\n\t\tg(k, v)\n\t}'],
  },
  {
    language: 'swift',
    pattern: 'if $C { $S }',
    source: 'func f() {\n    if a { g() }\n    while a { g() }\n}\n',
    matches: ['if a { g() }'],
  },
  {
    language: 'lua',
    pattern: 'if $C then $$$S end',
    source: 'if a then f() end\nwhile a do f() end\n',
    matches: ['if a then f() end'],
  },
];

/** A member written with its terminator, which the grammar keeps beside the member's node (or drops). */
const MEMBERS_WITH_TERMINATORS: readonly MatchSpec[] = [
  {
    language: 'typescript',
    pattern: '@Input() $P: $T;',
    source: 'class A {\n  @Input() name: string;\n  @Output() changed: EventEmitter<string>;\n}\n',
    matches: ['@Input() name: string;'],
  },
  {
    language: 'typescript',
    pattern: 'private readonly $N: $T;',
    source: 'class A {\n  private readonly a: string;\n  private b: number;\n}\n',
    matches: ['private readonly a: string;'],
  },
  {
    language: 'tsx',
    pattern: 'private $N: $T;',
    source: 'class A {\n  private a: string;\n  public b: number;\n}\n',
    matches: ['private a: string;'],
  },
  {
    language: 'javascript',
    pattern: 'static $N = $V;',
    source: 'class A {\n  static a = 1;\n  b = 2;\n}\n',
    matches: ['static a = 1;'],
  },
  {
    language: 'rust',
    pattern: 'pub $N: $T,',
    source: 'struct S {\n    pub a: u32,\n    b: u32,\n}\n',
    matches: ['pub a: u32,'],
  },
  {
    language: 'go',
    pattern: 'Name $T;',
    source: 'package p\n\ntype S struct {\n\tName string\n\tAge  int\n}\n',
    matches: ['Name string'],
  },
  // Kotlin's grammar keeps no node for the `;`.
  {
    language: 'kotlin',
    pattern: 'val $N: $T;',
    source: 'class A {\n    val a: Int = 1\n    var b: Int = 2\n}\n',
    matches: ['val a: Int = 1'],
  },
  {
    language: 'php',
    pattern: 'const $N = $V;',
    source: '<?php\nclass A {\n    const X = 1;\n    public $y = 2;\n}\n',
    matches: ['const X = 1;'],
  },
  {
    language: 'python',
    pattern: 'x = $V;',
    source: 'x = 1;\ny = 2\n',
    matches: ['x = 1;'],
  },
  {
    language: 'lua',
    pattern: '$K = $V,',
    source: 'local t = {\n  a = 1,\n  [2] = 3,\n}\n',
    matches: ['a = 1,'],
  },
  {
    language: 'json',
    pattern: '"version": $V,',
    source: '{\n  "version": "1.0",\n  "name": "x"\n}\n',
    matches: ['"version": "1.0",'],
  },
  {
    language: 'css',
    pattern: 'color: $C;',
    source: 'a { color: red; background: blue; }\n',
    matches: ['color: red;'],
  },
];

/** An annotation, decorator or attribute on its own. */
const ANNOTATIONS: readonly MatchSpec[] = [
  {
    language: 'typescript',
    pattern: '@Component({$$$A})',
    source: "@Component({ selector: 'a' })\nclass A {}\n@Injectable()\nclass B {}\n",
    matches: ["@Component({ selector: 'a' })"],
  },
  {
    language: 'tsx',
    pattern: '@observer',
    source: '@observer\nclass A extends React.Component {}\n@inject\nclass B {}\n',
    matches: ['@observer'],
  },
  {
    language: 'javascript',
    pattern: '@sealed',
    source: '@sealed\nclass A {}\n@frozen\nclass B {}\n',
    matches: ['@sealed'],
  },
  {
    language: 'python',
    pattern: '@pytest.mark.parametrize($$$A)',
    source: "@pytest.mark.parametrize('x', [1])\ndef test_a(x): pass\n@pytest.fixture\ndef b(): pass\n",
    matches: ["@pytest.mark.parametrize('x', [1])"],
  },
  {
    language: 'dart',
    pattern: '@override',
    source: 'class A {\n  @override\n  void dispose() {}\n  @deprecated\n  void f() {}\n}\n',
    matches: ['@override'],
  },
  {
    language: 'dart',
    pattern: '@Deprecated($M)',
    source: "@Deprecated('use g')\nvoid f() {}\n@override\nvoid g() {}\n",
    matches: ["@Deprecated('use g')"],
  },
  {
    language: 'java',
    pattern: '@SuppressWarnings($V)',
    source: 'class A {\n  @SuppressWarnings("unchecked")\n  void f() {}\n  @Deprecated\n  void g() {}\n}\n',
    matches: ['@SuppressWarnings("unchecked")'],
  },
  // In a body Kotlin reads `@Suppress(x)` as an annotated expression: the annotation rung comes first.
  {
    language: 'kotlin',
    pattern: '@Suppress($$$A)',
    source: 'class A {\n    @Suppress("x")\n    fun f() {}\n    @Deprecated("y")\n    fun g() {}\n}\n',
    matches: ['@Suppress("x")'],
  },
  {
    language: 'swift',
    pattern: '@available($$$A)',
    source: '@available(iOS 13, *)\nfunc f() {}\n@objc\nfunc g() {}\n',
    matches: ['@available(iOS 13, *)'],
  },
  {
    language: 'php',
    pattern: '#[Route($$$A)]',
    source: "<?php\n#[Route('/x')]\nclass A {}\n#[Other]\nclass B {}\n",
    matches: ["#[Route('/x')]"],
  },
  // In an expression `[Fact]` is a collection: the attribute rung comes before it.
  {
    language: 'c_sharp',
    pattern: '[HttpGet($P)]',
    source: 'class A {\n    [HttpGet("x")]\n    public void T() {}\n    [HttpPost("x")]\n    public void U() {}\n}\n',
    matches: ['[HttpGet("x")]'],
  },
  {
    language: 'rust',
    pattern: '#[derive($$$T)]',
    source: '#[derive(Debug, Clone)]\nstruct S;\n#[test]\nfn t() {}\n',
    matches: ['#[derive(Debug, Clone)]'],
  },
  {
    language: 'cpp',
    pattern: '[[nodiscard]]',
    source: '[[nodiscard]] int f();\n[[deprecated]] int g();\n',
    matches: ['[[nodiscard]]'],
  },
];

/** Readings that must not change: a node that takes in the scaffold's `;` loses to a rung with a node of the fragment's own. */
const READINGS_KEPT: readonly MatchSpec[] = [
  // With the `;` of "statement;" C reads a pointer declaration; the expression rung reads the product.
  { language: 'c', pattern: '$A * $B', source: 'int f(void) { return a * b; }\n', matches: ['a * b'] },
  {
    language: 'c_sharp',
    pattern: '(string) $X',
    source: 'class A { void F() { var s = (string) o; } }\n',
    matches: ['(string) o'],
  },
  // In an expression a run in braces is still a set or map.
  {
    language: 'dart',
    pattern: 'var $V = { $$$E }',
    source: 'void f() {\n  var a = {1, 2};\n  final b = {3};\n}\n',
    matches: ['var a = {1, 2}'],
  },
];

/** From `flutter create`'s counter app and url_launcher's example (flutter/packages). */
const FLUTTER_STATE = `class _MyHomePageState extends State<MyHomePage> {
  int _counter = 0;

  void _incrementCounter() {
    setState(() {
      _counter++;
    });
  }

  Future<void> _launchUrl() async {
    if (!await launchUrl(_url)) {
      throw Exception('Could not launch $_url');
    }
  }

  @override
  @mustCallSuper
  void dispose() {
    super.dispose();
  }

  @override
  Widget build(BuildContext context) {
    return Scaffold(
      appBar: AppBar(title: Text(widget.title)),
    );
  }
}

Widget build(BuildContext context) => const Placeholder();

Future<void> main() async {
  runApp(const MyApp());
}
`;

/**
 * Dart methods, as developers write them: a function pattern matches a class's method (its
 * signature wrapped in a \`method_signature\`, the class-member reading) as it matches a top-level
 * function; annotations written above it must be right above the method.
 */
const DART_METHODS: readonly MatchSpec[] = [
  {
    language: 'dart',
    pattern: 'Widget build(BuildContext context) { $$$B }',
    source: FLUTTER_STATE,
    matches: [
      'Widget build(BuildContext context) {\n    return Scaffold(\n      appBar: AppBar(title: Text(widget.title)),\n    );\n  }',
    ],
  },
  {
    language: 'dart',
    pattern: '@override\nWidget build(BuildContext context) { $$$B }',
    source: FLUTTER_STATE,
    matches: [
      '@override\n  Widget build(BuildContext context) {\n    return Scaffold(\n      appBar: AppBar(title: Text(widget.title)),\n    );\n  }',
    ],
  },
  {
    language: 'dart',
    pattern: 'Future<$T> $F($$$P) async { $$$B }',
    source: FLUTTER_STATE,
    matches: [
      "Future<void> _launchUrl() async {\n    if (!await launchUrl(_url)) {\n      throw Exception('Could not launch $_url');\n    }\n  }",
      'Future<void> main() async {\n  runApp(const MyApp());\n}',
    ],
  },
  {
    language: 'dart',
    pattern: 'void $F() { $$$B }',
    source: FLUTTER_STATE,
    matches: [
      'void _incrementCounter() {\n    setState(() {\n      _counter++;\n    });\n  }',
      'void dispose() {\n    super.dispose();\n  }',
    ],
  },
  // The annotation right above the method is @mustCallSuper; @override above it may come before.
  {
    language: 'dart',
    pattern: '@mustCallSuper\nvoid dispose() { $$$B }',
    source: FLUTTER_STATE,
    matches: ['@mustCallSuper\n  void dispose() {\n    super.dispose();\n  }'],
  },
  { language: 'dart', pattern: '@override\nvoid dispose() { $$$B }', source: FLUTTER_STATE, matches: [] },
  // An annotation in a comment is none; a comment between the annotation and the method is skipped.
  {
    language: 'dart',
    pattern: '@override\nWidget build(BuildContext context) { $$$B }',
    source:
      'class A {\n  // @override\n  Widget build(BuildContext context) { return a; }\n}\n' +
      'class B {\n  @override\n  // why\n  Widget build(BuildContext context) { return b; }\n}\n',
    matches: ['@override\n  // why\n  Widget build(BuildContext context) { return b; }'],
  },
  {
    language: 'dart',
    pattern: '@Deprecated($M)\nvoid $F() { $$$B }',
    source: "class A {\n  @Deprecated('use g')\n  void f() { g(); }\n  void g() {}\n}\n",
    matches: ["@Deprecated('use g')\n  void f() { g(); }"],
  },
];

/**
 * Known limits, kept so a change is noticed. The statement rung comes first, so a member-looking
 * declaration compiles as a local and matches no field; Swift keeps `x;` as a list of statements.
 */
const KNOWN_LIMITS: readonly MatchSpec[] = [
  { language: 'dart', pattern: 'final $T $N;', source: 'class A {\n  final int x;\n}\n', matches: [] },
  {
    language: 'java',
    pattern: 'private final $T $N;',
    source: 'class A {\n  private final String a;\n}\n',
    matches: [],
  },
  {
    language: 'c_sharp',
    pattern: 'private readonly $T $N;',
    source: 'class A {\n    private readonly int a;\n}\n',
    matches: [],
  },
  { language: 'cpp', pattern: 'int $N;', source: 'class A {\n  int a;\n};\n', matches: [] },
  { language: 'c', pattern: 'int $N;', source: 'struct s {\n  int a;\n};\n', matches: [] },
  // A macro before the type is the type to the grammar (`void` an error beside it): see grammars/README.md.
  {
    language: 'c',
    pattern: '$T $F($$$P) { $$$B }',
    source: 'static NORETURN void die(int c) {\n  exit(c);\n}\n',
    matches: [],
  },
  { language: 'swift', pattern: 'var $N: $T;', source: 'class A {\n    var a: Int\n}\n', matches: [] },
];

const TABLES: ReadonlyArray<[string, readonly MatchSpec[]]> = [
  ['a statement written without its terminator', STATEMENTS_WITHOUT_TERMINATOR],
  ['a block of $$$', BLOCKS_OF_RUNS],
  ['a metavariable as the body of a compound statement', STATEMENT_BODIES],
  ['a member written with its terminator', MEMBERS_WITH_TERMINATORS],
  ['an annotation alone', ANNOTATIONS],
  ['readings kept', READINGS_KEPT],
  ['Dart methods, as Flutter writes them', DART_METHODS],
  ['known limits', KNOWN_LIMITS],
];

for (const [title, specs] of TABLES) {
  describe(`structural patterns: ${title}`, function () {
    this.timeout(20_000);
    for (const spec of specs) {
      it(`${spec.language}: ${JSON.stringify(spec.pattern)}`, async () => {
        assert.deepEqual(await matchTexts(spec.language, spec.pattern, spec.source), spec.matches);
      });
    }
  });
}

describe('structural patterns: a C macro before the type', function () {
  it('is bound as the type by a pattern with the storage class; the real type is an error the match skips', async () => {
    const [match] = await matchesIn(
      'c',
      'static $T $F($$$P) { $$$B }',
      'static NORETURN void die(int c) {\n  exit(c);\n}\n',
    );
    assert.deepEqual([match.captures.get('T')?.text, match.captures.get('F')?.text], ['NORETURN', 'die']);
  });
});

describe('structural patterns: a Dart method matched by a function pattern', function () {
  this.timeout(20_000);

  it('starts at its annotation, on the row and column of it, and the structural index answers the same', async () => {
    const matches = await matchesOnTreeAndIndex(
      'dart',
      '@override\nWidget build(BuildContext context) { $$$B }',
      FLUTTER_STATE,
    );
    assert.deepEqual(
      matches.map((match) => [match.startRow, match.startColumn, match.coveredStart === match.start]),
      [[21, 2, true]],
    );
  });

  it('a class of a thousand annotated methods is matched within the step budget, on the tree and on the index', async () => {
    const source = `class Mock {\n${Array.from({ length: 1000 }, (_, at) => `  @override\n  void f${at}() {}\n`).join('')}}\n`;
    assert.equal((await matchesOnTreeAndIndex('dart', '@override\nvoid $F() { $$$B }', source)).length, 1000);
  });

  it('a rewrite of a method keeps the class around it', async () => {
    assert.equal(
      await rewritten('dart', 'void _incrementCounter() { $$$B }', 'void _increment() { $$$B }', FLUTTER_STATE),
      FLUTTER_STATE.replace(
        'void _incrementCounter() {\n    setState(() {\n      _counter++;\n    });\n  }',
        'void _increment() { setState(() {\n    _counter++;\n  }); }',
      ),
    );
  });
});

describe("structural patterns: a terminator written after a member covers the file's", function () {
  this.timeout(20_000);

  it('past whitespace and comments, onto the next line; a member without one still matches', async () => {
    const source = 'class A {\n  @Input() a: string /* why */ ;\n  @Input() b: number\n  ;\n  @Input() c: boolean\n}\n';
    const matches = await matchesIn('typescript', '@Input() $P: $T;', source);
    assert.deepEqual(
      matches.map((match) => [match.text, match.startRow, match.endRow, match.coveredEnd === match.end]),
      [
        ['@Input() a: string /* why */ ;', 1, 1, true],
        ['@Input() b: number\n  ;', 2, 3, true],
        ['@Input() c: boolean', 4, 4, true],
      ],
    );
    assert.deepEqual(await matchTexts('kotlin', 'val $N: $T;', 'class A {\n    val a: Int;\n    val b: Int\n}\n'), [
      'val a: Int;',
      'val b: Int',
    ]);
  });

  it('not past what the pattern stopped before, and the same on the structural index', async () => {
    const source = 'class A {\n  @Input() a = 1;\n  @Input() b /* c */ ;\n}\n';
    assert.deepEqual(
      (await matchesOnTreeAndIndex('typescript', '@Input() $P;', source)).map((match) => match.text),
      ['@Input() a = 1', '@Input() b /* c */ ;'],
    );
  });
});

describe('structural patterns: what the scaffold wrote is not captured', function () {
  this.timeout(20_000);

  it('the headline guard binds what it tested; the body metavariable takes the whole statement', async () => {
    const [guard] = await matchesIn(
      'dart',
      'if ($X != null) $X.dispose()',
      'void f() {\n  if (_c != null) _c.dispose();\n}\n',
    );
    assert.equal(guard.captures.get('X')?.text, '_c');
    const [loop] = await matchesIn(
      'c',
      'for ($I = 0; $I < $N; $I++) $BODY',
      'void f(void) { for (i = 0; i < n; i++) g(i); }',
    );
    assert.deepEqual(
      [...loop.captures].map(([name, capture]) => [name, capture.text]),
      [
        ['I', 'i'],
        ['N', 'n'],
        ['BODY', 'g(i);'],
      ],
    );
  });

  it('a run in a block captures the statements, C# too', async () => {
    const [dart] = await matchesIn('dart', 'setState(() { $$$A })', 'void f() { setState(() { x = 1; y(); }); }');
    assert.equal(dart.captures.get('A')?.text, 'x = 1; y();');
    const [cs] = await matchesIn(
      'c_sharp',
      'if ($X != null) { $$$B }',
      'class A { void F() { if (a != null) { a.Dispose(); b.Dispose(); } } }',
    );
    assert.equal(cs.captures.get('B')?.text, 'a.Dispose(); b.Dispose();');
  });
});

describe('structural patterns: still refused, and said so', () => {
  it('a bare name is no Lua statement: the contexts tried are named', async () => {
    await assert.rejects(matchesIn('lua', 'if $C then $S end', 'x'), (error: unknown) => {
      assert.ok(error instanceof PatternError);
      assert.match(error.message, /does not parse as lua in any context tried \(top level, expression, table field\)/);
      assert.match(error.message, /a metavariable parses as a name, so it stands only where a name can/);
      return true;
    });
  });

  // The `;` of "statement;" would be the loop's body: a node of its own, not a token the pattern may take in.
  it('a for header without its body is not a for loop', async () => {
    await assert.rejects(
      matchesIn('c', 'for ($I = 0; $I < $N; $I++)', 'x'),
      /parses as c \(as a statement;\) but not as one node/,
    );
  });

  it('two annotations are not one node, and the rung that parsed them is named', async () => {
    await assert.rejects(matchesIn('dart', '@a @b', 'x'), /parses as dart \(as an annotation\) but not as one node/);
  });
});
