/**
 * What the adapter said of each breakpoint: its answers to `setBreakpoints` (one per file, the
 * breakpoints in the order asked) and its later `breakpoint` events (by the id it gave), kept per
 * session of a family (js-debug answers in the parent and in the child that runs the program).
 * Read per file, by the line the editor asked for: bound when any session bound it.
 */

/** The adapter's word on one breakpoint, by the line it was asked for. */
export interface AdapterBreakpoint {
  /** Bound now, in some session of the family. */
  readonly verified: boolean;
  /** Bound at some moment of the session (an exit names those that never were). */
  readonly everVerified: boolean;
  /** Where the adapter put it, when it said. */
  readonly line?: number;
  /** The adapter's reason, when it did not bind it. */
  readonly message?: string;
}

/** After an answer that leaves breakpoints unbound, how long another session's answer is waited for. */
const SECOND_ANSWER_WAIT_MS = 500;
/** setBreakpoints requests kept awaiting their answer (an adapter that never answers cannot grow it). */
const ASKED_CAP = 1000;

interface Entry {
  readonly requestedLine: number;
  id?: number;
  verified: boolean;
  line?: number;
  message?: string;
}

/** A DAP breakpoint as adapters send it (the fields read here). */
interface DapBreakpoint {
  readonly id?: unknown;
  readonly verified?: unknown;
  readonly line?: unknown;
  readonly message?: unknown;
}

export class BreakpointReports {
  /** Per session, per file: the latest answer. */
  private readonly bySession = new Map<string, Map<string, Entry[]>>();
  /** `file\nline` of every breakpoint some session bound. */
  private readonly everBound = new Set<string>();
  /** setBreakpoints requests awaiting their answer, by `session\nseq`. */
  private readonly asked = new Map<string, { file: string; lines: number[] }>();
  private answers = 0;
  /** The answer count at each file's latest answer, and the lines it was asked for. */
  private readonly fileAnswers = new Map<string, { count: number; lines: readonly number[] }>();
  private readonly waiters = new Set<() => void>();

  /** How many answers came so far: a wait for the next one starts from it. */
  get answerCount(): number {
    return this.answers;
  }

  /** The editor (or we) asked the adapter of `session` to set a file's breakpoints. */
  requested(session: string, seq: number, file: string, lines: readonly number[]): void {
    this.asked.set(`${session}\n${seq}`, { file, lines: [...lines] });
    if (this.asked.size > ASKED_CAP) this.asked.delete(this.asked.keys().next().value as string);
  }

  /** A session of the family ended (a js-debug child): what it bound no longer counts as bound now. */
  sessionEnded(session: string): void {
    this.bySession.delete(session);
    for (const key of [...this.asked.keys()]) if (key.startsWith(`${session}\n`)) this.asked.delete(key);
  }

  /** The adapter's answer to request `seq`; a failed request leaves the file's breakpoints unanswered. */
  answered(session: string, seq: number, success: boolean, breakpoints: unknown): void {
    const question = this.asked.get(`${session}\n${seq}`);
    if (!question) return;
    this.asked.delete(`${session}\n${seq}`);
    const given = success && Array.isArray(breakpoints) ? (breakpoints as DapBreakpoint[]) : [];
    const entries = question.lines.map((requestedLine, index): Entry => {
      const answer = given[index];
      if (!answer) return { requestedLine, verified: false, message: success ? undefined : 'the adapter refused' };
      return { requestedLine, ...this.read(answer) };
    });
    let files = this.bySession.get(session);
    if (!files) this.bySession.set(session, (files = new Map()));
    files.set(question.file, entries);
    for (const entry of entries) this.note(question.file, entry);
    this.answers++;
    this.fileAnswers.set(question.file, { count: this.answers, lines: question.lines });
    for (const wake of [...this.waiters]) wake();
  }

  /** A `breakpoint` event: the adapter bound, moved or dropped one it had answered for. */
  changed(session: string, reason: unknown, breakpoint: unknown): void {
    if (reason === 'removed' || typeof breakpoint !== 'object' || breakpoint === null) return;
    const update = breakpoint as DapBreakpoint;
    if (typeof update.id !== 'number') return;
    for (const [file, entries] of this.bySession.get(session) ?? []) {
      const entry = entries.find((candidate) => candidate.id === update.id);
      if (!entry) continue;
      const read = this.read(update);
      entry.verified = read.verified;
      if (read.line !== undefined) entry.line = read.line;
      entry.message = read.message;
      this.note(file, entry);
      return;
    }
  }

  /** What the adapter said of the file's breakpoints, by the line asked for; undefined when it never answered for the file. */
  of(file: string): ReadonlyMap<number, AdapterBreakpoint> | undefined {
    // An answer of none (the human removed or deactivated them all) is an answer: only a file no session answered for is unknown.
    if (![...this.bySession.values()].some((files) => files.has(file))) return undefined;
    const lists = [...this.bySession.values()].flatMap((files) => files.get(file) ?? []);
    const merged = new Map<number, AdapterBreakpoint>();
    for (const entry of lists) {
      const known = merged.get(entry.requestedLine);
      // Bound in one session is bound: js-debug's parent session never binds what its child does.
      if (known?.verified) continue;
      merged.set(entry.requestedLine, {
        verified: entry.verified,
        everVerified: this.everBound.has(`${file}\n${entry.requestedLine}`),
        line: entry.line,
        message: entry.verified ? undefined : (entry.message ?? known?.message),
      });
    }
    return merged;
  }

  /**
   * The file's breakpoints as the adapter's first answer for it after `since` to a request for
   * exactly `lines` has them (undefined when none came within `timeoutMs`). Measured: the editor
   * replaces a file's breakpoints one step at a time (a request per removal, then one with the new
   * set), so an earlier step's answer is not the one. An answer that leaves some unbound waits a
   * moment more for another session's (js-debug's child binds what its parent cannot).
   */
  async answerAfter(
    file: string,
    since: number,
    timeoutMs: number,
    lines: readonly number[],
  ): Promise<ReadonlyMap<number, AdapterBreakpoint> | undefined> {
    const wanted = [...lines].sort((a, b) => a - b).join(',');
    const answeredAfter = (mark: number) => {
      const latest = this.fileAnswers.get(file);
      return (
        latest !== undefined && latest.count > mark && [...latest.lines].sort((a, b) => a - b).join(',') === wanted
      );
    };
    await this.waitUntil(() => answeredAfter(since), timeoutMs);
    if (!answeredAfter(since)) return undefined;
    const first = this.fileAnswers.get(file)?.count ?? 0;
    // Only a family of several sessions may bind in another what one left unbound.
    if (this.bySession.size > 1 && [...(this.of(file)?.values() ?? [])].some((entry) => !entry.verified))
      await this.waitUntil(() => answeredAfter(first), SECOND_ANSWER_WAIT_MS);
    return this.of(file);
  }

  private waitUntil(condition: () => boolean, timeoutMs: number): Promise<void> {
    if (condition()) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.waiters.delete(wake);
        resolve();
      };
      const wake = (): void => {
        if (condition()) done();
      };
      const timer = setTimeout(done, timeoutMs);
      this.waiters.add(wake);
    });
  }

  private read(answer: DapBreakpoint): Omit<Entry, 'requestedLine'> {
    return {
      id: typeof answer.id === 'number' ? answer.id : undefined,
      verified: answer.verified === true,
      line: typeof answer.line === 'number' ? answer.line : undefined,
      message: typeof answer.message === 'string' && answer.message.trim() ? answer.message : undefined,
    };
  }

  private note(file: string, entry: Entry): void {
    if (entry.verified) this.everBound.add(`${file}\n${entry.requestedLine}`);
  }
}
