import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { TOOL_CATALOG } from '../../src/registry/catalog';
import { tierTag } from '../../src/registry/manifest';
import { activateExtension, invokeText, setLspEnabled } from './support/tools';

describe('tool registry', () => {
  before(async () => {
    await activateExtension();
  });

  it('registers every catalog tool with its tier tag', () => {
    for (const declaration of TOOL_CATALOG) {
      const tool = vscode.lm.tools.find((candidate) => candidate.name === declaration.name);
      assert.ok(tool, `${declaration.name} is not in vscode.lm.tools`);
      assert.ok(tool.tags.includes(tierTag(declaration)), `${declaration.name} tags: ${tool.tags.join(', ')}`);
    }
  });

  it('has an implementation behind every catalog tool: an empty input is answered by our validation', async () => {
    for (const declaration of TOOL_CATALOG) {
      const text = await invokeText(declaration.name, {});
      assert.match(text, /^Error: Missing "/, `${declaration.name} answered: ${text}`);
    }
  });

  it('refuses, with the reason, while the resource is not wired', async () => {
    await setLspEnabled(false);
    try {
      const text = await invokeText('lsp', { action: 'status' });
      assert.equal(
        text,
        "Refused: lsp needs the editor's language features, which is not available in this window: it is turned off by the setting liveTools.lsp.enabled.",
      );
    } finally {
      await setLspEnabled(undefined);
    }
    const text = await invokeText('lsp', { action: 'status' });
    assert.doesNotMatch(text, /^Refused/);
  });
});
