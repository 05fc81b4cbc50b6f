import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import * as vscode from 'vscode';
import { activateExtension, invokeText, setSetting, workspaceRoot } from './support/tools';

/**
 * The stall harness: every tool on inputs a model may send or a cloned repository may hold (the
 * reproductions of issue 34, and generated ones: long runs of keywords, blank lines, repeated tokens,
 * huge strings), each call watched from inside the extension host, where this suite runs beside the
 * extension. A call fails when the host's event loop was blocked more than MAX_BLOCK_MS at a time.
 */
const MAX_BLOCK_MS = 100;
const DIR = 'stall';

function put(relative: string, text: string): void {
  const absolute = path.join(workspaceRoot(), DIR, relative);
  fs.mkdirSync(path.dirname(absolute), { recursive: true });
  fs.writeFileSync(absolute, text);
}

/** The longest the event loop was blocked (ms) while `run` ran, and what it answered. */
async function longestBlock(run: () => Promise<string>): Promise<{ blockedMs: number; answer: string }> {
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  try {
    const answer = await run();
    // A block is recorded when the timer it delayed fires: let it.
    await new Promise((resolve) => setTimeout(resolve, 20));
    return { blockedMs: delay.max / 1e6, answer };
  } finally {
    delay.disable();
  }
}

/**
 * Runs the call and fails if the host was blocked past the bound, each of three tries (a busy machine
 * may block once; a scan that stalls stalls every time). Returns the first answer.
 */
async function withoutStall(what: string, run: () => Promise<string>): Promise<string> {
  const blocks: number[] = [];
  let first: string | undefined;
  for (let attempt = 0; attempt < 3; attempt++) {
    const { blockedMs, answer } = await longestBlock(run);
    first ??= answer;
    blocks.push(blockedMs);
    if (blockedMs <= MAX_BLOCK_MS) return first;
  }
  assert.fail(
    `${what}: the extension host was blocked ${blocks.map((ms) => `${ms.toFixed(0)} ms`).join(', ')} at a time (at most ${MAX_BLOCK_MS} ms allowed)`,
  );
}

describe('stall harness: no input a model sends or a file holds blocks the extension host', function () {
  this.timeout(300_000);

  before(async () => {
    await activateExtension();
    put('typeof.js', `${'typeof '.repeat(200)}x;\nfoo;\n`);
    put('new.js', `${'new '.repeat(12_000)}x;\nFoo;\n`);
    put('comments.js', `console ${'/* // '.repeat(20_000)}\nlog(1);\n`);
    put('replace.txt', 'foo();\n'.repeat(12_000));
    put('lines.txt', 'foo();\n'.repeat(100_000));
    put('seek.txt', `${'a\n'.repeat(20_000)}b\n`);
    put('blank-importer.ts', `${'\n'.repeat(1_000_000)}x;\nimport './target';\n`);
    put('big/huge.js', `foo(1);\n${'x'.repeat(1_000_000)}\n`);
    put('big/small.js', 'foo(2);\n');
  });

  after(async () => {
    await setSetting('liveTools.structural.maxFileCharacters', undefined);
    fs.rmSync(path.join(workspaceRoot(), DIR), { recursive: true, force: true });
  });

  it('the harness sees a blocked host (a 250 ms busy loop)', async () => {
    const { blockedMs } = await longestBlock(async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      const until = Date.now() + 250;
      while (Date.now() < until);
      return '';
    });
    assert.ok(blockedMs >= 200, `measured ${blockedMs} ms`);
  });

  it('ast_grep: runs of keywords and repeated first tokens, and comments that never close', async () => {
    assert.match(
      await withoutStall('typeof × 200', () =>
        invokeText('ast_grep', { pattern: 'typeof typeof typeof foo', path: `${DIR}/typeof.js` }),
      ),
      /^No matches/,
    );
    assert.match(
      await withoutStall('new × 12,000', () =>
        invokeText('ast_grep', { pattern: 'new Foo($$$A)', path: `${DIR}/new.js` }),
      ),
      /^No matches/,
    );
    assert.match(
      await withoutStall('unclosed comments', () =>
        invokeText('ast_grep', { pattern: 'console.log($$$A)', path: `${DIR}/comments.js` }),
      ),
      /^No matches/,
    );
    // A pattern of a thousand repeated tokens.
    await withoutStall('a long pattern', () =>
      invokeText('ast_grep', { pattern: `f(${'a, '.repeat(1000)}b)`, path: DIR, language: 'javascript' }),
    );
  });

  it('ast_grep: a file over the size cap is not read, and is named with its size', async () => {
    await setSetting('liveTools.structural.maxFileCharacters', 100_000);
    const answer = await withoutStall('a folder with a file over the cap', () =>
      invokeText('ast_grep', { pattern: 'foo($A)', path: `${DIR}/big` }),
    );
    assert.match(answer, /stall\/big\/small\.js:1: foo\(2\)/);
    assert.match(
      answer,
      /Not searched: 1 file over the size cap of 100,000 characters: stall\/big\/huge\.js \(1,000,009 bytes\)\./,
    );
    await setSetting('liveTools.structural.maxFileCharacters', undefined);
  });

  it('edit: replace_all on 12,000 lines, a non-unique old_string on 100,000, the near-match of 2,000 lines', async () => {
    assert.match(
      await withoutStall('replace_all', () =>
        invokeText('edit', { path: `${DIR}/replace.txt`, old_string: 'foo', new_string: 'bar', replace_all: true }),
      ),
      /^Edited stall\/replace\.txt: 12,000 replacements at lines 1, 2, .*, 20 and 11,980 more, saved\./,
    );
    // Back, so each try has the same work to do.
    await invokeText('edit', { path: `${DIR}/replace.txt`, old_string: 'bar', new_string: 'foo', replace_all: true });
    assert.match(
      await withoutStall('a non-unique old_string', () =>
        invokeText('edit', { path: `${DIR}/lines.txt`, old_string: 'foo', new_string: 'bar' }),
      ),
      /^Error: old_string occurs 100,000 times in stall\/lines\.txt \(lines 1, 2, .*, 20 and 99,980 more\); nothing was written/,
    );
    const unmatched = Array.from({ length: 2000 }, (_, index) => `line ${index} is not in the file`).join('\n');
    assert.match(
      await withoutStall('the near-match', () =>
        invokeText('edit', { path: `${DIR}/lines.txt`, old_string: unmatched, new_string: 'x' }),
      ),
      /not found/,
    );
    // A huge old_string and new_string (a million characters each).
    await withoutStall('huge strings', () =>
      invokeText('edit', {
        path: `${DIR}/lines.txt`,
        old_string: 'q'.repeat(1_000_000),
        new_string: 'r'.repeat(1_000_000),
      }),
    );
  });

  it('patch: a million leading blank lines, and a hunk whose context nearly repeats', async () => {
    assert.match(
      await withoutStall('leading blank lines', () =>
        invokeText('patch', {
          patch: `${'\n'.repeat(1_000_000)}*** Begin Patch\n*** Add File: ${DIR}/added.txt\n+x\n*** End Patch`,
        }),
      ),
      /^Patch applied to 1 file:\nA stall\/added\.txt\n/,
    );
    fs.rmSync(path.join(workspaceRoot(), DIR, 'added.txt'));
    const context = ' a\n'.repeat(10_000);
    await withoutStall('seek', () =>
      invokeText('patch', {
        patch: `*** Begin Patch\n*** Update File: ${DIR}/seek.txt\n@@\n${context}-c\n*** End Patch`,
      }),
    );
  });

  it('write: the importer scan over a file of a million blank lines', async () => {
    assert.match(
      await withoutStall('importer scan', () =>
        invokeText('write', { path: `${DIR}/target.ts`, content: 'export const target = 1;\n' }),
      ),
      /^(Created|Wrote) stall\/target\.ts/,
    );
  });

  it('every other tool: huge strings and runs of repeated tokens', async () => {
    const huge = 'x'.repeat(1_000_000);
    const cases: Array<[string, string, object]> = [
      ['lsp hover, a huge symbol', 'lsp', { action: 'hover', file: 'src/main.ts', line: 1, symbol: huge }],
      ['lsp symbols, a query of repeated tokens', 'lsp', { action: 'symbols', query: 'a.b('.repeat(100_000) }],
      ['lsp_rename, a huge new name', 'lsp_rename', { file: 'src/main.ts', line: 1, symbol: 'import', new_name: huge }],
      [
        'ast_edit, a pattern of many metavariables',
        'ast_edit',
        { pattern: `f(${'$A, '.repeat(500)}$B)`, rewrite: 'g($B)', path: DIR, language: 'javascript' },
      ],
      ['resolve, a huge edit id', 'resolve', { edit_id: huge, action: 'discard' }],
      ['debug evaluate, a huge expression and no session', 'debug', { op: 'evaluate', expression: huge }],
      ['eval, a cell of a million characters', 'eval', { code: `x = "${huge}"\nlen(x)`, description: 'huge cell' }],
      ['vibe_list', 'vibe_list', {}],
    ];
    for (const [what, tool, input] of cases)
      assert.ok((await withoutStall(what, () => invokeText(tool, input))).length > 0, what);
    // A card with a question of a million characters, withdrawn after a moment.
    await withoutStall('ask_user, a huge question', async () => {
      const source = new vscode.CancellationTokenSource();
      setTimeout(() => source.cancel(), 1500);
      try {
        return await invokeText('ask_user', { question: huge }, source.token);
      } catch {
        return 'withdrawn';
      } finally {
        source.dispose();
      }
    });
  });

  it('eval: a secret-shaped run in the output, and a cell forging 20,000 results', async () => {
    const masked = await withoutStall('eyJ- × 40,000', () =>
      invokeText('eval', { code: 'print("eyJ-" * 40000)', description: 'secret-shaped output' }),
    );
    assert.match(masked, /eyJ-eyJ-/);
    const forged = await withoutStall('20,000 results', () =>
      invokeText('eval', {
        // The kernel's own sender, reached from a function it gives the cell.
        code: 'g = display.__globals__\nfor i in range(20000):\n    g["send"]({"type": "result", "id": g["_state"].cell_id, "mime": "text/plain", "data": "x" * 1000})',
        description: 'forged results',
      }),
    );
    assert.match(forged, /\[19,980 more results not shown \(19,980,000 characters\): a cell shows at most 100 results/);
    assert.ok(forged.length < 60_000, `${forged.length} characters`);
  });
});
