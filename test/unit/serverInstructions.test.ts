/**
 * The MCP server's instructions: guidance on when to use the editor's tools, naming only tools the
 * session is offered — at each cap a session can have, and for any subset of the catalog.
 */
import * as assert from 'node:assert/strict';
import { serverInstructions } from '../../src/mcp/serverInstructions';
import { tierWithinCap, TIERS } from '../../src/platform/tiers';
import { TOOL_CATALOG } from '../../src/tools/declarations';
import { seededRandom } from '../support/seededRandom';

const ALL = TOOL_CATALOG.map((declaration) => declaration.name as string);

/** The catalog's tool names the text names (as words: `lsp` in `lsp_rename` does not count). */
function named(text: string): string[] {
  return ALL.filter((name) => new RegExp(`(^|[^a-z_])${name}(?![a-z_])`).test(text));
}

describe('MCP server instructions', () => {
  it('at each cap, say when to use the editor instead of grep, hand edits and prints, naming only what is offered', () => {
    for (const cap of TIERS) {
      const offered = TOOL_CATALOG.filter((declaration) => tierWithinCap(declaration.tier, cap)).map(
        (declaration) => declaration.name as string,
      );
      const text = serverInstructions(offered);
      assert.deepEqual(
        named(text).filter((name) => !offered.includes(name)),
        [],
        `${cap}: ${text}`,
      );
      assert.match(text, /ask lsp \(definition, references, callers, symbols\) instead of searching text/);
      assert.match(text, /ask_user/);
      assert.equal(/lsp_rename/.test(text), cap !== 'read', cap);
      assert.equal(/instead of adding print statements/.test(text), cap === 'exec', cap);
    }
  });

  it('name no tool that is not offered, whatever subset is', () => {
    const random = seededRandom(37);
    for (let round = 0; round < 200; round++) {
      const offered = ALL.filter(() => random() < 0.5);
      assert.deepEqual(
        named(serverInstructions(offered)).filter((name) => !offered.includes(name)),
        [],
        offered.join(','),
      );
    }
  });
});
