/**
 * Which diagnostics a write newly introduced, per conversation. A diagnostic is keyed on file,
 * severity, code and message — its position is deliberately left out, so one that merely moved
 * (lines inserted above it) is not reported again. Counts matter: two identical errors where
 * there was one is one new error.
 *
 * For each file a write touched (the file itself and its importers) the caller gives the
 * diagnostics before the write and after it (or `undefined` when the server did not answer in
 * time). New = after minus max(before, already reported); fixed = before minus after. A file
 * whose diagnostics were pending keeps its older baseline, so what that write broke is still
 * reported on the next write that gets an answer. A baseline not known in time is what the
 * conversation last saw of the file; with none, what the file has is told, not called new.
 *
 * A conversation may also ask what changed in a file since it last saw the file's diagnostics — in a
 * write's answer or in a look of its own — after edits made elsewhere (a terminal agent's own Edit, on
 * disk): `sinceLastSeen` compares with that, by the same rule. A file it never saw has nothing to
 * compare with: what it has now is told, and becomes the baseline.
 */

export interface WriteDiagnostic {
  readonly path: string;
  /** 1-based. */
  readonly line: number;
  readonly severity: 'error' | 'warning' | 'info' | 'hint';
  readonly message: string;
  readonly code?: string;
}

export interface FileObservation<Item extends WriteDiagnostic> {
  readonly path: string;
  /** undefined: the server did not answer for the text before the write within the bound. */
  readonly before: readonly Item[] | undefined;
  /** undefined: the server did not answer for the written text within the bound. */
  readonly after: readonly Item[] | undefined;
}

export interface FileVerdict<Item extends WriteDiagnostic> {
  readonly path: string;
  readonly pending: boolean;
  readonly introduced: readonly Item[];
  readonly fixed: number;
  /**
   * What the file has now, when there was nothing to compare it with: what it had before the write was
   * not known in time, and the conversation had never seen it. None of it is called new.
   */
  readonly notCompared?: readonly Item[];
}

/** A verdict against what the conversation last saw; on a first look, `present` is all there is. */
export interface SinceVerdict<Item extends WriteDiagnostic> extends FileVerdict<Item> {
  /** The conversation had never seen this file's diagnostics: nothing to compare with. */
  readonly firstLook: boolean;
  /** What the file has now (empty while pending). */
  readonly present: readonly Item[];
}

export function diagnosticKey(item: WriteDiagnostic): string {
  return [item.severity, item.code ?? '', item.message.replace(/\s+/g, ' ').trim()].join('\u0000');
}

function counts(items: readonly WriteDiagnostic[]): Map<string, number> {
  const result = new Map<string, number>();
  for (const item of items) result.set(diagnosticKey(item), (result.get(diagnosticKey(item)) ?? 0) + 1);
  return result;
}

/** A pending file whose diagnostics before the write were not known either. */
const UNKNOWN = Symbol('unknown baseline');

export class DiagnosticRegistry {
  /** conversation → path → key → how many of that diagnostic the conversation has been told about. */
  private readonly reported = new Map<string, Map<string, Map<string, number>>>();
  /** conversation → path → the diagnostics before a write whose outcome is still pending (or UNKNOWN: neither was known in time). */
  private readonly pendingBaselines = new Map<string, Map<string, readonly WriteDiagnostic[] | typeof UNKNOWN>>();
  /** conversation → path → the diagnostics it last saw there (a write's outcome, or a look). */
  private readonly lastSeen = new Map<string, Map<string, readonly WriteDiagnostic[]>>();

  private reportedIn(conversation: string, path: string): Map<string, number> {
    let files = this.reported.get(conversation);
    if (!files) this.reported.set(conversation, (files = new Map()));
    let keys = files.get(path);
    if (!keys) files.set(path, (keys = new Map()));
    return keys;
  }

  private pendingIn(conversation: string): Map<string, readonly WriteDiagnostic[] | typeof UNKNOWN> {
    return filesOf(this.pendingBaselines, conversation);
  }

  private lastSeenIn(conversation: string): Map<string, readonly WriteDiagnostic[]> {
    return filesOf(this.lastSeen, conversation);
  }

  /** Whether the conversation has seen `path`'s diagnostics (a write's answer or a look). */
  hasSeen(conversation: string, path: string): boolean {
    return this.lastSeenIn(conversation).has(path) || this.pendingIn(conversation).has(path);
  }

  /** The conversation was shown every diagnostic `path` has now: none is new to it, and the next comparison starts here. */
  look(conversation: string, path: string, items: readonly WriteDiagnostic[]): void {
    this.pendingIn(conversation).delete(path);
    this.lastSeenIn(conversation).set(path, items);
    const reported = this.reportedIn(conversation, path);
    reported.clear();
    for (const [key, count] of counts(items)) reported.set(key, count);
  }

  /**
   * Before an edit made elsewhere: what `path` has now becomes what the next comparison starts from,
   * so it reports what that edit did. A file whose last answer is still pending keeps that older
   * baseline (its news is not swallowed here); a file that does not exist yet starts from nothing.
   */
  baseline(conversation: string, path: string, items: readonly WriteDiagnostic[]): void {
    if (this.pendingIn(conversation).has(path)) return;
    this.look(conversation, path, items);
  }

  /**
   * What changed in `path`'s diagnostics since the conversation last saw them (`after` undefined: the
   * server did not answer; the file stays pending against the same baseline). A file never seen is a
   * first look: all of it is told, and it becomes the baseline.
   */
  sinceLastSeen<Item extends WriteDiagnostic>(
    conversation: string,
    path: string,
    after: readonly Item[] | undefined,
  ): SinceVerdict<Item> {
    const pendingBefore = this.pendingIn(conversation).get(path);
    const before: readonly WriteDiagnostic[] | undefined =
      pendingBefore === UNKNOWN ? undefined : (pendingBefore ?? this.lastSeenIn(conversation).get(path));
    if (before === undefined) {
      if (after !== undefined) this.look(conversation, path, after);
      return { path, pending: after === undefined, introduced: [], fixed: 0, firstLook: true, present: after ?? [] };
    }
    const verdict = this.observe<Item>(conversation, { path, before: before as readonly Item[], after });
    return { ...verdict, firstLook: false, present: after ?? [] };
  }

  observe<Item extends WriteDiagnostic>(conversation: string, observation: FileObservation<Item>): FileVerdict<Item> {
    const { path, after } = observation;
    const pending = this.pendingIn(conversation);
    const pendingBefore = pending.get(path);
    // A baseline not known in time: what the conversation last saw of the file stands in for it; after a
    // write whose before and after were both unknown, nothing does (what that write did is in the file now).
    const before =
      pendingBefore === UNKNOWN
        ? undefined
        : (pendingBefore ?? observation.before ?? this.lastSeenIn(conversation).get(path));
    if (after === undefined) {
      pending.set(path, before ?? UNKNOWN);
      return { path, pending: true, introduced: [], fixed: 0 };
    }
    if (before === undefined) {
      this.look(conversation, path, after);
      return { path, pending: false, introduced: [], fixed: 0, notCompared: after };
    }
    pending.delete(path);
    this.lastSeenIn(conversation).set(path, after);
    const reported = this.reportedIn(conversation, path);
    const beforeCounts = counts(before);
    const afterCounts = counts(after);
    const seen = new Map<string, number>();
    const introduced: Item[] = [];
    for (const item of after) {
      const key = diagnosticKey(item);
      const index = (seen.get(key) ?? 0) + 1;
      seen.set(key, index);
      if (index > Math.max(beforeCounts.get(key) ?? 0, reported.get(key) ?? 0)) introduced.push(item);
    }
    let fixed = 0;
    for (const [key, count] of beforeCounts) fixed += Math.max(0, count - (afterCounts.get(key) ?? 0));
    // What is gone is forgotten (reintroducing it is news again); what is there now has been told or was there before.
    for (const key of [...reported.keys()]) {
      const now = afterCounts.get(key) ?? 0;
      if (now === 0) reported.delete(key);
      else reported.set(key, Math.min(reported.get(key) ?? 0, now));
    }
    for (const item of introduced) {
      const key = diagnosticKey(item);
      reported.set(key, Math.max(reported.get(key) ?? 0, seen.get(key) ?? 0));
    }
    return { path, pending: false, introduced, fixed };
  }

  /** Forgets a conversation (its chat session ended). */
  forget(conversation: string): void {
    this.reported.delete(conversation);
    this.pendingBaselines.delete(conversation);
    this.lastSeen.delete(conversation);
  }
}

function filesOf<Value>(table: Map<string, Map<string, Value>>, conversation: string): Map<string, Value> {
  let files = table.get(conversation);
  if (!files) table.set(conversation, (files = new Map()));
  return files;
}
