/**
 * The Agent Changes view: every write an agent made, per conversation, with Keep and Revert on
 * each conversation, file and hunk, a diff of "before the conversation's first change" against
 * now, and Restore to before a tool call. The record lives in workspace storage.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { describeError } from '../../log/logger';
import { treeItemOf } from '../../platform/vscode/treeRows';
import { Runtime } from '../../runtime';
import { isRealPathInside } from '../../workspace/containment';
import { displayPath } from '../../workspace/paths';
import { currentText } from '../../workspace/vscode/fileTexts';
import { windowFolderPaths } from '../../workspace/vscode/workspaceFolders';
import { ConversationRecord } from '../agentChanges';
import { ChangeLog, PlannedRevert, RevertScope, SavedChangeLog } from '../changeLog';
import {
  ChangeNode,
  changeChildren,
  changeRow,
  droppedMessage,
  hunkLine,
  isChangeNode,
  recordLabel,
  revertMessage,
  scopeOf,
} from '../changesView';

export const AGENT_CHANGES_VIEW = 'liveTools.agentChanges';
export const KEEP_CHANGES_COMMAND = 'liveTools.keepAgentChanges';
export const REVERT_CHANGES_COMMAND = 'liveTools.revertAgentChanges';
export const RESTORE_CHECKPOINT_COMMAND = 'liveTools.restoreAgentCheckpoint';
export const OPEN_CHANGES_COMMAND = 'liveTools.openAgentChanges';
/** Where the record is kept in workspace storage. */
const STATE_KEY = 'liveTools.agentChanges';
/** The scheme of a file's text before the conversation's first change (`?conversation=…`). */
const BEFORE_SCHEME = 'live-tools-before';
/** True while the record holds anything: shows the view. */
const HAS_CHANGES_KEY = 'liveTools.agentChangesRecorded';

function beforeUri(conversation: string, file: string): vscode.Uri {
  return vscode.Uri.from({
    scheme: BEFORE_SCHEME,
    path: vscode.Uri.file(file).path,
    query: new URLSearchParams({ conversation }).toString(),
  });
}

function display(file: string): string {
  return displayPath(windowFolderPaths(), file);
}

/** The view: rows from the view model (`../changesView`), as tree items. */
class AgentChangesTree implements vscode.TreeDataProvider<ChangeNode> {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;

  constructor(private readonly log: ChangeLog) {}

  refresh(): void {
    this.changed.fire();
  }

  dispose(): void {
    this.changed.dispose();
  }

  getChildren(node?: ChangeNode): ChangeNode[] {
    return changeChildren(node, this.log.all());
  }

  getTreeItem(node: ChangeNode): vscode.TreeItem {
    const item = treeItemOf(changeRow(node, this.log.get(node.conversation), display));
    item.command = {
      command: OPEN_CHANGES_COMMAND,
      title: node.kind === 'conversation' ? 'Open Changes' : 'Open Diff',
      arguments: [node],
    };
    return item;
  }
}

/** Records every agent write into the Agent Changes of this workspace and gives the human its view. */
export function registerAgentChanges(context: vscode.ExtensionContext, runtime: Runtime): ChangeLog {
  const log = new ChangeLog(undefined, context.workspaceState.get<SavedChangeLog>(STATE_KEY));
  const tree = new AgentChangesTree(log);
  const view = vscode.window.createTreeView(AGENT_CHANGES_VIEW, { treeDataProvider: tree });
  const beforeChanged = new vscode.EventEmitter<vscode.Uri>();

  let saving: NodeJS.Timeout | undefined;
  const update = (): void => {
    tree.refresh();
    void vscode.commands.executeCommand('setContext', HAS_CHANGES_KEY, log.all().length > 0);
    view.message = droppedMessage(log.dropped);
    for (const record of log.all())
      for (const file of record.files) beforeChanged.fire(beforeUri(record.conversation, file.path));
    if (saving) clearTimeout(saving);
    saving = setTimeout(() => {
      saving = undefined;
      void Promise.resolve(context.workspaceState.update(STATE_KEY, log.serialized())).catch((error: unknown) =>
        runtime.log.warn('changes.save', describeError(error)),
      );
    }, 300);
  };

  const recordOf = (conversation: string): ConversationRecord | undefined => log.get(conversation);

  /** Reverts a scope of a conversation's changes through the one writer (the human's own action: not journaled); says what it did. */
  const revert = async (conversation: string, scope: RevertScope): Promise<string> => {
    let planned: PlannedRevert[] | undefined;
    try {
      planned = await log.revert(conversation, scope, {
        currentText,
        write: async (changes) => {
          await runtime.writer.apply({
            files: changes.map((plan) => ({ path: plan.path, before: plan.current, after: plan.text })),
            kind: 'anchored',
          });
        },
      });
    } catch (error) {
      const message = `Could not revert: ${error instanceof Error ? error.message : String(error)}`;
      runtime.log.warn('changes.revert', message);
      void vscode.window.showErrorMessage(message);
      return message;
    }
    if (!planned) return 'Nothing to revert: these changes are no longer recorded.';
    const { text, warning } = revertMessage(planned, display);
    runtime.log.info('changes.revert', `${scope.kind} of ${conversation}: ${text}`);
    void (warning ? vscode.window.showWarningMessage(text) : vscode.window.showInformationMessage(text));
    return text;
  };

  const openChanges = async (node: ChangeNode): Promise<void> => {
    const record = recordOf(node.conversation);
    if (!record) return;
    if (node.kind === 'conversation') {
      await vscode.commands.executeCommand(
        'vscode.changes',
        `Agent Changes: ${record.label}`,
        record.files.map((file) => [
          vscode.Uri.file(file.path),
          beforeUri(record.conversation, file.path),
          vscode.Uri.file(file.path),
        ]),
      );
      return;
    }
    const options: vscode.TextDocumentShowOptions = { preview: true };
    if (node.kind === 'hunk') {
      const line = hunkLine(record, node);
      options.selection = new vscode.Range(line, 0, line, 0);
    }
    await vscode.commands.executeCommand(
      'vscode.diff',
      beforeUri(record.conversation, node.path),
      vscode.Uri.file(node.path),
      `${path.basename(node.path)} (before ${record.label} ↔ now)`,
      options,
    );
  };

  context.subscriptions.push(
    tree,
    view,
    beforeChanged,
    log.onDidChange(update),
    vscode.workspace.registerTextDocumentContentProvider(BEFORE_SCHEME, {
      onDidChange: beforeChanged.event,
      provideTextDocumentContent: (uri) => {
        const conversation = new URLSearchParams(uri.query).get('conversation') ?? '';
        const file = recordOf(conversation)?.files.find(
          (candidate) => vscode.Uri.file(candidate.path).path === uri.path,
        );
        return file?.base ?? '';
      },
    }),
    runtime.journal.onDidWrite((source, writes) => {
      // Only files inside the window's workspace are recorded: never another file's text, nor a worker's copy.
      const folders = windowFolderPaths();
      const inside = writes.filter((write) => isRealPathInside(folders, write.path));
      if (inside.length === 0) return;
      const label = recordLabel(source.conversation, source.label, recordOf(source.conversation)?.label);
      log.record(source.conversation, label, source.call, inside);
    }),
    vscode.commands.registerCommand(KEEP_CHANGES_COMMAND, (node: unknown) => {
      if (!isChangeNode(node)) return;
      const scope = scopeOf(node);
      if (scope.kind !== 'before-call') log.keep(node.conversation, scope);
    }),
    vscode.commands.registerCommand(REVERT_CHANGES_COMMAND, (node: unknown) =>
      isChangeNode(node) ? revert(node.conversation, scopeOf(node)) : undefined,
    ),
    vscode.commands.registerCommand(OPEN_CHANGES_COMMAND, (node: unknown) =>
      isChangeNode(node) ? openChanges(node) : undefined,
    ),
    vscode.commands.registerCommand(RESTORE_CHECKPOINT_COMMAND, async (node: unknown, call?: unknown) => {
      if (!isChangeNode(node)) return undefined;
      const record = recordOf(node.conversation);
      if (!record) return undefined;
      let chosen = typeof call === 'string' ? call : undefined;
      if (!chosen) {
        const picked = await vscode.window.showQuickPick(
          [...record.calls].reverse().map((known) => ({
            label: `Before ${known.label}`,
            description: new Date(known.at).toLocaleTimeString(),
            id: known.id,
          })),
          { title: `Restore ${record.label}'s files to before a tool call` },
        );
        chosen = picked?.id;
      }
      return chosen ? revert(node.conversation, { kind: 'before-call', call: chosen }) : undefined;
    }),
    {
      dispose: () => {
        if (saving) {
          clearTimeout(saving);
          void context.workspaceState.update(STATE_KEY, log.serialized());
        }
      },
    },
  );
  update();
  return log;
}
