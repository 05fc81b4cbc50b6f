/**
 * Test-only extension: a language model chat provider ("scripted") that answers with turns a
 * test scripts and records every request chat sends it — the tools offered, the messages,
 * tool results included. It stands in for a real model; everything else in the chat is real.
 * It also registers `scripted_tagged_read`, a tool that claims to be one of Agent Live Tools' read tier by
 * its tags (a foreign tool must count as exec whatever it says), and `scripted_confirmed_noop`, which does
 * nothing but asks for a confirmation first as an exec tool does (the bench's floor for one). It also contributes the debugger type `live-fault-test`, whose adapter is the fault-injection
 * one (esbuild.mjs copies out/test/fixtures/faultAdapter.js in beside us), so the debug tool's tests can launch it from launch.json.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { RecordedMessage, RecordedPart, RecordedRequest, ScriptedModelApi, ScriptedTurn } from './api';

const VENDOR = 'scripted';
const MODEL_ID = 'scripted-1';
const SECOND_MODEL_ID = 'scripted-2';
const FAULT_DEBUG_TYPE = 'live-fault-test';
const TAGGED_TOOL = 'scripted_tagged_read';
const CONFIRMED_TOOL = 'scripted_confirmed_noop';

function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object' && typeof (value as { value?: unknown }).value === 'string') {
    return (value as { value: string }).value;
  }
  return JSON.stringify(value);
}

function recordPart(part: unknown): RecordedPart {
  if (part instanceof vscode.LanguageModelTextPart) return { kind: 'text', text: part.value };
  if (part instanceof vscode.LanguageModelToolCallPart)
    return { kind: 'toolCall', callId: part.callId, name: part.name, input: part.input };
  if (part instanceof vscode.LanguageModelToolResultPart) {
    return { kind: 'toolResult', callId: part.callId, text: part.content.map(textOf).join('\n') };
  }
  return { kind: 'other', description: textOf(part).slice(0, 200) };
}

const roles: Record<number, string> = { 1: 'user', 2: 'assistant', 3: 'system' };

export function activate(context: vscode.ExtensionContext): ScriptedModelApi {
  let turns: ScriptedTurn[] = [];
  const requests: RecordedRequest[] = [];
  const waiters = new Set<() => void>();

  const api: ScriptedModelApi = {
    vendor: VENDOR,
    modelId: MODEL_ID,
    script(next) {
      turns = [...next];
    },
    requests,
    reset() {
      turns = [];
      requests.length = 0;
    },
    waitForRequests(count, timeoutMs) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (requests.length < count) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve([...requests]);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(
              `The scripted model got ${requests.length} request(s) within ${timeoutMs} ms, expected ${count}.`,
            ),
          );
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
  };

  const provider: vscode.LanguageModelChatProvider = {
    // Two models, so a test can tell which one a request went to (vibe's fast and good tiers).
    provideLanguageModelChatInformation: () =>
      [
        { id: MODEL_ID, name: 'Scripted', family: 'scripted' },
        { id: SECOND_MODEL_ID, name: 'Scripted Careful', family: 'scripted-careful' },
      ].map((model) => ({
        ...model,
        version: '1',
        maxInputTokens: 200_000,
        maxOutputTokens: 8_000,
        capabilities: { toolCalling: true, imageInput: true },
      })),
    async provideLanguageModelChatResponse(model, messages, options, progress) {
      const recorded: RecordedRequest = {
        modelId: model.id,
        toolNames: (options.tools ?? []).map((tool) => tool.name),
        tools: (options.tools ?? []).map((tool) => ({ name: tool.name, inputSchema: tool.inputSchema })),
        messages: messages.map((message): RecordedMessage => ({
          role: roles[message.role] ?? String(message.role),
          parts: message.content.map(recordPart),
        })),
      };
      requests.push(recorded);
      for (const wake of [...waiters]) wake();
      const turn = turns.shift();
      const reply = turn ? turn(recorded) : { text: '(scripted model: no turn was scripted for this request)' };
      if ('toolCall' in reply) {
        progress.report(
          new vscode.LanguageModelToolCallPart(`call-${requests.length}`, reply.toolCall.name, reply.toolCall.input),
        );
      } else {
        progress.report(new vscode.LanguageModelTextPart(reply.text));
      }
    },
    provideTokenCount: async (_model, text) =>
      Math.ceil((typeof text === 'string' ? text.length : JSON.stringify(text).length) / 4),
  };
  context.subscriptions.push(vscode.lm.registerLanguageModelChatProvider(VENDOR, provider));
  context.subscriptions.push(
    vscode.lm.registerTool<{ note?: string }>(TAGGED_TOOL, {
      invoke: (options) =>
        new vscode.LanguageModelToolResult([
          new vscode.LanguageModelTextPart(`${TAGGED_TOOL} ran: ${options.input.note ?? ''}`),
        ]),
    }),
    vscode.lm.registerTool<object>(CONFIRMED_TOOL, {
      prepareInvocation: () => ({
        invocationMessage: 'Doing nothing',
        confirmationMessages: { title: 'Do nothing?', message: 'Runs nothing (a test tool).' },
      }),
      invoke: () => new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(`${CONFIRMED_TOOL} ran`)]),
    }),
  );
  // The test profile gets a copy of this directory, so the adapter is looked for in it, not in out/.
  const faultAdapter = path.join(context.extensionPath, 'faultAdapter.js');
  context.subscriptions.push(
    vscode.debug.registerDebugAdapterDescriptorFactory(FAULT_DEBUG_TYPE, {
      createDebugAdapterDescriptor: () => new vscode.DebugAdapterExecutable(process.execPath, [faultAdapter]),
    }),
  );
  return api;
}
