// First: its body marks when the bundle began evaluating.
import { evaluationStarted } from './platform/evaluationClock';
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
import { registerTestExplorer } from './testing/vscode/testExplorer';

/** What the extension exports: the measured activation time and where its log channel writes. */
export interface ActivationInfo {
  readonly activationMs: number;
  /** How long evaluating the bundle took before `activate` (its modules' top-level code). */
  readonly evaluationMs: number;
  readonly logUri: vscode.Uri;
}

/** This module's body runs last in the bundle: evaluating the bundle ends here. */
const evaluationEnded = performance.now();

/** Stops the language servers, debug sessions and kernels we started; VS Code waits for it on deactivate. */
let stopLanguageServers: () => Promise<void> = () => Promise.resolve();

export function activate(context: vscode.ExtensionContext): ActivationInfo {
  const started = performance.now();
  // Where activation's time goes, logged with its total (the bench reads the total).
  const phases: string[] = [];
  const phase = <T>(name: string, work: () => T): T => {
    const at = performance.now();
    const result = work();
    phases.push(`${name} ${(performance.now() - at).toFixed(1)}`);
    return result;
  };
  try {
    const runtime = phase('runtime', () => createRuntime(context));
    const runner = new ToolRunner(runtime);
    const { lsp, lspApply } = phase('lsp', () => registerLsp(context, runtime));
    const staging = phase('staging', () => registerStaging(context, runtime));
    phase('changes', () => registerAgentChanges(context, runtime));
    const structural = phase('structural', () => registerStructural(context, runtime));
    const writes = phase('writes', () => registerWrites(context, runtime, lsp));
    const debug = phase('debug', () => registerDebug(context, runtime));
    const kernels = phase('kernels', () => registerKernels(context, runtime));
    const questions = phase('questions', () => registerQuestions(context, runtime));
    const tests = phase('testing', () => registerTestExplorer(context));
    const approver = createApprovalCard(questions);
    runner.setApprover(approver);
    const vibe = phase('vibe', () =>
      registerVibe(context, runtime, runner, approver, {
        stage: async (request) => (await staging.stage(request)).id,
        withdraw: (id) => staging.withdraw(id),
        isPending: (id) => staging.store.get(id)?.state === 'pending',
        onResolved: (listener) =>
          staging.store.onDidChange((edit) => {
            if (edit.resolution) listener(edit.id);
          }),
        release: async (conversation, folders) => {
          // What it staged inside its copy goes with the copy.
          staging.discardInside(conversation, folders);
          await Promise.all([
            kernels.endConversation(conversation),
            debug.endConversation(conversation),
            ...folders.map((folder) => lsp.supervisor.stopUnder(folder)),
          ]);
        },
      }),
    );
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
      tests,
      questions,
      vibe,
      runner,
      writer: runtime.writer,
      approver,
      workspaceState: context.workspaceState,
    });
    phase('tools', () => runner.register(context, tools));
    phase('playground', () => registerPlayground(context, runtime, tools, runner));
    phase('mcp', () =>
      registerMcp(context, runtime, runner, {
        endConversation: async (conversation) => {
          vibe.pool.endConversation(conversation, 'its MCP client disconnected');
          writes.endConversation(conversation);
          await Promise.all([kernels.endConversation(conversation), debug.endConversation(conversation)]);
        },
      }),
    );
    const activationMs = performance.now() - started;
    const evaluationMs = evaluationEnded - evaluationStarted;
    runtime.log.info(
      'activate',
      `activated in ${activationMs.toFixed(1)} ms (${phases.join(', ')}); the bundle evaluated in ${evaluationMs.toFixed(1)} ms before`,
    );
    return { activationMs, evaluationMs, logUri: context.logUri };
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
