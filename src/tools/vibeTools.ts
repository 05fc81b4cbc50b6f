import { declarationOf, VIBE_WAIT_DEFAULT_SECONDS, VibeKillInput, VibeListInput, VibeSendInput, VibeSpawnInput, VibeWaitInput } from '../registry/catalog';
import { ToolName } from '../registry/toolNames';
import { UnknownWorker, WorkerSummary } from '../vibe/vibeWorkers';
import { VibeService } from '../vibe/vscode/registerVibe';
import { AnyLiveTool, LiveTool } from './liveTool';

const RESULT_IN_LIST = 300;

function elapsed(worker: WorkerSummary): string {
  const seconds = Math.round(((worker.endedAt ?? Date.now()) - worker.startedAt) / 1000);
  return seconds < 120 ? `${seconds} s` : `${Math.round(seconds / 60)} min`;
}

function named(worker: WorkerSummary): string {
  return `${worker.id} "${worker.label}"`;
}

/** Unknown ids become an answer naming the known ones. */
async function answering(work: () => Promise<string> | string): Promise<string> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof UnknownWorker) return `Error: ${error.message} vibe_list shows them.`;
    throw error;
  }
}

export function createVibeTools(vibe: VibeService): AnyLiveTool[] {
  const { pool } = vibe;
  const spawn: LiveTool<VibeSpawnInput> = {
    declaration: declarationOf(ToolName.vibeSpawn),
    invocationMessage: (input) => `Starting worker "${input.label}"`,
    async invoke(input) {
      const tier = input.tier ?? 'fast';
      const access = input.access ?? 'write';
      let worker: WorkerSummary;
      try {
        worker = await vibe.spawn(input.brief, input.label, tier, access);
      } catch (error) {
        return `Error: the worker was not started: ${error instanceof Error ? error.message : String(error)}.`;
      }
      return `Started worker ${named(worker)} (${worker.model}, access ${access}). It runs in the background: vibe_wait with worker_id "${worker.id}" returns its result; vibe_send steers it.`;
    },
  };
  const send: LiveTool<VibeSendInput> = {
    declaration: declarationOf(ToolName.vibeSend),
    invocationMessage: (input) => `Messaging worker ${input.worker_id}`,
    invoke: (input) =>
      answering(() => {
        const { delivered, worker } = pool.send(input.worker_id, input.message);
        return delivered === 'queued'
          ? `Message queued for ${named(worker)}: it is delivered at the worker's next tool boundary.`
          : `${named(worker)} had finished; it continues with your message. vibe_wait for its new result.`;
      }),
  };
  const wait: LiveTool<VibeWaitInput> = {
    declaration: declarationOf(ToolName.vibeWait),
    invocationMessage: (input) => `Waiting for worker ${input.worker_id}`,
    invoke: (input, { token }) =>
      answering(async () => {
        const seconds = input.timeout_seconds ?? VIBE_WAIT_DEFAULT_SECONDS;
        const abort = new AbortController();
        const listener = token.onCancellationRequested(() => abort.abort());
        try {
          const { finished, worker } = await pool.wait(input.worker_id, seconds * 1000, abort.signal);
          if (!finished) return `${named(worker)} is still ${worker.status} after ${seconds} s of waiting (${elapsed(worker)} in all). Call vibe_wait again, or vibe_kill to stop it.`;
          return `${named(worker)} ${worker.status} after ${elapsed(worker)}:\n${worker.result ?? ''}`;
        } finally {
          listener.dispose();
        }
      }),
  };
  const kill: LiveTool<VibeKillInput> = {
    declaration: declarationOf(ToolName.vibeKill),
    invocationMessage: (input) => `Stopping worker ${input.worker_id}`,
    invoke: (input) =>
      answering(() => {
        const before = pool.list().find((worker) => worker.id === input.worker_id)?.status;
        const worker = pool.kill(input.worker_id, 'stopped by vibe_kill');
        return before === 'done' || before === 'failed' || before === 'killed' ? `${named(worker)} had already finished (${before}).` : `${named(worker)} was stopped after ${elapsed(worker)}.`;
      }),
  };
  const list: LiveTool<VibeListInput> = {
    declaration: declarationOf(ToolName.vibeList),
    invocationMessage: () => 'Listing workers',
    async invoke() {
      const workers = pool.list();
      if (workers.length === 0) return 'No workers yet: vibe_spawn starts one.';
      return workers
        .map((worker) => {
          const result = worker.result ? ` · last result: ${worker.result.length > RESULT_IN_LIST ? `${worker.result.slice(0, RESULT_IN_LIST)}…` : worker.result}` : '';
          return `${named(worker)} · ${worker.tier} (${worker.model}) · ${worker.status} · ${elapsed(worker)}${result}`;
        })
        .join('\n');
    },
  };
  return [spawn, send, wait, kill, list] as AnyLiveTool[];
}
