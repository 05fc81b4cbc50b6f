/**
 * The `debug` tool's engine: one session per conversation (a second launch is refused, naming the
 * running one), every call of a conversation serialised, a strict time to live, and answers a
 * model reads (worded in answers.ts). One typed method per thing the model can do; the editor
 * side (starting sessions, placing breakpoints where the human sees them) comes in through
 * `DebugHost`.
 */
import { ADAPTERS, resolveAdapter } from './adapters';
import {
  adapterAnswer,
  adaptersAnswer,
  alreadyStoppedAnswer,
  Binding,
  BreakpointPlace,
  breakpointsAnswer,
  evaluateAnswer,
  exceptionBreakpointsAnswer,
  expiredAnswer,
  expiredNote,
  forRoot,
  frameLocation,
  launchedAnswer,
  launchedWhat,
  memberEndedNote,
  movedNote,
  Drive,
  NO_SESSION_TO_TERMINATE,
  notStoppedAnswer,
  pausedStateAnswer,
  outputAnswer,
  programEndedAnswer,
  refusal,
  scopesAnswer,
  SENT_FRAMES_CAP,
  sharedStatusLine,
  stackAnswer,
  STACK_CAP,
  statusAnswer,
  stillRunningAnswer,
  stopAnswer,
  terminatedAnswer,
  threadsAnswer,
  unboundNote,
  unknownFiltersNote,
  variablesAnswer,
  watchAnswer,
  watchLines,
  WATCH_CAP,
  WatchValue,
  withinFolder,
} from './answers';
import type { AdapterBreakpoint } from './breakpointReports';
import { BreakpointTextNotFound, DebugCancelled, DebugRefusal } from './debugErrors';
import { BreakpointSpec, DebugHost, LaunchPlan } from './debugHost';
import { anchorBreakpoints, AnchoredSpec, expectedText, linesAround } from './breakpointAnchors';
import { DebugConnection, DebugSessionState, FamilyMember } from './debugSession';
import { AttachRequest, LaunchRequest, planSession, SessionStart } from './launchPlan';
import { describeLaunch } from './launchPreview';
import { boundedTimeout } from '../async/timers';
import { untilAborted } from '../async/abortSignal';
import { candidateDirs, rootsFor } from '../project/projectRoots';
import { Logger, nullLogger } from '../log/logger';
import { belongsTo } from '../platform/caller';
import { withDeadline } from '../async/deadline';

/** Project roots listed per adapter by `adapters`. */
const ROOTS_SHOWN = 3;
export const SESSION_TTL_MS = 30 * 60 * 1000;
/** How long a resume or pause waits for the program to stop. */
export const DEFAULT_STOP_TIMEOUT_S = 20;
/** Launching may build the program first (delve: ~12 s for a first Go build). */
export const DEFAULT_LAUNCH_TIMEOUT_S = 60;
/** How long a failed resume waits to learn whether the adapter died (its exit is reported a moment later). */
const ADAPTER_EXIT_GRACE_MS = 2000;
/**
 * A wait is clamped to the session's remaining time to live plus this: the time to live ends the
 * session first and wakes the wait, so the answer says so rather than "still running".
 */
const TTL_WAIT_GRACE_MS = 1000;
/** How long a `breakpoints` call on a running session waits for the adapter's word on them. */
const BREAKPOINT_ANSWER_WAIT_MS = 3000;

export interface BreakpointsRequest {
  /** The source file, relative to the workspace folder, with `lines` (empty clears the file). */
  readonly file?: string;
  /** Each may carry the text expected on its line (breakpointAnchors.ts). */
  readonly lines?: readonly AnchoredSpec[];
  /** The adapter's exception filters, from now on (empty clears them). */
  readonly exceptions?: readonly string[];
}

/** How the program is resumed: the model's words for DAP's continue, next, stepIn, stepOut. */
export type Resume = 'continue' | 'step_over' | 'step_in' | 'step_out';

const RESUME_COMMANDS: Readonly<Record<Resume, string>> = {
  continue: 'continue',
  step_over: 'next',
  step_in: 'stepIn',
  step_out: 'stepOut',
};

export interface WaitRequest {
  /** The thread to resume or pause (default: the one that stopped; pause: the first). */
  readonly threadId?: number;
  /** How long to wait for the program to stop (default DEFAULT_STOP_TIMEOUT_S). */
  readonly timeoutSeconds?: number;
}

export interface FrameRequest {
  /** Default: the thread that stopped. */
  readonly threadId?: number;
  /** Default: the top frame of the thread. */
  readonly frameId?: number;
}

export interface VariablesRequest {
  readonly threadId?: number;
  /** From `scopes`, or a variable with children. */
  readonly reference?: number;
}

export interface EvaluateRequest extends FrameRequest {
  readonly expression?: string;
}

/**
 * Ops that act on the human's own session when a conversation uses it (the human is asked once per
 * conversation); every other op only reads it, and `terminate` never ends it.
 */
export const DRIVING_OPS: ReadonlySet<string> = new Set([
  'continue',
  'step_over',
  'step_in',
  'step_out',
  'pause',
  'evaluate',
]);

/** How long each request for the sent state may take: the command answers the human, bounded. */
const SEND_REQUEST_WAIT_S = 10;

/** What the human is asked before a conversation drives their session; `shared` says which sending it was. */
export interface DriveQuestion {
  readonly session: string;
  readonly sending: object;
}

/** A session the human started and sent to the chat: read by a conversation without one of its own, driven once allowed. */
interface SharedSession {
  readonly id: string;
  readonly session: DebugSessionState;
  /** Conversations the human let drive it, and those they refused. */
  readonly allowed: Set<string>;
  readonly denied: Set<string>;
  /**
   * The conversation that uses it: the first to, after it was sent (the chat it was sent to answers
   * first). Another conversation — a worker, a terminal agent — never sees it.
   */
  user: string | undefined;
  /** This sending (a new one each time the human sends it): a question asked about an earlier one is void. */
  sending: object;
}

interface Conversation {
  readonly id: string;
  session: DebugSessionState | undefined;
  queue: Promise<unknown>;
  ttl: NodeJS.Timeout | undefined;
  expiredNote: string | undefined;
  exceptions: readonly string[];
  /** Evaluated in the top frame at every stop. */
  watch: readonly string[];
}

export class DebugController {
  private readonly conversations = new Map<string, Conversation>();
  /** Breakpoints as the agent set them, per file, so `status` can list them. */
  private readonly breakpoints = new Map<string, readonly BreakpointSpec[]>();
  /** The human's session last sent to the chat; no other session of theirs is reachable. */
  private shared: SharedSession | undefined;
  /** Conversations of agents the human did not send it to (workers, terminal agents): never shown it. */
  private readonly outsiders = new Set<string>();

  constructor(
    private readonly host: DebugHost,
    /** Read at each launch (a setting). */
    private readonly ttlMs: () => number = () => SESSION_TTL_MS,
    private readonly log: Logger = nullLogger,
  ) {}

  /** Which adapters can start here, per project root, and exactly why not. */
  adapters(conversationId: string, signal?: AbortSignal): Promise<string> {
    return this.queued(conversationId, 'adapters', signal, () => this.listAdapters());
  }

  status(conversationId: string, signal?: AbortSignal): Promise<string> {
    return this.queued(conversationId, 'status', signal, (conversation) => this.describeStatus(conversation));
  }

  setBreakpoints(conversationId: string, request: BreakpointsRequest, signal?: AbortSignal): Promise<string> {
    return this.queued(conversationId, 'breakpoints', signal, (conversation) =>
      this.placeBreakpoints(conversation, request),
    );
  }

  /** Watch expressions, shown with every stop from now on (an empty list clears them). */
  setWatch(conversationId: string, expressions: readonly string[] | undefined, signal?: AbortSignal): Promise<string> {
    return this.queued(conversationId, 'watch', signal, async (conversation) => {
      if (!expressions) throw new DebugRefusal(refusal.watchNeedsExpressions);
      if (expressions.length > WATCH_CAP) throw new DebugRefusal(refusal.watchTooMany(expressions.length));
      conversation.watch = [...new Set(expressions.map((expression) => expression.trim()).filter(Boolean))];
      const session = conversation.session;
      if (conversation.watch.length === 0 || session?.state.kind !== 'stopped')
        return watchAnswer(conversation.watch, undefined);
      const thread = this.threadOf(session, undefined);
      const frame = await this.topFrame(session, thread).catch(() => undefined);
      return watchAnswer(conversation.watch, await this.watchValues(conversation, session, thread, frame));
    });
  }

  /** Starts the program (or a launch.json configuration) and waits for its first stop. */
  launch(conversationId: string, request: LaunchRequest, signal?: AbortSignal): Promise<string> {
    return this.queued(conversationId, 'launch', signal, (conversation) =>
      this.start(conversation, { kind: 'launch', ...request }, signal),
    );
  }

  attach(conversationId: string, request: AttachRequest, signal?: AbortSignal): Promise<string> {
    return this.queued(conversationId, 'attach', signal, (conversation) =>
      this.start(conversation, { kind: 'attach', ...request }, signal),
    );
  }

  /** Continues or steps the stopped thread, and waits for the next stop or the end. */
  resume(conversationId: string, how: Resume, request: WaitRequest, signal?: AbortSignal): Promise<string> {
    return this.onLiveSession(conversationId, how, signal, async (conversation, session) => {
      const thread = this.threadOf(session, request.threadId);
      const mark = session.changeCount;
      // Another session of the family still stopped is what this call answers, at once.
      session.resumed(thread.member);
      const { threadId } = thread;
      await session.connection
        .request(RESUME_COMMANDS[how], { threadId }, thread.session)
        .catch(async (error: unknown) => {
          // An adapter that dies on the resume never answers it: its end is the answer.
          if (
            (await session.waitForChange(mark, ADAPTER_EXIT_GRACE_MS)) === 'changed' &&
            session.state.kind === 'ended'
          )
            return;
          throw error;
        });
      return this.afterWait(conversation, session, mark, request.timeoutSeconds ?? DEFAULT_STOP_TIMEOUT_S, signal, how);
    });
  }

  pause(conversationId: string, request: WaitRequest, signal?: AbortSignal): Promise<string> {
    return this.onLiveSession(conversationId, 'pause', signal, async (conversation, session) => {
      if (session.state.kind === 'stopped')
        return alreadyStoppedAnswer(await this.describeStop(conversation, session, false));
      const mark = session.changeCount;
      const given = request.threadId === undefined ? undefined : session.threadIds.of(request.threadId);
      const threads = given
        ? []
        : (await session.connection.request<{ threads: Array<{ id: number }> }>('threads')).threads;
      await session.connection.request('pause', { threadId: given?.threadId ?? threads[0]?.id ?? 1 }, given?.session);
      return this.afterWait(
        conversation,
        session,
        mark,
        request.timeoutSeconds ?? DEFAULT_STOP_TIMEOUT_S,
        signal,
        'pause',
      );
    });
  }

  threads(conversationId: string, signal?: AbortSignal): Promise<string> {
    return this.onLiveSession(conversationId, 'threads', signal, async (_conversation, session) => {
      const members = session.connection.sessions?.() ?? [];
      if (members.length <= 1) {
        const only = members[0];
        const { threads } = await session.connection.request<{ threads: DapThread[] }>('threads', undefined, only?.id);
        return threadsAnswer(
          threads.map((thread) => ({ ...thread, id: session.threadIds.shown(only?.id, thread.id) })),
        );
      }
      // Each live session's own threads, named by it (js-debug's launcher has none; a session that ended meanwhile, none).
      const listed = await Promise.all(
        members.map((member) =>
          session.connection.request<{ threads: DapThread[] }>('threads', undefined, member.id).then(
            ({ threads }) =>
              threads.map((thread) => ({
                id: session.threadIds.shown(member.id, thread.id),
                name: thread.name,
                session: member.name,
              })),
            () => [],
          ),
        ),
      );
      const threads = listed.flat();
      return threadsAnswer(session.severalSessions ? threads : threads.map(({ id, name }) => ({ id, name })));
    });
  }

  stack(conversationId: string, request: { readonly threadId?: number }, signal?: AbortSignal): Promise<string> {
    return this.onLiveSession(conversationId, 'stack', signal, async (_conversation, session) => {
      const thread = this.threadOf(session, request.threadId);
      const { stackFrames, totalFrames } = await session.connection.request<{
        stackFrames: Frame[];
        totalFrames?: number;
      }>('stackTrace', { threadId: thread.threadId, startFrame: 0, levels: STACK_CAP }, thread.session);
      const frames = stackFrames.slice(0, STACK_CAP);
      session.handles.note(
        'frame',
        frames.map((frame) => frame.id),
        thread.session,
      );
      const sources = new Map<string, Promise<string | undefined>>();
      const placed = await Promise.all(
        frames.map(async (frame) => ({ id: frame.id, name: frame.name, where: await this.where(frame, sources) })),
      );
      return stackAnswer(thread.shown, placed, totalFrames ?? stackFrames.length);
    });
  }

  scopes(conversationId: string, request: FrameRequest, signal?: AbortSignal): Promise<string> {
    return this.onLiveSession(conversationId, 'scopes', signal, async (_conversation, session) => {
      const thread = this.threadOf(session, request.threadId, request.frameId !== undefined);
      const frameId = request.frameId ?? (await this.topFrame(session, thread)).id;
      const to = this.routeOf(session, 'frame', request.frameId, request.threadId, thread.session);
      const { scopes } = await session.connection.request<{
        scopes: Array<{ name: string; variablesReference: number; expensive?: boolean }>;
      }>('scopes', { frameId }, to);
      session.handles.note(
        'reference',
        scopes.map((scope) => scope.variablesReference),
        to,
      );
      return scopesAnswer(frameId, scopes);
    });
  }

  variables(conversationId: string, request: VariablesRequest, signal?: AbortSignal): Promise<string> {
    return this.onLiveSession(conversationId, 'variables', signal, async (_conversation, session) => {
      if (request.reference === undefined) throw new DebugRefusal(refusal.variablesNeedReference);
      const thread = this.threadOf(session, request.threadId);
      const to = this.routeOf(session, 'reference', request.reference, request.threadId, thread.session);
      const { variables } = await session.connection.request<{
        variables: Array<{ name: string; value: string; type?: string; variablesReference: number }>;
      }>('variables', { variablesReference: request.reference }, to);
      session.handles.note(
        'reference',
        variables.map((variable) => variable.variablesReference),
        to,
      );
      return variablesAnswer(variables);
    });
  }

  /** In the given frame, else the top frame when stopped, else none (the adapter's global context). */
  evaluate(conversationId: string, request: EvaluateRequest, signal?: AbortSignal): Promise<string> {
    return this.onLiveSession(conversationId, 'evaluate', signal, async (_conversation, session) => {
      if (!request.expression) throw new DebugRefusal(refusal.evaluateNeedsExpression);
      let frameId = request.frameId;
      const stopped = session.state.kind === 'stopped' || request.threadId !== undefined;
      const thread = stopped ? this.threadOf(session, request.threadId, true) : undefined;
      if (frameId === undefined && thread) frameId = (await this.topFrame(session, thread)).id;
      const to = this.routeOf(session, 'frame', request.frameId, request.threadId, thread?.session);
      const result = await session.connection.request<{ result: string; type?: string; variablesReference?: number }>(
        'evaluate',
        { expression: request.expression, frameId, context: 'repl' },
        to,
      );
      if (result.variablesReference) session.handles.note('reference', [result.variablesReference], to);
      return evaluateAnswer(request.expression, result);
    });
  }

  /** What the program printed since the last look; still answers once the session has ended. */
  output(conversationId: string, signal?: AbortSignal): Promise<string> {
    return this.queued(conversationId, 'output', signal, (conversation) => {
      const session = this.live(conversation, 'output');
      return outputAnswer(session.takeOutput(), session.state);
    });
  }

  terminate(conversationId: string, signal?: AbortSignal): Promise<string> {
    return this.queued(conversationId, 'terminate', signal, async (conversation) => {
      const session = conversation.session;
      const shared = session ? undefined : this.sharedWith(conversationId);
      if (shared) throw new DebugRefusal(refusal.notYoursToEnd(shared.session.connection.name));
      if (!session) return takeExpiredNote(conversation) ?? NO_SESSION_TO_TERMINATE;
      const output = session.takeOutput().text;
      await this.end(conversation);
      return terminatedAnswer(session.connection.name, output);
    });
  }

  /** What a launch will run, for the human who allows it (markdown). */
  describeLaunch(request: LaunchRequest): string {
    return describeLaunch(request, this.host);
  }

  /**
   * The human sends their paused session (`id`, the editor's) to the chat: from now on it is the one
   * session of theirs a conversation without its own may read (and drive, once allowed); a session
   * sent before is let go, untouched. Answers the text the chat is given: the stop, the program's own
   * frames, the top frame's locals. Refused, and nothing is shared, when it is not paused.
   */
  async sendPausedState(id: string, connection: DebugConnection, adapter: string, threadId?: number): Promise<string> {
    const known = this.shared?.id === id ? this.shared : undefined;
    const shared = known ?? {
      id,
      session: new DebugSessionState(connection, adapter, connection.name, Date.now()),
      allowed: new Set<string>(),
      denied: new Set<string>(),
      user: undefined,
      sending: {},
    };
    const session = shared.session;
    if (session.state.kind !== 'stopped') {
      if (!known) session.dispose();
      throw new DebugRefusal(refusal.notPausedToSend(connection.name, session.state));
    }
    const text = await this.pausedState(session, threadId ?? session.state.threadId ?? 1);
    if (!known) {
      this.unshare();
      this.shared = shared;
      void connection.ended.then(() => {
        if (this.shared === shared) this.unshare();
      });
    }
    // Sent again, the human invites anew (maybe in another chat): whoever uses it now is asked again.
    shared.denied.clear();
    shared.allowed.clear();
    shared.user = undefined;
    shared.sending = {};
    this.log.info('debug.shared', `the human sent "${connection.name}" (${adapter}) to the chat`);
    return text;
  }

  /** A conversation of an agent the human did not send their session to: it never sees it. */
  keepFromHumanSession(conversationId: string): void {
    this.outsiders.add(conversationId);
  }

  /**
   * The question when `op` of this conversation would drive the human's session and they were not
   * asked yet (the tool then asks them, naming who asks, and calls `answerDrive` with it).
   */
  driveQuestion(conversationId: string, op: string): DriveQuestion | undefined {
    const shared = this.sharedWith(conversationId);
    if (!shared || !DRIVING_OPS.has(op) || this.conversations.get(conversationId)?.session) return undefined;
    return this.driveOf(shared, conversationId) === 'ask'
      ? { session: shared.session.connection.name, sending: shared.sending }
      : undefined;
  }

  /**
   * What the human answered: allowed, denied, or nothing (undefined: asked again next time). Kept only
   * for the very session they were asked about (one sent since is asked anew).
   */
  answerDrive(conversationId: string, question: DriveQuestion, allowed: boolean | undefined): void {
    const shared = this.sharedWith(conversationId);
    if (!shared || shared.sending !== question.sending || allowed === undefined) return;
    (allowed ? shared.allowed : shared.denied).add(conversationId);
    this.log.info(
      'debug.shared',
      `${conversationId} ${allowed ? 'may' : 'may not'} drive "${shared.session.connection.name}"`,
    );
  }

  private driveOf(shared: SharedSession, conversationId: string): Drive {
    return shared.allowed.has(conversationId) ? 'allowed' : shared.denied.has(conversationId) ? 'denied' : 'ask';
  }

  /** The sent session, unless another conversation uses it. */
  private sharedWith(conversationId: string): SharedSession | undefined {
    const shared = this.shared;
    if (!shared || this.outsiders.has(conversationId)) return undefined;
    return shared.user === undefined || shared.user === conversationId ? shared : undefined;
  }

  /** The human's sent session for a conversation without its own: any reading op, a driving one once allowed. */
  private sharedFor(conversation: Conversation, op: string): DebugSessionState | undefined {
    const shared = this.sharedWith(conversation.id);
    if (!shared) return undefined;
    shared.user = conversation.id;
    const drive = this.driveOf(shared, conversation.id);
    if (DRIVING_OPS.has(op) && drive !== 'allowed')
      throw new DebugRefusal(refusal.driveRefused(shared.session.connection.name, op, drive));
    return shared.session;
  }

  /** Lets go of the sent session: it is the human's, so it is only no longer listened to. */
  private unshare(): void {
    this.shared?.session.dispose();
    this.shared = undefined;
  }

  /** The stop, the program's own frames (capped) and the top frame's first scope, each request bounded. */
  private async pausedState(session: DebugSessionState, threadId: number): Promise<string> {
    const ask = <T>(command: string, args: Record<string, unknown>): Promise<T> =>
      withDeadline(session.connection.request<T>(command, args), SEND_REQUEST_WAIT_S, `"${command}"`);
    const { stackFrames, totalFrames } = await ask<{ stackFrames: Frame[]; totalFrames?: number }>('stackTrace', {
      threadId,
      startFrame: 0,
      levels: STACK_CAP,
    });
    const top = stackFrames[0];
    if (!top) throw new DebugRefusal(refusal.noFrames(threadId));
    const sources = new Map<string, Promise<string | undefined>>();
    const own = stackFrames.filter((frame) => {
      const file = fileOf(frame.source?.path);
      return file !== undefined && this.host.display(file) !== file;
    });
    const frames = await Promise.all(
      own
        .slice(0, SENT_FRAMES_CAP)
        .map(async (frame) => `#${frame.id} ${frame.name} at ${await this.where(frame, sources)}`),
    );
    const { scopes } = await ask<{ scopes: Array<{ name: string; variablesReference: number; expensive?: boolean }> }>(
      'scopes',
      { frameId: top.id },
    );
    const scope = scopes.find((candidate) => !candidate.expensive && candidate.variablesReference > 0);
    const locals = scope
      ? variablesAnswer(
          (
            await ask<{ variables: Array<{ name: string; value: string; type?: string; variablesReference: number }> }>(
              'variables',
              { variablesReference: scope.variablesReference },
            )
          ).variables,
        )
      : '';
    const state = session.state;
    // The human may have gone on while it was read: what was read is no longer where the program is.
    if (state.kind !== 'stopped') throw new DebugRefusal(refusal.notPausedToSend(session.connection.name, state));
    return pausedStateAnswer({
      session: session.connection.name,
      adapter: session.adapter,
      stop: stopAnswer({ ...state, threadId }, ` at ${await this.where(top, sources)} in ${top.name}`, false).split(
        '\n',
      )[0],
      frames,
      totalFrames: totalFrames ?? stackFrames.length,
      locals,
      localsOf: `${top.name} (frame #${top.id}${scope ? `, scope "${scope.name}"` : ''})`,
    });
  }

  /** Ends the debug sessions of a conversation and of its workers: its client went away. */
  async endConversation(conversationId: string): Promise<void> {
    const ending = [...this.conversations].filter(([id]) => belongsTo(id, conversationId));
    for (const [id] of ending) this.conversations.delete(id);
    // The human's session is left as it is; only what they allowed this conversation goes.
    for (const [id] of ending) {
      this.shared?.allowed.delete(id);
      this.shared?.denied.delete(id);
      if (this.shared?.user === id) this.shared.user = undefined;
    }
    for (const id of [...this.outsiders]) if (belongsTo(id, conversationId)) this.outsiders.delete(id);
    await Promise.all(ending.map(([, conversation]) => this.end(conversation)));
  }

  /** Ends every session (the window is closing, or the tests are done). */
  async disposeAll(): Promise<void> {
    await Promise.all([...this.conversations.values()].map((conversation) => this.end(conversation)));
    this.conversations.clear();
    this.unshare();
  }

  /**
   * Runs one call, after the conversation's earlier calls have finished. When `signal` aborts the
   * call answers at once (DebugCancelled): a wait in it ends, and work already under way (a
   * session starting) finishes behind it, so the session stays as usable as it was.
   */
  private queued(
    conversationId: string,
    op: string,
    signal: AbortSignal | undefined,
    work: (conversation: Conversation) => Promise<string> | string,
  ): Promise<string> {
    const conversation = this.conversation(conversationId);
    const result = conversation.queue.then(async () => {
      if (signal?.aborted) throw new DebugCancelled(op);
      const answer = await work(conversation);
      // A child of the family (a forked process) that ended meanwhile is said once, by the next answer.
      const ends = conversation.session?.takeMemberEnds() ?? [];
      return ends.length > 0 ? `${answer}\n${memberEndedNote(ends)}` : answer;
    });
    conversation.queue = result.catch(() => undefined);
    return signal ? untilAborted(result, signal, () => new DebugCancelled(op)) : result;
  }

  /** A call on the running session; the time to live ending it under a request is the answer, not the request's failure. */
  private onLiveSession(
    conversationId: string,
    op: string,
    signal: AbortSignal | undefined,
    work: (conversation: Conversation, session: DebugSessionState) => Promise<string>,
  ): Promise<string> {
    return this.queued(conversationId, op, signal, async (conversation) => {
      const session = this.live(conversation, op);
      try {
        return await work(conversation, session);
      } catch (error) {
        if (session.expiredNote && !(error instanceof DebugCancelled)) return this.tellExpired(conversation, session);
        throw error;
      }
    });
  }

  private conversation(id: string): Conversation {
    let conversation = this.conversations.get(id);
    if (!conversation) {
      conversation = {
        id,
        session: undefined,
        queue: Promise.resolve(),
        ttl: undefined,
        expiredNote: undefined,
        exceptions: [],
        watch: [],
      };
      this.conversations.set(id, conversation);
    }
    return conversation;
  }

  private async listAdapters(): Promise<string> {
    const { folder, adapter } = this.host.contextFor(undefined);
    const dirs = candidateDirs(folder);
    const lines = await Promise.all(
      ADAPTERS.map(async (spec) => {
        // Where the project roots of this adapter's language are (debugpy's Python depends on the root's venv).
        const roots = rootsFor(dirs, spec.markers)
          .slice(0, ROOTS_SHOWN)
          .map((root) => root.dir);
        const answers = await Promise.all(
          (roots.length > 0 ? roots : [folder]).map(async (root) => {
            const resolution = await resolveAdapter(spec, { ...adapter, root });
            return withinFolder(
              adapterAnswer(
                resolution,
                forRoot(root, folder, (file) => this.host.display(file)),
              ),
              folder,
            );
          }),
        );
        return [spec.id, answers] as const;
      }),
    );
    return adaptersAnswer(
      ADAPTERS.map((spec) => spec.id),
      lines,
    );
  }

  private describeStatus(conversation: Conversation): string {
    const session = conversation.session;
    const shared = session ? undefined : this.sharedWith(conversation.id);
    const answer = statusAnswer({
      session: session && {
        name: session.connection.name,
        adapter: session.adapter,
        state: session.state,
        remainingMs: session.endsAt - Date.now(),
      },
      expiredNote: session ? undefined : takeExpiredNote(conversation),
      breakpoints: [...this.breakpoints].map(([file, specs]) => [this.host.display(file), specs] as const),
      exceptions: conversation.exceptions,
      watch: conversation.watch,
    });
    if (!shared) return answer;
    const { name } = shared.session.connection;
    const line = sharedStatusLine(
      name,
      shared.session.adapter,
      shared.session.state,
      this.driveOf(shared, conversation.id),
    );
    return [line, ...answer.split('\n').slice(1)].join('\n');
  }

  private async placeBreakpoints(conversation: Conversation, request: BreakpointsRequest): Promise<string> {
    const answers: string[] = [];
    if (request.exceptions) {
      conversation.exceptions = request.exceptions;
      const session = conversation.session;
      const live = session && session.state.kind !== 'ended' ? session : undefined;
      if (live) await live.connection.setExceptionFilters(request.exceptions);
      answers.push(
        exceptionBreakpointsAnswer(
          request.exceptions,
          live !== undefined,
          live ? unknownFilters(request.exceptions, live.connection) : '',
        ),
      );
    }
    if (request.file !== undefined) {
      const file = this.host.resolvePath(request.file);
      const text = await this.host.readText(file);
      if (text === undefined) throw new DebugRefusal(refusal.noSuchSourceFile(request.file));
      const requested = request.lines ?? [];
      const lines = text.split('\n');
      const lineCount = lines.length;
      // A breakpoint anchored by its text may name a line the file no longer has: its text decides.
      const outside = requested.filter(
        (spec) => spec.lineText === undefined && spec.symbol === undefined && (spec.line < 1 || spec.line > lineCount),
      );
      if (outside.length > 0)
        throw new DebugRefusal(
          refusal.linesOutside(
            this.host.display(file),
            lineCount,
            outside.map((spec) => spec.line),
          ),
        );
      const anchored = anchorBreakpoints(lines, requested);
      if ('notFound' in anchored) {
        const spec = anchored.notFound;
        throw new BreakpointTextNotFound(
          refusal.textNowhere(
            this.host.display(file),
            expectedText(spec),
            spec.line,
            linesAround(lines, Math.min(Math.max(spec.line, 1), lineCount)),
          ),
        );
      }
      const specs = anchored.placed;
      const session = conversation.session;
      const live = session && session.state.kind !== 'ended' ? session : undefined;
      const since = live?.connection.breakpointAnswerCount() ?? 0;
      await this.host.setBreakpoints(file, specs);
      this.breakpoints.set(file, specs);
      // The editor sends them to the running adapter: its answer says which it bound, and where.
      const reports =
        live && specs.length > 0
          ? await live.connection.adapterBreakpoints(file, {
              since,
              timeoutMs: BREAKPOINT_ANSWER_WAIT_MS,
              lines: specs.map((spec) => spec.line),
            })
          : undefined;
      answers.push(
        breakpointsAnswer(
          this.host.display(file),
          specs.map((spec) => ({
            ...spec,
            text: lineAt(lines, spec.line),
            binding: live ? bindingOf(spec.line, reports?.get(spec.line), lines) : undefined,
          })),
          conversation.session !== undefined,
        ),
      );
    }
    if (answers.length === 0) throw new DebugRefusal(refusal.breakpointsNeedFile);
    return answers.join('\n');
  }

  private async start(
    conversation: Conversation,
    request: SessionStart,
    signal: AbortSignal | undefined,
  ): Promise<string> {
    const running = conversation.session;
    if (running && running.state.kind !== 'ended') {
      throw new DebugRefusal(refusal.alreadyRunning(running.connection.name, running.adapter, running.state));
    }
    this.endSession(conversation);
    const began = performance.now();
    const plan = await planSession(request, this.host, conversation.exceptions, signal);
    const planned = performance.now();
    const connection = await this.host.launch(plan);
    const launched = performance.now();
    const session = new DebugSessionState(
      connection,
      plan.adapter,
      String(plan.configuration.program ?? plan.configuration.name ?? ''),
      Date.now(),
    );
    conversation.session = session;
    conversation.expiredNote = undefined;
    const ttl = this.ttlMs();
    session.endsAt = Date.now() + ttl;
    // Not queued behind the conversation's calls: the time to live ends the session even while a call waits on it.
    conversation.ttl = boundedTimeout(() => this.expire(conversation, session, ttl), ttl);
    conversation.ttl.unref?.();
    const timeout = request.timeoutSeconds ?? DEFAULT_LAUNCH_TIMEOUT_S;
    const outcome = await this.afterWait(conversation, session, 0, timeout, signal, request.kind, (stopped) => {
      this.log.info(
        'debug.launch',
        `${plan.adapter}: adapter resolved in ${ms(planned - began)}, session started in ${ms(launched - planned)}, ${session.state.kind} after ${ms(stopped - launched)}`,
      );
    });
    this.log.info(
      'debug.launch',
      `${plan.adapter}: answered ${ms(performance.now() - began)} after the call; process id ${session.processId ?? 'not reported'}`,
    );
    return launchedAnswer({
      attach: request.kind === 'attach',
      what: this.launched(plan, request),
      adapter: plan.adapter,
      detail: withinFolder(plan.detail, plan.folder),
      session: connection.name,
      processId: session.processId,
      unknownNote: unknownFilters(plan.exceptions, connection),
      outcome,
    });
  }

  /** What a launch or attach started, in a few words: the program, the configuration, the port or pid. */
  private launched(plan: LaunchPlan, request: SessionStart): string {
    if (plan.what) return plan.what;
    const configuration = plan.configuration;
    const attachTo =
      request.kind !== 'attach'
        ? undefined
        : request.port !== undefined
          ? `port ${request.port}`
          : `pid ${request.pid}`;
    const runs = ['program', 'module', 'runtimeExecutable', 'command']
      .map((key) => configuration[key])
      .find((value): value is string => typeof value === 'string' && value !== '');
    const program =
      runs === undefined ? undefined : this.host.display(runs.split('${workspaceFolder}').join(plan.folder));
    return launchedWhat({ configuration: request.configuration, attachTo, program });
  }

  /** The time to live is over: the session ends now, whatever call is waiting on it; the adapter is told behind. */
  private expire(conversation: Conversation, session: DebugSessionState, ttlMs: number): void {
    if (conversation.session !== session) return;
    const note = expiredNote(session.connection.name, ttlMs);
    this.log.info('debug.ttl', note);
    conversation.ttl = undefined;
    conversation.session = undefined;
    conversation.expiredNote = note;
    const running = session.state.kind !== 'ended';
    session.expire(note);
    const stopped = running ? session.connection.terminate().catch(() => undefined) : Promise.resolve();
    void stopped.then(() => session.dispose());
  }

  private async end(conversation: Conversation): Promise<void> {
    const session = conversation.session;
    if (conversation.ttl) clearTimeout(conversation.ttl);
    conversation.ttl = undefined;
    if (!session) return;
    if (session.state.kind !== 'ended') await session.connection.terminate().catch(() => undefined);
    this.endSession(conversation);
  }

  private endSession(conversation: Conversation): void {
    // A session that ended by itself still has its time to live armed: it must not end the next one.
    if (conversation.ttl) clearTimeout(conversation.ttl);
    conversation.ttl = undefined;
    conversation.session?.dispose();
    conversation.session = undefined;
  }

  private live(conversation: Conversation, op: string): DebugSessionState {
    const session = conversation.session ?? this.sharedFor(conversation, op);
    if (!session) throw new DebugRefusal(takeExpiredNote(conversation) ?? refusal.noSession(op));
    if (session.state.kind === 'ended' && op !== 'output')
      throw new DebugRefusal(refusal.sessionEnded(session.connection.name, session.state));
    return session;
  }

  /**
   * The thread asked for (by the id the model sees), else the one that stopped (refused while the
   * program runs, unless `orStopped` and there is no stop: then the default session), with the
   * session its requests go to: thread ids, frame ids and references are each session's own.
   */
  private threadOf(session: DebugSessionState, shownId: number | undefined, orDefault = false): RoutedThread {
    if (shownId !== undefined) {
      const { session: member, threadId } = session.threadIds.of(shownId);
      return {
        shown: shownId,
        threadId,
        session: member,
        member: session.connection.sessions?.().find((candidate) => candidate.id === member),
      };
    }
    if (session.state.kind !== 'stopped') {
      if (orDefault) return { shown: 1, threadId: 1, session: undefined, member: undefined };
      throw new DebugRefusal(refusal.notStopped(session.state));
    }
    const shown = session.state.threadId ?? 1;
    const stopper = session.state.session;
    const { threadId } = session.state.threadId === undefined ? { threadId: 1 } : session.threadIds.of(shown);
    return { shown, threadId, session: stopper?.id, member: stopper };
  }

  /**
   * Where a request naming a frame id or reference goes: the session it came from, when no thread names
   * one and the family has several sessions (js-debug's ids run across them; each answers only for its
   * own); else `otherwise` (the thread's session).
   */
  private routeOf(
    session: DebugSessionState,
    kind: 'frame' | 'reference',
    id: number | undefined,
    threadId: number | undefined,
    otherwise: string | undefined,
  ): string | undefined {
    if (id === undefined || threadId !== undefined || !session.severalSessions) return otherwise;
    const owner = session.handles.ownerOf(kind, id);
    return owner ? owner.session : otherwise;
  }

  /** Asked of the adapter, and taken from the editor's own question on the stop when that answer comes first. */
  private async topFrame(session: DebugSessionState, thread: RoutedThread): Promise<Frame> {
    const { threadId } = thread;
    const own = session.connection
      .request<{ stackFrames: Frame[] }>('stackTrace', { threadId, startFrame: 0, levels: 1 }, thread.session)
      .then(({ stackFrames }) => {
        if (stackFrames.length === 0) throw new DebugRefusal(refusal.noFrames(thread.shown));
        return stackFrames[0];
      });
    const seen = session.connection.observedTopFrame?.(threadId, OBSERVED_FRAME_WAIT_MS, thread.session);
    if (!seen) return own;
    return new Promise<Frame>((resolve, reject) => {
      let ownFailure: unknown;
      let pending = 2;
      const settle = () => {
        if (--pending === 0) reject(ownFailure);
      };
      own.then(resolve, (error: unknown) => {
        ownFailure = error;
        settle();
      });
      seen.then((frame) => (frame ? resolve(frame as Frame) : settle()), settle);
    });
  }

  /**
   * Waits for a stop or the end after `mark`, then says what happened. The wait is bounded by the
   * session's remaining time to live (whose end wakes it and is what it answers) and by `signal`.
   */
  private async afterWait(
    conversation: Conversation,
    session: DebugSessionState,
    mark: number,
    timeoutSeconds: number,
    signal: AbortSignal | undefined,
    op: string,
    onChange?: (at: number) => void,
  ): Promise<string> {
    const waitMs = Math.min(timeoutSeconds * 1000, Math.max(0, session.endsAt - Date.now()) + TTL_WAIT_GRACE_MS);
    const outcome = await session.waitForChange(mark, waitMs, signal);
    onChange?.(performance.now());
    if (session.expiredNote) return this.tellExpired(conversation, session);
    if (outcome === 'cancelled') throw new DebugCancelled(op);
    if (outcome === 'timeout') return stillRunningAnswer(waitMs);
    if (session.state.kind === 'ended')
      return programEndedAnswer(session.state, session.takeOutput().text, await this.breakpointNotes(session, false));
    return this.describeStop(conversation, session, op === 'launch' || op === 'attach');
  }

  /** The time to live ended the session this call was on: the call says so (and the next one need not). */
  private tellExpired(conversation: Conversation, session: DebugSessionState): string {
    if (conversation.expiredNote === session.expiredNote) conversation.expiredNote = undefined;
    return expiredAnswer(session.expiredNote ?? '', session.takeOutput().text);
  }

  /** Where it stopped, the watch expressions there, and the breakpoints the adapter did not bind (and, at a launch, moved). */
  private async describeStop(
    conversation: Conversation,
    session: DebugSessionState,
    firstStop: boolean,
  ): Promise<string> {
    if (session.state.kind !== 'stopped') return notStoppedAnswer(session.state);
    let where = '';
    let frame: Frame | undefined;
    const thread = this.threadOf(session, undefined);
    try {
      frame = await this.topFrame(session, thread);
      where = ` at ${await this.where(frame)} in ${frame.name}`;
    } catch {
      where = '';
    }
    const [watch, notes] = await Promise.all([
      this.watchValues(conversation, session, thread, frame),
      this.breakpointNotes(session, firstStop),
    ]);
    const stopper = session.severalSessions ? session.state.session?.name : undefined;
    return stopAnswer(session.state, where, session.hasOutput, [watch, ...notes], stopper);
  }

  /** The watch expressions' values in `frame` (the top one), worded; empty when none is set. */
  private async watchValues(
    conversation: Conversation,
    session: DebugSessionState,
    thread: RoutedThread,
    frame: Frame | undefined,
  ): Promise<string> {
    if (conversation.watch.length === 0) return '';
    const values = await Promise.all(
      conversation.watch.map((expression): Promise<WatchValue> =>
        withDeadline(
          session.connection.request<{ result: string; type?: string; variablesReference?: number }>(
            'evaluate',
            {
              expression,
              frameId: frame?.id,
              context: 'watch',
            },
            thread.session,
          ),
          WATCH_WAIT_MS / 1000,
          'its value',
        ).then(
          (result) => ({ expression, result }),
          (error: unknown) => ({ expression, error: error instanceof Error ? error.message : String(error) }),
        ),
      ),
    );
    return watchLines(values);
  }

  /**
   * The agent's breakpoints the adapter did not bind: at a stop those unbound now, once the program
   * ended those never bound; at the first stop also those it moved. A file the adapter never
   * answered for counts as unbound; a line missing from its answer was removed by the human.
   */
  private async breakpointNotes(session: DebugSessionState, firstStop: boolean): Promise<string[]> {
    const ended = session.state.kind === 'ended';
    const unbound: BreakpointPlace[] = [];
    const moved: BreakpointPlace[] = [];
    for (const [file, specs] of this.breakpoints) {
      if (specs.length === 0) continue;
      const reports = await session.connection.adapterBreakpoints(file);
      const shown = this.host.display(file);
      for (const spec of specs) {
        const report = reports?.get(spec.line);
        if (reports && !report) continue;
        if (!report) unbound.push({ file: shown, line: spec.line, message: 'the adapter never answered for it' });
        else if (ended ? !report.everVerified : !report.verified)
          unbound.push({ file: shown, line: spec.line, message: report.message });
        else if (firstStop && report.line !== undefined && report.line !== spec.line)
          moved.push({ file: shown, line: spec.line, movedTo: report.line });
      }
    }
    return [unboundNote(unbound, ended), movedNote(moved)];
  }

  /** The frame's file and line with the line's text; `sources` shares each file's reading among the frames of one answer. */
  private async where(frame: Frame, sources = new Map<string, Promise<string | undefined>>()): Promise<string> {
    const file = fileOf(frame.source?.path);
    if (!file) return frameLocation(frame, undefined, '');
    if (!sources.has(file))
      sources.set(
        file,
        this.host.readText(file).catch(() => undefined),
      );
    const text = await sources.get(file);
    return frameLocation(
      frame,
      this.host.display(file),
      text === undefined ? '' : lineAt(text.split('\n'), frame.line),
    );
  }
}

/** How long one watch expression may take at a stop: a slow one must not hold up every step. */
const WATCH_WAIT_MS = 3_000;

/** How long the editor's own stack answer for a stop is waited for, beside our request. */
const OBSERVED_FRAME_WAIT_MS = 2_000;

/** A thread as the model named it (`shown`), and as its session knows it. */
interface RoutedThread {
  readonly shown: number;
  readonly threadId: number;
  /** The family member its requests go to; undefined: the default session. */
  readonly session: string | undefined;
  readonly member: FamilyMember | undefined;
}

interface DapThread {
  readonly id: number;
  readonly name: string;
}

interface Frame {
  readonly id: number;
  readonly name: string;
  readonly line: number;
  readonly source?: { readonly path?: string; readonly name?: string };
}

/**
 * A frame's source as a file path. In a remote window (code-server) the editor hands paths back
 * as URIs (`vscode-remote://host/abs/path`); the path part is the file on this machine.
 */
export function fileOf(sourcePath: string | undefined): string | undefined {
  if (!sourcePath || !/^[a-z][\w+.-]*:\/\//i.test(sourcePath)) return sourcePath;
  try {
    return decodeURIComponent(new URL(sourcePath).pathname);
  } catch {
    return sourcePath;
  }
}

/** The note that the time to live ended the session: said once, by the next call that looks for it. */
function takeExpiredNote(conversation: Conversation): string | undefined {
  const note = conversation.expiredNote;
  conversation.expiredNote = undefined;
  return note;
}

function ms(milliseconds: number): string {
  return `${milliseconds.toFixed(0)} ms`;
}

/** A 1-based line's text as answers quote it: trimmed, at most 200 characters. */
function lineAt(lines: readonly string[], line: number): string {
  return (lines[line - 1] ?? '').trim().slice(0, 200);
}

/** What the adapter made of a breakpoint asked for on `line` (undefined: no answer yet). */
function bindingOf(line: number, report: AdapterBreakpoint | undefined, lines: readonly string[]): Binding {
  if (!report) return { kind: 'unanswered' };
  if (!report.verified) return { kind: 'unbound', message: report.message };
  if (report.line !== undefined && report.line !== line)
    return { kind: 'moved', line: report.line, text: lineAt(lines, report.line) };
  return { kind: 'verified' };
}

function unknownFilters(filters: readonly string[], connection: DebugConnection): string {
  return unknownFiltersNote(filters, connection.offeredExceptionFilters());
}
