/**
 * One debug session as the agent drives it: the connection to the adapter (through the editor),
 * what the program last did (running, stopped where and why, ended with what code), and its output
 * since the agent last asked, bounded. Events are read from the start of the session, so a stop
 * that happens before anyone waits for it is not missed.
 */
import { boundedTimeout } from '../async/timers';
import type { AdapterBreakpoint } from './breakpointReports';
import { ThreadIds, HandleOwners } from './threadIds';

export interface DapEvent {
  readonly event: string;
  readonly body?: Record<string, unknown>;
  /** The session of the family that sent it; absent when the family is one session. */
  readonly from?: FamilyMember;
}

/**
 * One session of a family: the session launched (the root) and the sessions started under it
 * (js-debug runs the program in a child session, and each process it forks in another).
 */
export interface FamilyMember {
  readonly id: string;
  /** As the Debug view shows it (js-debug: `worker.js [4242]`, the script and its process id). */
  readonly name: string;
  readonly root: boolean;
}

export interface DebugConnection {
  /** As the Debug view shows it. */
  readonly name: string;
  /** To `session` (a member's id) when given, else where the family's requests go by default (its newest live session). */
  request<T = Record<string, unknown>>(command: string, args?: Record<string, unknown>, session?: string): Promise<T>;
  /** The family's live sessions, the root first; absent when the family is always one session. */
  sessions?(): readonly FamilyMember[];
  /** Every event of the session, those already received first. */
  onEvent(listener: (event: DapEvent) => void): { dispose(): void };
  /** Settles when the session is over, for whatever reason, with the adapter's last output when it died. */
  readonly ended: Promise<{ readonly reason?: string }>;
  terminate(): Promise<void>;
  /**
   * The exception filters the agent wants, from now on: added to every `setExceptionBreakpoints`
   * the session is sent (the editor sends its own at configuration), and sent now if it runs.
   */
  setExceptionFilters(filters: readonly string[]): Promise<void>;
  /** The exception filters the adapter offers (its `initialize` answer); undefined before that. */
  offeredExceptionFilters(): readonly string[] | undefined;
  /**
   * The current stop's top frame of a thread as the editor itself was told it (it asks on every
   * stop), waiting up to `timeoutMs`; undefined when not seen. Saves a request the adapter would
   * answer behind the editor's own.
   */
  observedTopFrame?(threadId: number, timeoutMs: number, session?: string): Promise<unknown | undefined>;
  /** How many `setBreakpoints` answers the session had: a wait for the next one starts from it. */
  breakpointAnswerCount(): number;
  /**
   * What the adapter said of a file's breakpoints (breakpointReports.ts), by the line asked for;
   * with `wait`, after its first answer later than `since` for exactly `lines` (or `timeoutMs`).
   * Undefined when it never answered for the file.
   */
  adapterBreakpoints(
    file: string,
    wait?: { readonly since: number; readonly timeoutMs: number; readonly lines: readonly number[] },
  ): Promise<ReadonlyMap<number, AdapterBreakpoint> | undefined>;
}

/** A child session that ended while the family ran on. */
export interface MemberEnd {
  readonly name: string;
  readonly exitCode?: number;
}

/** How a wait on the session ended. */
export type WaitOutcome = 'changed' | 'timeout' | 'cancelled';

export type ProgramState =
  | { readonly kind: 'running' }
  | {
      readonly kind: 'stopped';
      readonly reason: string;
      /** As the model sees it (threadIds.ts): a session's own id unless another session's thread has it. */
      readonly threadId: number | undefined;
      readonly description?: string;
      /** The session that stopped, in a family of several. */
      readonly session?: FamilyMember;
    }
  | { readonly kind: 'ended'; readonly exitCode?: number; readonly reason?: string };

/** Output kept between two `output` calls; the oldest is dropped past this. */
export const OUTPUT_KEEP_CHARS = 16_000;

export class DebugSessionState {
  state: ProgramState = { kind: 'running' };
  /** When the time to live ends it (set at launch). */
  endsAt = Number.POSITIVE_INFINITY;
  /** Set when the time to live ended it: what the agent is told. */
  expiredNote: string | undefined;
  /** The debuggee's process id, as the adapter's first `process` event reported it. */
  processId: number | undefined;
  /** Thread ids as the model sees them, each mapped to its session's own. */
  readonly threadIds = new ThreadIds();
  readonly handles = new HandleOwners();
  /** The stop of each session that is stopped now, the latest last (by member id; '' for a lone session). */
  private readonly stops = new Map<string, Extract<ProgramState, { kind: 'stopped' }>>();
  /** Sessions of the family other than the root that sent anything, and those of them that ended. */
  private readonly members = new Map<string, FamilyMember>();
  private readonly endedMembers = new Set<string>();
  private readonly memberExitCodes = new Map<string, number>();
  /** Children that ended while others ran, not yet told. */
  private memberEnds: MemberEnd[] = [];
  /** Bumped on every stop or end: a waiter wants one later than what it saw. */
  private changes = 0;
  private output = '';
  private droppedOutput = 0;
  private readonly waiters = new Set<() => void>();
  private exitCode: number | undefined;
  private readonly subscription: { dispose(): void };

  constructor(
    readonly connection: DebugConnection,
    readonly adapter: string,
    readonly program: string,
    readonly startedAt: number,
  ) {
    this.subscription = connection.onEvent((event) => this.onEvent(event));
    void connection.ended.then(({ reason }) => this.end(reason));
  }

  get changeCount(): number {
    return this.changes;
  }

  /**
   * Resolves at the first stop or end after `since` ('changed'), after `timeoutMs` ('timeout', the
   * delay bounded as every outside duration is), or when `signal` aborts ('cancelled').
   */
  waitForChange(since: number, timeoutMs: number, signal?: AbortSignal): Promise<WaitOutcome> {
    if (this.changes > since) return Promise.resolve('changed');
    if (signal?.aborted) return Promise.resolve('cancelled');
    return new Promise((resolve) => {
      const done = (outcome: WaitOutcome): void => {
        clearTimeout(timer);
        this.waiters.delete(wake);
        signal?.removeEventListener('abort', abort);
        resolve(outcome);
      };
      const wake = (): void => {
        if (this.changes > since) done('changed');
      };
      const abort = (): void => done('cancelled');
      const timer = boundedTimeout(() => done('timeout'), timeoutMs);
      this.waiters.add(wake);
      signal?.addEventListener('abort', abort, { once: true });
    });
  }

  /**
   * Ends the session here and now for the time to live (the adapter is told apart, and may take its
   * time): whoever waits on it wakes and reads `expiredNote`.
   */
  expire(note: string): void {
    this.expiredNote = note;
    this.end(note);
  }

  /** Output since the last call, with how much was dropped when it overflowed. */
  takeOutput(): { text: string; dropped: number } {
    const taken = { text: this.output, dropped: this.droppedOutput };
    this.output = '';
    this.droppedOutput = 0;
    return taken;
  }

  get hasOutput(): boolean {
    return this.output.length > 0;
  }

  addOutput(text: string): void {
    this.output += text;
    if (this.output.length > OUTPUT_KEEP_CHARS) {
      const cut = this.output.length - OUTPUT_KEEP_CHARS;
      this.droppedOutput += cut;
      this.output = this.output.slice(cut);
    }
  }

  dispose(): void {
    this.subscription.dispose();
  }

  /**
   * Stops are named by their session once the family has run the program in more than one session
   * (js-debug: a process and the one it forked); the root alone, or a single child, stays unnamed.
   */
  get severalSessions(): boolean {
    return this.members.size > 1;
  }

  /** The session of a stop resumed by the agent runs again; another session still stopped becomes the stop. */
  resumed(session: FamilyMember | undefined): void {
    this.stops.delete(session?.id ?? '');
    const next = this.latestStop();
    this.state = next ?? { kind: 'running' };
    if (next) this.changed();
  }

  /** The children that ended (while another session of the family ran) since the last call. */
  takeMemberEnds(): MemberEnd[] {
    return this.memberEnds.splice(0);
  }

  private onEvent(event: DapEvent): void {
    const body = event.body ?? {};
    const from = event.from;
    if (from && !from.root && !this.members.has(from.id) && event.event !== 'terminated')
      this.members.set(from.id, from);
    // A child of the family (js-debug: a forked process) ending is not the program's end: the root's is.
    const child = from !== undefined && !from.root;
    switch (event.event) {
      case 'stopped': {
        const threadId = typeof body.threadId === 'number' ? this.threadIds.shown(from?.id, body.threadId) : undefined;
        const stop: Extract<ProgramState, { kind: 'stopped' }> = {
          kind: 'stopped',
          reason: String(body.reason ?? 'unknown'),
          threadId,
          description:
            typeof body.text === 'string'
              ? body.text
              : typeof body.description === 'string'
                ? body.description
                : undefined,
          ...(from ? { session: from } : {}),
        };
        this.stops.delete(from?.id ?? '');
        this.stops.set(from?.id ?? '', stop);
        this.state = stop;
        this.changed();
        break;
      }
      case 'continued':
        if (from) {
          if (!this.stops.delete(from.id)) break;
          if (this.state.kind === 'stopped') this.state = this.latestStop() ?? { kind: 'running' };
        } else if (this.state.kind === 'stopped') {
          this.stops.clear();
          this.state = { kind: 'running' };
        }
        break;
      case 'output': {
        const category = String(body.category ?? 'console');
        // The adapter's own chatter (telemetry, "important" banners) is not the program's output.
        if (category === 'telemetry') break;
        if (typeof body.output === 'string') this.addOutput(body.output);
        break;
      }
      case 'process':
        if (typeof body.systemProcessId === 'number') this.processId ??= body.systemProcessId;
        break;
      case 'exited':
        if (typeof body.exitCode !== 'number') break;
        if (child) this.memberExitCodes.set(from.id, body.exitCode);
        else this.exitCode = body.exitCode;
        break;
      case 'terminated':
        if (child) this.memberEnded(from);
        else this.end();
        break;
    }
  }

  /** A child session ended: its stop is gone, and it is told when another session of the family still runs. */
  private memberEnded(member: FamilyMember): void {
    if (this.endedMembers.has(member.id) || this.state.kind === 'ended') return;
    this.endedMembers.add(member.id);
    this.stops.delete(member.id);
    if (this.state.kind === 'stopped' && this.state.session?.id === member.id)
      this.state = this.latestStop() ?? { kind: 'running' };
    const running = [...this.members.keys()].filter((id) => !this.endedMembers.has(id));
    if (!this.members.has(member.id) || running.length === 0) return;
    this.memberEnds.push({ name: member.name, exitCode: this.memberExitCodes.get(member.id) });
  }

  private latestStop(): Extract<ProgramState, { kind: 'stopped' }> | undefined {
    return [...this.stops.values()].at(-1);
  }

  private end(reason?: string): void {
    if (this.state.kind === 'ended') return;
    this.stops.clear();
    this.state = { kind: 'ended', exitCode: this.exitCode, reason };
    this.changed();
  }

  private changed(): void {
    this.changes++;
    for (const wake of [...this.waiters]) wake();
  }
}
