/**
 * What MCP clients are told each tool does: read tools read-only, every write and exec tool described
 * by how it really behaves (none left to the fallback), and the table names no read tool.
 */
import * as assert from 'node:assert/strict';
import { annotationsOf, WRITE_AND_EXEC_BEHAVIOUR } from '../../src/mcp/toolAnnotations';
import { TOOL_CATALOG } from '../../src/tools/declarations';

describe('MCP tool annotations', () => {
  it('follow the tiers: read tools are read-only; each write and exec tool has its own entry, and no read tool has one', () => {
    for (const declaration of TOOL_CATALOG) {
      const annotations = annotationsOf(declaration);
      assert.equal(annotations.title, declaration.displayName);
      assert.equal(annotations.readOnlyHint, declaration.tier === 'read', declaration.name);
      assert.equal(
        declaration.name in WRITE_AND_EXEC_BEHAVIOUR,
        declaration.tier !== 'read',
        `${declaration.name} (${declaration.tier})`,
      );
    }
  });

  it('say which tools may destroy what is there, which repeat without effect, and which reach beyond the workspace', () => {
    const byName = new Map(TOOL_CATALOG.map((declaration) => [declaration.name, annotationsOf(declaration)]));
    const hints = (name: string) => {
      const annotations = byName.get(name as never);
      return [annotations?.destructiveHint, annotations?.idempotentHint, annotations?.openWorldHint];
    };
    assert.deepEqual(hints('write'), [true, true, false]);
    assert.deepEqual(hints('edit'), [true, false, false]);
    assert.deepEqual(hints('ast_edit'), [false, false, false]);
    assert.deepEqual(hints('resolve'), [true, true, false]);
    assert.deepEqual(hints('eval'), [true, false, true]);
    assert.deepEqual(hints('lsp'), [undefined, undefined, false]);
  });
});
