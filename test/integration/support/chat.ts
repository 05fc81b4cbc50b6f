import * as vscode from 'vscode';
import type { ScriptedModelApi, ScriptedTurn } from '../../scripted-model/api';

export const SCRIPTED_MODEL_EXTENSION = 'agent-live-tools-test.scripted-model';

export async function scriptedModel(): Promise<ScriptedModelApi> {
  const extension = vscode.extensions.getExtension<ScriptedModelApi>(SCRIPTED_MODEL_EXTENSION);
  if (!extension) throw new Error(`${SCRIPTED_MODEL_EXTENSION} is not installed in this editor.`);
  return extension.activate();
}

/**
 * Sends `query` in a new chat session of the built-in chat, in the given agent (mode), with
 * the scripted model selected; the model answers with `turns`. Does not wait for the answer.
 */
export async function sendChat(
  model: ScriptedModelApi,
  query: string,
  turns: readonly ScriptedTurn[],
  mode = 'agent',
): Promise<void> {
  model.reset();
  model.script(turns);
  await vscode.commands.executeCommand('workbench.action.chat.newChat');
  await vscode.commands.executeCommand('workbench.action.chat.open', {
    mode,
    modelSelector: { vendor: model.vendor, id: model.modelId },
    query,
  });
}

/** The built-in chat is served by the Copilot Chat extension; requests sent before it is active are lost. */
export async function chatReady(): Promise<void> {
  const chat = vscode.extensions.getExtension('GitHub.copilot-chat');
  if (!chat) throw new Error('The built-in chat extension (GitHub.copilot-chat) is not in this editor.');
  await chat.activate();
}

/** Text of the tool results in a recorded request. */
export function toolResults(request: {
  messages: readonly { parts: readonly { kind: string; text?: string }[] }[];
}): string[] {
  return request.messages.flatMap((message) =>
    message.parts.filter((part) => part.kind === 'toolResult').map((part) => part.text ?? ''),
  );
}
