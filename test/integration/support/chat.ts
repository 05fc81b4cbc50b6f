import * as vscode from 'vscode';
import { browser } from './browser';
import { waitUntilAsync } from './tools';
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

/**
 * Allows the chat's pending tool confirmation once, as a person would, and returns what it said
 * (the container's label and text when the drop-down was first clicked).
 *
 * Measured in 1.139: the confirmation's main button is "Allow in this Session", after which the chat
 * stops asking for that tool in this window; "Allow Once" is in its drop-down, and once it takes the
 * drop-down is gone at once. Seen in CI screenshots: the chat's tip under its input can cover the
 * menu's "Allow Once" row, and a click lost there leaves the menu open, which then takes every click
 * outside it (later tests' cards too). So the item is chosen with the keyboard, an open menu is closed
 * before trying again, and it is tried up to three times.
 */
export async function allowOnceInChat(): Promise<{ containerLabel?: string; containerText?: string }> {
  const dropdown = '.chat-confirmation-widget-container .monaco-dropdown-button';
  const menuRows = '.monaco-menu .action-item';
  let first: { containerLabel?: string; containerText?: string } | undefined;
  for (let attempt = 1; attempt <= 3; attempt++) {
    if (((await browser({ op: 'count', selector: menuRows })).count ?? 0) > 0)
      await browser({ op: 'press', key: 'Escape' });
    const opened = await browser({
      op: 'click',
      selector: dropdown,
      container: '.chat-confirmation-widget-container',
      timeoutMs: 60_000,
    });
    first ??= opened;
    await browser({ op: 'text', selector: '.monaco-menu .action-label', text: '^Allow Once' });
    for (let step = 0; step < 4; step++) {
      const focused = await browser({
        op: 'count',
        selector: `${menuRows}.focused .action-label:text-is("Allow Once")`,
      });
      if ((focused.count ?? 0) > 0) break;
      await browser({ op: 'press', key: 'ArrowDown' });
    }
    await browser({ op: 'press', key: 'Enter' });
    const gone = await waitUntilAsync(
      'the confirmation to go',
      async () => ((await browser({ op: 'count', selector: dropdown })).count === 0 ? true : undefined),
      3_000,
    ).catch(() => false);
    if (gone) break;
  }
  return first ?? {};
}
