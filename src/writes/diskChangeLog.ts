/**
 * Which files changed on disk, in order, so a conversation can ask for "the files changed since my
 * last call" (a terminal agent edits with its own tools, on disk, and then asks what its edits did to
 * the diagnostics). Bounded: past `cap` paths the oldest are dropped, and a conversation whose last
 * call is older than what was dropped is told that some changes were not kept. No `vscode` here.
 */

export interface ChangesSince {
  /** Absolute paths, the most recently changed last. */
  readonly paths: readonly string[];
  /** Changes older than the log keeps were dropped since the conversation's last call. */
  readonly dropped: boolean;
  /** This is the conversation's first call: `paths` run from the start of the log. */
  readonly firstCall: boolean;
  /** Where the conversation's cursor goes once it has been answered (`advance`). */
  readonly through: number;
}

/** Files one "what changed since my last look" answer checks (named, or changed on disk); the rest are named. */
export const CHANGED_FILES_CAP = 20;

/** Paths under these folders are never logged (version control, dependencies). */
const SKIPPED_SEGMENT = /(^|[\\/])(\.git|node_modules)([\\/]|$)/;

export class DiskChangeLog {
  /** path → the sequence number of its last change; a Map keeps insertion order, so the oldest come first. */
  private readonly changed = new Map<string, number>();
  private readonly cursors = new Map<string, number>();
  private sequence = 0;
  /** The newest sequence number dropped for the cap (0: none). */
  private droppedThrough = 0;
  /** When the last change was recorded (ms since the epoch; 0: none yet). */
  lastRecordedAt = 0;

  constructor(private readonly cap = 10_000) {}

  record(path: string): void {
    if (SKIPPED_SEGMENT.test(path)) return;
    this.lastRecordedAt = Date.now();
    this.changed.delete(path);
    this.changed.set(path, ++this.sequence);
    if (this.changed.size <= this.cap) return;
    const [oldest, at] = this.changed.entries().next().value as [string, number];
    this.changed.delete(oldest);
    this.droppedThrough = at;
  }

  /** The paths changed since the conversation's last answered call (from the start on its first). */
  since(conversation: string): ChangesSince {
    const cursor = this.cursors.get(conversation);
    const from = cursor ?? 0;
    const paths = [...this.changed].filter(([, at]) => at > from).map(([path]) => path);
    return { paths, dropped: this.droppedThrough > from, firstCall: cursor === undefined, through: this.sequence };
  }

  /** The conversation was answered about the changes up to `through`. */
  advance(conversation: string, through: number): void {
    this.cursors.set(conversation, Math.max(this.cursors.get(conversation) ?? 0, through));
  }

  /** Forgets a conversation's cursor (it ended). */
  forget(conversation: string): void {
    this.cursors.delete(conversation);
  }
}
