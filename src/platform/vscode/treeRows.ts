/**
 * A view's row as data (what an area's view model says), made a tree item: the views of Agent
 * Changes and of staged edits build their rows in plain TypeScript and show them through this.
 */
import * as vscode from 'vscode';

export interface TreeRow {
  readonly id: string;
  readonly label: string;
  readonly description?: string;
  readonly tooltip: string;
  /** The tooltip is Markdown. */
  readonly tooltipIsMarkdown?: boolean;
  readonly contextValue: string;
  /** A codicon, or `file` for the file's own icon. */
  readonly icon?: string;
  readonly collapsible: 'expanded' | 'collapsed' | 'none';
  /** The file the row shows (its decorations). */
  readonly resource?: string;
}

const COLLAPSIBLE = {
  expanded: vscode.TreeItemCollapsibleState.Expanded,
  collapsed: vscode.TreeItemCollapsibleState.Collapsed,
  none: vscode.TreeItemCollapsibleState.None,
} as const;

export function treeItemOf(row: TreeRow): vscode.TreeItem {
  const item = row.resource
    ? new vscode.TreeItem(vscode.Uri.file(row.resource), COLLAPSIBLE[row.collapsible])
    : new vscode.TreeItem(row.label, COLLAPSIBLE[row.collapsible]);
  item.id = row.id;
  item.label = row.label;
  item.description = row.description;
  item.tooltip = row.tooltipIsMarkdown ? new vscode.MarkdownString(row.tooltip) : row.tooltip;
  item.contextValue = row.contextValue;
  // (A collapsible item with a resource would get a folder icon.)
  if (row.icon) item.iconPath = row.icon === 'file' ? vscode.ThemeIcon.File : new vscode.ThemeIcon(row.icon);
  return item;
}
