import * as vscode from 'vscode';
import { LiveDescriptions } from './platform/liveDescriptions';
import { createOutputChannelLogger } from './log/vscode/outputChannelLogger';
import { Logger } from './log/logger';
import { contextKeyOf, ResourceBoard } from './platform/resources';
import { ChangeJournal } from './platform/changeJournal';
import { WorkspaceWriter } from './workspace/vscode/workspaceWriter';

/** What every area's registration receives: the log and the board of live resources. */
export interface Runtime {
  readonly log: Logger;
  readonly board: ResourceBoard;
  /** Every agent write is told here (Agent Changes records it). */
  readonly journal: ChangeJournal;
  /** The one writer: every change to workspace files goes through it. */
  readonly writer: WorkspaceWriter;
  /** What tool descriptions say about this window now (MCP and workers read them). */
  readonly descriptions: LiveDescriptions;
}

/** Builds the runtime and mirrors each resource's state into its context key (`liveTools.<id>.ready`). */
export function createRuntime(context: vscode.ExtensionContext): Runtime {
  const log = createOutputChannelLogger(context);
  const board = new ResourceBoard();
  context.subscriptions.push(
    board.onDidChange((id, state) => {
      log.info('resource', `${id} ${state.ready ? 'ready' : `not ready: ${state.reason}`}`);
      void vscode.commands.executeCommand('setContext', contextKeyOf(id), state.ready);
    }),
  );
  const journal = new ChangeJournal();
  return { log, board, journal, writer: new WorkspaceWriter(log, journal), descriptions: new LiveDescriptions() };
}
