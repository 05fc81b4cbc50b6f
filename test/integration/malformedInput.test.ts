import * as assert from 'node:assert/strict';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { JsonSchema } from '../../src/platform/toolDeclaration';
import { TOOL_CATALOG } from '../../src/tools/declarations';
import { activateExtension, invokeText, setSetting, waitUntilAsync, workspaceRoot } from './support/tools';

/**
 * Every tool, sent what a careless model sends: each answer is an error that names what was wrong
 * (so the model can fix the call), and nothing on disk changed. The schema-level cases are made
 * from each tool's own schema, one wrong property at a time on an otherwise valid input, so a new
 * property is covered without editing this file.
 */

/** An input each tool accepts (never sent as it is: each case breaks one thing in it). */
const VALID: Record<string, Record<string, unknown>> = {
  lsp: { action: 'hover', file: 'src/main.ts', line: 1, symbol: 'import' },
  lsp_rename: { file: 'src/main.ts', line: 1, symbol: 'import', new_name: 'y' },
  lsp_apply: { action: 'format', file: 'src/main.ts', line: 1, end_line: 1 },
  ast_grep: { pattern: '$A', path: 'src', language: 'typescript', max_results: 5 },
  ast_edit: { pattern: 'zzz($A)', rewrite: 'yyy($A)', path: 'src', language: 'typescript' },
  resolve: { edit_id: 'edit_999', action: 'discard' },
  write: { path: 'malformed/x.txt', content: 'x' },
  edit: { path: 'src/main.ts', old_string: 'zzz-not-there', new_string: 'y' },
  patch: { patch: '*** Begin Patch\n*** End Patch' },
  debug: { op: 'status' },
  eval: { code: '1', description: 'one' },
  test: { files: ['testtool/py/test_prices.py'], tests: ['test_total_of_two'], timeout_seconds: 60, idle_seconds: 30 },
  ask_user: { question: 'Which?', options: [{ label: 'a' }] },
  vibe_spawn: { brief: 'b', label: 'l' },
  vibe_spawn_readonly: { brief: 'b', label: 'l' },
  vibe_send: { worker_id: 'w999', message: 'm' },
  vibe_wait: { worker_id: 'w999', timeout_seconds: 1 },
  vibe_kill: { worker_id: 'w999' },
  vibe_list: {},
};

/** A value of another type than the schema wants. */
function wrongType(schema: JsonSchema): unknown {
  switch (schema.type) {
    case 'string':
      return 42;
    case 'integer':
    case 'number':
      return 'seven';
    case 'boolean':
      return 'yes';
    case 'array':
      return 'a, b';
    case 'object':
      return 'NAME=value';
    default:
      return undefined;
  }
}

interface Case {
  readonly what: string;
  readonly input: unknown;
  /** What the answer must name. */
  readonly names: RegExp;
}

function schemaCases(tool: string, schema: JsonSchema & { type: 'object' }): Case[] {
  const valid = VALID[tool];
  const cases: Case[] = [{ what: 'not an object', input: 'just a string', names: /must be a JSON object/ }];
  if (schema.required?.length)
    cases.push({ what: 'no required key', input: {}, names: new RegExp(`Missing "(${schema.required.join('|')})"`) });
  cases.push({ what: 'an unknown key', input: { ...valid, colour: 'red' }, names: /Unknown argument "colour"/ });
  for (const [key, property] of Object.entries(schema.properties ?? {})) {
    const quoted = new RegExp(`"${key}(\\[\\d+\\])?[".]`);
    const broken = (what: string, value: unknown): void =>
      void cases.push({ what: `${key}: ${what}`, input: { ...valid, [key]: value }, names: quoted });
    const wrong = wrongType(property);
    if (wrong !== undefined) broken('wrong type', wrong);
    if (property.enum) broken('not one of the values', 'nonsense_value');
    if (property.minimum !== undefined) broken('below the minimum', property.minimum - 1);
    if (property.maximum !== undefined) broken('above the maximum', property.maximum + 1);
    if (property.minLength) broken('empty', '');
    // A map such as debug's env: a value of the wrong type, named by its key.
    if (typeof property.additionalProperties === 'object') {
      const value = wrongType(property.additionalProperties);
      if (value !== undefined) broken('a wrong value in the map', { NAME: value });
    }
    if (property.items) {
      const item = property.items.anyOf ? true : wrongType(property.items);
      if (item !== undefined) broken('a wrong item', [item]);
      if (property.items.required?.length) broken('an item missing its required key', [{}]);
    }
  }
  return cases;
}

/** Mistakes past the schema: a line past the end, a file or id that is not there. */
const SEMANTIC: Array<{ tool: string; input: Record<string, unknown>; answer: RegExp }> = [
  {
    tool: 'lsp',
    input: { action: 'hover', file: 'src/main.ts', line: 99_999, symbol: 'x' },
    answer: /^Error: line 99999 is outside the file of src\/main\.ts, which has \d+ lines/,
  },
  {
    tool: 'lsp_rename',
    input: { file: 'src/main.ts', line: 99_999, symbol: 'x', new_name: 'y' },
    answer: /^Error: line 99999 is outside the file/,
  },
  {
    tool: 'lsp',
    input: { action: 'definition', file: 'src/nowhere.ts', line: 1, symbol: 'x' },
    answer: /^Error: file not found: src\/nowhere\.ts/,
  },
  {
    tool: 'edit',
    input: { path: 'src/main.ts', old_string: 'zzz-not-there', new_string: 'y' },
    answer: /^Error: old_string was not found in src\/main\.ts; nothing was written/,
  },
  {
    tool: 'ast_grep',
    input: { pattern: 'f(', language: 'typescript' },
    answer: /^Error: .*does not parse as typescript/,
  },
  {
    tool: 'resolve',
    input: { edit_id: 'edit_999', action: 'accept' },
    answer: /^Error: there is no staged edit "edit_999"/,
  },
  {
    tool: 'debug',
    input: { op: 'breakpoints', file: 'debug/python/app.py', lines: [{ line: 999 }] },
    answer: /line 999 is outside it/,
  },
  { tool: 'vibe_wait', input: { worker_id: 'w999' }, answer: /^Error: No worker "w999"/ },
];

function workspaceDigest(): string {
  const root = workspaceRoot();
  const hash = crypto.createHash('sha256');
  for (const entry of fs
    .readdirSync(root, { recursive: true, withFileTypes: true })
    .sort((a, b) => path.join(a.parentPath, a.name).localeCompare(path.join(b.parentPath, b.name)))) {
    const file = path.join(entry.parentPath, entry.name);
    hash.update(file);
    if (entry.isFile()) hash.update(fs.readFileSync(file));
  }
  return hash.digest('hex');
}

describe('malformed input: every tool answers an actionable error and changes nothing', function () {
  this.timeout(300_000);

  before(async () => {
    await activateExtension();
    await setSetting('liveTools.vibe.enabled', true);
    await waitUntilAsync('vibe mode to be on', async () =>
      (await invokeText('vibe_list', {})).startsWith('Refused') ? undefined : true,
    );
  });
  after(() => setSetting('liveTools.vibe.enabled', undefined));

  it('has a valid input on record for every tool', () => {
    assert.deepEqual(
      TOOL_CATALOG.map((tool) => tool.name).filter((name) => !VALID[name]),
      [],
    );
  });

  for (const declaration of TOOL_CATALOG) {
    it(`${declaration.name}: wrong types, missing and unknown keys, values out of range, empty strings`, async () => {
      const digest = workspaceDigest();
      const cases = schemaCases(declaration.name, declaration.inputSchema);
      assert.ok(cases.length >= 2, `only ${cases.length} cases for ${declaration.name}`);
      for (const { what, input, names } of cases) {
        const text = await invokeText(declaration.name, input as object);
        assert.match(text, /^Error: /, `${declaration.name} (${what}) answered: ${text}`);
        assert.match(text, names, `${declaration.name} (${what}) did not say what was wrong: ${text}`);
      }
      assert.equal(workspaceDigest(), digest, `${declaration.name}: a malformed call changed the workspace`);
    });
  }

  it('past the schema: a line past the end, a missing file, an unknown id — each says what to do instead', async () => {
    const digest = workspaceDigest();
    for (const { tool, input, answer } of SEMANTIC) {
      const text = await invokeText(tool, input);
      assert.match(text, answer, `${tool} ${JSON.stringify(input)} answered: ${text}`);
    }
    assert.equal(workspaceDigest(), digest, 'a refused call changed the workspace');
  });
});
