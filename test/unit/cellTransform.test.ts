/**
 * The JavaScript kernel's cell rewriting (src/kernels/javascript/cellTransform.ts): cell in,
 * script out — top-level declarations hoisted, `await` cells wrapped, the last expression returned,
 * strings, comments and nested scopes untouched, line numbers kept.
 */
import * as assert from 'node:assert/strict';
import * as vm from 'node:vm';
import { ParseJavaScript, transformCell } from '../../src/kernels/javascript/cellTransform';
import { registry } from './support/structuralEngine';

interface Spec {
  readonly name: string;
  readonly cell: string;
  readonly code: string;
  readonly async?: boolean;
  readonly declared?: readonly string[];
}

const SPECS: readonly Spec[] = [
  {
    name: 'const becomes an assignment to a var',
    cell: 'const x = 1;',
    code: 'var x; void ((x = 1));',
    declared: ['x'],
  },
  {
    name: 'let without a value resets to undefined',
    cell: 'let a, b = 2',
    code: 'var a, b; void ((a = undefined), (b = 2));',
    declared: ['a', 'b'],
  },
  { name: 'var without a value keeps the old value', cell: 'var v;', code: 'var v; void 0;', declared: ['v'] },
  {
    name: 'destructuring declares every bound name, not defaults or keys',
    cell: 'const { p, q: [r, ...s], t = d, ...u } = o;',
    code: 'var p, r, s, t, u; void (({ p, q: [r, ...s], t = d, ...u } = o));',
    declared: ['p', 'r', 's', 't', 'u'],
  },
  {
    name: 'class declaration becomes a class expression',
    cell: 'class A extends B { m() { let z = 1; } }',
    code: 'var A; void (A = class A extends B { m() { let z = 1; } });',
    declared: ['A'],
  },
  {
    name: 'function declarations stay in a script (they are globals already)',
    cell: 'function f() { const y = 1; return y; }',
    code: 'function f() { const y = 1; return y; }',
    declared: [],
  },
  {
    name: 'nested scopes are left alone',
    cell: 'for (let i = 0; i < 3; i++) { const j = i; }\n{ let k = 1; }\nif (c) { class C {} }',
    code: 'for (let i = 0; i < 3; i++) { const j = i; }\n{ let k = 1; }\nif (c) { class C {} }',
    declared: [],
  },
  {
    name: 'strings and comments are untouched',
    cell: "const s = 'let x = await y'; // const z = 1\n/* class Q {} */ s",
    code: "var s; void ((s = 'let x = await y')); // const z = 1\n/* class Q {} */ s",
    declared: ['s'],
  },
  {
    name: 'await inside a function does not make the cell async',
    cell: 'const f = async () => await g();\nf',
    code: 'var f; void ((f = async () => await g()));\nf',
    async: false,
  },
  {
    name: 'an await cell is wrapped and returns its last expression',
    cell: 'const v = await p;\nv + 1',
    code: 'var v; (async () => { void ((v = await p));\nreturn { value: (v + 1) }\n})()',
    async: true,
  },
  {
    name: 'an await cell without a last expression returns nothing',
    cell: 'await p;\nlet w = 1;',
    code: 'var w; (async () => { await p;\nvoid ((w = 1));\n})()',
    async: true,
  },
  {
    name: 'for await makes the cell async',
    cell: 'for await (const x of xs) {}',
    code: '(async () => { for await (const x of xs) {}\n})()',
    async: true,
  },
  {
    name: 'functions of an await cell are exported to globals',
    cell: 'await 0; function g() {}',
    code: '(async () => { globalThis.g = g; await 0; function g() {}\n})()',
    async: true,
  },
  {
    name: 'var in blocks and loop heads of an await cell becomes a global',
    cell: 'await 0;\nif (c) { var a = 1; }\nfor (var i = 0; i < 2; i++) {}\nfor (var k in o) {}\n(() => { var local = 1; })()',
    code: 'var a, i, k; (async () => { await 0;\nif (c) { void ((a = 1)); }\nfor (void ((i = 0)); i < 2; i++) {}\nfor ( k in o) {}\nreturn { value: ((() => { var local = 1; })()) }\n})()',
    async: true,
    declared: ['a', 'i', 'k'],
  },
  {
    name: 'default and named imports',
    cell: "import d, { a, b as c } from 'm';",
    code: 'var a, c, d; (async () => { void (({ default: d, a: a, b: c } = await __kernelImport("m")));\n})()',
    async: true,
  },
  {
    name: 'namespace import',
    cell: 'import * as ns from "node:path"',
    code: 'var ns; (async () => { void ((ns = await __kernelImport("node:path")));\n})()',
    async: true,
  },
  {
    name: 'side-effect import',
    cell: "import './setup.js'",
    code: '(async () => { void (await __kernelImport("./setup.js"));\n})()',
    async: true,
  },
  {
    name: 'export is dropped from declarations',
    cell: 'export const e = 1;',
    code: 'var e; void ((e = 1));',
    declared: ['e'],
  },
  { name: 'an object literal alone is an object, not a block', cell: '{ a: 1, b: 2 }', code: '({ a: 1, b: 2 })' },
  {
    name: 'a multi-line declaration keeps the line count',
    cell: 'const a = 1,\n  b = 2;\nthrow x',
    code: 'var a, b; void ((a = 1), (b = 2));\n\nthrow x',
  },
  { name: 'a cell that does not parse is left as it is', cell: 'let x = ;', code: 'let x = ;' },
];

describe('JavaScript kernel cell transform', () => {
  let parse: ParseJavaScript;

  before(async () => {
    const { parser } = await registry.load('javascript');
    parse = (source) => parser.parse(source);
  });

  for (const spec of SPECS) {
    it(spec.name, () => {
      const transformed = transformCell(spec.cell, parse);
      assert.equal(transformed.code, spec.code);
      assert.equal(transformed.async, spec.async ?? false);
      if (spec.declared) assert.deepEqual([...transformed.declared].sort(), [...spec.declared].sort());
      assert.equal(
        transformed.code.split('\n').length - (transformed.async ? 1 : 0),
        spec.cell.split('\n').length,
        'line count',
      );
    });
  }

  it('produces scripts that run: redeclaration, await and the last value', async () => {
    const context = vm.createContext({ p: Promise.resolve(41) });
    const run = (cell: string): unknown => new vm.Script(transformCell(cell, parse).code).runInContext(context);
    run('const x = 1; let y = 2; class K {}');
    run('const x = 10; let y = 20; class K { v() { return x + y; } }');
    assert.equal(run('new K().v()'), 30);
    // The script ran in another realm: compare the field, not the object.
    assert.equal(((await run('const v = await p; v + 1')) as { value: unknown }).value, 42);
    assert.equal(run('v'), 41);
    assert.equal(await run('await p; let nothing = 1'), undefined);
  });
});
