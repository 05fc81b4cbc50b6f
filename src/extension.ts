import * as vscode from 'vscode';
import { registerDebug } from './debug/vscode/registerDebug';
import { registerKernels } from './kernels/vscode/registerKernels';
import { registerQuestions } from './questions/vscode/registerQuestions';
import { registerVibe } from './vibe/vscode/registerVibe';
import { registerLsp } from './lsp/vscode/registerLsp';
import { registerPlayground } from './playground/vscode/runToolPlayground';
import { createRuntime } from './runtime';
import { registerStaging } from './staging/vscode/registerStaging';
import { registerAgentChanges } from './changes/vscode/registerAgentChanges';
import { registerStructural } from './structural/vscode/registerStructural';
import { createApprovalCard } from './tools/approvalCard';
import { ToolRunner } from './tools/toolRunner';
import { registerWrites } from './writes/vscode/registerWrites';
import { createToolList } from './tools/toolList';
import { registerMcp } from './mcp/vscode/registerMcp';

/** What the extension exports: the measured activation time and where its log channel writes. */
export interface ActivationInfo {
  readonly activationMs: number;
  readonly logUri: vscode.Uri;
}

/** Stops the language servers, debug sessions and kernels we started; VS Code waits for it on deactivate. */
let stopLanguageServers: () => Promise<void> = () => Promise.resolve();

export function activate(context: vscode.ExtensionContext): ActivationInfo {
  const started = performance.now();
  try {
    const runtime = createRuntime(context);
    const runner = new ToolRunner(runtime);
    const { lsp, lspApply } = registerLsp(context, runtime);
    const staging = registerStaging(context, runtime);
    registerAgentChanges(context, runtime);
    const structural = registerStructural(context, runtime);
    const writes = registerWrites(context, runtime, lsp);
    const debug = registerDebug(context, runtime);
    const kernels = registerKernels(context, runtime);
    const questions = registerQuestions(context, runtime);
    const approver = createApprovalCard(questions);
    runner.setApprover(approver);
    const vibe = registerVibe(context, runtime, runner, approver);
    stopLanguageServers = async () => {
      await Promise.all([lsp.supervisor.stopAll(), debug.disposeAll(), kernels.disposeAll()]);
    };
    const tools = createToolList({
      lsp,
      lspApply,
      staging,
      structural,
      writes,
      debug,
      kernels,
      questions,
      vibe,
      runner,
      journal: runtime.journal,
    });
    runner.register(context, tools);
    registerPlayground(context, runtime, tools, runner);
    registerMcp(context, runtime, runner, {
      endConversation: async (conversation) => {
        vibe.pool.endConversation(conversation, 'its MCP client disconnected');
        await Promise.all([kernels.endConversation(conversation), debug.endConversation(conversation)]);
      },
    });
    const activationMs = performance.now() - started;
    runtime.log.info('activate', `activated in ${activationMs.toFixed(1)} ms`);
    return { activationMs, logUri: context.logUri };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    void vscode.window.showErrorMessage(`Agent Live Tools could not start: ${message}`);
    throw error;
  }
}

export function deactivate(): Promise<void> {
  // Everything else is disposed through context.subscriptions; server processes are awaited here.
  return stopLanguageServers();
}
