import * as vscode from 'vscode';
import { Logger } from '../log/logger';
import { Caller } from '../platform/caller';
import { ToolDeclaration } from '../platform/toolDeclaration';
import { Tier } from '../platform/tiers';
import { ChangeCall, WriteSource } from '../platform/changeJournal';
import { Confirmation } from '../platform/vscode/approver';

export interface ToolContext {
  readonly token: vscode.CancellationToken;
  /** `vscode-chat-session://…` inside a chat session, `window` otherwise (see platform/conversation.ts); a worker's own under its owner's. */
  readonly conversation: string;
  /** Who calls: its cap, label and conversation (the tool runner has already held the call to them). */
  readonly caller: Caller;
  readonly log: Logger;
  /** The chat's token for this call, passed on when the tool calls other tools (approvals follow it). */
  readonly invocationToken: vscode.ChatParticipantToolToken | undefined;
  /** This call, as Agent Changes names it (its checkpoints are "before this call"). */
  readonly call: ChangeCall;
}

/** Who a tool's writes are recorded for. */
export function writeSourceOf(context: Pick<ToolContext, 'conversation' | 'caller' | 'call'>): WriteSource {
  return { conversation: context.conversation, label: context.caller.label, call: context.call };
}

/** An answer with pictures (a plotted figure): the text first, then each image as a data part. */
export interface ToolAnswer {
  readonly text: string;
  readonly images: ReadonlyArray<{ readonly mime: string; readonly data: Uint8Array }>;
}

/** A planned call: what the human is asked, and the plan `invoke` applies if allowed. */
export interface Prepared<Plan> {
  /**
   * Undefined only when the plan writes nothing (it changes nothing, or `invoke` will refuse it):
   * then nobody is asked.
   */
  readonly confirmation?: Confirmation;
  readonly plan: Plan;
}

/** One tool: its catalog declaration plus the glue that validates, calls its engine and formats. */
export interface LiveTool<Input, Plan = undefined> {
  readonly declaration: ToolDeclaration;
  /** Shown while the tool runs ("Finding references of greet…"). */
  invocationMessage(input: Input): string;
  /** Write and exec tools without a plan: the confirmation the human answers before the tool runs. */
  confirmation?(input: Input, token: vscode.CancellationToken): Promise<Confirmation>;
  /**
   * Write tools: plans the change once and words its confirmation from that plan; `invoke` gets the
   * very plan the human was shown (the writer refuses it whole if a file changed since).
   */
  prepare?(input: Input, token: vscode.CancellationToken): Promise<Prepared<Plan>>;
  /**
   * The tier this very input needs, when it is not the declared one (vibe_spawn with access read
   * needs read; messaging a worker needs what the worker may do). Asked and capped by that tier.
   */
  requiredTier?(input: Input): Tier;
  /**
   * Input has passed schema validation; `plan` is what `prepare` planned (undefined for tools
   * without one). Returns what the model reads: text, and images where there are any.
   */
  invoke(input: Input, context: ToolContext, plan: Plan): Promise<string | ToolAnswer>;
}

/** Tools of different input types live in one list; each one casts its own input. */
export type AnyLiveTool = LiveTool<never, never>;
