import * as assert from 'node:assert/strict';
import { offeredTools } from '../../src/platform/availability';

import { ToolDeclaration } from '../../src/platform/toolDeclaration';

import { TOOL_CATALOG } from '../../src/tools/declarations';

import { conversationIdOf, WINDOW_CONVERSATION } from '../../src/platform/conversation';

import { InputError, validateInput } from '../../src/platform/inputValidation';

import { workerConversation } from '../../src/platform/caller';
import { ResourceBoard, ResourceId } from '../../src/platform/resources';

import { tierNeedsConfirmation, tierWithinCap } from '../../src/platform/tiers';
import { singleLine } from '../../src/platform/wording';

describe('tiers', () => {
  const table: [Parameters<typeof tierWithinCap>[0], Parameters<typeof tierWithinCap>[1], boolean][] = [
    ['read', 'read', true],
    ['write', 'read', false],
    ['exec', 'read', false],
    ['read', 'write', true],
    ['write', 'write', true],
    ['exec', 'write', false],
    ['exec', 'exec', true],
  ];
  for (const [tier, cap, within] of table) {
    it(`${tier} is ${within ? '' : 'not '}within a ${cap} cap`, () => assert.equal(tierWithinCap(tier, cap), within));
  }
  it('write and exec ask for confirmation, read does not', () => {
    assert.deepEqual(
      [tierNeedsConfirmation('read'), tierNeedsConfirmation('write'), tierNeedsConfirmation('exec')],
      [false, true, true],
    );
  });
});

describe('resource board and what a model is offered', () => {
  const catalog: ToolDeclaration[] = [
    { ...TOOL_CATALOG[0], name: 'lsp', tier: 'read', resource: 'lsp' },
    { ...TOOL_CATALOG[0], name: 'lsp_rename', tier: 'write', resource: 'lsp' },
  ];

  it('starts with nothing wired, with a reason', () => {
    const state = new ResourceBoard().get('lsp');
    assert.equal(state.ready, false);
    assert.ok(!state.ready && state.reason.length > 0);
  });

  it('offers only tools within the cap whose resource is ready', () => {
    const board = new ResourceBoard();
    assert.deepEqual(offeredTools(catalog, board, 'exec'), []);
    board.set('lsp', { ready: true });
    assert.deepEqual(
      offeredTools(catalog, board, 'read').map((tool) => tool.name),
      ['lsp'],
    );
    assert.deepEqual(
      offeredTools(catalog, board, 'write').map((tool) => tool.name),
      ['lsp', 'lsp_rename'],
    );
  });

  it('notifies on real changes only', () => {
    const board = new ResourceBoard();
    const seen: string[] = [];
    board.onDidChange((id: ResourceId, state) => seen.push(`${id}:${state.ready ? 'ready' : state.reason}`));
    board.set('lsp', { ready: true });
    board.set('lsp', { ready: true });
    board.set('lsp', { ready: false, reason: 'off' });
    board.set('lsp', { ready: false, reason: 'off' });
    board.set('lsp', { ready: false, reason: 'no folder' });
    assert.deepEqual(seen, ['lsp:ready', 'lsp:off', 'lsp:no folder']);
  });
});

describe('conversation identity', () => {
  it('is the chat session resource of the invocation token', () => {
    const sessionResource = { toString: () => 'vscode-chat-session://local/abc' };
    assert.equal(conversationIdOf({ sessionResource }), 'vscode-chat-session://local/abc');
  });
  it('is one window-wide conversation outside chat', () => {
    for (const token of [undefined, null, {}, { sessionResource: undefined }, 'x', { sessionResource: {} }]) {
      assert.equal(conversationIdOf(token), WINDOW_CONVERSATION);
    }
  });
});

describe('input validation against the schema', () => {
  const lspSchema = TOOL_CATALOG.find((tool) => tool.name === 'lsp')!.inputSchema;

  it('accepts a valid input', () => {
    validateInput(lspSchema, { action: 'definition', file: 'a.ts', line: 3, symbol: 'x' });
  });

  it('reports every problem at once, worded for the model', () => {
    assert.throws(
      () => validateInput(lspSchema, { action: 'goto', line: 2.5, column: 4, occurrence: 0 }),
      (error: unknown) =>
        error instanceof InputError &&
        error.problems.length === 4 &&
        error.problems.some((problem) => problem.startsWith('"action" must be one of diagnostics, definition')) &&
        error.problems.includes('"line" must be a whole number.') &&
        error.problems.includes('"occurrence" must be at least 1.') &&
        error.problems.includes(
          'Unknown argument "column" (accepted: action, file, line, symbol, occurrence, query, files, changed_on_disk, baseline).',
        ),
    );
  });

  const problemsOf = (tool: string, input: unknown): readonly string[] => {
    try {
      validateInput(TOOL_CATALOG.find((entry) => entry.name === tool)!.inputSchema, input);
      return [];
    } catch (error) {
      if (error instanceof InputError) return error.problems;
      throw error;
    }
  };

  it('checks array items and nested objects, naming where', () => {
    assert.deepEqual(problemsOf('ask_user', { question: 'Ship?', options: ['yes', 'no'] }), [
      '"options[0]" must be an object {label, description?}.',
      '"options[1]" must be an object {label, description?}.',
    ]);
    assert.deepEqual(problemsOf('ask_user', { question: 'Ship?', options: [{ label: 'yes', colour: 'red' }, {}] }), [
      'Unknown key "colour" in "options[0]" (accepted: label, description).',
      'Missing "options[1].label".',
    ]);
  });

  it('checks maxima, empty strings and list lengths', () => {
    assert.deepEqual(problemsOf('ast_grep', { pattern: '$A', max_results: 1e12 }), [
      '"max_results" must be at most 1000.',
    ]);
    assert.deepEqual(problemsOf('ask_user', { question: '' }), ['"question" must not be empty.']);
    assert.deepEqual(problemsOf('lsp', { action: 'hover', file: 'a.ts', line: 0, symbol: '' }), [
      '"line" must be at least 1.',
      '"symbol" must not be empty.',
    ]);
    const many = Array.from({ length: 51 }, (_, i) => ({ label: `o${i}` }));
    assert.deepEqual(problemsOf('ask_user', { question: 'Which?', options: many }), [
      '"options" must have at most 50 items.',
    ]);
  });

  it('says an alternative once, as what it accepts', () => {
    const schema = {
      type: 'object' as const,
      properties: {
        lines: {
          type: 'array' as const,
          items: {
            anyOf: [
              { type: 'integer' as const, minimum: 1 },
              { type: 'object' as const, properties: { line: { type: 'integer' as const } }, required: ['line'] },
            ],
          },
        },
      },
    };
    assert.throws(
      () => validateInput(schema, { lines: [4, 'four'] }),
      (error: unknown) =>
        error instanceof InputError &&
        error.message === '"lines[1]" must be a whole number (at least 1) or an object {line}.',
    );
  });

  it('debug: breakpoint lines as plain numbers or objects, env values and args as strings, waits bounded', () => {
    assert.deepEqual(problemsOf('debug', { op: 'breakpoints', file: 'a.py', lines: [4, 9] }), []);
    assert.deepEqual(
      problemsOf('debug', { op: 'breakpoints', file: 'a.py', lines: [4, { line: 9, condition: 'i > 2' }] }),
      [],
    );
    const alternatives =
      'must be a whole number (at least 1) or an object {line, line_text?, symbol?, condition?, hit_condition?, log_message?}.';
    assert.deepEqual(
      problemsOf('debug', { op: 'breakpoints', file: 'a.py', lines: [0, 'nine', { line: 3, hit: 2 }] }),
      [`"lines[0]" ${alternatives}`, `"lines[1]" ${alternatives}`, `"lines[2]" ${alternatives}`],
    );
    assert.deepEqual(
      problemsOf('debug', {
        op: 'launch',
        program: 'a.py',
        env: { MODE: 'fast', DEBUG: 1 },
        args: ['-v', 2],
      }).toSorted(),
      ['"args[1]" must be a string.', '"env.DEBUG" must be a string.'],
    );
    assert.deepEqual(problemsOf('debug', { op: 'continue', timeout_seconds: 1e9 }), [
      '"timeout_seconds" must be at most 3600.',
    ]);
    assert.deepEqual(problemsOf('vibe_wait', { worker_id: 'w1', timeout_seconds: 1e9 }), [
      '"timeout_seconds" must be at most 3600.',
    ]);
  });

  it('takes null for an optional key as leaving it out', () => {
    assert.deepEqual(problemsOf('lsp', { action: 'status', file: null, line: null }), []);
    assert.deepEqual(problemsOf('lsp', { action: null }), ['Missing "action".']);
  });

  it('names missing required keys and refuses non-objects', () => {
    assert.throws(
      () => validateInput(lspSchema, {}),
      (error: unknown) => error instanceof InputError && error.message === 'Missing "action".',
    );
    assert.throws(() => validateInput(lspSchema, [1]), /must be a JSON object/);
    assert.throws(() => validateInput(lspSchema, null), /must be a JSON object/);
  });
});

describe('callers', () => {
  it('a label a model wrote becomes one bounded line', () => {
    assert.equal(singleLine('fix\nthe\r\ntests\u2028now\u0007', 60), 'fix the tests now');
    assert.equal(singleLine('x'.repeat(100), 10), `${'x'.repeat(9)}…`);
  });
  it("a worker's conversation is its own, under its owner's", () => {
    assert.equal(
      workerConversation('vscode-chat-session://local/abc', 'w3'),
      'vscode-chat-session://local/abc#worker-w3',
    );
  });
});
