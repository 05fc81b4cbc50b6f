import { Confirmation } from '../../platform/vscode/approver';
import {
  VIBE_WAIT_DEFAULT_SECONDS,
  vibeKillDeclaration,
  VibeKillInput,
  vibeListDeclaration,
  VibeListInput,
  vibeSendDeclaration,
  VibeSendInput,
  vibeSpawnDeclaration,
  VibeSpawnInput,
  vibeSpawnReadonlyDeclaration,
  VibeSpawnReadonlyInput,
  vibeWaitDeclaration,
  VibeWaitInput,
} from './declaration';
import { Tier } from '../../platform/tiers';
import { WorkerIsolationMode, WorkerSummary, WorkerTier } from '../../vibe/vibeWorkers';
import { VibeService } from '../../vibe/vscode/registerVibe';
import { withAbortSignal } from '../../async/abortSignal';
import { AnyLiveTool, LiveTool, ToolContext } from '../liveTool';
import { singleLine } from '../../platform/wording';

const RESULT_IN_LIST = 300;

/** What each access lets a worker do, as a confirmation says it. */
const ACCESS_WORDS: Record<Tier, string> = {
  read: 'it sees only tools that change nothing',
  write: 'it may edit files in the workspace',
  exec: 'it may edit files and run programs (debugger, kernels, tools of other extensions)',
};

/** Where it does so, as a confirmation says it. */
const ISOLATION_WORDS: Record<WorkerIsolationMode, string> = {
  copy:
    'It works in a private copy of the workspace, outside it: its writes land there without asking, each program it runs is still asked here, ' +
    'and when it ends everything it changed comes back to you as one staged change to shape and accept or discard.',
  none: 'It works in the **live workspace**: each of its write or exec calls is asked here.',
};

function elapsed(worker: WorkerSummary): string {
  const seconds = Math.round(((worker.endedAt ?? Date.now()) - worker.startedAt) / 1000);
  return seconds < 120 ? `${seconds} s` : `${Math.round(seconds / 60)} min`;
}

function named(worker: WorkerSummary): string {
  return `${worker.id} "${worker.label}"`;
}

export function createVibeTools(vibe: VibeService): AnyLiveTool[] {
  const { pool } = vibe;

  const start = async (
    input: { brief: string; label: string; tier?: WorkerTier; isolation?: WorkerIsolationMode },
    access: Tier,
    { caller }: ToolContext,
  ): Promise<string> => {
    // Errors word themselves through the runner: spawn's WorkerNotStarted here; below, the pool's
    // UnknownWorker and NotYourWorker, which name what this conversation has.
    const isolation = input.isolation ?? 'copy';
    const worker = await vibe.spawn(
      input.brief,
      input.label,
      input.tier ?? 'fast',
      access,
      caller.conversation,
      isolation,
    );
    const where = vibe.inCopy(worker.id)
      ? ' in its own copy of the workspace (its changes come back as one staged change when it ends)'
      : access === 'read'
        ? ''
        : ' in the live workspace';
    return `Started worker ${named(worker)} (${worker.model}, access ${access})${where}. It runs in the background: vibe_wait with worker_id "${worker.id}" returns its result; vibe_send steers it.`;
  };

  const spawn: LiveTool<VibeSpawnInput> = {
    declaration: vibeSpawnDeclaration,
    invocationMessage: (input) => `Starting worker "${singleLine(input.label, 60)}"`,
    // The tier of the call is the access it grants: a read worker needs (and asks) nothing more.
    requiredTier: (input) => input.access ?? 'read',
    async confirmation(input): Promise<Confirmation> {
      const access = input.access ?? 'read';
      const where = access === 'read' ? '' : ` ${ISOLATION_WORDS[input.isolation ?? 'copy']}`;
      return {
        title: `Start worker "${singleLine(input.label, 60)}" with ${access} access${access !== 'read' && input.isolation === 'none' ? ' in the live workspace' : ''}?`,
        message:
          `Start a background worker with **${access}** access: ${ACCESS_WORDS[access]}.${where}\n\n` +
          `Brief:\n\n${input.brief.length > 2000 ? `${input.brief.slice(0, 2000)}…` : input.brief}`,
      };
    },
    invoke: (input, context) => start(input, input.access ?? 'read', context),
  };
  const spawnReadonly: LiveTool<VibeSpawnReadonlyInput> = {
    declaration: vibeSpawnReadonlyDeclaration,
    invocationMessage: (input) => `Starting read-only worker "${singleLine(input.label, 60)}"`,
    invoke: (input, context) => start(input, 'read', context),
  };
  const send: LiveTool<VibeSendInput> = {
    declaration: vibeSendDeclaration,
    invocationMessage: (input) => `Messaging worker ${input.worker_id}`,
    // Steering a worker is doing what it may do: a message to a writing worker is a write.
    requiredTier: (input) => vibe.accessOf(input.worker_id) ?? 'read',
    async confirmation(input): Promise<Confirmation> {
      const access = vibe.accessOf(input.worker_id) ?? 'read';
      return {
        title: `Message worker ${input.worker_id} (${access} access)?`,
        message: `Send this to worker ${input.worker_id}, which has **${access}** access (${ACCESS_WORDS[access]}):\n\n${input.message.length > 2000 ? `${input.message.slice(0, 2000)}…` : input.message}`,
      };
    },
    async invoke(input, { caller }) {
      const { delivered, worker } = pool.send(input.worker_id, input.message, caller.conversation);
      return delivered === 'queued'
        ? `Message queued for ${named(worker)}: it is delivered at the worker's next tool boundary.`
        : `${named(worker)} had finished; it continues with your message. vibe_wait for its new result.`;
    },
  };
  const wait: LiveTool<VibeWaitInput> = {
    declaration: vibeWaitDeclaration,
    invocationMessage: (input) => `Waiting for worker ${input.worker_id}`,
    async invoke(input, { token, caller }) {
      const seconds = input.timeout_seconds ?? VIBE_WAIT_DEFAULT_SECONDS;
      const { finished, worker } = await withAbortSignal(token, (signal) =>
        pool.wait(input.worker_id, seconds * 1000, signal, caller.conversation),
      );
      if (!finished)
        return `${named(worker)} is still ${worker.status} after ${seconds} s of waiting (${elapsed(worker)} in all). Call vibe_wait again, or vibe_kill to stop it.`;
      return `${named(worker)} ${worker.status} after ${elapsed(worker)}:\n${worker.result ?? ''}${worker.review ? `\n\n${worker.review}` : ''}`;
    },
  };
  const kill: LiveTool<VibeKillInput> = {
    declaration: vibeKillDeclaration,
    invocationMessage: (input) => `Stopping worker ${input.worker_id}`,
    async invoke(input, { caller, token }) {
      const before = pool.list(caller.conversation).find((worker) => worker.id === input.worker_id)?.status;
      const stopped = await vibe.stop(input.worker_id, 'stopped by vibe_kill', caller, token);
      if (before === 'done' || before === 'failed' || before === 'killed')
        return `${named(stopped)} had already finished (${before}).`;
      const worker = await pool.settled(stopped.id);
      return `${named(worker)} was stopped after ${elapsed(worker)}.${worker.review ? ` ${worker.review}` : ''}`;
    },
  };
  const list: LiveTool<VibeListInput> = {
    declaration: vibeListDeclaration,
    invocationMessage: () => 'Listing workers',
    async invoke(_input, { caller }) {
      const workers = pool.list(caller.conversation);
      const others = pool.list().length - workers.length;
      const elsewhere =
        others > 0 ? `\n(${others} worker${others === 1 ? '' : 's'} of other conversations not shown.)` : '';
      if (workers.length === 0) return `No workers in this conversation yet: vibe_spawn starts one.${elsewhere}`;
      return (
        workers
          .map((worker) => {
            const result = worker.result
              ? ` · last result: ${worker.result.length > RESULT_IN_LIST ? `${worker.result.slice(0, RESULT_IN_LIST)}…` : worker.result}`
              : '';
            const copy = vibe.inCopy(worker.id) ? ' in its copy' : '';
            const review = worker.review ? ` · ${worker.review.split(/(?<=\.) /)[0]}` : '';
            return `${named(worker)} · ${worker.tier} (${worker.model}) · access ${worker.access}${copy} · ${worker.status} · ${elapsed(worker)}${result}${review}`;
          })
          .join('\n') + elsewhere
      );
    },
  };
  return [spawn, spawnReadonly, send, wait, kill, list] as AnyLiveTool[];
}
