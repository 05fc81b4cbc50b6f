import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';

export const EXTENSION_ID = 'agent-live-tools.agent-live-tools';

export async function activateExtension(): Promise<{ activationMs: number; evaluationMs: number; logUri: vscode.Uri }> {
  const extension = vscode.extensions.getExtension(EXTENSION_ID);
  if (!extension) throw new Error(`${EXTENSION_ID} is not loaded in this editor.`);
  return extension.activate();
}

/** Invokes a tool the way any caller outside chat does, and returns the text a model would read. */
export async function invokeText(name: string, input: object, token?: vscode.CancellationToken): Promise<string> {
  const result = await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined }, token);
  return result.content
    .map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : JSON.stringify(part)))
    .join('\n');
}

export function workspaceRoot(): string {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('The integration run has no workspace folder.');
  return folder.uri.fsPath;
}

/** 1-based number of the first line of a workspace file containing `text` (so tests survive fixture edits). */
export function lineOf(file: string, text: string): number {
  const lines = fs.readFileSync(path.join(workspaceRoot(), file), 'utf8').split('\n');
  const index = lines.findIndex((line) => line.includes(text));
  if (index === -1) throw new Error(`"${text}" is not in ${file}.`);
  return index + 1;
}

export async function setSetting(section: string, value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration().update(section, value, vscode.ConfigurationTarget.Global);
}

/**
 * Turns the lsp resource on or off through its setting and waits until the extension has seen
 * it (the tool refuses, or stops refusing). The extension updates the tools' context key in the
 * same step, so a chat request sent after this sees the new tool list.
 */
export async function setLspEnabled(enabled: boolean | undefined): Promise<void> {
  await setSetting('liveTools.lsp.enabled', enabled);
  const expectRefusal = enabled === false;
  const deadline = Date.now() + 10_000;
  for (;;) {
    const refused = (await invokeText('lsp', { action: 'status' })).startsWith('Refused');
    if (refused === expectRefusal) return;
    if (Date.now() > deadline)
      throw new Error(
        `The lsp resource did not become ${enabled === false ? 'unavailable' : 'available'} within 10 s.`,
      );
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Polls `probe` until it returns a value (not undefined); fails naming `what` after `timeoutMs`. */
export async function waitUntil<T>(what: string, probe: () => T | undefined, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Like waitUntil, for a probe that is itself asynchronous (a tool call). */
export async function waitUntilAsync<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * What `resolve accept` answers for a change the human resolved in the review, once that resolution
 * has finished (the writer waits for the editor to show the written files, so the files can be on
 * disk a moment before the change counts as accepted; meanwhile resolve says so).
 */
export function resolvedByUser(id: string): Promise<string> {
  return waitUntilAsync(`the resolution of ${id} to finish`, async () => {
    const answer = await invokeText('resolve', { edit_id: id, action: 'accept' });
    return /is being accepted or discarded right now/.test(answer) ? undefined : answer;
  });
}

/** Lines of the extension's log (in `logDir`, its `logUri`) that contain `text`. */
export function logLines(logDir: vscode.Uri, text: string): string[] {
  if (!fs.existsSync(logDir.fsPath)) return [];
  return fs
    .readdirSync(logDir.fsPath)
    .filter((name) => name.endsWith('.log'))
    .flatMap((name) => fs.readFileSync(path.join(logDir.fsPath, name), 'utf8').split('\n'))
    .filter((line) => line.includes(text));
}
