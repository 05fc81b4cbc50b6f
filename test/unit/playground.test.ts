import * as assert from 'node:assert/strict';
import { inputTemplate } from '../../src/playground/inputTemplate';
import { JsoncSyntaxError, parseJsonc, stripJsonc } from '../../src/platform/jsonc';
import { TOOL_CATALOG } from '../../src/tools/declarations';

describe('JSON with comments', () => {
  it('parses comments and trailing commas, keeping strings intact', () => {
    assert.deepEqual(parseJsonc('// head\n{ "a": "x // not a comment", /* b */ "b": [1, 2,], }\n'), {
      a: 'x // not a comment',
      b: [1, 2],
    });
  });
  it('keeps offsets when stripping, so error positions are right', () => {
    const text = '{\n  // note\n  "a": 1\n}';
    assert.equal(stripJsonc(text).length, text.length);
  });
  it('names line and column of a syntax error', () => {
    assert.throws(
      () => parseJsonc('{\n  "a": 1\n  "b": 2\n}'),
      (error: unknown) => error instanceof JsoncSyntaxError && error.line === 3 && error.column === 3,
    );
    assert.throws(() => parseJsonc('// only a comment\n'), /empty/);
  });
});

describe('playground input template', () => {
  it('holds the required keys and describes the optional ones, and parses', () => {
    const rename = TOOL_CATALOG.find((tool) => tool.name === 'lsp_rename')!;
    const text = inputTemplate(rename.inputSchema, { title: 'lsp_rename', howToRun: 'Run it.' });
    assert.deepEqual(parseJsonc(text), { file: '', line: 1, symbol: '', new_name: '' });
    assert.match(text, /^\/\/ lsp_rename\n\/\/ Run it\.\n\/\/ Required:\n/);
    assert.match(
      text,
      /\/\/ Optional \(add them to the object as needed\):\n\/\/   occurrence \(integer\): Which occurrence/,
    );
  });
  it('starts enums at their first value', () => {
    const lsp = TOOL_CATALOG.find((tool) => tool.name === 'lsp')!;
    assert.deepEqual(parseJsonc(inputTemplate(lsp.inputSchema, { title: 't', howToRun: 'r' })), {
      action: 'diagnostics',
    });
  });
  it('works for tools without a schema', () => {
    assert.deepEqual(parseJsonc(inputTemplate(undefined, { title: 't', howToRun: 'r' })), {});
  });
});
