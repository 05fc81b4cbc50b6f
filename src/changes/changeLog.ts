/**
 * The Agent Changes of one workspace: a record per conversation, bounded in characters,
 * serializable for workspace storage. Keeping changes the record; a revert is planned here (texts
 * in, texts out) and committed once the glue wrote it. Past the bound the oldest checkpoints go
 * first (their steps), then the oldest conversations, then the newest one's older files; the file
 * written last always stays revertible, and what was dropped is counted for the view.
 */
import { ChangeCall, ObservedWrite } from '../platform/changeJournal';
import {
  ConversationRecord,
  fileSize,
  keepHunk,
  withSteps,
  recordWrite,
  RevertResult,
  revertFile,
  revertHunk,
  revertToCall,
} from './agentChanges';

/** Default bound of what the record holds, in characters (texts before and after). */
export const CHANGE_LOG_MAX_CHARS = 16_000_000;

/** What the bound dropped since the record began. */
export interface DroppedRecords {
  /** Checkpoints ("before this call") whose steps were dropped; the files stay revertible. */
  readonly checkpoints: number;
  readonly conversations: number;
  readonly files: number;
}

export interface SavedChangeLog {
  readonly version: 2;
  readonly conversations: readonly ConversationRecord[];
  readonly dropped: DroppedRecords;
}

/** What version 1 saved: steps' texts with the later changes already carried in, a count of dropped conversations. */
interface SavedChangeLogV1 {
  readonly version: 1;
  readonly conversations: readonly {
    readonly conversation: string;
    readonly label: string;
    readonly calls: readonly ChangeCall[];
    readonly files: readonly {
      readonly path: string;
      readonly base: string | undefined;
      readonly agent: string | undefined;
      readonly steps: readonly { readonly call: string; readonly before: string | undefined }[];
    }[];
  }[];
  readonly dropped: number;
}

/** A saved record of either version as this version holds it. */
function loaded(saved: SavedChangeLog | SavedChangeLogV1 | undefined): SavedChangeLog | undefined {
  if (saved?.version === 2) return saved;
  if (saved?.version !== 1) return undefined;
  return {
    version: 2,
    conversations: saved.conversations.map((record) => ({
      ...record,
      files: record.files.map((file) => ({
        ...file,
        steps: file.steps.map((step, seq) => ({ ...step, seq })),
        carries: [],
        nextSeq: file.steps.length,
      })),
    })),
    dropped: { checkpoints: 0, conversations: saved.dropped, files: 0 },
  };
}

/** What a revert will do to one file; the glue writes `text` if the file still holds `current`. */
export interface PlannedRevert extends RevertResult {
  readonly path: string;
  readonly current: string | undefined;
}

export type RevertScope =
  | { readonly kind: 'hunk'; readonly path: string; readonly index: number }
  | { readonly kind: 'file'; readonly path: string }
  | { readonly kind: 'all' }
  | { readonly kind: 'before-call'; readonly call: string };

export class ChangeLog {
  private conversations: ConversationRecord[] = [];
  private droppedRecords: DroppedRecords = { checkpoints: 0, conversations: 0, files: 0 };
  private readonly listeners = new Set<() => void>();
  /** The characters held, kept as records change (summing the whole record on every write would cost its size). */
  private total = 0;
  private readonly sizes = new WeakMap<object, number>();

  constructor(
    private readonly maxChars = CHANGE_LOG_MAX_CHARS,
    saved?: SavedChangeLog | SavedChangeLogV1,
  ) {
    const restored = loaded(saved);
    if (restored) {
      this.conversations = [...restored.conversations];
      this.droppedRecords = restored.dropped;
      this.total = this.conversations.reduce((sum, record) => sum + this.sizeOf(record), 0);
    }
  }

  all(): readonly ConversationRecord[] {
    return this.conversations;
  }

  get(conversation: string): ConversationRecord | undefined {
    return this.conversations.find((record) => record.conversation === conversation);
  }

  /** What was dropped to stay within the bound. */
  get dropped(): DroppedRecords {
    return this.droppedRecords;
  }

  /** The characters the record holds now. */
  get size(): number {
    return this.total;
  }

  serialized(): SavedChangeLog {
    return { version: 2, conversations: this.conversations, dropped: this.droppedRecords };
  }

  onDidChange(listener: () => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** Records the writes of one tool call. Writes that change nothing are left out. */
  record(conversation: string, label: string, call: ChangeCall, writes: readonly ObservedWrite[]): void {
    const real = writes.filter((write) => write.before !== write.after);
    if (real.length === 0) return;
    const existing = this.get(conversation);
    const files = [...(existing?.files ?? [])];
    for (const write of real) {
      const at = files.findIndex((file) => file.path === write.path);
      const next = recordWrite(at === -1 ? undefined : files[at], call.id, write);
      if (at === -1) files.push(next);
      else files[at] = next;
    }
    const calls = existing?.calls.some((known) => known.id === call.id)
      ? existing.calls
      : [...(existing?.calls ?? []), call];
    this.put({ conversation, label, calls, files });
  }

  /** Keeps a hunk, a file, or all of a conversation: it leaves the record and can no longer be reverted. */
  keep(conversation: string, scope: Exclude<RevertScope, { kind: 'before-call' }>): void {
    const record = this.get(conversation);
    if (!record) return;
    if (scope.kind === 'all') return this.put({ ...record, files: [] });
    const files = record.files.flatMap((file) => {
      if (file.path !== scope.path) return [file];
      if (scope.kind === 'file') return [];
      const kept = keepHunk(file, scope.index);
      return kept ? [kept] : [];
    });
    this.put({ ...record, files });
  }

  /** What a revert would write, file by file, given the current texts; nothing changes until `commit`. */
  planRevert(
    conversation: string,
    scope: RevertScope,
    currentText: (path: string) => string | undefined,
  ): PlannedRevert[] {
    const record = this.get(conversation);
    if (!record) return [];
    const order = record.calls.map((call) => call.id);
    const files = record.files.filter(
      (file) => scope.kind === 'all' || scope.kind === 'before-call' || file.path === scope.path,
    );
    return files.map((file) => {
      const current = currentText(file.path);
      const result =
        scope.kind === 'hunk'
          ? revertHunk(file, current, scope.index)
          : scope.kind === 'before-call'
            ? revertToCall(file, current, order, scope.call)
            : revertFile(file, current);
      return { ...result, path: file.path, current };
    });
  }

  /**
   * Reverts a scope of a conversation's changes: reads the files' texts now, plans, has `io` write
   * what changes (refusing whole if a file changed meanwhile: then nothing is committed), and commits.
   * Undefined when the conversation is no longer recorded.
   */
  async revert(
    conversation: string,
    scope: RevertScope,
    io: {
      currentText(path: string): Promise<string | undefined>;
      write(changes: readonly PlannedRevert[]): Promise<void>;
    },
  ): Promise<PlannedRevert[] | undefined> {
    const record = this.get(conversation);
    if (!record) return undefined;
    const texts = new Map<string, string | undefined>();
    for (const file of record.files) texts.set(file.path, await io.currentText(file.path));
    const planned = this.planRevert(conversation, scope, (file) => texts.get(file));
    const changing = planned.filter((plan) => plan.text !== plan.current);
    if (changing.length > 0) await io.write(changing);
    this.commit(conversation, planned, scope);
    return planned;
  }

  /** Takes in what was written: each planned file's record becomes its result's. Checkpoint calls from `call` on are forgotten when nothing was refused. */
  commit(conversation: string, planned: readonly PlannedRevert[], scope: RevertScope): void {
    const record = this.get(conversation);
    if (!record) return;
    const byPath = new Map(planned.map((plan) => [plan.path, plan]));
    const files = record.files.flatMap((file) => {
      const plan = byPath.get(file.path);
      if (!plan) return [file];
      return plan.record ? [plan.record] : [];
    });
    let calls = record.calls;
    if (scope.kind === 'before-call' && planned.every((plan) => plan.refused.length === 0)) {
      const from = calls.findIndex((call) => call.id === scope.call);
      if (from !== -1) calls = calls.slice(0, from);
    }
    this.put({ ...record, calls, files });
  }

  private put(record: ConversationRecord): void {
    const known = this.get(record.conversation);
    if (known) this.total -= this.sizeOf(known);
    const others = this.conversations.filter((candidate) => candidate.conversation !== record.conversation);
    // A conversation without files is gone from the view; the newest changed last.
    this.conversations = record.files.length > 0 ? [...others, record] : others;
    if (record.files.length > 0) this.total += this.sizeOf(record);
    this.bound();
    for (const listener of this.listeners) listener();
  }

  /** A record's characters, counted once per record and file object (records are immutable). */
  private sizeOf(record: ConversationRecord): number {
    let size = this.sizes.get(record);
    if (size === undefined) {
      size = 0;
      for (const file of record.files) {
        let ofFile = this.sizes.get(file);
        if (ofFile === undefined) this.sizes.set(file, (ofFile = fileSize(file)));
        size += ofFile;
      }
      this.sizes.set(record, size);
    }
    return size;
  }

  /** Drops what is oldest while the record is over its bound; the file written last stays whatever its size. */
  private bound(): void {
    let { checkpoints, conversations, files } = this.droppedRecords;
    while (this.total > this.maxChars) {
      const next = this.withOldestCheckpointDropped();
      if (next) {
        this.replace(next.before, next.after);
        checkpoints++;
        continue;
      }
      if (this.conversations.length > 1) {
        const [oldest] = this.conversations;
        this.replace(oldest, undefined);
        conversations++;
        continue;
      }
      const [only] = this.conversations;
      if (!only || only.files.length <= 1) break;
      // Its files in the order they were first written: the last written stays.
      this.replace(only, { ...only, files: only.files.slice(1) });
      files++;
    }
    this.droppedRecords = { checkpoints, conversations, files };
  }

  /**
   * The oldest conversation whose oldest call can go, without it: that call is no longer offered
   * as a checkpoint, and its steps go from every file where a later step remains (a file's last
   * step stays). A conversation's newest call is never dropped.
   */
  private withOldestCheckpointDropped(): { before: ConversationRecord; after: ConversationRecord } | undefined {
    for (const record of this.conversations) {
      if (record.calls.length <= 1) continue;
      const [oldest, ...calls] = record.calls;
      const files = record.files.map((file) => {
        const steps = file.steps.filter((step, index) => step.call !== oldest.id || index === file.steps.length - 1);
        return steps.length === file.steps.length ? file : withSteps(file, steps);
      });
      return { before: record, after: { ...record, calls, files } };
    }
    return undefined;
  }

  private replace(record: ConversationRecord, next: ConversationRecord | undefined): void {
    this.total -= this.sizeOf(record);
    this.conversations = next
      ? this.conversations.map((candidate) => (candidate === record ? next : candidate))
      : this.conversations.filter((candidate) => candidate !== record);
    if (next) this.total += this.sizeOf(next);
  }
}
