/**
 * lsp overhead, measured inside the real editor: our tool (validation, position from line +
 * symbol, provider call, line texts, formatting) against the raw provider command it wraps,
 * alternating the two in one run so drift hits both alike. Writes figures for the harness.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { addToReport, Sample } from './benchReport';
import { activateExtension, invokeText, lineOf, workspaceRoot } from '../test/integration/support/tools';

const ROUNDS = 40;

async function time(work: () => Thenable<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

async function compare(
  key: string,
  measure: string,
  peerName: string,
  ours: () => Thenable<unknown>,
  peer: () => Thenable<unknown>,
): Promise<Sample> {
  await ours();
  await peer();
  const sample: Sample = { key, area: 'lsp', measure, ours: [], peer: [], peerName };
  for (let round = 0; round < ROUNDS; round++) {
    if (round % 2 === 0) {
      sample.ours.push(await time(ours));
      sample.peer.push(await time(peer));
    } else {
      sample.peer.push(await time(peer));
      sample.ours.push(await time(ours));
    }
  }
  return sample;
}

/**
 * write → diagnostics: our `edit` (plan, one WorkspaceEdit, save, TypeScript diagnostics of the file
 * and its importers pulled before and after, registry, answer) that introduces an error, against the
 * raw path an extension would take: the same WorkspaceEdit + save, then waiting for
 * vscode.languages.onDidChangeDiagnostics to carry the error for that file (the file is shown in a
 * tab, since the TypeScript extension publishes only for those). Each round introduces then removes
 * the error; only the introducing half is timed.
 */
async function writeThenDiagnostics(uri: (file: string) => vscode.Uri): Promise<Sample> {
  const file = 'src/benchWrite.ts';
  const target = uri(file);
  fs.writeFileSync(target.fsPath, 'export const n: number = 1;\n');
  await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(target), {
    preview: false,
    preserveFocus: true,
  });
  const good = 'export const n: number = 1;';
  const bad = "export const n: number = 'one';";
  const raw = async (from: string, to: string, expectError: boolean): Promise<void> => {
    const document = await vscode.workspace.openTextDocument(target);
    const published = new Promise<void>((resolve) => {
      const check = (): boolean => {
        const hasError = vscode.languages
          .getDiagnostics(target)
          .some((diagnostic) => diagnostic.message.includes('not assignable'));
        return hasError === expectError;
      };
      const subscription = vscode.languages.onDidChangeDiagnostics((event) => {
        if (event.uris.some((changed) => changed.toString() === target.toString()) && check()) {
          subscription.dispose();
          resolve();
        }
      });
    });
    const edit = new vscode.WorkspaceEdit();
    const start = document.getText().indexOf(from);
    edit.replace(target, new vscode.Range(document.positionAt(start), document.positionAt(start + from.length)), to);
    await vscode.workspace.applyEdit(edit);
    await document.save();
    await published;
  };
  const ours = async (): Promise<void> => {
    const text = await invokeText('edit', { path: file, old_string: good, new_string: bad });
    if (!text.includes('1 new problem')) throw new Error(`edit did not report the error: ${text}`);
  };
  const sample: Sample = {
    area: 'writes',
    measure: 'write → diagnostics (edit introducing a TS error)',
    ours: [],
    peer: [],
    peerName: 'WorkspaceEdit + save + onDidChangeDiagnostics',
  };
  const rounds = ROUNDS / 2;
  for (let round = 0; round < rounds; round++) {
    const oursFirst = round % 2 === 0;
    for (const which of oursFirst ? ['ours', 'peer'] : ['peer', 'ours']) {
      if (which === 'ours') {
        sample.ours.push(await time(ours));
        await invokeText('edit', { path: file, old_string: bad, new_string: good });
      } else {
        sample.peer.push(await time(() => raw(good, bad, true)));
        await raw(bad, good, false);
      }
    }
  }
  return sample;
}

describe('bench', function () {
  this.timeout(600_000);

  it('lsp against the raw provider commands', async () => {
    const { activationMs, evaluationMs } = await activateExtension();
    const uri = (file: string) => vscode.Uri.file(path.join(workspaceRoot(), file));
    // Warm the TypeScript server (project load) before timing anything.
    await invokeText('lsp', { action: 'diagnostics', file: 'src/main.ts' });
    const bothLine = lineOf('src/main.ts', 'const both');
    const bothText = fs.readFileSync(path.join(workspaceRoot(), 'src/main.ts'), 'utf8').split('\n')[bothLine - 1];
    const makeGreeting = new vscode.Position(bothLine - 1, bothText.indexOf('makeGreeting'));
    const formatCount = new vscode.Position(0, 'export function '.length);

    const samples: Sample[] = [
      // What any extension tool pays to go through vscode.lm.invokeTool (two RPC round trips to the
      // workbench): lsp symbols without file or query is refused by our validation, no server call,
      // against a command round trip that does nothing. (reload restarts servers since issue 4.)
      await compare(
        'lsp.floor',
        'invocation floor (lsp symbols, refused: no server call)',
        "executeCommand('setContext')",
        () => invokeText('lsp', { action: 'symbols' }),
        () => vscode.commands.executeCommand('setContext', 'liveTools.bench.noop', true),
      ),
      // The floor of any tool: another extension's that does nothing (the scripted-model test extension's).
      await compare(
        'lsp.noop',
        "invocation floor, a do-nothing tool (another extension's)",
        "executeCommand('setContext')",
        () => vscode.lm.invokeTool('scripted_tagged_read', { input: {}, toolInvocationToken: undefined }),
        () => vscode.commands.executeCommand('setContext', 'liveTools.bench.noop', true),
      ),
      // The same with a confirmation, as every write or exec tool has: the editor asks prepareInvocation, then
      // confirms (in extension tests its dialog answers by itself) before invoke.
      await compare(
        'lsp.noopConfirmed',
        "invocation floor, a do-nothing tool that asks for confirmation (another extension's)",
        "executeCommand('setContext')",
        () => vscode.lm.invokeTool('scripted_confirmed_noop', { input: {}, toolInvocationToken: undefined }),
        () => vscode.commands.executeCommand('setContext', 'liveTools.bench.noop', true),
      ),
      await compare(
        'lsp.references',
        'references (5 across 3 files)',
        'vscode.executeReferenceProvider',
        () => invokeText('lsp', { action: 'references', file: 'src/format.ts', line: 1, symbol: 'formatCount' }),
        () => vscode.commands.executeCommand('vscode.executeReferenceProvider', uri('src/format.ts'), formatCount),
      ),
      await compare(
        'lsp.definition',
        'definition',
        'vscode.executeDefinitionProvider',
        () =>
          invokeText('lsp', { action: 'definition', file: 'src/main.ts', line: bothLine, symbol: 'makeGreeting#1' }),
        () => vscode.commands.executeCommand('vscode.executeDefinitionProvider', uri('src/main.ts'), makeGreeting),
      ),
      await compare(
        'lsp.hover',
        'hover',
        'vscode.executeHoverProvider',
        () => invokeText('lsp', { action: 'hover', file: 'src/main.ts', line: bothLine, symbol: 'makeGreeting#1' }),
        () => vscode.commands.executeCommand('vscode.executeHoverProvider', uri('src/main.ts'), makeGreeting),
      ),
      await compare(
        'lsp.symbols',
        'symbols of a file',
        'vscode.executeDocumentSymbolProvider',
        () => invokeText('lsp', { action: 'symbols', file: 'src/greeter.ts' }),
        () => vscode.commands.executeCommand('vscode.executeDocumentSymbolProvider', uri('src/greeter.ts')),
      ),
      await writeThenDiagnostics(uri),
    ];
    addToReport(samples, { activationMs, evaluationMs });
  });
});
