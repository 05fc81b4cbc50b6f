/**
 * The Agent Changes of one workspace: a record per conversation, bounded in characters (oldest
 * conversations dropped first, and said), serializable for workspace storage. Keeping changes the
 * record; a revert is planned here (texts in, texts out) and committed once the glue wrote it.
 */
import {
  ChangeCall,
  ConversationRecord,
  FileRecord,
  keepHunk,
  ObservedWrite,
  recordSize,
  recordWrite,
  RevertResult,
  revertFile,
  revertHunk,
  revertToCall,
} from './agentChanges';

/** Default bound of what the record holds, in characters (texts before and after). */
export const CHANGE_LOG_MAX_CHARS = 16_000_000;

export interface SavedChangeLog {
  readonly version: 1;
  readonly conversations: readonly ConversationRecord[];
  /** Conversations dropped to stay within the bound, since the record began. */
  readonly dropped: number;
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
  private droppedCount = 0;
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly maxChars = CHANGE_LOG_MAX_CHARS,
    saved?: SavedChangeLog,
  ) {
    if (saved?.version === 1) {
      this.conversations = [...saved.conversations];
      this.droppedCount = saved.dropped;
    }
  }

  all(): readonly ConversationRecord[] {
    return this.conversations;
  }

  get(conversation: string): ConversationRecord | undefined {
    return this.conversations.find((record) => record.conversation === conversation);
  }

  /** Conversations dropped to stay within the bound. */
  get dropped(): number {
    return this.droppedCount;
  }

  save(): SavedChangeLog {
    return { version: 1, conversations: this.conversations, dropped: this.droppedCount };
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
    const others = this.conversations.filter((known) => known.conversation !== record.conversation);
    // A conversation without files is gone from the view; the newest changed last.
    this.conversations = record.files.length > 0 ? [...others, record] : others;
    this.bound();
    for (const listener of this.listeners) listener();
  }

  /** Drops the oldest conversations while the record is over its bound (never the newest). */
  private bound(): void {
    let total = this.conversations.reduce((sum, record) => sum + recordSize(record), 0);
    while (total > this.maxChars && this.conversations.length > 1) {
      const [oldest, ...rest] = this.conversations;
      total -= recordSize(oldest);
      this.conversations = rest;
      this.droppedCount++;
    }
    // The newest alone over the bound: its oldest files go.
    if (total > this.maxChars && this.conversations.length === 1) {
      const [only] = this.conversations;
      const files: FileRecord[] = [...only.files];
      while (files.length > 1 && recordSize({ ...only, files }) > this.maxChars) {
        files.shift();
        this.droppedCount++;
      }
      this.conversations = recordSize({ ...only, files }) > this.maxChars ? [] : [{ ...only, files }];
      if (this.conversations.length === 0) this.droppedCount++;
    }
  }
}
