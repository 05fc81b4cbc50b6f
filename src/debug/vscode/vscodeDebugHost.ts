/**
 * The debug engine's view of the editor: sessions are ordinary VS Code debug sessions
 * (`startDebugging`), requests go through `customRequest`, events are read by a tracker on every
 * session (a JavaScript session's child sessions — where js-debug runs the program — feed the same
 * stream), breakpoints are the editor's own, so the human sees and can take over everything.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { workspaceFolderPaths } from '../../workspace/vscode/workspaceFolders';
import { viewedFolders } from '../../workspace/folderView';
import { DeadlineExceeded, withDeadline } from '../../async/deadline';
import { Setting } from '../../platform/settings';
import { userSettingValue } from '../../platform/vscode/userSettings';
import { displayPath, resolveFileArgument } from '../../workspace/paths';
import { currentText } from '../../workspace/vscode/fileTexts';
import { AdapterContext, ADAPTERS } from '../adapters';
import { refusal } from '../answers';
import { BreakpointReports } from '../breakpointReports';
import { fileOf } from '../debugController';
import { DebugRefusal } from '../debugErrors';
import { BreakpointSpec, DebugHost, LaunchPlan } from '../debugHost';
import { DapEvent, DebugConnection, FamilyMember } from '../debugSession';

/** Marks the configurations we start, so their session is recognised when it starts. */
export const LAUNCH_ID_FIELD = '__liveToolsLaunchId';
/** How our own debug types start their adapter (filled in from the resolution at launch). */
export const ADAPTER_FIELD = '__liveToolsAdapter';

const START_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_S = 10;
/** A DAP request's answer (stack, variables, evaluate…); steps and continues answer at once. */
const REQUEST_TIMEOUT_S = 30;
/** Requests after which the program runs again (what the editor knew of its stack is old). */
const RESUMING = new Set([
  'continue',
  'next',
  'stepIn',
  'stepOut',
  'stepBack',
  'reverseContinue',
  'restartFrame',
  'goto',
  'pause',
]);
/** How long an adapter's exit report is awaited after it failed, so the answer can give its exit code. */
const EXIT_GRACE_MS = 2_000;
/** How long the events of a family that ended with no connection are kept (a launch connects as its session starts). */
const UNCONNECTED_GRACE_MS = 5_000;

/** The events of one session family (a root session and its children), kept from the start. */
class EventStream {
  readonly events: DapEvent[] = [];
  private readonly listeners = new Set<(event: DapEvent) => void>();
  /** The adapter's last words when it failed or exited. */
  failure: string | undefined;
  /** The agent's exception filters, added to each `setExceptionBreakpoints` of the family. */
  exceptionFilters: readonly string[] = [];
  /** What the adapter's `initialize` answer offers. */
  offeredFilters: string[] | undefined;
  /** What the adapters of the family said of each breakpoint. */
  readonly breakpoints = new BreakpointReports();

  /** The agent's filters this adapter knows (all of them before it has said what it offers). */
  knownFilters(): string[] {
    const offered = this.offeredFilters;
    return this.exceptionFilters.filter((filter) => !offered || offered.includes(filter));
  }
  /** Set when the adapter's process exit was reported; a failure without it may be followed by it. */
  exited = false;
  private exitWaiters: Array<() => void> = [];

  exit(description: string | undefined): void {
    if (description) this.failure = description;
    this.exited = true;
    for (const wake of this.exitWaiters.splice(0)) wake();
  }

  /** After a read/write failure, the exit (with its code) usually follows within moments. */
  async settled(graceMs: number): Promise<void> {
    if (this.exited || this.failure === undefined) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, graceMs);
      this.exitWaiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /** Counts stops and resumes: a stack the editor asked for belongs to the stop it was asked in. */
  epoch = 0;
  /** The top frame of each thread (by `session\nthread`) as the editor's own `stackTrace` answered it, with its epoch. */
  private readonly topFrames = new Map<string, { epoch: number; frame: unknown }>();
  private readonly frameWaiters = new Set<() => void>();

  sawTopFrame(session: string, threadId: number, epoch: number, frame: unknown): void {
    if (epoch !== this.epoch) return;
    this.topFrames.set(`${session}\n${threadId}`, { epoch, frame });
    for (const wake of [...this.frameWaiters]) wake();
  }

  /** The top frame the editor was told for this stop of the session's thread, waiting up to `timeoutMs` for it. */
  async topFrameOf(session: string, threadId: number, timeoutMs: number): Promise<unknown | undefined> {
    const current = () => {
      const seen = this.topFrames.get(`${session}\n${threadId}`);
      return seen && seen.epoch === this.epoch ? seen.frame : undefined;
    };
    if (current()) return current();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.frameWaiters.delete(check);
        resolve(current());
      };
      const check = () => {
        if (current()) done();
      };
      const timer = setTimeout(done, timeoutMs);
      this.frameWaiters.add(check);
    });
  }

  push(event: DapEvent): void {
    if (event.event === 'stopped' || event.event === 'continued') this.epoch++;
    this.events.push(event);
    if (this.events.length > 2000) this.events.splice(0, 1000);
    for (const listener of this.listeners) listener(event);
  }

  onEvent(listener: (event: DapEvent) => void): { dispose(): void } {
    for (const event of this.events) listener(event);
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }
}

function rootOf(session: vscode.DebugSession): vscode.DebugSession {
  let root = session;
  while (root.parentSession) root = root.parentSession;
  return root;
}

/** js-debug renames a child once started, adding its parent (`main.js [4242] « Agent: main.js`): the first part names it. */
function memberOf(session: vscode.DebugSession, root: vscode.DebugSession): FamilyMember {
  return { id: session.id, name: session.name.split(' « ')[0], root: session === root };
}

export class VscodeDebugHost implements DebugHost, vscode.DebugAdapterTrackerFactory {
  private readonly streams = new Map<string, EventStream>();
  /** The newest live session of each family: requests go there by default (js-debug runs the program in a child). */
  private readonly targets = new Map<string, vscode.DebugSession>();
  /** The live sessions of each family, by id, the root first: a request for a stop goes to the session that stopped. */
  private readonly members = new Map<string, Map<string, vscode.DebugSession>>();
  private launches = 0;
  /** Exception filters of launches whose session has not started yet, by launch id. */
  private readonly launchFilters = new Map<string, readonly string[]>();
  /** Every live session the tracker saw, by id (the Call Stack view names a session by it). */
  private readonly sessions = new Map<string, vscode.DebugSession>();
  /** The connection to each live family a tool reads (one per family: the human's session sent twice is one). */
  private readonly connections = new Map<string, DebugConnection>();
  private connectionsMade = 0;

  createDebugAdapterTracker(session: vscode.DebugSession): vscode.DebugAdapterTracker {
    const root = rootOf(session);
    const stream = this.streamOf(root.id);
    this.sessions.set(session.id, session);
    const family = this.familyOf(root);
    family.set(session.id, session);
    const from = memberOf(session, root);
    // A child (js-debug runs the program in one) becomes where requests go as soon as its adapter
    // exists: its first stop can arrive before the editor announces the session as started.
    if (session !== root) this.targets.set(root.id, session);
    const launchId = root.configuration[LAUNCH_ID_FIELD];
    if (session === root && typeof launchId === 'string')
      stream.exceptionFilters = this.launchFilters.get(launchId) ?? [];
    /** The editor's own `stackTrace` requests of this session (from the first frame), by seq. */
    const asked = new Map<number, { threadId: number; epoch: number }>();
    return {
      onWillReceiveMessage: (message: {
        type?: string;
        seq?: number;
        command?: string;
        arguments?: {
          filters?: string[];
          threadId?: number;
          startFrame?: number;
          source?: { path?: string };
          breakpoints?: Array<{ line?: number }>;
        };
      }) => {
        const file = fileOf(message.arguments?.source?.path);
        if (message.type === 'request' && message.command === 'setBreakpoints' && message.seq !== undefined && file)
          stream.breakpoints.requested(
            session.id,
            message.seq,
            file,
            (message.arguments?.breakpoints ?? []).map((breakpoint) => breakpoint.line ?? 0),
          );
        if (
          message.type === 'request' &&
          message.command === 'stackTrace' &&
          message.seq !== undefined &&
          !message.arguments?.startFrame &&
          message.arguments?.threadId !== undefined
        ) {
          asked.set(message.seq, { threadId: message.arguments.threadId, epoch: stream.epoch });
        }
        if (message.type === 'request' && message.command && RESUMING.has(message.command)) {
          stream.epoch++;
          // Not every adapter says `continued` when the client resumes (the human's step in the toolbar):
          // a session read by the agent must not look stopped while it runs.
          if (message.command !== 'pause')
            stream.push({
              event: 'continued',
              body: { threadId: message.arguments?.threadId, fromRequest: true },
              // Of this session only: a worker resumed leaves its parent's stop standing.
              ...(from ? { from } : {}),
            });
        }
        // The editor sends its own exception settings when it configures the session: ours are added.
        // The tracker sees the very message the adapter is sent, so adding to it changes the request.
        if (
          message.type !== 'request' ||
          message.command !== 'setExceptionBreakpoints' ||
          stream.exceptionFilters.length === 0
        )
          return;
        const args = (message.arguments ??= {});
        args.filters = [...new Set([...(args.filters ?? []), ...stream.knownFilters()])];
      },
      onDidSendMessage: (message: {
        type?: string;
        event?: string;
        command?: string;
        request_seq?: number;
        success?: boolean;
        body?: Record<string, unknown>;
      }) => {
        if (message.type === 'event' && message.event) stream.push({ event: message.event, body: message.body, from });
        if (message.type === 'event' && message.event === 'breakpoint')
          stream.breakpoints.changed(session.id, message.body?.reason, message.body?.breakpoint);
        if (message.type === 'response' && message.command === 'setBreakpoints' && message.request_seq !== undefined)
          stream.breakpoints.answered(
            session.id,
            message.request_seq,
            message.success === true,
            message.body?.breakpoints,
          );
        if (message.type === 'response' && message.command === 'stackTrace' && message.request_seq !== undefined) {
          const question = asked.get(message.request_seq);
          asked.delete(message.request_seq);
          const frames = message.body?.stackFrames;
          if (question && message.success && Array.isArray(frames) && frames.length > 0)
            stream.sawTopFrame(session.id, question.threadId, question.epoch, frames[0]);
        }
        if (message.type === 'response' && message.command === 'initialize' && !stream.offeredFilters) {
          const filters = message.body?.exceptionBreakpointFilters;
          stream.offeredFilters = Array.isArray(filters)
            ? filters.map((filter: { filter?: unknown }) => String(filter.filter))
            : [];
        }
      },
      onError: (error) => {
        if (!stream.exited) stream.failure = `the adapter failed: ${error.message}`;
      },
      onExit: (code, signal) => {
        stream.exit(
          code || signal
            ? `the adapter exited${code ? ` with code ${code}` : ''}${signal ? ` on ${signal}` : ''}`
            : undefined,
        );
      },
    };
  }

  sessionEnded(session: vscode.DebugSession): void {
    this.sessions.delete(session.id);
    const root = rootOf(session);
    const family = this.members.get(root.id);
    family?.delete(session.id);
    if (session === root) this.members.delete(root.id);
    // The newest child still running gets the requests that name no session (js-debug: the program, when a fork ended).
    if (this.targets.get(root.id) === session && session !== root)
      this.targets.set(root.id, [...(family?.values() ?? [])].at(-1) ?? root);
    if (session === root) {
      // A family no tool connected to (the human's, never sent): its events go with it, once a launch that
      // is about to connect to it (a program that ended at once) has had the time to.
      const stream = this.streams.get(root.id);
      setTimeout(() => {
        // Not a root that started again under its id (a restart), nor one a tool reads.
        if (this.connections.has(root.id) || this.sessions.has(root.id)) return;
        if (this.streams.get(root.id) === stream) this.streams.delete(root.id);
        if (!this.members.has(root.id)) this.targets.delete(root.id);
      }, UNCONNECTED_GRACE_MS);
      return;
    }
    const stream = this.streams.get(root.id);
    // A child that ended binds nothing any more (the root's stream goes with the root), and the engine learns
    // of its end even when its adapter said nothing.
    stream?.breakpoints.sessionEnded(session.id);
    stream?.push({ event: 'terminated', from: memberOf(session, root) });
  }

  async launch(plan: LaunchPlan): Promise<DebugConnection> {
    const id = `live-${++this.launches}-${Date.now()}`;
    const { resolution } = plan;
    const configuration: vscode.DebugConfiguration = {
      ...(plan.configuration as vscode.DebugConfiguration),
      [LAUNCH_ID_FIELD]: id,
      ...(resolution?.command ? { [ADAPTER_FIELD]: { command: resolution.command, args: resolution.args ?? [] } } : {}),
    };
    const folder = vscode.workspace.workspaceFolders?.find((candidate) => candidate.uri.fsPath === plan.folder);
    this.launchFilters.set(id, plan.exceptions);
    let subscription: vscode.Disposable | undefined;
    let timer: NodeJS.Timeout | undefined;
    const started = new Promise<vscode.DebugSession>((resolve, reject) => {
      timer = setTimeout(
        () =>
          reject(new DebugRefusal(`The ${plan.adapter} session did not start within ${START_TIMEOUT_MS / 1000} s.`)),
        START_TIMEOUT_MS,
      );
      subscription = vscode.debug.onDidStartDebugSession((session) => {
        if (session.configuration[LAUNCH_ID_FIELD] !== id) return;
        clearTimeout(timer);
        resolve(session);
      });
    });
    // The session is ours once it starts; `startDebugging` itself may settle much later (js-debug
    // answers it when the program has been launched), or never when the editor is stuck on
    // something, so it is not waited for past that point: only its refusal before the start counts.
    const starting = Promise.resolve(
      vscode.debug.startDebugging(
        folder,
        { internalConsoleOptions: 'neverOpen', ...configuration },
        { suppressSaveBeforeStart: true, suppressDebugView: true },
      ),
    ).then(
      (ok) => {
        if (!ok)
          throw new DebugRefusal(
            `The editor could not start the ${plan.adapter} session (${plan.detail}). Check op "adapters", and the Debug Console for the adapter's message.`,
          );
        return undefined;
      },
      (error: unknown) => {
        throw new DebugRefusal(
          `The editor could not start the ${plan.adapter} session: ${error instanceof Error ? error.message : String(error)}`,
        );
      },
    );
    starting.catch(() => undefined);
    const session = await Promise.race([started, starting.then(() => started)]).finally(() => {
      this.launchFilters.delete(id);
      clearTimeout(timer);
      subscription?.dispose();
    });
    return this.connectionOf(session);
  }

  async setBreakpoints(file: string, specs: readonly BreakpointSpec[]): Promise<void> {
    const existing = vscode.debug.breakpoints.filter(
      (breakpoint) => breakpoint instanceof vscode.SourceBreakpoint && breakpoint.location.uri.fsPath === file,
    );
    if (existing.length > 0) vscode.debug.removeBreakpoints(existing);
    const uri = vscode.Uri.file(file);
    if (specs.length > 0) {
      vscode.debug.addBreakpoints(
        specs.map(
          (spec) =>
            new vscode.SourceBreakpoint(
              new vscode.Location(uri, new vscode.Position(spec.line - 1, 0)),
              true,
              spec.condition,
              spec.hitCondition,
              spec.logMessage,
            ),
        ),
      );
    }
  }

  contextFor(file: string | undefined): { folder: string; adapter: AdapterContext } {
    const folders = workspaceFolderPaths();
    if (folders.length === 0) throw new DebugRefusal('No workspace folder is open.');
    const folder =
      (file && folders.find((candidate) => file.startsWith(candidate.path + path.sep))?.path) || folders[0].path;
    const markers = new Set(ADAPTERS.flatMap((spec) => spec.markers));
    let root = folder;
    for (let dir = file ? path.dirname(file) : folder; dir.startsWith(folder); dir = path.dirname(dir)) {
      const entries = safeList(dir);
      if (entries.some((entry) => markers.has(entry) || entry === '.venv' || entry === 'venv')) {
        root = dir;
        break;
      }
      if (dir === folder) break;
    }
    const pythonSetting = userSettingValue<string>(Setting.debugPython) || undefined;
    return {
      folder,
      adapter: {
        root,
        workspaceFolder: folder,
        pathVariable: process.env.PATH ?? '',
        pythonSetting,
        hasJsDebug: vscode.extensions.getExtension('ms-vscode.js-debug') !== undefined,
      },
    };
  }

  resolvePath(file: string): string {
    return resolveFileArgument(workspaceFolderPaths(), file, () => true);
  }

  display(file: string): string {
    return displayPath(workspaceFolderPaths(), file);
  }

  readText(file: string): Promise<string | undefined> {
    return currentText(file);
  }

  namedConfiguration(name: string): Record<string, unknown> | undefined {
    // launch.json is the live workspace's: its `${workspaceFolder}` would run the live code, not a worker's copy.
    if (viewedFolders())
      throw new DebugRefusal(
        `A worker in its copy cannot launch the launch.json configuration "${name}" (it runs in the live workspace); launch the program by its path instead.`,
      );
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      const configurations =
        vscode.workspace.getConfiguration('launch', folder.uri).get<Array<Record<string, unknown>>>('configurations') ??
        [];
      const found = configurations.find((configuration) => configuration.name === name);
      if (found) return found;
      const compounds =
        vscode.workspace
          .getConfiguration('launch', folder.uri)
          .get<Array<{ name?: unknown; configurations?: unknown }>>('compounds') ?? [];
      const compound = compounds.find((candidate) => candidate.name === name);
      if (compound)
        throw new DebugRefusal(
          refusal.compound(
            name,
            (Array.isArray(compound.configurations) ? compound.configurations : []).map((entry: unknown) =>
              typeof entry === 'string' ? entry : String((entry as { name?: unknown })?.name ?? ''),
            ),
          ),
        );
    }
    return undefined;
  }

  private familyOf(root: vscode.DebugSession): Map<string, vscode.DebugSession> {
    let family = this.members.get(root.id);
    if (!family) {
      family = new Map([[root.id, root]]);
      this.members.set(root.id, family);
    }
    return family;
  }

  private streamOf(rootId: string): EventStream {
    let stream = this.streams.get(rootId);
    if (!stream) {
      stream = new EventStream();
      this.streams.set(rootId, stream);
    }
    return stream;
  }

  /** The families whose events are kept and those a tool reads, by root session id, and how many connections were made (for tests). */
  state(): { families: string[]; connections: string[]; connectionsMade: number } {
    return {
      families: [...this.streams.keys()],
      connections: [...this.connections.keys()],
      connectionsMade: this.connectionsMade,
    };
  }

  /** A live session by the editor's id, when the tracker saw it. */
  sessionById(id: string): vscode.DebugSession | undefined {
    return this.sessions.get(id);
  }

  /** Whether the debug tool started the session's family: then it is an agent's own, not the human's. */
  startedByTool(session: vscode.DebugSession): boolean {
    return typeof rootOf(session).configuration[LAUNCH_ID_FIELD] === 'string';
  }

  /** The connection to a session the human started (its family's root: requests go where the program runs). */
  connectionFor(session: vscode.DebugSession): { id: string; connection: DebugConnection } {
    const root = rootOf(session);
    return { id: root.id, connection: this.connectionOf(root) };
  }

  private connectionOf(root: vscode.DebugSession): DebugConnection {
    const known = this.connections.get(root.id);
    if (known) return known;
    this.connectionsMade++;
    const stream = this.streamOf(root.id);
    if (!this.targets.has(root.id)) this.targets.set(root.id, root);
    const ended = new Promise<{ reason?: string }>((resolve) => {
      const subscription = vscode.debug.onDidTerminateDebugSession((session) => {
        if (session.id !== root.id) return;
        subscription.dispose();
        this.targets.delete(root.id);
        // A session started again under this id (a restart) gets a connection of its own.
        if (this.connections.get(root.id) === connection) this.connections.delete(root.id);
        // Let the tracker's exit report arrive first.
        setTimeout(() => {
          void stream.settled(EXIT_GRACE_MS).then(() => {
            this.streams.delete(root.id);
            resolve({ reason: stream.failure });
          });
        }, 50);
      });
    });
    const request = async <T>(command: string, args?: Record<string, unknown>, member?: string): Promise<T> => {
      const target =
        member === undefined ? (this.targets.get(root.id) ?? root) : this.members.get(root.id)?.get(member);
      if (!target) throw new DebugRefusal(refusal.sessionGone(command));
      try {
        return (await withDeadline(target.customRequest(command, args), REQUEST_TIMEOUT_S, `"${command}"`)) as T;
      } catch (error) {
        const failure = stream.failure ? ` (${stream.failure})` : '';
        if (error instanceof DeadlineExceeded)
          throw new DebugRefusal(
            `The adapter did not answer "${command}" within ${REQUEST_TIMEOUT_S} s${failure}. Terminate the session and launch again.`,
          );
        throw new DebugRefusal(
          `The adapter refused "${command}": ${error instanceof Error ? error.message : String(error)}${failure}`,
        );
      }
    };
    const connection: DebugConnection = {
      name: root.name,
      request,
      sessions: () => [...(this.members.get(root.id)?.values() ?? [])].map((session) => memberOf(session, root)),
      onEvent: (listener) => stream.onEvent(listener),
      setExceptionFilters: async (filters) => {
        stream.exceptionFilters = filters;
        // The tracker adds the filters to what is sent; an empty list clears what the agent had set.
        await request('setExceptionBreakpoints', { filters: stream.knownFilters() });
      },
      offeredExceptionFilters: () => stream.offeredFilters,
      observedTopFrame: (threadId, timeoutMs, member) =>
        stream.topFrameOf(member ?? (this.targets.get(root.id) ?? root).id, threadId, timeoutMs),
      breakpointAnswerCount: () => stream.breakpoints.answerCount,
      adapterBreakpoints: async (file, wait) =>
        wait
          ? stream.breakpoints.answerAfter(file, wait.since, wait.timeoutMs, wait.lines)
          : stream.breakpoints.of(file),
      ended,
      terminate: async () => {
        // Bounded: an adapter that ignores the disconnect must not hold up the next launch.
        await withDeadline(
          Promise.resolve(vscode.debug.stopDebugging(root)).then(() => ended),
          STOP_TIMEOUT_S,
          'the session to end',
        ).catch((error: unknown) => {
          if (!(error instanceof DeadlineExceeded)) throw error;
        });
      },
    };
    this.connections.set(root.id, connection);
    return connection;
  }
}

function safeList(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}
