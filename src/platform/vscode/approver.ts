/**
 * Asking the human about one call nobody else asks about (a worker's, a cell's outside a chat, an
 * MCP client's): the confirmation a tool words, and who asks on the question card.
 */
import type * as vscode from 'vscode';
import { Caller } from '../caller';
import { Tier } from '../tiers';

export interface Confirmation {
  readonly title: string;
  /** Markdown: exactly what will happen if the human allows it. */
  readonly message: string;
  /** Files it writes that later calls may execute (build scripts, hooks, runner configuration): asked every time. */
  readonly executes?: readonly string[];
}

/** Asks the human whether a caller may run one call (the question card); true when allowed. */
export interface Approver {
  approve(
    request: {
      readonly caller: Caller;
      readonly tool: string;
      /** What this call needs: a worker's write calls may be allowed for the rest of its run; exec never is. */
      readonly tier: Tier;
      readonly confirmation: Confirmation;
    },
    token: vscode.CancellationToken,
  ): Promise<boolean>;
  /**
   * Asks the human to choose what happens (the approval card, naming who asks); the label chosen, or
   * undefined when nobody answered.
   */
  choose(
    request: {
      readonly caller: Caller;
      readonly question: string;
      readonly context: string;
      readonly options: readonly { readonly label: string; readonly description: string }[];
    },
    token: vscode.CancellationToken,
  ): Promise<string | undefined>;
}

/** What a call relayed for a caller inside this extension (a cell, a worker) answers: the text, and whether it succeeded. */
export interface RelayedAnswer {
  readonly ok: boolean;
  readonly text: string;
}

/**
 * What workers need of the tool runner (`tools/toolRunner.ts` implements it): which tools a caller
 * is offered, what a call needs and asks, and the way to make one within the caller's tier.
 */
export interface CallerTools {
  offered(caller: Caller): vscode.LanguageModelToolInformation[];
  tierOf(name: string, input: unknown): Tier;
  needsApproval(name: string, input: unknown, caller: Caller): boolean;
  /** With a caller in its copy, worded on the copy (its paths resolve there). */
  confirmation(
    name: string,
    input: unknown,
    token: vscode.CancellationToken,
    caller?: Pick<Caller, 'copy'>,
  ): Promise<Confirmation | undefined>;
  /** The human denied the call `confirmation` planned: its plan is not kept for a later one. */
  denied(name: string, input: unknown): void;
  relay(name: string, input: unknown, caller: Caller, token: vscode.CancellationToken): Promise<RelayedAnswer>;
}
