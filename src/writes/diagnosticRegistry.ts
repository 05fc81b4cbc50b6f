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
 * reported on the next write that gets an answer.
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
  readonly before: readonly Item[];
  /** undefined: the server did not answer for the written text within the bound. */
  readonly after: readonly Item[] | undefined;
}

export interface FileVerdict<Item extends WriteDiagnostic> {
  readonly path: string;
  readonly pending: boolean;
  readonly introduced: readonly Item[];
  readonly fixed: number;
}

export function diagnosticKey(item: WriteDiagnostic): string {
  return [item.severity, item.code ?? '', item.message.replace(/\s+/g, ' ').trim()].join('\u0000');
}

function counts(items: readonly WriteDiagnostic[]): Map<string, number> {
  const result = new Map<string, number>();
  for (const item of items) result.set(diagnosticKey(item), (result.get(diagnosticKey(item)) ?? 0) + 1);
  return result;
}

export class DiagnosticRegistry {
  /** conversation → path → key → how many of that diagnostic the conversation has been told about. */
  private readonly reported = new Map<string, Map<string, Map<string, number>>>();
  /** conversation → path → the diagnostics before a write whose outcome is still pending. */
  private readonly pendingBaselines = new Map<string, Map<string, readonly WriteDiagnostic[]>>();

  private reportedIn(conversation: string, path: string): Map<string, number> {
    let files = this.reported.get(conversation);
    if (!files) this.reported.set(conversation, (files = new Map()));
    let keys = files.get(path);
    if (!keys) files.set(path, (keys = new Map()));
    return keys;
  }

  private pendingIn(conversation: string): Map<string, readonly WriteDiagnostic[]> {
    let files = this.pendingBaselines.get(conversation);
    if (!files) this.pendingBaselines.set(conversation, (files = new Map()));
    return files;
  }

  observe<Item extends WriteDiagnostic>(conversation: string, observation: FileObservation<Item>): FileVerdict<Item> {
    const { path, after } = observation;
    const pending = this.pendingIn(conversation);
    const before = pending.get(path) ?? observation.before;
    if (after === undefined) {
      pending.set(path, before);
      return { path, pending: true, introduced: [], fixed: 0 };
    }
    pending.delete(path);
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
  }
}
