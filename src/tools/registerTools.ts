import * as path from 'node:path';
import * as vscode from 'vscode';
import { conversationIdOf } from '../registry/conversation';
import { validateInput } from '../registry/inputValidation';
import { resourceTitle } from '../registry/resources';
import { tierNeedsConfirmation } from '../registry/tiers';
import { Runtime } from '../runtime';
import { errorText } from './errorText';
import { AnyLiveTool, Confirmation, LiveTool, ToolAnswer } from './liveTool';
import { displayPath, FileNotFound } from '../workspace/paths';
import { workspaceFolderPaths } from '../lsp/vscode/documents';

function textResult(text: string): vscode.LanguageModelToolResult {
  return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
}

function answerResult(answer: string | ToolAnswer): vscode.LanguageModelToolResult {
  if (typeof answer === 'string') return textResult(answer);
  return new vscode.LanguageModelToolResult([
    new vscode.LanguageModelTextPart(answer.text),
    ...answer.images.map((image) => vscode.LanguageModelDataPart.image(image.data, image.mime)),
  ]);
}

function isCancellation(error: unknown, token: vscode.CancellationToken): boolean {
  return token.isCancellationRequested || error instanceof vscode.CancellationError;
}

/** The refusal a tool gives when invoked while its resource is not wired (lm.invokeTool ignores `when`). */
export function refusalText(tool: AnyLiveTool, reason: string): string {
  const { declaration } = tool;
  return `Refused: ${declaration.name} needs ${resourceTitle(declaration.resource)}, which is not available in this window: ${reason}.`;
}

function inputPreview(input: unknown): string {
  const text = JSON.stringify(input) ?? 'undefined';
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

/**
 * Registers every tool of the explicit list with `vscode.lm.registerTool`. The wrapper does
 * what is common to all: refuse when the resource is not wired, validate input against the
 * schema, ask for confirmation for write/exec tiers, honour cancellation, and turn errors
 * into text for the model.
 */
export function registerTools(context: vscode.ExtensionContext, runtime: Runtime, tools: readonly AnyLiveTool[]): void {
  const { board, log } = runtime;
  for (const anyTool of tools) {
    const tool = anyTool as LiveTool<unknown>;
    const { declaration } = tool;
    const implementation: vscode.LanguageModelTool<unknown> = {
      prepareInvocation: async (options, token) => {
        const invocationMessage = safeInvocationMessage(tool, options.input);
        if (!tierNeedsConfirmation(declaration.tier)) return { invocationMessage };
        const confirmation = await confirmationOf(tool, options.input, token);
        return {
          invocationMessage,
          confirmationMessages: { title: confirmation.title, message: new vscode.MarkdownString(confirmation.message) },
        };
      },
      invoke: async (options, token) => {
        const conversation = conversationIdOf(options.toolInvocationToken);
        log.info('tool.invoke', `${declaration.name} conversation=${conversation} input=${inputPreview(options.input)}`);
        const state = board.get(declaration.resource);
        if (!state.ready) return textResult(refusalText(anyTool, state.reason));
        try {
          validateInput(declaration.inputSchema, options.input);
          const answer = await tool.invoke(options.input, { token, conversation, log, invocationToken: options.toolInvocationToken });
          if (token.isCancellationRequested) throw new vscode.CancellationError();
          return answerResult(answer);
        } catch (error) {
          if (isCancellation(error, token)) throw new vscode.CancellationError();
          log.warn('tool.error', `${declaration.name}: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`);
          const file = fileArgument(options.input);
          const similarFiles = error instanceof FileNotFound && file ? await filesNamedLike(file) : undefined;
          return textResult(errorText(error, { file, similarFiles, displayPath: workspaceDisplayPath }));
        }
      },
    };
    context.subscriptions.push(vscode.lm.registerTool(declaration.name, implementation));
  }
}

/** A write or exec tool is never run unconfirmed: if its preview fails, the human sees the raw input. */
export async function confirmationOf(tool: LiveTool<unknown>, input: unknown, token: vscode.CancellationToken): Promise<Confirmation> {
  try {
    if (tool.confirmation) return await tool.confirmation(input, token);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return {
      title: `Run ${tool.declaration.displayName}?`,
      message: `The preview failed (${why}); the tool would run with this input:\n\n\`\`\`json\n${JSON.stringify(input, null, 2)}\n\`\`\``,
    };
  }
  return {
    title: `Run ${tool.declaration.displayName}?`,
    message: `\`\`\`json\n${JSON.stringify(input, null, 2)}\n\`\`\``,
  };
}

async function filesNamedLike(file: string): Promise<string[]> {
  const name = path.basename(file);
  if (!name) return [];
  const found = await vscode.workspace.findFiles(`**/${name}`, '**/node_modules/**', 5);
  return found.map((uri) => vscode.workspace.asRelativePath(uri, (vscode.workspace.workspaceFolders?.length ?? 0) > 1));
}

function safeInvocationMessage(tool: LiveTool<unknown>, input: unknown): string {
  try {
    return tool.invocationMessage(input);
  } catch {
    return `${tool.declaration.displayName}…`;
  }
}

function workspaceDisplayPath(absolutePath: string): string {
  return displayPath(workspaceFolderPaths(), absolutePath);
}

function fileArgument(input: unknown): string | undefined {
  const record = input as { file?: unknown; path?: unknown } | undefined;
  const file = record?.file ?? record?.path;
  return typeof file === 'string' ? file : undefined;
}
