/**
 * Agent Changes: every write an agent made, per conversation, with the text before it, so the
 * human can keep or revert it after the fact (by hunk, file, conversation, or back to before a
 * tool call). Pure: texts in, texts out; the editor glue reads and writes files.
 *
 * Per file the record holds `base` (the text before the conversation's first change of it, with
 * the hunks the human kept and the manual edits made between the agent's writes folded in) and
 * `agent` (the text the agent last left). The agent's hunks are the diff from base to agent. A
 * revert is a three-way merge with the current text: the ancestor is `agent`, ours is the file now
 * (manual edits since), theirs is the target. A region both sides changed is refused and named,
 * never written: a revert never touches a line someone changed after the agent did, and nothing
 * of a kept hunk is left in any target to restore.
 *
 * Recording a write costs in proportion to the change, not to the history: `base` takes in a manual
 * edit at once (one merge), but the steps' texts (each call's "before", for checkpoints) keep the
 * text as it was, with the later manual edits and kept hunks listed as carries, applied only when a
 * checkpoint is restored.
 */
import { diffLines, splitLines } from '../edits/textDiff';
import { ChangeCall, ObservedWrite } from '../platform/changeJournal';
import { mergeRegions, mergeWith } from '../edits/lineMerge';

export interface FileStep {
  readonly call: string;
  /** Numbers the file's steps in order (dropping old steps leaves the others' numbers). */
  readonly seq: number;
  /** The text before that call as it was then (undefined: absent); the carries after it apply on restore. */
  readonly before: string | undefined;
}

/** A change someone else made (a manual edit between the agent's writes, a kept hunk): it belongs to the earlier steps' texts too. */
export interface Carry {
  readonly from: string | undefined;
  readonly to: string | undefined;
  /** Applies to the steps numbered below this. */
  readonly beforeSeq: number;
}

export interface FileRecord {
  readonly path: string;
  /** undefined: the file did not exist before the conversation created it. */
  readonly base: string | undefined;
  /** undefined: the agent deleted it. */
  readonly agent: string | undefined;
  readonly steps: readonly FileStep[];
  /** In the order they happened. */
  readonly carries: readonly Carry[];
  /** The number the next step gets. */
  readonly nextSeq: number;
}

export interface ConversationRecord {
  readonly conversation: string;
  /** What the view calls it (`Chat session`, `MCP client "claude-code"`, `worker w3`). */
  readonly label: string;
  readonly calls: readonly ChangeCall[];
  readonly files: readonly FileRecord[];
}

/** One agent hunk of a file: lines [start, end) of base became [agentStart, agentEnd) of agent. */
export interface AgentHunk {
  readonly index: number;
  readonly baseStart: number;
  readonly baseEnd: number;
  readonly agentStart: number;
  readonly agentEnd: number;
}

/** Hunks by record (records are immutable): the view asks for them once per row. */
const hunksOfRecord = new WeakMap<object, AgentHunk[]>();

/** The agent's hunks of a file that exists on both sides; a created or deleted file is one change. */
export function agentHunks(record: Pick<FileRecord, 'base' | 'agent'>): AgentHunk[] {
  if (record.base === undefined || record.agent === undefined) return [];
  const known = hunksOfRecord.get(record);
  if (known) return known;
  const hunks = diffLines(splitLines(record.base), splitLines(record.agent)).map((chunk, index) => ({
    index,
    baseStart: chunk.oldStart,
    baseEnd: chunk.oldEnd,
    agentStart: chunk.newStart,
    agentEnd: chunk.newEnd,
  }));
  hunksOfRecord.set(record, hunks);
  return hunks;
}

/** Whether the record still holds anything the agent changed. */
export function hasChanges(record: Pick<FileRecord, 'base' | 'agent'>): boolean {
  return record.base !== record.agent;
}

/**
 * `text` with the change `from` → `to` (someone else's edits) carried over; where it meets what
 * `text` changed of `from`, `to` wins. Absent texts count as empty.
 */
function carry(text: string | undefined, from: string | undefined, to: string | undefined): string | undefined {
  if (from === undefined || to === undefined || text === undefined) return text === from ? to : text;
  const ancestor = splitLines(from);
  return mergeWith(ancestor, mergeRegions(ancestor, splitLines(text), splitLines(to)), (region) =>
    region.changedBy === 'ours' ? 'ours' : 'theirs',
  );
}

/** The record after the agent wrote `write` in `call`: manual edits since its last write are taken into `base` (one merge) and listed for the steps. */
export function recordWrite(record: FileRecord | undefined, call: string, write: ObservedWrite): FileRecord {
  if (!record) {
    return {
      path: write.path,
      base: write.before,
      agent: write.after,
      steps: [{ call, seq: 0, before: write.before }],
      carries: [],
      nextSeq: 1,
    };
  }
  let { base, carries, steps, nextSeq } = record;
  if (write.before !== record.agent) {
    // Edits made by someone else since the agent's last write: they belong to every earlier text too.
    base = carry(base, record.agent, write.before);
    carries = [...carries, { from: record.agent, to: write.before, beforeSeq: nextSeq }];
  }
  const last = steps[steps.length - 1];
  if (last?.call !== call) steps = [...steps, { call, seq: nextSeq++, before: write.before }];
  return { path: record.path, base, agent: write.after, steps, carries, nextSeq };
}

/** A step's text before its call, with every change made after it by someone else carried over. */
export function stepText(record: FileRecord, step: FileStep): string | undefined {
  let text = step.before;
  for (const change of record.carries) if (step.seq < change.beforeSeq) text = carry(text, change.from, change.to);
  return text;
}

/** The record with only `steps`, and the carries that still apply to one of them. */
export function withSteps(record: FileRecord, steps: readonly FileStep[]): FileRecord {
  const first = steps[0]?.seq ?? record.nextSeq;
  return { ...record, steps, carries: record.carries.filter((change) => first < change.beforeSeq) };
}

/** A region of a revert that was not written because someone changed it after the agent. */
export interface RefusedRegion {
  /** 1-based lines of the text after the revert. */
  readonly line: number;
  readonly endLine: number;
}

export interface RevertResult {
  /** The text to write now (undefined: delete the file); equal to `current` when nothing applies. */
  readonly text: string | undefined;
  /** The record afterwards (undefined: nothing of the agent's is left in this file). */
  readonly record: FileRecord | undefined;
  readonly reverted: number;
  readonly refused: readonly RefusedRegion[];
}

/**
 * Reverts towards `target` (a text on the agent's side: base, a step's `before`, or agent with
 * one hunk undone) what the file still holds of the agent's, keeping every manual edit in
 * `current`. `keepSteps`: which steps survive (a checkpoint drops those from its call on).
 */
function revertTowards(
  record: FileRecord,
  current: string | undefined,
  target: string | undefined,
  keepSteps: (step: FileStep, index: number) => boolean,
): RevertResult {
  const steps = record.steps.filter(keepSteps);
  // A created or deleted file: whole or not at all.
  if (record.agent === undefined || target === undefined || current === undefined) {
    const untouched = current === record.agent;
    if (!untouched || record.agent === target) {
      return {
        text: current,
        record,
        reverted: 0,
        refused: untouched ? [] : [{ line: 1, endLine: Math.max(1, splitLines(current ?? '').length) }],
      };
    }
    const after: FileRecord = withSteps({ ...record, agent: target }, steps);
    return { text: target, record: settled(after), reverted: 1, refused: [] };
  }
  const ancestor = splitLines(record.agent);
  const regions = mergeRegions(ancestor, splitLines(current), splitLines(target));
  const conflicts = regions.filter((region) => region.changedBy === 'both');
  // Refused regions are named where they are in the text written (what the human sees after).
  const refused: RefusedRegion[] = [];
  const text = mergeWith(
    ancestor,
    regions,
    (region) => (region.changedBy === 'theirs' ? 'theirs' : 'ours'),
    (region, line, count) => {
      if (region.changedBy === 'both') refused.push({ line: line + 1, endLine: line + Math.max(1, count) });
    },
  );
  const agent = mergeWith(ancestor, regions, (region) => (region.changedBy === 'theirs' ? 'theirs' : 'ancestor'));
  const reverted = regions.filter((region) => region.changedBy === 'theirs').length;
  return {
    text,
    record: settled(withSteps({ ...record, agent }, conflicts.length > 0 ? record.steps : steps)),
    reverted,
    refused,
  };
}

/** undefined once base and agent agree: nothing left to keep or revert. */
function settled(record: FileRecord): FileRecord | undefined {
  return hasChanges(record) ? record : undefined;
}

/** Reverts everything of the agent's in this file (its manual edits stay; regions both changed are refused). */
export function revertFile(record: FileRecord, current: string | undefined): RevertResult {
  return revertTowards(record, current, record.base, () => false);
}

/** `into` with its lines [start, end) replaced by lines [fromStart, fromEnd) of `from`: one hunk moved across. */
function splice(into: string, start: number, end: number, from: string, fromStart: number, fromEnd: number): string {
  const lines = splitLines(into);
  return [...lines.slice(0, start), ...splitLines(from).slice(fromStart, fromEnd), ...lines.slice(end)].join('');
}

/** Reverts one agent hunk (by its index in `agentHunks`). */
export function revertHunk(record: FileRecord, current: string | undefined, index: number): RevertResult {
  const hunk = agentHunks(record)[index];
  if (!hunk || record.base === undefined || record.agent === undefined)
    return { text: current, record, reverted: 0, refused: [] };
  const target = splice(record.agent, hunk.agentStart, hunk.agentEnd, record.base, hunk.baseStart, hunk.baseEnd);
  return revertTowards(record, current, target, () => true);
}

/**
 * Restores the file to how it was before `call` (the first of its steps from that call on),
 * under the same rule; steps from that call on are dropped.
 */
export function revertToCall(
  record: FileRecord,
  current: string | undefined,
  callOrder: readonly string[],
  call: string,
): RevertResult {
  const from = callOrder.indexOf(call);
  const order = (id: string) => callOrder.indexOf(id);
  const first = record.steps.find((step) => order(step.call) >= from);
  if (!first) return { text: current, record, reverted: 0, refused: [] };
  return revertTowards(record, current, stepText(record, first), (step) => order(step.call) < from);
}

/**
 * Keeps one agent hunk: it moves into `base` and into every step's text, so no revert or
 * checkpoint can take it back afterwards.
 */
export function keepHunk(record: FileRecord, index: number): FileRecord | undefined {
  const hunk = agentHunks(record)[index];
  if (!hunk || record.base === undefined || record.agent === undefined) return record;
  const kept = splice(record.base, hunk.baseStart, hunk.baseEnd, record.agent, hunk.agentStart, hunk.agentEnd);
  return settled({
    ...record,
    base: kept,
    carries: [...record.carries, { from: record.base, to: kept, beforeSeq: record.nextSeq }],
  });
}

/** The characters a file's record holds. */
export function fileSize(file: FileRecord): number {
  let size = (file.base?.length ?? 0) + (file.agent?.length ?? 0);
  for (const step of file.steps) size += step.before?.length ?? 0;
  for (const change of file.carries) size += (change.from?.length ?? 0) + (change.to?.length ?? 0);
  return size;
}

/** The characters a record holds (its bound is counted in these). */
export function recordSize(record: ConversationRecord): number {
  return record.files.reduce((sum, file) => sum + fileSize(file), 0);
}
