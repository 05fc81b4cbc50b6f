import * as path from 'node:path';
import * as vscode from 'vscode';
import { describeError, Logger } from '../../log/logger';
import { driftList, keptSize, plural, sizeOf } from '../answers';
import { keptEdits, Hunk } from '../hunks';
import { droppedHunks, hunkPreview, shownText, StagedEdit, StagedFile } from '../stagedEdit';
import {
  AlreadyResolved,
  NothingKept,
  ResolutionInProgress,
  StaleStagedEdit,
  UnknownStagedEdit,
} from '../stagingErrors';
import { StagingService } from './stagingService';
import { editIdOf, editIdOfTab, isMultiDiffInput, MULTI_DIFF_SCHEME, proposedUri, STAGED_SCHEME } from './stagedUris';

export const ACCEPT_COMMAND = 'liveTools.acceptStagedEdit';
export const DISCARD_COMMAND = 'liveTools.discardStagedEdit';
export const OPEN_EDIT_COMMAND = 'liveTools.openStagedEdit';
export const OPEN_FILE_COMMAND = 'liveTools.openStagedFile';
export const STAGED_EDITS_VIEW = 'liveTools.stagedEdits';
/** Drops a hunk of a staged file or takes it back: (edit id, absolute path, hunk index, drop). */
export const SET_HUNK_DROPPED_COMMAND = 'liveTools.setStagedHunkDropped';
/** True while at least one staged change is pending: shows the Staged Edits view and the palette commands. */
const PENDING_KEY = 'liveTools.stagedEditsPending';
/** True while the active editor is a multi-file diff of a staged change (resourceScheme cannot tell; see stagedUris.ts). */
const REVIEW_ACTIVE_KEY = 'liveTools.stagedReviewActive';

/** Above this many hunks in a change, its files start collapsed in the view. */
const EXPANDED_HUNKS_CAP = 30;

/** Tree nodes: a staged change, the file it moves, its files, and their hunks (which the human keeps or drops). */
type ReviewNode =
  | { readonly kind: 'edit'; readonly id: string }
  | { readonly kind: 'move'; readonly id: string }
  | { readonly kind: 'file'; readonly id: string; readonly path: string }
  | { readonly kind: 'hunk'; readonly id: string; readonly path: string; readonly hunk: number };

function isReviewNode(value: unknown): value is ReviewNode {
  const node = value as Partial<ReviewNode> | undefined;
  return (
    typeof node === 'object' &&
    node !== null &&
    (node.kind === 'edit' || node.kind === 'move' || node.kind === 'file' || node.kind === 'hunk') &&
    typeof node.id === 'string'
  );
}

/** The tab label of a one-file review (the multi-file editor adds "(N files)" to its own). */
function diffTitle(edit: StagedEdit, file: string): string {
  return `${path.basename(file)} ↔ proposed (${edit.id})`;
}

class StagedEditsTree implements vscode.TreeDataProvider<ReviewNode> {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;

  constructor(private readonly staging: StagingService) {}

  refresh(): void {
    this.changed.fire();
  }

  dispose(): void {
    this.changed.dispose();
  }

  getChildren(node?: ReviewNode): ReviewNode[] {
    if (!node) return this.staging.store.pending().map((edit) => ({ kind: 'edit', id: edit.id }));
    const edit = this.staging.store.get(node.id);
    if (node.kind === 'edit')
      return [
        ...(edit?.move ? [{ kind: 'move' as const, id: node.id }] : []),
        ...(edit?.files ?? []).map((file) => ({ kind: 'file' as const, id: node.id, path: file.path })),
      ];
    if (node.kind === 'hunk' || node.kind === 'move') return [];
    const file = edit?.files.find((candidate) => candidate.path === node.path);
    return (file?.hunks ?? []).map((hunk) => ({ kind: 'hunk', id: node.id, path: node.path, hunk: hunk.index }));
  }

  getTreeItem(node: ReviewNode): vscode.TreeItem {
    const edit = this.staging.store.get(node.id);
    if (node.kind === 'edit') {
      const item = new vscode.TreeItem(node.id, vscode.TreeItemCollapsibleState.Expanded);
      item.id = node.id;
      item.description = edit?.summary;
      item.contextValue = 'stagedEdit';
      item.iconPath = new vscode.ThemeIcon('diff');
      if (edit) {
        item.tooltip = new vscode.MarkdownString(
          `**${edit.id}** — ${edit.summary}\n\n${sizeOf(edit)}, staged by \`${edit.origin}\` at ${new Date(edit.stagedAt).toLocaleTimeString()}` +
            `${edit.conversation === 'window' ? '' : ' in a chat session'}.`,
        );
      }
      return item;
    }
    if (node.kind === 'move') {
      const from = edit?.move ? this.staging.display(edit.move.from) : '?';
      const to = edit?.move ? this.staging.display(edit.move.to) : '?';
      const item = new vscode.TreeItem(`moves ${path.basename(from)} → ${path.basename(to)}`);
      item.id = `${node.id}:move`;
      item.description = `${from} → ${to}`;
      item.tooltip = `Accept moves ${from} to ${to} (after the edits below); the move is part of the change and is not dropped alone.`;
      item.iconPath = new vscode.ThemeIcon('go-to-file');
      item.contextValue = 'stagedMove';
      return item;
    }
    const file = edit?.files.find((candidate) => candidate.path === node.path);
    const dropped = new Set(edit?.dropped[node.path] ?? []);
    const display = this.staging.display(node.path);
    const checkbox = (kept: boolean) =>
      kept ? vscode.TreeItemCheckboxState.Checked : vscode.TreeItemCheckboxState.Unchecked;
    if (node.kind === 'hunk') {
      const hunk = file?.hunks[node.hunk];
      const item = new vscode.TreeItem(`line ${hunk?.line ?? '?'}`, vscode.TreeItemCollapsibleState.None);
      item.id = `${node.id}:${node.path}:${node.hunk}`;
      const preview = file && hunk ? hunkPreview(file, hunk) : '';
      item.description = preview;
      const kept = !dropped.has(node.hunk);
      item.checkboxState = {
        state: checkbox(kept),
        tooltip: kept
          ? 'Kept: Accept writes it. Uncheck to drop it.'
          : 'Dropped: Accept leaves it out. Check to keep it.',
      };
      item.tooltip = `${display}:${hunk?.line ?? '?'} (${preview})`;
      item.contextValue = 'stagedHunk';
      item.command = { command: OPEN_FILE_COMMAND, title: 'Open Diff', arguments: [node] };
      return item;
    }
    const total = file?.hunks.length ?? 0;
    const hunkTotal = edit?.files.reduce((sum, candidate) => sum + candidate.hunks.length, 0) ?? 0;
    const item = new vscode.TreeItem(
      vscode.Uri.file(node.path),
      hunkTotal <= EXPANDED_HUNKS_CAP
        ? vscode.TreeItemCollapsibleState.Expanded
        : vscode.TreeItemCollapsibleState.Collapsed,
    );
    item.id = `${node.id}:${node.path}`;
    item.label = path.basename(node.path);
    // (A collapsible item with a resource would get a folder icon.)
    item.iconPath = vscode.ThemeIcon.File;
    const folder = path.posix.dirname(display);
    const replacements = file?.edits.length ?? 0;
    const kept = file && edit ? keptEdits(file.edits, file.hunks, edit.dropped[node.path]).length : 0;
    const count =
      dropped.size === 0
        ? plural(replacements, 'replacement')
        : `${kept} of ${plural(replacements, 'replacement')} kept`;
    item.description = `${folder === '.' ? '' : `${folder} · `}${count}`;
    item.checkboxState = {
      state: checkbox(dropped.size < total),
      tooltip:
        dropped.size < total
          ? 'Uncheck to drop every change of this file.'
          : 'Check to keep every change of this file.',
    };
    item.tooltip = `${display} — open the diff of ${node.id}`;
    item.contextValue = 'stagedFile';
    item.command = { command: OPEN_FILE_COMMAND, title: 'Open Diff', arguments: [node] };
    return item;
  }
}

/**
 * The human's side of staging: a content provider serving each staged file's proposed text,
 * the diff editors (one file: `vscode.diff`; several: the multi-file diff editor through
 * `vscode.changes`) with Accept and Discard in their title, and the Staged Edits view.
 */
export function registerStagingReview(context: vscode.ExtensionContext, staging: StagingService, log: Logger): void {
  const store = staging.store;
  const tree = new StagedEditsTree(staging);
  // Checkboxes are the human's keep/drop: a file's box is not its hunks' (the store decides both).
  const view = vscode.window.createTreeView(STAGED_EDITS_VIEW, {
    treeDataProvider: tree,
    manageCheckboxStateManually: true,
  });
  const proposedChanged = new vscode.EventEmitter<vscode.Uri>();
  const lensesChanged = new vscode.EventEmitter<void>();

  const openFileDiff = async (
    edit: StagedEdit,
    file: string,
    options: vscode.TextDocumentShowOptions = {},
  ): Promise<void> => {
    // (`selection` is on the proposed side.)
    await vscode.commands.executeCommand(
      'vscode.diff',
      vscode.Uri.file(file),
      proposedUri(edit.id, file),
      diffTitle(edit, file),
      options,
    );
  };

  const openReview = async (edit: StagedEdit): Promise<void> => {
    // A move alone has no diff: its row in the Staged Edits view is the review.
    if (edit.files.length === 0) {
      await vscode.commands.executeCommand(`${STAGED_EDITS_VIEW}.focus`);
      return;
    }
    if (edit.files.length === 1) {
      await openFileDiff(edit, edit.files[0].path, { preview: false, preserveFocus: true });
      return;
    }
    await vscode.commands.executeCommand(
      'vscode.changes',
      `${edit.id}: ${edit.summary}`,
      edit.files.map((file) => [
        vscode.Uri.file(file.path),
        vscode.Uri.file(file.path),
        proposedUri(edit.id, file.path),
      ]),
    );
  };
  staging.setPresenter({ open: openReview });

  const closeReview = async (id: string): Promise<void> => {
    const tabs = vscode.window.tabGroups.all.flatMap((group) => group.tabs).filter((tab) => editIdOfTab(tab) === id);
    if (tabs.length > 0) await vscode.window.tabGroups.close(tabs, true);
  };

  const updateReviewActive = (): void => {
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
    const id = isMultiDiffInput(tab?.input) ? editIdOfTab(tab) : undefined;
    void vscode.commands.executeCommand(
      'setContext',
      REVIEW_ACTIVE_KEY,
      id !== undefined && store.get(id)?.state === 'pending',
    );
  };

  const updatePending = (): void => {
    const pending = store.pending().length;
    void vscode.commands.executeCommand('setContext', PENDING_KEY, pending > 0);
    view.badge = pending > 0 ? { value: pending, tooltip: `${plural(pending, 'staged edit')} to review` } : undefined;
  };

  /** Which change a command is about: the button's editor, a tree node, an id, or else the active tab / the only pending one / a pick. */
  const targetOf = async (argument: unknown): Promise<string | undefined> => {
    if (typeof argument === 'string') return argument;
    if (isReviewNode(argument)) return argument.id;
    if (argument instanceof vscode.Uri) {
      const id = editIdOf(argument);
      if (id) return id;
      if (argument.scheme === MULTI_DIFF_SCHEME) return editIdOfTab(vscode.window.tabGroups.activeTabGroup.activeTab);
    }
    const active = editIdOfTab(vscode.window.tabGroups.activeTabGroup.activeTab);
    if (active) return active;
    const pending = store.pending();
    if (pending.length <= 1) return pending[0]?.id;
    const picked = await vscode.window.showQuickPick(
      pending.map((edit) => ({ label: edit.id, description: edit.summary, detail: sizeOf(edit) })),
      { title: 'Which staged edit?' },
    );
    return picked?.label;
  };

  /** Runs a resolution chosen in the UI; tells the human the outcome and returns it (for tests and other callers). */
  const resolveFromUi = async (action: 'accept' | 'discard', argument: unknown): Promise<string | undefined> => {
    const id = await targetOf(argument);
    if (!id) {
      void vscode.window.showInformationMessage('No staged edit is pending.');
      return undefined;
    }
    try {
      if (action === 'accept') {
        const { edit, unsaved } = await staging.accept(id, 'user');
        const notSaved = unsaved.length
          ? ` Not saved: ${unsaved.map((file) => staging.display(file)).join(', ')}.`
          : '';
        const dropped = droppedHunks(edit).length;
        const message = `Accepted ${edit.id}: wrote ${keptSize(edit)}${dropped ? `; left out the ${plural(dropped, 'change')} you dropped` : ''}.${notSaved}`;
        void vscode.window.showInformationMessage(message);
        return message;
      }
      const edit = staging.discard(id, 'user');
      const message = `Discarded ${edit.id}; nothing was written.`;
      void vscode.window.showInformationMessage(message);
      return message;
    } catch (error) {
      const message = uiErrorText(error, (file) => staging.display(file));
      if (error instanceof StaleStagedEdit) void vscode.window.showWarningMessage(message);
      else void vscode.window.showErrorMessage(message);
      log.info('staging.ui', `${action} ${id}: ${describeError(error)}`);
      return message;
    }
  };

  context.subscriptions.push(
    tree,
    view,
    proposedChanged,
    lensesChanged,
    // The proposed side shows the kept hunks: it changes when the human drops or takes one back.
    vscode.workspace.registerTextDocumentContentProvider(STAGED_SCHEME, {
      onDidChange: proposedChanged.event,
      provideTextDocumentContent: (uri) => {
        const id = editIdOf(uri);
        const edit = id ? store.get(id) : undefined;
        const file = edit?.files.find((candidate) => vscode.Uri.file(candidate.path).path === uri.path);
        return edit && file ? shownText(edit, file) : '';
      },
    }),
    view.onDidChangeCheckboxState((event) => {
      for (const [node, state] of event.items) {
        if (node.kind === 'edit' || node.kind === 'move') continue;
        const drop = state === vscode.TreeItemCheckboxState.Unchecked;
        try {
          store.setDropped(node.id, node.path, node.kind === 'hunk' ? node.hunk : undefined, drop);
        } catch (error) {
          void vscode.window.showWarningMessage(uiErrorText(error, (file) => staging.display(file)));
          tree.refresh();
        }
      }
    }),
    store.onDidChange((edit) => {
      if (edit.state === 'pending')
        for (const file of edit.files) proposedChanged.fire(proposedUri(edit.id, file.path));
      lensesChanged.fire();
      tree.refresh();
      updatePending();
      updateReviewActive();
      if (edit.state !== 'pending')
        void closeReview(edit.id).catch((error: unknown) =>
          log.warn('staging.review', `closing ${edit.id}: ${describeError(error)}`),
        );
    }),
    vscode.window.tabGroups.onDidChangeTabs(updateReviewActive),
    vscode.window.tabGroups.onDidChangeTabGroups(updateReviewActive),
    vscode.commands.registerCommand(ACCEPT_COMMAND, (argument: unknown) => resolveFromUi('accept', argument)),
    vscode.commands.registerCommand(DISCARD_COMMAND, (argument: unknown) => resolveFromUi('discard', argument)),
    vscode.commands.registerCommand(OPEN_EDIT_COMMAND, async (argument: unknown) => {
      const id = await targetOf(argument);
      const edit = id ? store.get(id) : undefined;
      if (edit) await openReview(edit);
    }),
    // Code lenses on the proposed side: shown where the editor shows lenses in diffs (`diffEditor.codeLens`, off by default).
    vscode.languages.registerCodeLensProvider(
      { scheme: STAGED_SCHEME },
      {
        onDidChangeCodeLenses: lensesChanged.event,
        provideCodeLenses: (document) => {
          const id = editIdOf(document.uri);
          const edit = id ? store.get(id) : undefined;
          const file = edit?.files.find((candidate) => vscode.Uri.file(candidate.path).path === document.uri.path);
          if (!edit || !file || edit.state !== 'pending') return [];
          const dropped = new Set(edit.dropped[file.path] ?? []);
          return file.hunks.map((hunk) => {
            const line = proposedLineOf(edit, file, hunk);
            const drop = !dropped.has(hunk.index);
            return new vscode.CodeLens(new vscode.Range(line, 0, line, 0), {
              title: drop ? 'Drop this change' : 'Take this change back',
              command: SET_HUNK_DROPPED_COMMAND,
              arguments: [edit.id, file.path, hunk.index, drop],
            });
          });
        },
      },
    ),
    vscode.commands.registerCommand(
      SET_HUNK_DROPPED_COMMAND,
      (id: unknown, file: unknown, hunk: unknown, drop: unknown) => {
        if (typeof id !== 'string' || typeof file !== 'string' || typeof hunk !== 'number') return;
        try {
          store.setDropped(id, file, hunk, drop !== false);
        } catch (error) {
          void vscode.window.showWarningMessage(uiErrorText(error, (path) => staging.display(path)));
        }
      },
    ),
    vscode.commands.registerCommand(OPEN_FILE_COMMAND, async (node: unknown) => {
      if (!isReviewNode(node) || node.kind === 'edit' || node.kind === 'move') return;
      const edit = store.get(node.id);
      if (!edit) return;
      const options: vscode.TextDocumentShowOptions = { preview: true };
      if (node.kind === 'hunk') {
        const file = edit.files.find((candidate) => candidate.path === node.path);
        const hunk = file?.hunks[node.hunk];
        // The hunk's place on the proposed side: its first edit, shifted by the kept edits before it.
        if (file && hunk) {
          const line = proposedLineOf(edit, file, hunk);
          options.selection = new vscode.Range(line, 0, line, 0);
        }
      }
      await openFileDiff(edit, node.path, options);
    }),
  );
  updatePending();
  updateReviewActive();
}

/** The same outcomes the model reads, worded for the person who clicked. */
function uiErrorText(error: unknown, display: (file: string) => string): string {
  if (error instanceof StaleStagedEdit) {
    return `${error.id} was not accepted because files changed since it was staged: ${driftList(error.drifted, display)}. Nothing was written; discard it and ask the agent to redo the change.`;
  }
  if (error instanceof AlreadyResolved) return error.message;
  if (error instanceof UnknownStagedEdit) return `There is no staged edit ${error.id}.`;
  if (error instanceof ResolutionInProgress) return `${error.id} is being accepted or discarded already.`;
  if (error instanceof NothingKept)
    return `${error.id} was not accepted: you dropped every change of it. Check a change in the Staged Edits view to keep it, or discard ${error.id}.`;
  return `Could not resolve the staged edit: ${error instanceof Error ? error.message : String(error)}`;
}

/** 0-based line of the proposed side where `hunk` starts: its captured line, moved by the line breaks the kept hunks before it add or remove. */
function proposedLineOf(edit: StagedEdit, file: StagedFile, hunk: Hunk): number {
  const dropped = new Set(edit.dropped[file.path] ?? []);
  let shift = 0;
  for (const before of file.hunks.slice(0, hunk.index)) {
    if (dropped.has(before.index)) continue;
    for (const change of file.edits.slice(before.first, before.first + before.count))
      shift += lineBreaks(change.text) - lineBreaks(file.original.slice(change.start, change.end));
  }
  return Math.max(0, hunk.line - 1 + shift);
}

function lineBreaks(text: string): number {
  let count = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) count++;
  return count;
}
