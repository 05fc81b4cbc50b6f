/**
 * `ast_edit` end to end keeps what its pattern did not write: the rewrite is staged through the
 * parsing threads, accepted with `resolve`, and the file on disk keeps each statement's `;`.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { activateExtension, invokeText, workspaceRoot } from './support/tools';

const FILE = 'rewrite-kept/vars.ts';
const SOURCE = 'var first = 1;\nvar second = 2\nexport const sum = first + second;\n';

describe('ast_edit keeps the tokens its pattern did not write', function () {
  this.timeout(60_000);

  before(async () => {
    await activateExtension();
  });

  it('`var $A = $B` → `let $A = $B` keeps the `;` of `var first = 1;`', async () => {
    const absolute = path.join(workspaceRoot(), FILE);
    fs.mkdirSync(path.dirname(absolute), { recursive: true });
    fs.writeFileSync(absolute, SOURCE);
    const staged = await invokeText('ast_edit', { pattern: 'var $A = $B', rewrite: 'let $A = $B', path: FILE });
    const id = /staged as (edit_\d+):/.exec(staged)?.[1];
    assert.ok(id, staged);
    const lines = staged.split('\n');
    assert.ok(lines.includes(`${FILE}:1: var first = 1; → let first = 1;`), staged);
    assert.ok(lines.includes(`${FILE}:2: var second = 2 → let second = 2`), staged);
    assert.equal(fs.readFileSync(absolute, 'utf8'), SOURCE, 'nothing is written before accept');
    assert.match(await invokeText('resolve', { edit_id: id, action: 'accept' }), /^Accepted /);
    assert.equal(
      fs.readFileSync(absolute, 'utf8'),
      'let first = 1;\nlet second = 2\nexport const sum = first + second;\n',
    );
  });
});
