/** The vibe tools' inputs and declarations: spawn, steer, wait for, stop and list background workers. */
import { JsonSchema, ToolDeclaration } from '../../platform/toolDeclaration';
import { TIERS, Tier } from '../../platform/tiers';
import { ToolName } from '../../platform/toolNames';
import {
  WORKER_ISOLATION,
  WORKER_LABEL_MAX,
  WORKER_TIERS,
  WorkerIsolationMode,
  WorkerTier,
} from '../../vibe/vibeWorkers';
import { MAX_WAIT_SECONDS } from '../schemaParts';

export interface VibeSpawnInput {
  brief: string;
  label: string;
  tier?: WorkerTier;
  access?: Tier;
  isolation?: WorkerIsolationMode;
}

export interface VibeSpawnReadonlyInput {
  brief: string;
  label: string;
  tier?: WorkerTier;
}

export interface VibeSendInput {
  worker_id: string;
  message: string;
}

export interface VibeWaitInput {
  worker_id: string;
  timeout_seconds?: number;
}

export interface VibeKillInput {
  worker_id: string;
}

export interface VibeListInput {}

export const VIBE_WAIT_DEFAULT_SECONDS = 300;

/** The brief, label and model tier both spawn tools take. */
const WORKER_BRIEF_PROPERTIES: Record<'brief' | 'label' | 'tier', JsonSchema> = {
  brief: {
    type: 'string',
    minLength: 1,
    description: 'The whole task, self-contained: goal, files, constraints, what to report back.',
  },
  label: {
    type: 'string',
    minLength: 1,
    maxLength: WORKER_LABEL_MAX,
    description: 'A few words naming the worker for the human.',
  },
  tier: { type: 'string', enum: WORKER_TIERS, description: 'fast (default) or good.' },
};

export const vibeSpawnDeclaration: ToolDeclaration = {
  name: ToolName.vibeSpawn,
  // What it may grant: a worker with exec access runs programs. With access read it needs (and asks) nothing more.
  tier: 'exec',
  resource: 'vibe',
  displayName: 'Spawn a worker',
  icon: '$(rocket)',
  userDescription: 'Start a background worker agent on a brief, with the access you allow.',
  modelDescription: [
    "Start a background worker: an agent loop of its own on a language model, with the editor's tools, working on `brief` " +
      'while you go on. Returns at once with a worker id; vibe_wait gets its result, vibe_send steers it, vibe_kill stops it.',
    "tier: fast (default) for mechanical work with a clear spec; good for design, judgement, or reviewing a fast worker's output. " +
      'access: read (default: sees no tool that changes anything), write (file edits), exec (also runs programs). Granting write or ' +
      'exec is asked of the human first. A write or exec worker works in a private copy of the workspace (isolation "copy", the ' +
      'default): its writes land there unasked, its programs run there (each exec call is still asked), and when it ends everything ' +
      'it changed is staged as one change (vibe_wait names its edit_id) that the human shapes per file and hunk, or you resolve. ' +
      'isolation "none" works in the live workspace instead, each write/exec call waiting for the human. ' +
      'Write the brief so it stands alone: the worker sees nothing else.',
  ].join('\n'),
  inputSchema: {
    type: 'object',
    properties: {
      ...WORKER_BRIEF_PROPERTIES,
      access: {
        type: 'string',
        enum: TIERS,
        description: 'The most the worker may do: read (default), write or exec.',
      },
      isolation: {
        type: 'string',
        enum: WORKER_ISOLATION,
        description:
          'For write or exec access: copy (default: its own copy of the workspace, its work comes back as one staged change) or none (the live workspace).',
      },
    },
    required: ['brief', 'label'],
    additionalProperties: false,
  },
};

export const vibeSpawnReadonlyDeclaration: ToolDeclaration = {
  name: ToolName.vibeSpawnReadonly,
  tier: 'read',
  resource: 'vibe',
  displayName: 'Spawn a read-only worker',
  icon: '$(rocket)',
  userDescription: 'Start a background worker agent that can only read (research, review).',
  modelDescription: [
    "Start a background worker that can only read: an agent loop of its own on a language model, with the editor's read " +
      'tools (language servers, structural search, questions to the human), working on `brief` while you go on. For research, ' +
      'review and planning. Returns at once with a worker id; vibe_wait gets its result, vibe_send steers it, vibe_kill stops it.',
    'tier: fast (default) for mechanical work with a clear spec; good for design and judgement. Write the brief so it stands alone: ' +
      'the worker sees nothing else.',
  ].join('\n'),
  inputSchema: {
    type: 'object',
    properties: {
      ...WORKER_BRIEF_PROPERTIES,
    },
    required: ['brief', 'label'],
    additionalProperties: false,
  },
};

export const vibeSendDeclaration: ToolDeclaration = {
  name: ToolName.vibeSend,
  tier: 'read',
  resource: 'vibe',
  displayName: 'Message a worker',
  icon: '$(comment)',
  userDescription: "Add to a worker's brief.",
  modelDescription:
    "Add a message to a worker's brief. A running worker reads it at its next tool boundary (its transcript notes the delivery); a finished worker continues from where it ended with the message. Steering a worker that may write or run programs is asked of the human first.",
  inputSchema: {
    type: 'object',
    properties: {
      worker_id: { type: 'string', minLength: 1, description: 'The id vibe_spawn returned (w1, w2…).' },
      message: { type: 'string', minLength: 1, description: 'What to add or change.' },
    },
    required: ['worker_id', 'message'],
    additionalProperties: false,
  },
};

export const vibeWaitDeclaration: ToolDeclaration = {
  name: ToolName.vibeWait,
  tier: 'read',
  resource: 'vibe',
  displayName: 'Wait for a worker',
  icon: '$(watch)',
  userDescription: 'Wait for a worker to finish and read its result.',
  modelDescription: `Wait until a worker finishes (or timeout_seconds pass, default ${VIBE_WAIT_DEFAULT_SECONDS}) and return its result. A timeout does not stop the worker.`,
  inputSchema: {
    type: 'object',
    properties: {
      worker_id: { type: 'string', minLength: 1, description: 'The id vibe_spawn returned (w1, w2…).' },
      timeout_seconds: {
        type: 'number',
        minimum: 0,
        maximum: MAX_WAIT_SECONDS,
        description: `How long to wait, default ${VIBE_WAIT_DEFAULT_SECONDS}, at most ${MAX_WAIT_SECONDS}.`,
      },
    },
    required: ['worker_id'],
    additionalProperties: false,
  },
};

export const vibeKillDeclaration: ToolDeclaration = {
  name: ToolName.vibeKill,
  tier: 'read',
  resource: 'vibe',
  displayName: 'Stop a worker',
  icon: '$(debug-stop)',
  userDescription: 'Stop a background worker.',
  modelDescription: 'Stop a worker. What it already changed stays; its transcript stays in the Workers view.',
  inputSchema: {
    type: 'object',
    properties: { worker_id: { type: 'string', minLength: 1, description: 'The id vibe_spawn returned (w1, w2…).' } },
    required: ['worker_id'],
    additionalProperties: false,
  },
};

export const vibeListDeclaration: ToolDeclaration = {
  name: ToolName.vibeList,
  tier: 'read',
  resource: 'vibe',
  displayName: 'List workers',
  icon: '$(list-unordered)',
  userDescription: 'List the background workers.',
  modelDescription:
    'List the workers of this conversation: id, label, tier and model, access, status, elapsed time, and its last result.',
  inputSchema: { type: 'object', properties: {}, additionalProperties: false },
};
