import * as vscode from 'vscode';
import { describeError } from '../../log/logger';
import { JsonSchema } from '../../platform/toolDeclaration';
import { TOOL_CATALOG } from '../../tools/declarations';
import { WINDOW_CONVERSATION } from '../../platform/conversation';
import { tierNeedsConfirmation } from '../../platform/tiers';
import { Runtime } from '../../runtime';
import { AnyLiveTool, LiveTool } from '../../tools/liveTool';
import { resultText, ToolRunner } from '../../tools/toolRunner';
import { documentFor } from '../../workspace/vscode/openDocuments';
import { inputTemplate } from '../inputTemplate';
import { JsoncSyntaxError, parseJsonc } from '../../platform/jsonc';

export const RUN_TOOL_COMMAND = 'liveTools.runTool';
export const RUN_INPUT_COMMAND = 'liveTools.runToolInput';
export const RESULT_SCHEME = 'live-tools-result';
const INPUT_ACTIVE_KEY = 'liveTools.playgroundInputActive';

interface ToolPick extends vscode.QuickPickItem {
  readonly toolName: string;
}

/**
 * "Agent Live Tools: Run Tool…": pick any registered tool, edit its input (prefilled from the
 * schema) as JSON with comments, run it, read the result beside. The playground for people
 * building agents, and what makes the tools usable without a model.
 */
export function registerPlayground(
  context: vscode.ExtensionContext,
  runtime: Runtime,
  tools: readonly AnyLiveTool[],
  runner: ToolRunner,
): void {
  const inputs = new Map<string, string>(); // input document uri → tool name
  const results = new Map<string, string>(); // result uri → text
  const resultChanged = new vscode.EventEmitter<vscode.Uri>();

  const updateInputContext = (editor: vscode.TextEditor | undefined): void => {
    void vscode.commands.executeCommand(
      'setContext',
      INPUT_ACTIVE_KEY,
      !!editor && inputs.has(editor.document.uri.toString()),
    );
  };

  const pickTool = async (): Promise<void> => {
    const ours = new Set<string>(TOOL_CATALOG.map((tool) => tool.name));
    const items: ToolPick[] = [...vscode.lm.tools]
      .sort((a, b) => Number(ours.has(b.name)) - Number(ours.has(a.name)) || a.name.localeCompare(b.name))
      .map((tool) => {
        const declaration = TOOL_CATALOG.find((entry) => entry.name === tool.name);
        return {
          toolName: tool.name,
          label: tool.name,
          description: declaration ? `${declaration.tier} · Agent Live Tools` : tool.tags.join(', '),
          detail: tool.description.split('\n')[0],
        };
      });
    const picked = await vscode.window.showQuickPick(items, {
      title: 'Run Tool',
      placeHolder: 'Pick a tool to run; you edit its input next',
      matchOnDescription: true,
      matchOnDetail: true,
    });
    if (!picked) return;
    const tool = vscode.lm.tools.find((entry) => entry.name === picked.toolName);
    const declaration = TOOL_CATALOG.find((entry) => entry.name === picked.toolName);
    const content = inputTemplate(tool?.inputSchema as JsonSchema | undefined, {
      title: `${picked.toolName}${declaration ? ` — ${declaration.displayName} (${declaration.tier})` : ''}`,
      howToRun: 'Edit the input, then run "Agent Live Tools: Run This Input" (▷ in the editor title, or Ctrl+Enter).',
    });
    const document = await vscode.workspace.openTextDocument({ language: 'jsonc', content });
    inputs.set(document.uri.toString(), picked.toolName);
    const editor = await vscode.window.showTextDocument(document);
    updateInputContext(editor);
  };

  const runInput = async (uri?: vscode.Uri): Promise<string | undefined> => {
    const document = uri ? documentFor(uri) : vscode.window.activeTextEditor?.document;
    const toolName = document && inputs.get(document.uri.toString());
    if (!document || !toolName) {
      void vscode.window.showErrorMessage('This editor is not a tool input. Start with "Agent Live Tools: Run Tool…".');
      return undefined;
    }
    let input: unknown;
    try {
      input = parseJsonc(document.getText());
    } catch (error) {
      const problem =
        error instanceof JsoncSyntaxError
          ? ` at line ${error.line}, column ${error.column}: ${error.reason}`
          : `: ${describeError(error)}`;
      void vscode.window.showErrorMessage(
        `The input is not valid JSON${problem}. Fix it and run again; nothing was run.`,
      );
      return undefined;
    }
    const ours = tools.find((tool) => tool.declaration.name === toolName);
    const preview = new vscode.CancellationTokenSource();
    const confirmation =
      ours && tierNeedsConfirmation(runner.requiredTier(ours as LiveTool<unknown, unknown>, input))
        ? await runner.confirmation(toolName, input, preview.token)
        : undefined;
    preview.dispose();
    if (confirmation) {
      let choice: string | undefined;
      try {
        choice = await vscode.window.showWarningMessage(
          confirmation.title,
          { modal: true, detail: confirmation.message.replace(/`/g, '') },
          'Run',
        );
      } catch (error) {
        // The editor can refuse dialogs (it does while running extension tests): never run unconfirmed.
        void vscode.window.showErrorMessage(
          `Could not ask before running ${toolName} (${describeError(error)}); nothing was run.`,
        );
        return undefined;
      }
      if (choice !== 'Run') return undefined;
    }
    const started = Date.now();
    let text: string;
    try {
      const result = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `Running ${toolName}…`, cancellable: true },
        // Ours run as the playground's, asked by the dialog above; another extension's through the editor, which asks itself.
        (_progress, token) =>
          ours
            ? runner.run(
                toolName,
                input,
                {
                  kind: 'playground',
                  cap: 'exec',
                  conversation: WINDOW_CONVERSATION,
                  label: 'the Run Tool playground',
                  humanAsked: true,
                },
                token,
              )
            : vscode.lm.invokeTool(toolName, { input: input as object, toolInvocationToken: undefined }, token),
      );
      text = resultText(result);
    } catch (error) {
      text = `The tool failed: ${describeError(error)}`;
    }
    const elapsed = Date.now() - started;
    runtime.log.info('playground', `${toolName} ran in ${elapsed} ms`);
    const resultUri = vscode.Uri.from({ scheme: RESULT_SCHEME, path: `/${toolName} result.txt` });
    results.set(resultUri.toString(), `${toolName} — ${elapsed} ms\n\n${text}\n`);
    resultChanged.fire(resultUri);
    await vscode.window.showTextDocument(resultUri, {
      viewColumn: vscode.ViewColumn.Beside,
      preview: true,
      preserveFocus: true,
    });
    return text;
  };

  context.subscriptions.push(
    resultChanged,
    vscode.workspace.registerTextDocumentContentProvider(RESULT_SCHEME, {
      onDidChange: resultChanged.event,
      provideTextDocumentContent: (uri) => results.get(uri.toString()) ?? '',
    }),
    vscode.commands.registerCommand(RUN_TOOL_COMMAND, pickTool),
    vscode.commands.registerCommand(RUN_INPUT_COMMAND, runInput),
    vscode.window.onDidChangeActiveTextEditor(updateInputContext),
    vscode.workspace.onDidCloseTextDocument((document) => inputs.delete(document.uri.toString())),
  );
}
