/**
 * The Agent Changes view as data: its nodes (a conversation, a file, a hunk), how each row reads,
 * what a Keep or Revert on a row is about, how a conversation is named, what the size bound dropped,
 * and what a revert tells the human. The editor glue (`vscode/registerAgentChanges.ts`) turns these
 * into tree items and notifications and has the one writer write a revert.
 */
import * as path from 'node:path';
import { splitLines } from '../edits/textDiff';
import { plural } from '../platform/wording';
import { agentHunks, ConversationRecord, FileRecord } from './agentChanges';
import { DroppedRecords, PlannedRevert, RevertScope } from './changeLog';

export type ChangeNode =
  | { readonly kind: 'conversation'; readonly conversation: string }
  | { readonly kind: 'file'; readonly conversation: string; readonly path: string }
  | { readonly kind: 'hunk'; readonly conversation: string; readonly path: string; readonly index: number };

export function isChangeNode(value: unknown): value is ChangeNode {
  const node = value as Partial<ChangeNode> | undefined;
  return (
    typeof node === 'object' &&
    node !== null &&
    typeof node.conversation === 'string' &&
    (node.kind === 'conversation' || node.kind === 'file' || node.kind === 'hunk')
  );
}

/** A file with more hunks than this starts collapsed in the view. */
export const EXPANDED_HUNKS_CAP = 10;

/** What a Keep or Revert on a node is about. */
export function scopeOf(node: ChangeNode): RevertScope {
  return node.kind === 'hunk'
    ? { kind: 'hunk', path: node.path, index: node.index }
    : node.kind === 'file'
      ? { kind: 'file', path: node.path }
      : { kind: 'all' };
}

/** How the view names a conversation when no caller label was given. */
export function conversationLabel(conversation: string): string {
  if (conversation === 'window') return 'This window (no chat session)';
  if (conversation.startsWith('mcp:')) return `MCP session ${conversation.slice(4)}`;
  if (conversation.includes('#worker-')) return `worker ${conversation.split('#worker-')[1]}`;
  return 'Chat session';
}

/**
 * The label a conversation's record gets for a write: the window's conversation (shared by every
 * caller without a chat session) is named for itself; others by their caller, else as known.
 */
export function recordLabel(conversation: string, callerLabel: string, known: string | undefined): string {
  if (conversation === 'window') return conversationLabel('window');
  return callerLabel || known || conversationLabel(conversation);
}

/** What the view says the size bound dropped, or nothing. */
export function droppedMessage(dropped: DroppedRecords): string | undefined {
  const parts = [
    dropped.checkpoints > 0 ? plural(dropped.checkpoints, 'older checkpoint') : '',
    dropped.conversations > 0 ? plural(dropped.conversations, 'older conversation') : '',
    dropped.files > 0 ? plural(dropped.files, 'older file') : '',
  ].filter(Boolean);
  if (parts.length === 0) return undefined;
  const checkpointsOnly = dropped.conversations === 0 && dropped.files === 0;
  return `${parts.join(', ')} dropped to keep the record within its size bound${checkpointsOnly ? ' (every file can still be reverted whole)' : ''}.`;
}

/** The change count of a file: its hunks, or 1 for a created or deleted file. */
export function changeCount(file: FileRecord): number {
  return file.base === undefined || file.agent === undefined ? 1 : agentHunks(file).length;
}

/** `~ const a = 1` — what a hunk of the agent's made, first line. */
export function hunkPreview(file: FileRecord, index: number): string {
  const hunk = agentHunks(file)[index];
  if (!hunk) return '';
  const added = splitLines(file.agent ?? '').slice(hunk.agentStart, hunk.agentEnd);
  const removed = splitLines(file.base ?? '').slice(hunk.baseStart, hunk.baseEnd);
  const first = (texts: string[]) => (texts.find((text) => text.trim() !== '') ?? '').trim().slice(0, 60);
  if (added.length > 0) return `${removed.length > 0 ? '~' : '+'} ${first(added)}`;
  return `− ${first(removed)}`;
}

/** The children of a node (the roots: each conversation, the newest first). */
export function changeChildren(node: ChangeNode | undefined, records: readonly ConversationRecord[]): ChangeNode[] {
  if (!node)
    return [...records].reverse().map((record) => ({ kind: 'conversation', conversation: record.conversation }));
  const record = records.find((candidate) => candidate.conversation === node.conversation);
  if (!record || node.kind === 'hunk') return [];
  if (node.kind === 'conversation')
    return record.files.map((file) => ({ kind: 'file', conversation: node.conversation, path: file.path }));
  const file = record.files.find((candidate) => candidate.path === node.path);
  if (!file || file.base === undefined || file.agent === undefined) return [];
  return agentHunks(file).map((hunk) => ({ ...node, kind: 'hunk', index: hunk.index }));
}

/** One row of the view, as the glue shows it. */
export interface ChangeRow {
  readonly id: string;
  readonly label: string;
  readonly description: string;
  readonly tooltip: string;
  readonly contextValue: 'agentConversation' | 'agentFile' | 'agentHunk';
  readonly icon: 'comment-discussion' | 'file' | undefined;
  readonly collapsible: 'expanded' | 'collapsed' | 'none';
  /** A file row shows its file. */
  readonly resource?: string;
}

/** How a node's row reads, from its conversation's record (absent: reverted or dropped meanwhile). */
export function changeRow(
  node: ChangeNode,
  record: ConversationRecord | undefined,
  display: (file: string) => string,
): ChangeRow {
  if (node.kind === 'conversation') {
    const label = record?.label ?? node.conversation;
    const changes = record?.files.reduce((sum, file) => sum + changeCount(file), 0) ?? 0;
    const description = `${plural(record?.files.length ?? 0, 'file')} · ${plural(changes, 'change')}`;
    return {
      id: `conversation:${node.conversation}`,
      label,
      description,
      tooltip: `${label}: ${description}, in ${plural(record?.calls.length ?? 0, 'tool call')}`,
      contextValue: 'agentConversation',
      icon: 'comment-discussion',
      collapsible: 'expanded',
    };
  }
  const file = record?.files.find((candidate) => candidate.path === node.path);
  if (node.kind === 'file') {
    const hunks = file ? changeCount(file) : 0;
    const whole = !file || file.base === undefined || file.agent === undefined;
    const folder = path.posix.dirname(display(node.path));
    const what = file?.base === undefined ? 'created' : file.agent === undefined ? 'deleted' : plural(hunks, 'change');
    return {
      id: `file:${node.conversation}:${node.path}`,
      label: path.basename(node.path),
      description: `${folder === '.' ? '' : `${folder} · `}${what}`,
      tooltip: `${display(node.path)} — changed by ${record?.label ?? 'the agent'}`,
      contextValue: 'agentFile',
      icon: 'file',
      collapsible: whole ? 'none' : hunks <= EXPANDED_HUNKS_CAP ? 'expanded' : 'collapsed',
      resource: node.path,
    };
  }
  const hunk = file ? agentHunks(file)[node.index] : undefined;
  const line = (hunk?.agentStart ?? 0) + 1;
  const preview = file ? hunkPreview(file, node.index) : '';
  return {
    id: `hunk:${node.conversation}:${node.path}:${node.index}`,
    label: `line ${line}`,
    description: preview,
    tooltip: `${display(node.path)}:${line} (${preview})`,
    contextValue: 'agentHunk',
    icon: undefined,
    collapsible: 'none',
  };
}

/** The 0-based line a hunk's diff opens at (the agent's side). */
export function hunkLine(record: ConversationRecord | undefined, node: ChangeNode): number {
  if (node.kind !== 'hunk') return 0;
  const file = record?.files.find((candidate) => candidate.path === node.path);
  return (file && agentHunks(file)[node.index]?.agentStart) ?? 0;
}

/** What a revert tells the human: how much it reverted, and where it refused (lines someone changed after the agent). */
export function revertMessage(
  planned: readonly PlannedRevert[],
  display: (file: string) => string,
): { readonly text: string; readonly warning: boolean } {
  const reverted = planned.reduce((sum, plan) => sum + plan.reverted, 0);
  const files = planned.filter((plan) => plan.reverted > 0).length;
  const refused = planned.flatMap((plan) =>
    plan.refused.map(
      (region) => `${display(plan.path)}:${region.line}${region.endLine > region.line ? `–${region.endLine}` : ''}`,
    ),
  );
  const done = `Reverted ${plural(reverted, 'change')} in ${plural(files, 'file')}.`;
  if (refused.length === 0) return { text: done, warning: false };
  return {
    text: `${done} Not reverted, because they were changed after the agent: ${refused.join(', ')}.`,
    warning: true,
  };
}
