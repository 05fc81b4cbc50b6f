import * as vscode from 'vscode';
import { describeError, Logger } from '../../log/logger';
import { treeItemOf } from '../../platform/vscode/treeRows';
import { plural } from '../../platform/wording';
import { sizeOf } from '../answers';
import {
  acceptedMessage,
  commandTarget,
  diffTitle,
  hunkLenses,
  isReviewNode,
  proposedLineOf,
  ReviewNode,
  reviewChildren,
  reviewRow,
  uiErrorText,
} from '../reviewModel';
import { shownText, StagedEdit } from '../stagedEdit';
import { StagingService } from './stagingService';
import {
  capturedUri,
  editIdOf,
  editIdOfTab,
  isCapturedSide,
  isMultiDiffInput,
  proposedUri,
  STAGED_SCHEME,
} from './stagedUris';

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

/** The Staged Edits view: rows from the review model (`../reviewModel`), as tree items. */
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
    const { store } = this.staging;
    return reviewChildren(
      node,
      () => store.pending(),
      (id) => store.get(id),
    );
  }

  getTreeItem(node: ReviewNode): vscode.TreeItem {
    const row = reviewRow(node, this.staging.store.get(node.id), (file) => this.staging.display(file));
    const item = treeItemOf(row);
    if (row.checkbox)
      item.checkboxState = {
        state: row.checkbox.kept ? vscode.TreeItemCheckboxState.Checked : vscode.TreeItemCheckboxState.Unchecked,
        tooltip: row.checkbox.tooltip,
      };
    if (row.opensDiff) item.command = { command: OPEN_FILE_COMMAND, title: 'Open Diff', arguments: [node] };
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
  const display = (file: string): string => staging.display(file);
  const tree = new StagedEditsTree(staging);
  // Checkboxes are the human's keep/drop: a file's box is not its hunks' (the store decides both).
  const view = vscode.window.createTreeView(STAGED_EDITS_VIEW, {
    treeDataProvider: tree,
    manageCheckboxStateManually: true,
  });
  const proposedChanged = new vscode.EventEmitter<vscode.Uri>();
  const lensesChanged = new vscode.EventEmitter<void>();

  /**
   * The left side of a file's diff: the file itself, or for a worker's change (its files may have changed
   * since, in the live workspace) and a created file, the text captured when it was staged.
   */
  const leftOf = (edit: StagedEdit, file: string): vscode.Uri =>
    edit.merge === 'three-way' ||
    edit.files.some((candidate) => candidate.path === file && candidate.lifecycle === 'create')
      ? capturedUri(edit.id, file)
      : vscode.Uri.file(file);

  const openFileDiff = async (
    edit: StagedEdit,
    file: string,
    options: vscode.TextDocumentShowOptions = {},
  ): Promise<void> => {
    // (`selection` is on the proposed side.)
    await vscode.commands.executeCommand(
      'vscode.diff',
      leftOf(edit, file),
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
      edit.files.map((file) => [vscode.Uri.file(file.path), leftOf(edit, file.path), proposedUri(edit.id, file.path)]),
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
    // An editor title's button passes the editor's URI: a proposed side names its change; any other (the
    // multi-file diff's own `multi-diff-editor:` URI) is the active tab's.
    const activeTab = editIdOfTab(vscode.window.tabGroups.activeTabGroup.activeTab);
    const active = argument instanceof vscode.Uri ? (editIdOf(argument) ?? activeTab) : activeTab;
    const target = commandTarget(argument instanceof vscode.Uri ? undefined : argument, active, store.pending());
    if (target !== 'pick') return target;
    const picked = await vscode.window.showQuickPick(
      store.pending().map((edit) => ({ label: edit.id, description: edit.summary, detail: sizeOf(edit) })),
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
        const message = acceptedMessage(edit, unsaved, display);
        void vscode.window.showInformationMessage(message);
        return message;
      }
      const edit = staging.discard(id, 'user');
      const message = `Discarded ${edit.id}; nothing was written.`;
      void vscode.window.showInformationMessage(message);
      return message;
    } catch (error) {
      const { text, warning } = uiErrorText(error, display);
      if (warning) void vscode.window.showWarningMessage(text);
      else void vscode.window.showErrorMessage(text);
      log.info('staging.ui', `${action} ${id}: ${describeError(error)}`);
      return text;
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
        if (!edit || !file) return '';
        return isCapturedSide(uri) ? file.original : shownText(edit, file);
      },
    }),
    view.onDidChangeCheckboxState((event) => {
      for (const [node, state] of event.items) {
        if (node.kind === 'edit' || node.kind === 'move') continue;
        const drop = state === vscode.TreeItemCheckboxState.Unchecked;
        try {
          store.setDropped(node.id, node.path, node.kind === 'hunk' ? node.hunk : undefined, drop);
        } catch (error) {
          void vscode.window.showWarningMessage(uiErrorText(error, display).text);
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
          if (!edit || !file || isCapturedSide(document.uri)) return [];
          return hunkLenses(edit, file).map(
            (lens) =>
              new vscode.CodeLens(new vscode.Range(lens.line, 0, lens.line, 0), {
                title: lens.title,
                command: SET_HUNK_DROPPED_COMMAND,
                arguments: [edit.id, file.path, lens.hunk, lens.drop],
              }),
          );
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
          void vscode.window.showWarningMessage(uiErrorText(error, display).text);
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
