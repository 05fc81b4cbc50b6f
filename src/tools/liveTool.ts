import * as vscode from 'vscode';
import { Logger } from '../log/logger';
import { ToolDeclaration } from '../registry/catalog';

export interface ToolContext {
  readonly token: vscode.CancellationToken;
  /** `vscode-chat-session://…` inside a chat session, `window` otherwise (see registry/conversation.ts). */
  readonly conversation: string;
  readonly log: Logger;
}

export interface Confirmation {
  readonly title: string;
  /** Markdown: exactly what will happen if the human allows it. */
  readonly message: string;
}

/** One tool: its catalog declaration plus the glue that validates, calls its engine and formats. */
export interface LiveTool<Input> {
  readonly declaration: ToolDeclaration;
  /** Shown while the tool runs ("Finding references of greet…"). */
  invocationMessage(input: Input): string;
  /** Required for write and exec tools: the confirmation the human answers before the tool runs. */
  confirmation?(input: Input, token: vscode.CancellationToken): Promise<Confirmation>;
  /** Input has passed schema validation. Returns the text the model reads. */
  invoke(input: Input, context: ToolContext): Promise<string>;
}

/** Tools of different input types live in one list; each one casts its own input. */
export type AnyLiveTool = LiveTool<never>;
