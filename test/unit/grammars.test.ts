/**
 * grammars/grammars.json against the real grammars on plain Node: every .wasm loads in
 * web-tree-sitter (with the manifest's byte patch applied, as the build does) and parses a realistic
 * sample without an error, again after all the others, every scaffold template parses, and a table of
 * pattern fragments gives the rung that accepts each one and the nodes it becomes. The table is the
 * place to look up node names per grammar: they differ more than one expects.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Language, type Node, Parser } from 'web-tree-sitter';
import { repoRoot } from '../support/repoRoot';

interface Rung {
  context: string;
  template: string;
}

interface GrammarEntry {
  id: string;
  extensions: string[];
  package: string;
  version: string;
  wasm: string;
  /** Bytes to rewrite in the package's .wasm (hex), for a bug of the published build. */
  patch?: { offset: number; expect: string; replace: string; reason: string };
  ladder: Rung[];
}

const root = repoRoot();
const grammars: GrammarEntry[] = JSON.parse(fs.readFileSync(path.join(root, 'grammars', 'grammars.json'), 'utf8'));
const MARKER = '{{fragment}}';

const LANGUAGES = [
  'dart',
  'python',
  'rust',
  'c',
  'cpp',
  'typescript',
  'tsx',
  'javascript',
  'go',
  'java',
  'kotlin',
  'swift',
  'ruby',
  'php',
  'c_sharp',
  'bash',
  'lua',
  'json',
  'yaml',
  'css',
  'html',
];

/** A fragment each rung must take: proof that the template itself parses. */
const TRIVIAL: Record<string, Record<string, string>> = {
  dart: {
    statement: 'foo();',
    'statement;': 'foo()',
    expression: '1',
    'class member': 'int x = 0;',
    'top level': 'void main() {}',
    annotation: '@override',
  },
  python: { 'top level': 'x = 1', 'class member': 'x = 1', decorator: '@property' },
  rust: {
    statement: 'foo();',
    'statement;': 'foo()',
    'class member': 'fn f() {}',
    'top level': 'fn f() {}',
    'match arm': '_ => {}',
    'struct field': 'pub a: u32',
  },
  c: { statement: 'foo();', 'statement;': 'foo()', expression: '1', 'top level': 'int x;' },
  cpp: { statement: 'foo();', 'statement;': 'foo()', expression: '1', 'class member': 'int x;', 'top level': 'int x;' },
  typescript: {
    statement: 'foo();',
    expression: '1',
    'class member': 'x = 1',
    'top level': "import x from 'y';",
    decorator: '@sealed',
  },
  tsx: {
    statement: 'foo();',
    expression: '1',
    'class member': 'x = 1',
    'top level': "import x from 'y';",
    decorator: '@sealed',
  },
  javascript: {
    statement: 'foo();',
    expression: '1',
    'class member': 'x = 1',
    'top level': "import x from 'y';",
    decorator: '@sealed',
  },
  go: { statement: 'foo()', expression: '1', 'top level': 'func f() {}', 'struct field': 'X int' },
  java: {
    statement: 'foo();',
    'statement;': 'foo()',
    expression: '1',
    'class member': 'int x;',
    'top level': 'import a.B;',
    annotation: '@Override',
  },
  kotlin: {
    annotation: '@Composable',
    statement: 'foo()',
    expression: '1',
    'class member': 'val x = 1',
    'top level': 'import a.b',
  },
  swift: {
    statement: 'foo()',
    expression: '1',
    'class member': 'var x = 1',
    'top level': 'import Foundation',
    attribute: '@MainActor',
  },
  ruby: { 'top level': 'foo', 'class member': 'def f; end' },
  php: {
    statement: 'foo();',
    'statement;': 'foo()',
    expression: '1',
    'class member': 'public $x;',
    attribute: '#[Route]',
  },
  c_sharp: {
    statement: 'Foo();',
    'statement;': 'Foo()',
    attribute: '[Fact]',
    expression: '1',
    'class member': 'int x;',
    'top level': 'using System;',
  },
  bash: { 'top level': 'echo hi' },
  lua: { 'top level': 'foo()', expression: '1', 'table field': 'x = 1' },
  json: { 'top level': '1', pair: '"a": 1', 'pair,': '"a": 1,' },
  yaml: { 'top level': 'a: 1' },
  css: { 'top level': 'a { b: c; }', 'declaration block': 'color: red;', value: 'red', selector: '.a' },
  html: { 'top level': '<p>x</p>' },
};

/**
 * (language, fragment) → the first rung that accepts it and the named nodes whose span is exactly
 * the fragment, outermost first (the root is among them when the template is the bare marker).
 * Fragments are written as the engine parses them: `$X` already replaced by `mvs_X`, `$$$A` by `mvm_A`.
 * A null rung means no rung accepts the fragment: a known gap, kept so a grammar upgrade that
 * changes it is noticed.
 *
 * What the table shows:
 * - Calls are `call_expression` only in rust, c, cpp, ts/tsx/js, go, kotlin, swift (css `calc()` too).
 *   Dart: `method_invocation` (receiver `unconditional_assignable_selector`, `?.` gives
 *   `conditional_assignable_selector`, arguments under `argument_part > arguments > argument`);
 *   Java: `method_invocation`; C#: `invocation_expression` over `member_access_expression`;
 *   Python: `call`; Ruby: `call` (also for `x.y` without parentheses); PHP: `function_call_expression`,
 *   `member_call_expression`, `scoped_call_expression`; Lua: `function_call`; bash: `command`.
 * - Member access without a call: Dart `unconditional_assignable_selector`; Kotlin and Swift
 *   `navigation_expression` (Swift wraps `.name` in `navigation_suffix`).
 * - Identifiers: `identifier` almost everywhere; Swift `simple_identifier`; PHP `name`, or
 *   `variable_name` for `$mvs_X`; bash `word`; YAML `string_scalar`; CSS `plain_value`.
 * - Statement first means member-looking fragments that are also legal (to tree-sitter) inside a
 *   body come out as locals: Java and C# fields → `local_variable_declaration` /
 *   `local_declaration_statement`, C# methods → `local_function_statement`, Dart methods →
 *   `local_function_declaration` (in a class they are `method_declaration` / `declaration`),
 *   C++ `virtual … = 0;` → `declaration` (in a class `field_declaration`).
 * - JSON has no identifiers: a bare placeholder errors in every position; quoted ("mvs_X") it is a
 *   `string` and works as a value, a key and an array element.
 * - PHP: `mvs_X = 1` is an error, `$mvs_X = 1` parses; both forms work as call receivers and arguments.
 */
type Case = [language: string, fragment: string, context: string | null, nodes: string[]];

const CASES: Case[] = [
  // Dart (tree-sitter-dart-orchard): calls need the `statement;` rung; at top level
  // `dispose(mvs_X)` would be a function signature, in a class an abstract method.
  ['dart', 'foo(mvs_A)', 'statement;', ['method_invocation']],
  ['dart', 'dispose(mvs_X)', 'statement;', ['method_invocation']],
  ['dart', 'mvs_X.dispose()', 'statement;', ['method_invocation']],
  ['dart', 'mvs_X?.dispose()', 'statement;', ['method_invocation']],
  ['dart', 'mvs_X.mvs_Y', 'statement;', ['unconditional_assignable_selector']],
  ['dart', 'mvs_A == mvs_B', 'statement;', ['equality_expression']],
  ['dart', 'print(mvs_A);', 'statement', ['expression_statement']],
  ['dart', 'if (mvs_A) { foo(); }', 'statement', ['if_statement']],
  ['dart', 'final mvs_X = mvs_Y;', 'statement', ['local_variable_declaration']],
  ['dart', '(mvs_X) => mvs_X + 1', 'statement;', ['function_expression']],
  ['dart', 'mvs_X..add(1)..add(2)', 'statement;', ['cascade_expression']],
  ['dart', 'await mvs_F()', 'statement;', ['unary_expression', 'await_expression']],
  ['dart', 'void dispose() { super.dispose(); }', 'statement', ['local_function_declaration', 'lambda_expression']],
  ['dart', '@override\nvoid dispose() {\n  super.dispose();\n}', 'statement', ['local_function_declaration']],
  ['dart', 'int get x => 1;', 'class member', ['method_declaration']],
  ['dart', 'static const int x = 1;', 'class member', ['declaration']],
  ['dart', 'Foo({required this.x});', 'class member', ['declaration']],
  ['dart', 'class Foo {}', 'top level', ['program', 'class_definition']],
  [
    'dart',
    "import 'package:x/x.dart';",
    'top level',
    ['program', 'import_or_export', 'library_import', 'import_specification'],
  ],
  // The grammar's known failure: calling an expression followed by `!`.
  ['dart', 'widget.onChanged!(mvs_X)', null, []],
  ['dart', '@Deprecated(mvs_M)', 'annotation', ['annotation']],

  ['python', 'foo(mvs_A)', 'top level', ['module', 'expression_statement', 'call']],
  ['python', 'mvs_X.dispose()', 'top level', ['module', 'expression_statement', 'call']],
  ['python', 'mvs_A == mvs_B', 'top level', ['module', 'expression_statement', 'comparison_operator']],
  ['python', 'if mvs_A:\n    foo(mvs_B)', 'top level', ['module', 'if_statement']],
  ['python', 'def dispose(self):\n    pass', 'top level', ['module', 'function_definition']],
  ['python', '@property\ndef name(self):\n    return self._name', 'top level', ['module', 'decorated_definition']],
  ['python', 'count = 0', 'top level', ['module', 'expression_statement', 'assignment']],
  ['python', 'import os', 'top level', ['module', 'import_statement']],
  ['python', 'mvs_X', 'top level', ['module', 'expression_statement', 'identifier']],
  ['python', '@pytest.mark.parametrize(mvm_A)', 'decorator', ['decorator']],

  // Rust: a call without `;` is the block's tail expression, so the first rung takes it.
  ['rust', 'foo(mvs_A)', 'statement', ['call_expression']],
  ['rust', 'mvs_X.dispose()', 'statement', ['call_expression']],
  ['rust', 'mvs_A == mvs_B', 'statement', ['binary_expression']],
  ['rust', 'if mvs_A { foo(); }', 'statement', ['expression_statement', 'if_expression']],
  ['rust', 'let x = mvs_A;', 'statement', ['let_declaration']],
  // `let` needs its `;`: with the `statement;` rung the node also covers the added `;`, which this
  // table does not allow; the engine does (pattern.ts fragmentNode: tokens the scaffold wrote).
  ['rust', 'let x = mvs_A', null, []],
  ['rust', 'fn dispose(&mut self) {}', 'statement', ['function_item']],
  ['rust', 'mvs_X?', 'statement', ['try_expression']],
  ['rust', 'println!("{}", mvs_A)', 'statement', ['macro_invocation']],
  ['rust', 'Some(mvs_X) => mvs_X', 'match arm', ['match_arm']],
  ['rust', 'impl Foo for Bar {}', 'statement', ['impl_item']],
  ['rust', 'mvs_X', 'statement', ['identifier']],
  ['rust', 'pub mvs_N: mvs_T', 'struct field', ['field_declaration']],

  ['c', 'foo(mvs_A)', 'statement;', ['call_expression']],
  ['c', 'mvs_X->dispose(mvs_X)', 'statement;', ['call_expression']],
  ['c', 'mvs_A == mvs_B', 'statement;', ['binary_expression']],
  // `mvs_A * mvs_B;` is a pointer declaration (covering the `;`), so the expression rung decides.
  ['c', 'mvs_A * mvs_B', 'expression', ['binary_expression']],
  ['c', 'if (mvs_A) { foo(); }', 'statement', ['if_statement']],
  ['c', 'int count = 0;', 'statement', ['declaration']],
  ['c', 'void dispose(int x) { }', 'statement', ['function_definition']],
  ['c', 'return mvs_A;', 'statement', ['return_statement']],
  // Two sibling nodes (struct_specifier and `;`): no single node spans it.
  ['c', 'struct s { int a; };', null, []],
  // Preprocessor lines end with their newline, so their node is one character longer than the fragment.
  ['c', '#include <stdio.h>', null, []],
  ['c', 'mvs_X', 'statement;', ['identifier']],

  ['cpp', 'foo(mvs_A)', 'statement;', ['call_expression']],
  ['cpp', 'mvs_X.dispose()', 'statement;', ['call_expression']],
  ['cpp', 'mvs_X->dispose()', 'statement;', ['call_expression']],
  ['cpp', 'mvs_A == mvs_B', 'statement;', ['binary_expression']],
  ['cpp', 'std::cout << mvs_A', 'statement;', ['binary_expression']],
  ['cpp', 'if (mvs_A) { foo(); }', 'statement', ['if_statement']],
  ['cpp', 'void dispose() { }', 'statement', ['function_definition']],
  ['cpp', 'virtual void dispose() = 0;', 'statement', ['declaration']],
  ['cpp', 'int count = 0;', 'statement', ['declaration']],
  ['cpp', 'class Foo {};', 'class member', ['field_declaration']],
  ['cpp', 'template <typename T> T id(T x) { return x; }', 'statement', ['template_declaration']],
  ['cpp', 'public:', null, []],
  ['cpp', '#include <vector>', null, []],

  ['typescript', 'foo(mvs_A)', 'statement', ['expression_statement', 'call_expression']],
  ['typescript', 'mvs_X.dispose()', 'statement', ['expression_statement', 'call_expression']],
  ['typescript', 'mvs_A === mvs_B', 'statement', ['expression_statement', 'binary_expression']],
  ['typescript', 'if (mvs_A) { foo(); }', 'statement', ['if_statement']],
  ['typescript', 'function dispose() {}', 'statement', ['function_declaration']],
  ['typescript', 'dispose() { this.x = 1; }', 'class member', ['method_definition']],
  ['typescript', 'async dispose(): Promise<void> {}', 'class member', ['method_definition']],
  ['typescript', 'private count = 0', 'class member', ['public_field_definition']],
  // A class field's `;` is a sibling of public_field_definition, not part of it.
  ['typescript', 'private count = 0;', null, []],
  ['typescript', 'count = 0;', 'statement', ['expression_statement']],
  // An object literal in statement position is still an object here, not a block.
  ['typescript', '{ a: mvs_A, b: mvs_B }', 'statement', ['expression_statement', 'object']],
  ['typescript', '(mvs_X) => mvs_X + 1', 'statement', ['expression_statement', 'arrow_function']],
  ['typescript', 'function () {}', 'statement', ['expression_statement', 'function_expression']],
  ['typescript', "import { x } from 'y';", 'statement', ['import_statement']],
  ['typescript', 'interface Foo { a: string }', 'statement', ['interface_declaration']],
  ['typescript', 'mvs_X as Foo', 'statement', ['expression_statement', 'as_expression']],
  ['typescript', 'mvs_X', 'statement', ['expression_statement', 'identifier']],
  ['typescript', '@Component({ selector: mvs_S })', 'decorator', ['decorator']],
  ['tsx', 'foo(mvs_A)', 'statement', ['expression_statement', 'call_expression']],
  ['tsx', '<div className={mvs_A}>hi</div>', 'statement', ['expression_statement', 'jsx_element']],
  ['tsx', '<Foo bar={mvs_B} />', 'statement', ['expression_statement', 'jsx_self_closing_element']],
  ['tsx', 'dispose() {}', 'class member', ['method_definition']],
  ['javascript', 'foo(mvs_A)', 'statement', ['expression_statement', 'call_expression']],
  ['javascript', 'mvs_X.dispose()', 'statement', ['expression_statement', 'call_expression']],
  ['javascript', 'mvs_A == mvs_B', 'statement', ['expression_statement', 'binary_expression']],
  ['javascript', 'function dispose() {}', 'statement', ['function_declaration']],
  ['javascript', 'dispose() {}', 'class member', ['method_definition']],
  ['javascript', '{ a: mvs_A }', 'statement', ['expression_statement', 'object']],
  ['javascript', '<div>{mvs_A}</div>', 'statement', ['expression_statement', 'jsx_element']],
  ['javascript', "import x from 'y';", 'statement', ['import_statement']],

  ['go', 'foo(mvs_A)', 'statement', ['expression_statement', 'call_expression']],
  ['go', 'mvs_X.Dispose()', 'statement', ['expression_statement', 'call_expression']],
  ['go', 'mvs_A == mvs_B', 'statement', ['expression_statement', 'binary_expression']],
  ['go', 'if err != nil {\n\treturn err\n}', 'statement', ['if_statement']],
  ['go', 'x := mvs_A', 'statement', ['short_var_declaration']],
  ['go', 'func Dispose() {}', 'top level', ['function_declaration']],
  ['go', 'func (s *Store) Dispose() {}', 'top level', ['method_declaration']],
  ['go', 'type T struct{}', 'statement', ['type_declaration']],
  ['go', 'import "fmt"', 'top level', ['import_declaration']],
  ['go', 'Name string `json:"name"`', 'struct field', ['field_declaration']],
  ['go', 'func(x int) int { return x }', 'statement', ['expression_statement', 'func_literal']],
  ['go', 'mvs_X', 'statement', ['expression_statement', 'identifier']],

  ['java', 'foo(mvs_A)', 'statement;', ['method_invocation']],
  ['java', 'mvs_X.dispose()', 'statement;', ['method_invocation']],
  ['java', 'mvs_A == mvs_B', 'statement;', ['binary_expression']],
  ['java', 'if (mvs_A) { foo(); }', 'statement', ['if_statement']],
  ['java', 'void dispose() {}', 'class member', ['method_declaration']],
  ['java', '@Override\npublic void close() {}', 'class member', ['method_declaration']],
  ['java', 'int count = 0;', 'statement', ['local_variable_declaration']],
  // tree-sitter-java takes modifiers on a local: a field-looking fragment is a local (class: field_declaration).
  ['java', 'private int count = 0;', 'statement', ['local_variable_declaration']],
  ['java', 'new Foo(mvs_A)', 'statement;', ['object_creation_expression']],
  ['java', 'mvs_X -> mvs_X + 1', 'statement;', ['lambda_expression']],
  ['java', 'class Foo {}', 'statement', ['class_declaration']],
  ['java', 'mvs_X', 'statement;', ['identifier']],
  ['java', '@Override', 'annotation', ['modifiers', 'marker_annotation']],
  ['java', '@SuppressWarnings(mvs_V)', 'annotation', ['modifiers', 'annotation']],

  // Kotlin (@tree-sitter-grammars/tree-sitter-kotlin): calls are call_expression over navigation_expression.
  // An annotation alone is tried first, on a parameter (where nothing else can stand): in a body
  // `@Suppress(x)` reads as the annotation `@Suppress` on the expression `(x)`.
  ['kotlin', 'foo(mvs_A)', 'statement', ['call_expression']],
  ['kotlin', 'mvs_X.dispose()', 'statement', ['call_expression']],
  ['kotlin', 'mvs_X?.dispose()', 'statement', ['call_expression']],
  ['kotlin', 'mvs_A == mvs_B', 'statement', ['binary_expression']],
  ['kotlin', 'if (mvs_A) { foo() }', 'statement', ['if_expression']],
  ['kotlin', 'fun dispose() {}', 'statement', ['function_declaration']],
  ['kotlin', 'override fun dispose() {}', 'statement', ['function_declaration']],
  ['kotlin', 'private val count = 0', 'statement', ['property_declaration']],
  ['kotlin', 'mvs_X!!', 'statement', ['unary_expression']],
  ['kotlin', 'listOf(mvs_A).map { it * 2 }', 'statement', ['call_expression']],
  ['kotlin', 'when (mvs_X) { 1 -> foo() }', 'statement', ['when_expression']],
  ['kotlin', 'import kotlin.math.max', 'top level', ['source_file', 'import']],
  ['kotlin', 'mvs_X', 'statement', ['identifier']],
  ['kotlin', '@Suppress(mvm_A)', 'annotation', ['parameter_modifiers', 'annotation']],
  ['kotlin', '@Composable', 'annotation', ['parameter_modifiers', 'annotation']],
  ['kotlin', 'class Foo {\n    val x = 1\n}', 'statement', ['class_declaration']],
  // The grammar wants a newline (or `;`) after a class member, also before `}`: on one line the
  // class is an error in every rung but the expression one, which misreads it as an infix call.
  ['kotlin', 'class Foo { val x = 1 }', 'expression', ['infix_expression']],

  // Swift: identifiers are simple_identifier; arguments sit under call_suffix > value_arguments.
  ['swift', 'foo(mvs_A)', 'statement', ['call_expression']],
  ['swift', 'foo(label: mvs_A)', 'statement', ['call_expression']],
  ['swift', 'mvs_X.dispose()', 'statement', ['call_expression']],
  ['swift', 'mvs_X?.dispose()', 'statement', ['call_expression']],
  ['swift', 'mvs_A == mvs_B', 'statement', ['equality_expression']],
  ['swift', 'if mvs_A { foo() }', 'statement', ['if_statement']],
  ['swift', 'func dispose() {}', 'statement', ['function_declaration']],
  ['swift', 'override func dispose() {}', 'class member', ['function_declaration']],
  ['swift', 'let count = 0', 'statement', ['property_declaration']],
  ['swift', 'private var count = 0', 'class member', ['property_declaration']],
  ['swift', 'guard let x = mvs_A else { return }', 'statement', ['guard_statement']],
  ['swift', 'try await mvs_F()', 'statement', ['try_expression']],
  ['swift', 'import Foundation', 'class member', ['import_declaration']],
  ['swift', 'mvs_X', 'statement', ['simple_identifier']],
  ['swift', '@available(mvm_A)', 'attribute', ['modifiers', 'attribute']],
  // `#if`, the statements and `#endif` are siblings: only the root spans them all.
  ['swift', '#if os(iOS)\nfoo()\n#endif', 'top level', ['source_file']],
  ['swift', 'let s = #"raw"#', 'statement', ['property_declaration']],

  ['ruby', 'foo(mvs_A)', 'top level', ['program', 'call']],
  ['ruby', 'mvs_X.dispose', 'top level', ['program', 'call']],
  ['ruby', 'mvs_A == mvs_B', 'top level', ['program', 'binary']],
  ['ruby', 'if mvs_A\n  foo\nend', 'top level', ['program', 'if']],
  ['ruby', 'def dispose\nend', 'top level', ['program', 'method']],
  ['ruby', 'mvs_A.each { |x| foo(x) }', 'top level', ['program', 'call']],
  ['ruby', 'attr_reader :name', 'top level', ['program', 'call']],
  ['ruby', 'mvs_X', 'top level', ['program', 'identifier']],

  ['php', 'foo(mvs_A)', 'statement;', ['function_call_expression']],
  ['php', 'foo($mvs_A)', 'statement;', ['function_call_expression']],
  ['php', 'mvs_X->dispose()', 'statement;', ['member_call_expression']],
  ['php', '$mvs_X->dispose()', 'statement;', ['member_call_expression']],
  ['php', '$mvs_A == $mvs_B', 'statement;', ['binary_expression']],
  ['php', 'if ($mvs_A) { foo(); }', 'statement', ['if_statement']],
  ['php', 'function dispose() {}', 'statement', ['function_definition']],
  ['php', 'public function dispose(): void {}', 'class member', ['method_declaration']],
  ['php', 'private $count = 0;', 'class member', ['property_declaration']],
  // A bare name cannot be assigned to: in PHP the placeholder must keep its `$` in that position.
  ['php', 'mvs_X = 1', null, []],
  ['php', '$mvs_X = 1', 'statement;', ['assignment_expression']],
  ['php', 'Foo::bar($mvs_A)', 'statement;', ['scoped_call_expression']],
  ['php', 'mvs_X', 'statement;', ['name']],
  ['php', '$mvs_X', 'statement;', ['variable_name']],
  ['php', '#[Route(mvm_A)]', 'attribute', ['attribute_list', 'attribute_group']],

  ['c_sharp', 'foo(mvs_A)', 'statement;', ['invocation_expression']],
  ['c_sharp', 'mvs_X.Dispose()', 'statement;', ['invocation_expression']],
  // `a == b;` is not a C# statement: the expression rung takes it.
  ['c_sharp', 'mvs_A == mvs_B', 'expression', ['binary_expression']],
  ['c_sharp', 'if (mvs_A) { Foo(); }', 'statement', ['if_statement']],
  ['c_sharp', 'void Dispose() {}', 'statement', ['local_function_statement']],
  ['c_sharp', 'public void Dispose() {}', 'statement', ['local_function_statement']],
  ['c_sharp', 'int count = 0;', 'statement', ['local_declaration_statement']],
  ['c_sharp', 'private int _count = 0;', 'statement', ['local_declaration_statement']],
  ['c_sharp', 'public int Count { get; set; }', 'class member', ['property_declaration']],
  ['c_sharp', 'await mvs_F()', 'statement;', ['await_expression']],
  ['c_sharp', 'mvs_X => mvs_X + 1', 'expression', ['lambda_expression']],
  ['c_sharp', 'using System;', 'class member', ['using_directive']],
  ['c_sharp', 'class Foo {}', 'class member', ['class_declaration']],
  ['c_sharp', 'mvs_X', 'expression', ['identifier']],
  // Before the expression rung: there `[Fact]` is a collection expression.
  ['c_sharp', '[HttpGet(mvs_P)]', 'attribute', ['attribute_list']],

  ['bash', 'foo mvs_A', 'top level', ['program', 'command']],
  ['bash', 'echo "$mvs_X"', 'top level', ['program', 'command']],
  ['bash', 'mvs_X=1', 'top level', ['program', 'variable_assignment']],
  ['bash', 'if [ -f mvs_A ]; then\n  echo mvs_A\nfi', 'top level', ['program', 'if_statement']],
  ['bash', 'foo() { echo hi; }', 'top level', ['program', 'function_definition']],
  ['bash', 'mvs_A | grep mvs_B', 'top level', ['program', 'pipeline']],
  ['bash', '[[ mvs_A == mvs_B ]]', 'top level', ['program', 'test_command']],
  ['bash', 'mvs_X', 'top level', ['program', 'command', 'command_name', 'word']],

  ['lua', 'foo(mvs_A)', 'top level', ['chunk', 'function_call']],
  ['lua', 'mvs_X:dispose()', 'top level', ['chunk', 'function_call']],
  ['lua', 'mvs_X.dispose()', 'top level', ['chunk', 'function_call']],
  ['lua', 'mvs_A == mvs_B', 'expression', ['expression_list', 'binary_expression']],
  ['lua', 'if mvs_A then foo() end', 'top level', ['chunk', 'if_statement']],
  ['lua', 'function M.dispose(self) end', 'top level', ['chunk', 'function_declaration']],
  ['lua', 'local x = mvs_A', 'top level', ['chunk', 'variable_declaration']],
  ['lua', '[1] = mvs_V', 'table field', ['field']],
  ['lua', 'mvs_X', 'expression', ['expression_list', 'identifier']],

  ['json', 'mvs_X', null, []],
  ['json', '"mvs_X"', 'top level', ['document', 'string']],
  ['json', '{"name": mvs_V}', null, []],
  ['json', '{"name": "mvs_V"}', 'top level', ['document', 'object']],
  ['json', '"name": "mvs_V"', 'pair', ['pair']],
  ['json', '"name": mvs_V', null, []],
  ['json', '"mvs_K": 1', 'pair', ['pair']],
  ['json', 'mvs_K: 1', null, []],
  ['json', '[1, mvs_A]', null, []],
  ['json', '[1, "mvs_A"]', 'top level', ['document', 'array']],

  ['yaml', 'key: mvs_V', 'top level', ['stream', 'document', 'block_node', 'block_mapping', 'block_mapping_pair']],
  ['yaml', 'mvs_K: mvs_V', 'top level', ['stream', 'document', 'block_node', 'block_mapping', 'block_mapping_pair']],
  ['yaml', '- mvs_X', 'top level', ['stream', 'document', 'block_node', 'block_sequence', 'block_sequence_item']],
  ['yaml', 'mvs_X', 'top level', ['stream', 'document', 'flow_node', 'plain_scalar', 'string_scalar']],
  ['yaml', '{a: mvs_V}', 'top level', ['stream', 'document', 'flow_node', 'flow_mapping']],

  ['css', '.foo { color: red; }', 'top level', ['stylesheet', 'rule_set']],
  ['css', 'mvs_S { color: red; }', 'top level', ['stylesheet', 'rule_set']],
  ['css', 'color: mvs_C;', 'top level', ['stylesheet', 'declaration']],
  ['css', 'color: mvs_C', 'declaration block', ['declaration']],
  ['css', 'calc(mvs_A * 2)', 'value', ['call_expression']],
  ['css', 'mvs_V', 'value', ['plain_value']],
  // Several values are siblings inside the declaration.
  ['css', '1px solid mvs_C', null, []],
  ['css', '.a > .b', 'selector', ['selectors', 'child_selector']],
  // Ambiguous: read as a declaration `a: hover::after` before the selector rung is tried.
  ['css', 'a:hover::after', 'declaration block', ['declaration']],

  ['html', '<div class="mvs_C">mvs_T</div>', 'top level', ['document', 'element']],
  ['html', '<img src="mvs_S">', 'top level', ['document', 'element', 'start_tag']],
  // Tag names take no `_`: a placeholder cannot stand for a tag name.
  ['html', '<mvs_T></mvs_T>', null, []],
  // Outside a tag, an attribute is text.
  ['html', 'class="mvs_C"', 'top level', ['document', 'text']],
  ['html', 'mvs_X', 'top level', ['document', 'text']],
];

/** The template with the fragment in place; continuation lines get the marker line's indentation. */
function scaffold(template: string, fragment: string): { text: string; start: number; end: number } {
  const at = template.indexOf(MARKER);
  const lineStart = template.lastIndexOf('\n', at - 1) + 1;
  const indent = /^[ \t]*/.exec(template.slice(lineStart, at))![0];
  const body = fragment
    .split('\n')
    .map((line, index) => (index === 0 || line === '' ? line : indent + line))
    .join('\n');
  return { text: template.slice(0, at) + body + template.slice(at + MARKER.length), start: at, end: at + body.length };
}

/** Named nodes spanning exactly [start, end), outermost first. */
function nodesSpanning(rootNode: Node, start: number, end: number): string[] {
  const types: string[] = [];
  let node: Node | undefined = rootNode;
  while (node) {
    if (node.startIndex === start && node.endIndex === end && node.isNamed) types.push(node.type);
    node = node.children.find(
      (child) => child.startIndex <= start && child.endIndex >= end && child.endIndex > child.startIndex,
    );
  }
  return types;
}

/**
 * Parses the fragment in one rung: the nodes spanning it, or why the rung refuses it. With
 * `withoutTerminator`, the nodes spanning it without a last `,` or `;` will do (a JSON pair before
 * the next one is only valid with its comma).
 */
function tryRung(
  parser: Parser,
  rung: Rung,
  fragment: string,
  withoutTerminator = false,
): { nodes: string[] } | { refused: string } {
  const { text, start, end } = scaffold(rung.template, fragment);
  const tree = parser.parse(text);
  assert.ok(tree);
  try {
    if (tree.rootNode.hasError) return { refused: `${rung.context}: parse error in ${JSON.stringify(text)}` };
    let nodes = nodesSpanning(tree.rootNode, start, end);
    if (nodes.length === 0 && withoutTerminator && /[,;]$/.test(fragment))
      nodes = nodesSpanning(tree.rootNode, start, end - 1);
    return nodes.length > 0 ? { nodes } : { refused: `${rung.context}: no node spans the fragment` };
  } finally {
    tree.delete();
  }
}

/** The first rung that accepts the fragment, as the structural engine picks it. */
function resolve(parser: Parser, entry: GrammarEntry, fragment: string): { context: string | null; nodes: string[] } {
  for (const rung of entry.ladder) {
    const result = tryRung(parser, rung, fragment);
    if ('nodes' in result) return { context: rung.context, nodes: result.nodes };
  }
  return { context: null, nodes: [] };
}

function packageDir(entry: GrammarEntry): string {
  return path.join(root, 'node_modules', ...entry.package.split('/'));
}

/** The grammar's .wasm as the build copies it to dist/grammars: from the package, patched. */
function grammarBytes(entry: GrammarEntry): Buffer {
  const wasm = fs.readFileSync(path.join(packageDir(entry), entry.wasm));
  if (entry.patch) {
    const { offset, expect, replace } = entry.patch;
    assert.equal(
      wasm.subarray(offset, offset + expect.length / 2).toString('hex'),
      expect,
      `${entry.id}: patch target`,
    );
    Buffer.from(replace, 'hex').copy(wasm, offset);
  }
  return wasm;
}

function sampleText(entry: GrammarEntry): string {
  return fs.readFileSync(
    path.join(root, 'test', 'fixtures', 'grammar-samples', `${entry.id}${entry.extensions[0]}`),
    'utf8',
  );
}

/** Parses and reports the error, if any, as the start of the tree's S-expression. */
function parseError(parser: Parser, text: string): string | undefined {
  const tree = parser.parse(text);
  assert.ok(tree);
  try {
    return tree.rootNode.hasError ? tree.rootNode.toString().slice(0, 400) : undefined;
  } finally {
    tree.delete();
  }
}

const parsers = new Map<string, Parser>();

function parserFor(id: string): Parser {
  const parser = parsers.get(id);
  assert.ok(parser, `no parser for ${id}`);
  return parser;
}

describe('grammars (grammars/grammars.json)', () => {
  before(async () => {
    await Parser.init({ locateFile: () => path.join(root, 'node_modules', 'web-tree-sitter', 'web-tree-sitter.wasm') });
    for (const entry of grammars) {
      const parser = new Parser();
      parser.setLanguage(await Language.load(new Uint8Array(grammarBytes(entry))));
      parsers.set(entry.id, parser);
    }
  });

  after(() => {
    for (const parser of parsers.values()) parser.delete();
    parsers.clear();
  });

  it('has one entry per language, with distinct ids and extensions', () => {
    assert.deepEqual(grammars.map((entry) => entry.id).sort(), [...LANGUAGES].sort());
    const extensions = grammars.flatMap((entry) => entry.extensions);
    for (const extension of extensions) assert.match(extension, /^\.[a-z0-9+]+$/, extension);
    assert.equal(new Set(extensions).size, extensions.length, 'an extension is claimed twice');
  });

  it('pins the installed version of each package, exactly, as a devDependency', () => {
    const devDependencies = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).devDependencies;
    for (const entry of grammars) {
      assert.equal(devDependencies[entry.package], entry.version, `${entry.id}: package.json devDependencies`);
      const installed = JSON.parse(fs.readFileSync(path.join(packageDir(entry), 'package.json'), 'utf8')).version;
      assert.equal(installed, entry.version, `${entry.id}: node_modules has ${entry.package}@${installed}`);
    }
  });

  for (const id of LANGUAGES) {
    it(`${id}: the grammar loads and parses a realistic sample without an error`, () => {
      const entry = grammars.find((candidate) => candidate.id === id);
      assert.ok(entry);
      assert.equal(parseError(parserFor(id), sampleText(entry)), undefined);
    });
  }

  // The engine keeps one parser per language for every file: a scanner whose state leaks from one
  // parse to the next (as Swift's did before its patch) shows here.
  it('every sample parses again without an error after all the others, three times over', () => {
    const failures: string[] = [];
    for (let round = 1; round <= 3; round++) {
      for (const entry of grammars) {
        if (parseError(parserFor(entry.id), sampleText(entry)) !== undefined)
          failures.push(`${entry.id} in round ${round}`);
      }
    }
    assert.deepEqual(failures, []);
  });

  it('dist/grammars holds each grammar as the build copies it, patched', () => {
    for (const entry of grammars) {
      const built = fs.readFileSync(path.join(root, 'dist', 'grammars', `${entry.id}.wasm`));
      assert.ok(built.equals(grammarBytes(entry)), `dist/grammars/${entry.id}.wasm differs: run node esbuild.mjs`);
    }
    assert.ok(fs.existsSync(path.join(root, 'dist', 'web-tree-sitter.wasm')));
  });

  it('every template holds the marker once and parses with a fragment of its context', () => {
    for (const entry of grammars) {
      for (const rung of entry.ladder) {
        assert.equal(rung.template.split(MARKER).length, 2, `${entry.id} ${rung.context}: marker count`);
        const fragment = TRIVIAL[entry.id]?.[rung.context];
        assert.ok(fragment, `${entry.id} ${rung.context}: no trivial fragment in this test`);
        const result = tryRung(parserFor(entry.id), rung, fragment, true);
        assert.ok('nodes' in result, `${entry.id}: ${'refused' in result ? result.refused : ''}`);
      }
    }
  });

  it('fragments resolve to the expected rung and nodes', () => {
    const wrong: string[] = [];
    for (const [id, fragment, context, nodes] of CASES) {
      const entry = grammars.find((candidate) => candidate.id === id);
      assert.ok(entry, id);
      const actual = resolve(parserFor(id), entry, fragment);
      if (actual.context !== context || actual.nodes.join(' > ') !== nodes.join(' > ')) {
        wrong.push(
          `${id} ${JSON.stringify(fragment)}: expected ${context} [${nodes.join(' > ')}], got ${actual.context} [${actual.nodes.join(' > ')}]`,
        );
      }
    }
    assert.deepEqual(wrong, []);
  });
});
