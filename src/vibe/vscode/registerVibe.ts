/**
 * Wires vibe mode: the `vibe` resource follows the liveTools.vibe.enabled setting (a command and a
 * status bar item toggle it), workers run on `vscode.lm` chat models chosen per tier, are offered
 * the tools the tool runner offers a caller of their access (ours with their resource ready, other
 * extensions' as exec), and have each write/exec call approved by the human on the question card.
 * Each worker is a caller of its own: its cap is its access, its conversation its own under its
 * owner's (so its own kernels, debug session and staged edits). The Workers view shows each worker,
 * its status and transcript, and stops one.
 */
import * as vscode from 'vscode';
import { Caller, workerConversation } from '../../platform/caller';
import { Setting } from '../../platform/settings';
import { Tier } from '../../platform/tiers';
import { Runtime } from '../../runtime';
import { Approver, CallerTools } from '../../platform/vscode/approver';
import {
  ModelTurn,
  ToolCall,
  TranscriptEntry,
  WorkerModel,
  WorkerNotStarted,
  WorkerPool,
  WorkerSummary,
  WORKER_LABEL_MAX,
  WorkerIsolationMode,
  WorkerTier,
} from '../vibeWorkers';
import { singleLine } from '../../platform/wording';
import { CopyFolders, WorkerIsolation, WorkerReview } from './workerIsolation';

export const TOGGLE_VIBE_COMMAND = 'liveTools.toggleVibeMode';
export const STOP_WORKER_COMMAND = 'liveTools.stopWorker';
export const WORKERS_VIEW_ID = 'liveTools.workers';

const INSTRUCTIONS =
  'You are a background worker in VS Code, started by another agent with the brief below. Work with the tools you are given; ' +
  "each tool call that changes something waits for the human's approval. When done, answer with a short report of what you did " +
  'and what is left, without a tool call: that answer is your result.';
const IN_COPY =
  ' You work in a private copy of the workspace: your writes land there without asking, programs you run (eval, debug) run there, ' +
  'and when you finish, everything you changed goes to the human as one change to review.';

/** A worker as a caller of tools: its access is its cap; it works in a conversation of its own, and in its copy when it has one. */
export function workerCaller(
  worker: Pick<WorkerSummary, 'id' | 'label' | 'owner'>,
  access: Tier,
  copy?: CopyFolders,
): Caller {
  return {
    kind: 'worker',
    cap: access,
    conversation: workerConversation(worker.owner, worker.id),
    label: `Worker "${singleLine(worker.label, WORKER_LABEL_MAX)}" (${worker.id}${copy ? ', in its copy' : ''})`,
    humanAsked: false,
    ...(copy ? { copy } : {}),
  };
}

/** The chat model for a tier: the setting (an id, family or "vendor/id"), else a sensible pick from those available. */
async function chooseModel(tier: WorkerTier): Promise<vscode.LanguageModelChat> {
  const models = await vscode.lm.selectChatModels();
  if (models.length === 0)
    throw new Error('no language model is available in this editor: sign in to a model provider, then spawn again');
  const wanted = vscode.workspace
    .getConfiguration()
    .get<string>(tier === 'fast' ? Setting.vibeFastModel : Setting.vibeGoodModel)
    ?.trim();
  if (wanted) {
    const found = models.find(
      (model) => model.id === wanted || model.family === wanted || `${model.vendor}/${model.id}` === wanted,
    );
    if (!found)
      throw new Error(
        `the ${tier} model "${wanted}" (setting ${tier === 'fast' ? Setting.vibeFastModel : Setting.vibeGoodModel}) is not available; available: ${models.map((model) => `${model.vendor}/${model.id}`).join(', ')}`,
      );
    return found;
  }
  const quick = /mini|flash|haiku|fast|small/i;
  const pick =
    tier === 'fast'
      ? models.find((model) => quick.test(model.family) || quick.test(model.id))
      : models.find((model) => !quick.test(model.family) && !quick.test(model.id));
  return pick ?? models[0];
}

function toMessages(transcript: readonly TranscriptEntry[], inCopy: boolean): vscode.LanguageModelChatMessage[] {
  const messages: vscode.LanguageModelChatMessage[] = [];
  let results: vscode.LanguageModelToolResultPart[] = [];
  const flush = (): void => {
    if (results.length > 0) messages.push(vscode.LanguageModelChatMessage.User(results));
    results = [];
  };
  for (const entry of transcript) {
    if (entry.role === 'tool') {
      results.push(
        new vscode.LanguageModelToolResultPart(entry.callId, [new vscode.LanguageModelTextPart(entry.text)]),
      );
      continue;
    }
    flush();
    if (entry.role === 'brief')
      messages.push(
        vscode.LanguageModelChatMessage.User(`${INSTRUCTIONS}${inCopy ? IN_COPY : ''}\n\nBrief:\n${entry.text}`),
      );
    else if (entry.role === 'user')
      messages.push(vscode.LanguageModelChatMessage.User(`Message from the agent that started you:\n${entry.text}`));
    else if (entry.role === 'assistant') {
      const parts: Array<vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart> = [];
      if (entry.text) parts.push(new vscode.LanguageModelTextPart(entry.text));
      for (const call of entry.toolCalls)
        parts.push(new vscode.LanguageModelToolCallPart(call.callId, call.name, call.input as object));
      messages.push(vscode.LanguageModelChatMessage.Assistant(parts));
    }
  }
  flush();
  return messages;
}

function tokenOf(signal: AbortSignal): { token: vscode.CancellationToken; dispose(): void } {
  const source = new vscode.CancellationTokenSource();
  const cancel = (): void => source.cancel();
  if (signal.aborted) source.cancel();
  else signal.addEventListener('abort', cancel, { once: true });
  return {
    token: source.token,
    dispose: () => {
      signal.removeEventListener('abort', cancel);
      source.dispose();
    },
  };
}

function chatModel(
  model: vscode.LanguageModelChat,
  tier: WorkerTier,
  offered: (worker: WorkerSummary) => readonly vscode.LanguageModelToolInformation[],
  inCopy: (worker: WorkerSummary) => boolean,
): WorkerModel {
  return {
    name: `${model.vendor}/${model.id} (${tier})`,
    async respond(transcript, signal, worker): Promise<ModelTurn> {
      const cancellation = tokenOf(signal);
      try {
        const tools = offered(worker).map((tool) => ({
          name: tool.name,
          description: tool.description,
          inputSchema: tool.inputSchema,
        }));
        const response = await model.sendRequest(
          toMessages(transcript, inCopy(worker)),
          { tools, justification: 'A background worker of vibe mode runs its brief.' },
          cancellation.token,
        );
        let text = '';
        const toolCalls: ToolCall[] = [];
        for await (const part of response.stream) {
          if (part instanceof vscode.LanguageModelTextPart) text += part.value;
          else if (part instanceof vscode.LanguageModelToolCallPart)
            toolCalls.push({ callId: part.callId, name: part.name, input: part.input });
        }
        return { text, toolCalls };
      } finally {
        cancellation.dispose();
      }
    },
  };
}

export interface VibeService {
  readonly pool: WorkerPool;
  /**
   * Spawns for the conversation `owner` with the model chosen for the tier (chosen first, so a missing
   * model is an error now); any failure rejects with WorkerNotStarted.
   */
  spawn(
    brief: string,
    label: string,
    tier: WorkerTier,
    access: Tier,
    owner: string,
    isolation: WorkerIsolationMode,
  ): Promise<WorkerSummary>;
  accessOf(id: string): Tier | undefined;
  /** Whether a worker works in a copy of its own. */
  inCopy(id: string): boolean;
  /**
   * Stops a worker for its owner; with unreviewed changes in its copy, the human chooses first whether
   * they are kept for review (no answer keeps them).
   */
  stop(id: string, why: string, caller: Caller, token: vscode.CancellationToken): Promise<WorkerSummary>;
}

const KEEP_WORK = 'Keep its work for review';
const DISCARD_WORK = 'Discard its work';

export function registerVibe(
  context: vscode.ExtensionContext,
  runtime: Runtime,
  runner: CallerTools,
  approver: Approver,
  review: WorkerReview,
): VibeService {
  const isolation = new WorkerIsolation((context.storageUri ?? context.globalStorageUri).fsPath, review, runtime.log);
  const enabled = (): boolean => vscode.workspace.getConfiguration().get<boolean>(Setting.vibeEnabled) === true;
  const item = vscode.window.createStatusBarItem('liveTools.vibe', vscode.StatusBarAlignment.Left, 30);
  item.name = 'Agent Live Tools: vibe mode';
  item.command = TOGGLE_VIBE_COMMAND;
  const tree = new WorkersTree();

  const pool: WorkerPool = new WorkerPool(
    {
      needsApproval: (worker, tool, input) => runner.needsApproval(tool, input, callerOf(worker)),
      async approve({ worker, tool, input }, signal) {
        const cancellation = tokenOf(signal);
        try {
          const confirmation = await runner.confirmation(tool, input, cancellation.token, callerOf(worker));
          // A plan that writes nothing (the call will only answer why) is not put to the human.
          if (!confirmation) return true;
          const allowed = await approver.approve(
            { caller: callerOf(worker), tool, tier: runner.tierOf(tool, input), confirmation },
            cancellation.token,
          );
          runtime.log.info('vibe.approval', `${worker.id} ${tool}: ${allowed ? 'allowed' : 'denied'}`);
          if (!allowed) runner.denied(tool, input);
          return allowed;
        } finally {
          cancellation.dispose();
        }
      },
      async invokeTool(worker, tool, input, signal, asked) {
        const cancellation = tokenOf(signal);
        try {
          // The loop has put this call to the human when it needed that; the runner holds the worker's cap again
          // (and plans a write in the worker's copy itself, asking nobody).
          return (await runner.relay(tool, input, { ...callerOf(worker), humanAsked: asked }, cancellation.token)).text;
        } finally {
          cancellation.dispose();
        }
      },
      onChange: (worker) => {
        runtime.log.info('vibe.worker', `${worker.id} ${worker.status}`);
        tree.refresh();
      },
      settle: (worker, keep) => isolation.settle(worker, keep),
      resume: (worker) => isolation.resume(worker),
    },
    () => ({
      maxTurns: vscode.workspace.getConfiguration().get<number>(Setting.vibeMaxTurns) ?? 50,
      maxMinutes: vscode.workspace.getConfiguration().get<number>(Setting.vibeMaxMinutes) ?? 30,
    }),
  );
  tree.pool = pool;
  const callerOf = (worker: WorkerSummary): Caller => workerCaller(worker, worker.access, isolation.copyOf(worker.id));

  /** Stops a worker; unreviewed work in its copy is kept unless the human chooses to discard it. */
  const stop = async (
    id: string,
    why: string,
    conversation: string | undefined,
    choose: (changed: number, worker: WorkerSummary) => Promise<string | undefined>,
  ): Promise<WorkerSummary> => {
    const worker = pool.list(conversation).find((candidate) => candidate.id === id);
    let keep: boolean | Promise<boolean> = true;
    if (worker && isolation.isIsolated(id) && (worker.status === 'running' || worker.status === 'awaiting approval')) {
      const changed = await isolation.changedFiles(id);
      // Asked once it has stopped (a question of its own on the card is withdrawn with it); no answer keeps the work.
      if (changed > 0)
        keep = Promise.resolve()
          .then(() => choose(changed, worker))
          .then(
            (choice) => choice !== DISCARD_WORK,
            () => true,
          );
    }
    return pool.kill(id, why, conversation, keep);
  };
  const stopQuestion = (changed: number, worker: WorkerSummary): string =>
    `Stop worker "${worker.label}" (${worker.id})? It changed ${changed === 1 ? '1 file' : `${changed} files`} in its copy that nobody has reviewed yet.`;

  const update = (): void => {
    const on = enabled();
    runtime.board.set(
      'vibe',
      on
        ? { ready: true }
        : {
            ready: false,
            reason: `vibe mode is off (turn it on with the "Toggle Vibe Mode" command or the ${Setting.vibeEnabled} setting)`,
          },
    );
    item.text = on ? '$(rocket) Vibe' : '$(circle-slash) Vibe';
    item.tooltip = on
      ? 'Vibe mode is on: the agent can start background workers. Click to turn it off.'
      : 'Vibe mode is off. Click to turn it on.';
    item.show();
  };
  update();
  context.subscriptions.push(
    item,
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration(Setting.vibeEnabled)) update();
    }),
    vscode.commands.registerCommand(TOGGLE_VIBE_COMMAND, () =>
      vscode.workspace.getConfiguration().update(Setting.vibeEnabled, !enabled(), vscode.ConfigurationTarget.Global),
    ),
    vscode.commands.registerCommand(STOP_WORKER_COMMAND, async (node?: WorkerNode | string) => {
      const id = typeof node === 'string' ? node : node?.worker?.id;
      if (!id) return;
      // The human's own click: asked in a dialog (no answer keeps the work).
      await stop(id, 'stopped by the human in the Workers view', undefined, (changed, worker) =>
        Promise.resolve(
          vscode.window.showWarningMessage(stopQuestion(changed, worker), { modal: true }, KEEP_WORK, DISCARD_WORK),
        ),
      );
    }),
    vscode.window.registerTreeDataProvider(WORKERS_VIEW_ID, tree),
    { dispose: () => pool.disposeAll() },
    isolation,
  );

  return {
    pool,
    async spawn(brief, label, tier, access, owner, mode) {
      const isolated = access !== 'read' && mode === 'copy';
      try {
        const model = await chooseModel(tier);
        // A write or exec worker gets its copy before it starts (a copy that cannot be made is said now),
        // keyed by the id it will have: its first turn already works there.
        const id = pool.reserveId();
        if (isolated) await isolation.prepare({ id, label, owner });
        // What a worker is offered is computed for each turn: tools whose resource became ready meanwhile join.
        const workerModel = chatModel(
          model,
          tier,
          (worker) => runner.offered(callerOf(worker)),
          (worker) => isolation.isIsolated(worker.id),
        );
        const worker = pool.spawn({ id, brief, label, tier, model: workerModel, owner, access });
        if (isolated) isolation.started(worker);
        return worker;
      } catch (error) {
        throw new WorkerNotStarted(error instanceof Error ? error.message : String(error), { cause: error });
      }
    },
    accessOf: (id) => pool.list().find((worker) => worker.id === id)?.access,
    inCopy: (id) => isolation.isIsolated(id),
    stop: (id, why, caller, token) =>
      stop(id, why, caller.conversation, (changed, worker) =>
        approver.choose(
          {
            caller,
            question: stopQuestion(changed, worker),
            context: `The agent that started it asks to stop it. Kept work is staged in Staged Edits for you to shape and accept or discard; discarded work is gone with its copy.`,
            options: [
              { label: KEEP_WORK, description: 'its changes are staged as one change you review' },
              { label: DISCARD_WORK, description: 'its copy and everything it changed there are removed' },
            ],
          },
          token,
        ),
      ),
  };
}

interface WorkerNode {
  readonly worker?: WorkerSummary;
  readonly entry?: TranscriptEntry;
}

/** The Workers view: each worker with its status; its transcript below it. */
class WorkersTree implements vscode.TreeDataProvider<WorkerNode> {
  pool: WorkerPool | undefined;
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;

  refresh(): void {
    this.changed.fire();
  }

  getChildren(node?: WorkerNode): WorkerNode[] {
    if (!this.pool) return [];
    if (!node) return this.pool.list().map((worker) => ({ worker }));
    if (node.worker) return this.pool.transcript(node.worker.id).map((entry) => ({ entry }));
    return [];
  }

  getTreeItem(node: WorkerNode): vscode.TreeItem {
    if (node.worker) {
      const { worker } = node;
      const item = new vscode.TreeItem(`${worker.label} (${worker.id})`, vscode.TreeItemCollapsibleState.Collapsed);
      const seconds = Math.round(((worker.endedAt ?? Date.now()) - worker.startedAt) / 1000);
      item.description = `${worker.status} · ${worker.tier} · ${seconds} s`;
      item.tooltip = worker.result ?? worker.model;
      item.contextValue =
        worker.status === 'done' || worker.status === 'failed' || worker.status === 'killed'
          ? 'workerFinished'
          : 'workerRunning';
      item.iconPath = new vscode.ThemeIcon(
        worker.status === 'done'
          ? 'pass'
          : worker.status === 'failed'
            ? 'error'
            : worker.status === 'killed'
              ? 'circle-slash'
              : worker.status === 'awaiting approval'
                ? 'question'
                : 'loading~spin',
      );
      return item;
    }
    const entry = node.entry as TranscriptEntry;
    const text =
      entry.role === 'assistant'
        ? [entry.text, ...entry.toolCalls.map((call) => `→ ${call.name} ${JSON.stringify(call.input)}`)]
            .filter(Boolean)
            .join(' ')
        : entry.role === 'tool'
          ? `${entry.name}: ${entry.text}`
          : entry.text;
    const item = new vscode.TreeItem(`${entry.role}: ${text.replace(/\s+/g, ' ').slice(0, 200)}`);
    item.tooltip = text.slice(0, 4000);
    return item;
  }
}
