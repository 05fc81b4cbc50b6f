import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { TOOL_CATALOG } from '../../src/tools/declarations';
import { tierTag } from '../../src/platform/manifest';
import { activateExtension, invokeText, setLspEnabled, setSetting, waitUntilAsync } from './support/tools';

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

  it('has an implementation behind every catalog tool: an empty input is answered by our validation (or, needing none, by the tool)', async () => {
    // Vibe mode is off by default; its tools refuse until it is on.
    await setSetting('liveTools.vibe.enabled', true);
    try {
      for (const declaration of TOOL_CATALOG) {
        // The setting reaches the extension a moment later: a refusal is asked again until it has.
        const text = await waitUntilAsync(`${declaration.name} to be wired`, async () => {
          const answer = await invokeText(declaration.name, {});
          return answer.startsWith('Refused') ? undefined : answer;
        });
        // `test` with nothing selected runs what the runner at the workspace folder finds: the test workspace has none there.
        if (declaration.name === 'test')
          assert.match(text, /^Error: No test runner found in the workspace folder: .* Give `files`/, text);
        else if (declaration.inputSchema.required?.length)
          assert.match(text, /^Error: Missing "/, `${declaration.name} answered: ${text}`);
        else assert.doesNotMatch(text, /^(Error|Refused)/, `${declaration.name} answered: ${text}`);
      }
    } finally {
      await setSetting('liveTools.vibe.enabled', undefined);
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
