/**
 * The Agent Changes view: every write an agent made, per conversation, with Keep and Revert on
 * each conversation, file and hunk, a diff of "before the conversation's first change" against
 * now, and Restore to before a tool call. The record lives in workspace storage.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { describeError } from '../../log/logger';
import { Runtime } from '../../runtime';
import { isRealPathInside } from '../../workspace/containment';
import { displayPath } from '../../workspace/paths';
import { currentText } from '../../workspace/vscode/fileTexts';
import { documentAt } from '../../workspace/vscode/openDocuments';
import { workspaceFolderPaths } from '../../workspace/vscode/workspaceFolders';
import { minimalEdit } from '../../writes/vscode/writeService';
import { agentHunks, ConversationRecord, FileRecord } from '../agentChanges';
import { ChangeLog, PlannedRevert, RevertScope, SavedChangeLog } from '../changeLog';
import { splitLines } from '../lineMerge';
import { plural } from '../../staging/answers';

export const AGENT_CHANGES_VIEW = 'liveTools.agentChanges';
export const KEEP_CHANGES_COMMAND = 'liveTools.keepAgentChanges';
export const REVERT_CHANGES_COMMAND = 'liveTools.revertAgentChanges';
export const RESTORE_CHECKPOINT_COMMAND = 'liveTools.restoreAgentCheckpoint';
export const OPEN_CHANGES_COMMAND = 'liveTools.openAgentChanges';
/** Where the record is kept in workspace storage. */
const STATE_KEY = 'liveTools.agentChanges';
/** The scheme of a file's text before the conversation's first change (`?conversation=…`). */
const BEFORE_SCHEME = 'live-tools-before';
/** A file with more hunks than this starts collapsed in the view. */
const EXPANDED_HUNKS_CAP = 10;
/** True while the record holds anything: shows the view. */
const HAS_CHANGES_KEY = 'liveTools.agentChangesRecorded';

type ChangeNode =
  | { readonly kind: 'conversation'; readonly conversation: string }
  | { readonly kind: 'file'; readonly conversation: string; readonly path: string }
  | { readonly kind: 'hunk'; readonly conversation: string; readonly path: string; readonly index: number };

function isChangeNode(value: unknown): value is ChangeNode {
  const node = value as Partial<ChangeNode> | undefined;
  return (
    typeof node === 'object' &&
    node !== null &&
    typeof node.conversation === 'string' &&
    (node.kind === 'conversation' || node.kind === 'file' || node.kind === 'hunk')
  );
}

/** How the view names a conversation when no caller label was given. */
function conversationLabel(conversation: string): string {
  if (conversation === 'window') return 'This window (no chat session)';
  if (conversation.startsWith('mcp:')) return `MCP session ${conversation.slice(4)}`;
  if (conversation.includes('#worker-')) return `worker ${conversation.split('#worker-')[1]}`;
  return 'Chat session';
}

function beforeUri(conversation: string, file: string): vscode.Uri {
  return vscode.Uri.from({
    scheme: BEFORE_SCHEME,
    path: vscode.Uri.file(file).path,
    query: new URLSearchParams({ conversation }).toString(),
  });
}

/** The change count of a file: its hunks, or 1 for a created or deleted file. */
function changeCount(file: FileRecord): number {
  return file.base === undefined || file.agent === undefined ? 1 : agentHunks(file).length;
}

/** `line 12: + const a = 1` — what a hunk of the agent's made, first line. */
function hunkPreview(file: FileRecord, index: number): string {
  const hunk = agentHunks(file)[index];
  if (!hunk) return '';
  const added = splitLines(file.agent ?? '').slice(hunk.agentStart, hunk.agentEnd);
  const removed = splitLines(file.base ?? '').slice(hunk.baseStart, hunk.baseEnd);
  const first = (texts: string[]) => (texts.find((text) => text.trim() !== '') ?? '').trim().slice(0, 60);
  if (added.length > 0) return `${removed.length > 0 ? '~' : '+'} ${first(added)}`;
  return `− ${first(removed)}`;
}

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
    if (!node)
      return [...this.log.all()]
        .reverse()
        .map((record) => ({ kind: 'conversation', conversation: record.conversation }));
    const record = this.log.get(node.conversation);
    if (!record || node.kind === 'hunk') return [];
    if (node.kind === 'conversation')
      return record.files.map((file) => ({ kind: 'file', conversation: node.conversation, path: file.path }));
    const file = record.files.find((candidate) => candidate.path === node.path);
    if (!file || file.base === undefined || file.agent === undefined) return [];
    return agentHunks(file).map((hunk) => ({ ...node, kind: 'hunk', index: hunk.index }));
  }

  getTreeItem(node: ChangeNode): vscode.TreeItem {
    const record = this.log.get(node.conversation);
    const display = (file: string) => displayPath(workspaceFolderPaths(), file);
    if (node.kind === 'conversation') {
      const item = new vscode.TreeItem(record?.label ?? node.conversation, vscode.TreeItemCollapsibleState.Expanded);
      item.id = `conversation:${node.conversation}`;
      const changes = record?.files.reduce((sum, file) => sum + changeCount(file), 0) ?? 0;
      item.description = `${plural(record?.files.length ?? 0, 'file')} · ${plural(changes, 'change')}`;
      item.tooltip = `${record?.label ?? node.conversation}: ${item.description}, in ${plural(record?.calls.length ?? 0, 'tool call')}`;
      item.contextValue = 'agentConversation';
      item.iconPath = new vscode.ThemeIcon('comment-discussion');
      item.command = { command: OPEN_CHANGES_COMMAND, title: 'Open Changes', arguments: [node] };
      return item;
    }
    const file = record?.files.find((candidate) => candidate.path === node.path);
    if (node.kind === 'file') {
      const hunks = file ? changeCount(file) : 0;
      const item = new vscode.TreeItem(
        vscode.Uri.file(node.path),
        !file || file.base === undefined || file.agent === undefined
          ? vscode.TreeItemCollapsibleState.None
          : hunks <= EXPANDED_HUNKS_CAP
            ? vscode.TreeItemCollapsibleState.Expanded
            : vscode.TreeItemCollapsibleState.Collapsed,
      );
      item.id = `file:${node.conversation}:${node.path}`;
      item.label = path.basename(node.path);
      // (A collapsible item with a resource would get a folder icon.)
      item.iconPath = vscode.ThemeIcon.File;
      const folder = path.posix.dirname(display(node.path));
      const what =
        file?.base === undefined ? 'created' : file.agent === undefined ? 'deleted' : plural(hunks, 'change');
      item.description = `${folder === '.' ? '' : `${folder} · `}${what}`;
      item.tooltip = `${display(node.path)} — changed by ${record?.label ?? 'the agent'}`;
      item.contextValue = 'agentFile';
      item.command = { command: OPEN_CHANGES_COMMAND, title: 'Open Diff', arguments: [node] };
      return item;
    }
    const hunk = file ? agentHunks(file)[node.index] : undefined;
    const item = new vscode.TreeItem(`line ${(hunk?.agentStart ?? 0) + 1}`, vscode.TreeItemCollapsibleState.None);
    item.id = `hunk:${node.conversation}:${node.path}:${node.index}`;
    item.description = file ? hunkPreview(file, node.index) : '';
    item.tooltip = `${display(node.path)}:${(hunk?.agentStart ?? 0) + 1} (${item.description})`;
    item.contextValue = 'agentHunk';
    item.command = { command: OPEN_CHANGES_COMMAND, title: 'Open Diff', arguments: [node] };
    return item;
  }
}

/** Records every agent write into the Agent Changes of this workspace and gives the human its view. */
export function registerAgentChanges(context: vscode.ExtensionContext, runtime: Runtime): ChangeLog {
  const log = new ChangeLog(undefined, context.workspaceState.get<SavedChangeLog>(STATE_KEY));
  const tree = new AgentChangesTree(log);
  const view = vscode.window.createTreeView(AGENT_CHANGES_VIEW, { treeDataProvider: tree });
  const beforeChanged = new vscode.EventEmitter<vscode.Uri>();
  const display = (file: string) => displayPath(workspaceFolderPaths(), file);

  let saving: NodeJS.Timeout | undefined;
  const update = (): void => {
    tree.refresh();
    void vscode.commands.executeCommand('setContext', HAS_CHANGES_KEY, log.all().length > 0);
    view.message =
      log.dropped > 0
        ? `${plural(log.dropped, 'older record')} dropped to keep the record within its size bound.`
        : undefined;
    for (const record of log.all())
      for (const file of record.files) beforeChanged.fire(beforeUri(record.conversation, file.path));
    if (saving) clearTimeout(saving);
    saving = setTimeout(() => {
      saving = undefined;
      void Promise.resolve(context.workspaceState.update(STATE_KEY, log.save())).catch((error: unknown) =>
        runtime.log.warn('changes.save', describeError(error)),
      );
    }, 300);
  };

  const recordOf = (conversation: string): ConversationRecord | undefined => log.get(conversation);

  /** Writes a planned revert: every file must still hold the text it was planned on; one undoable edit, saved. */
  const writeRevert = async (planned: readonly PlannedRevert[]): Promise<void> => {
    const changing = planned.filter((plan) => plan.text !== plan.current);
    const folders = workspaceFolderPaths();
    for (const plan of changing) {
      if (!isRealPathInside(folders, plan.path))
        throw new Error(`${display(plan.path)} is no longer inside the workspace; nothing was reverted.`);
      if ((await currentText(plan.path)) !== plan.current)
        throw new Error(
          `${display(plan.path)} changed while the revert was prepared; nothing was reverted. Try again.`,
        );
    }
    if (changing.length === 0) return;
    const edit = new vscode.WorkspaceEdit();
    const dirtyBefore = new Set(changing.filter((plan) => documentAt(plan.path)?.isDirty).map((plan) => plan.path));
    for (const plan of changing) {
      const uri = vscode.Uri.file(plan.path);
      if (plan.text === undefined) edit.deleteFile(uri, { ignoreIfNotExists: true });
      else if (plan.current === undefined) {
        edit.createFile(uri, { ignoreIfExists: false });
        edit.insert(uri, new vscode.Position(0, 0), plan.text);
      } else {
        const document = await vscode.workspace.openTextDocument(uri);
        const change = minimalEdit(plan.current, plan.text);
        edit.replace(
          uri,
          new vscode.Range(document.positionAt(change.start), document.positionAt(change.end)),
          change.text,
        );
      }
    }
    if (!(await vscode.workspace.applyEdit(edit)))
      throw new Error('the editor refused the edit (a file may have changed meanwhile); nothing was reverted.');
    for (const plan of changing) {
      if (plan.text === undefined || dirtyBefore.has(plan.path)) continue;
      const document = await vscode.workspace.openTextDocument(vscode.Uri.file(plan.path));
      if (document.isDirty) await document.save();
    }
  };

  /** Reverts a scope of a conversation's changes; says what was reverted and what was refused. */
  const revert = async (conversation: string, scope: RevertScope): Promise<string> => {
    const record = recordOf(conversation);
    if (!record) return 'Nothing to revert: these changes are no longer recorded.';
    const texts = new Map<string, string | undefined>();
    for (const file of record.files) texts.set(file.path, await currentText(file.path));
    const planned = log.planRevert(conversation, scope, (file) => texts.get(file));
    try {
      await writeRevert(planned);
    } catch (error) {
      const message = `Could not revert: ${describeError(error)}`;
      void vscode.window.showErrorMessage(message);
      return message;
    }
    log.commit(conversation, planned, scope);
    const reverted = planned.reduce((sum, plan) => sum + plan.reverted, 0);
    const files = planned.filter((plan) => plan.reverted > 0).length;
    const refused = planned.flatMap((plan) =>
      plan.refused.map(
        (region) => `${display(plan.path)}:${region.line}${region.endLine > region.line ? `–${region.endLine}` : ''}`,
      ),
    );
    const done = `Reverted ${plural(reverted, 'change')} in ${plural(files, 'file')}.`;
    if (refused.length === 0) {
      void vscode.window.showInformationMessage(done);
      return done;
    }
    const message = `${done} Not reverted, because they were changed after the agent: ${refused.join(', ')}.`;
    void vscode.window.showWarningMessage(message);
    return message;
  };

  const scopeOf = (node: ChangeNode): RevertScope =>
    node.kind === 'hunk'
      ? { kind: 'hunk', path: node.path, index: node.index }
      : node.kind === 'file'
        ? { kind: 'file', path: node.path }
        : { kind: 'all' };

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
    const file = record.files.find((candidate) => candidate.path === node.path);
    const options: vscode.TextDocumentShowOptions = { preview: true };
    if (node.kind === 'hunk' && file) {
      const line = agentHunks(file)[node.index]?.agentStart ?? 0;
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
      // Only files inside the workspace are recorded: the record never holds another file's text.
      const folders = workspaceFolderPaths();
      const inside = writes.filter((write) => isRealPathInside(folders, write.path));
      if (inside.length === 0) return;
      // The window's conversation is shared by every caller without a chat session: named for itself.
      const label =
        source.conversation === 'window'
          ? conversationLabel('window')
          : source.label || recordOf(source.conversation)?.label || conversationLabel(source.conversation);
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
          void context.workspaceState.update(STATE_KEY, log.save());
        }
      },
    },
  );
  update();
  return log;
}
