import * as assert from 'node:assert/strict';
import { uncapturedEffect } from '../../src/lsp/codeActionCommands';

describe('code action commands lsp_apply lets run', () => {
  it("TypeScript's telemetry commands and a quick fix without server commands change nothing", () => {
    assert.equal(
      uncapturedEffect({ command: '_typescript.didApplyRefactoring', arguments: [{ action: 'x' }] }),
      undefined,
    );
    assert.equal(uncapturedEffect({ command: '_typescript.didOrganizeImports' }), undefined);
    assert.equal(
      uncapturedEffect({
        command: '_typescript.applyCodeActionCommand',
        arguments: [{ action: { fixName: 'import' } }],
      }),
      undefined,
    );
    assert.equal(
      uncapturedEffect({
        command: '_typescript.compositeCommand',
        arguments: [{ command: '_typescript.didApplyRefactoring', arguments: [] }],
      }),
      undefined,
    );
  });

  it('a quick fix with server commands, an unknown command and a nested unknown one are refused with why', () => {
    assert.match(
      uncapturedEffect({
        command: '_typescript.applyCodeActionCommand',
        arguments: [{ action: { commands: [{ type: 'install package' }] } }],
      }) ?? '',
      /installing a package/,
    );
    assert.match(uncapturedEffect({ command: 'gopls.fill_struct' }) ?? '', /cannot be shown and checked/);
    assert.match(
      uncapturedEffect({
        command: '_typescript.compositeCommand',
        arguments: [{ command: '_typescript.didApplyRefactoring' }, { command: 'editor.action.rename' }],
      }) ?? '',
      /cannot be shown and checked/,
    );
    assert.match(
      uncapturedEffect({ command: '_typescript.compositeCommand', arguments: ['not a command'] }) ?? '',
      /shape not known/,
    );
  });
});
