/**
 * An in-memory editor for the debug engine: a host whose sessions are fake connections that play
 * one program behaviour (stop at entry, never stop until paused, or a script of stops in a source
 * file ending in an exit), answer the requests the controller makes, and record what they were
 * asked. For engine rules (waits, time to live, cancellation, answers); real adapters are the
 * integration tests' business.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { AdapterBreakpoint, BreakpointReports } from '../../../src/debug/breakpointReports';
import { BreakpointSpec, DebugHost, LaunchPlan } from '../../../src/debug/debugHost';
import { DapEvent, DebugConnection, FamilyMember } from '../../../src/debug/debugSession';

export interface FakeProgram {
  /**
   * 'entry': stops on launch and after each resume; 'never': runs until paused; 'script': stops
   * at `stops` in turn (the first at launch, the next at each resume), then exits; 'fork': a
   * family of sessions (FakeFamily) whose program forks a worker.
   */
  readonly behaviour: 'entry' | 'never' | 'script' | 'fork';
  /** 'fork': the sessions number frames and references apart, as js-debug does (else alike). */
  readonly distinctIds?: boolean;
  /** Reported in a `process` event when set. */
  readonly processId?: number;
  /** How long the editor takes to start the session. */
  readonly startMs?: number;
  /** Printed as soon as the program starts. */
  readonly output?: string;
  /** 'script': the source file its frames are in (absolute). */
  readonly source?: string;
  readonly stops?: readonly FakeStop[];
  /** 'script': printed after the last stop, before the exit. */
  readonly finalOutput?: string;
  readonly exitCode?: number;
  /** Lines the adapter does not bind, with its message ('' for none); any other it binds where asked. */
  readonly unbound?: Readonly<Record<number, string>>;
  /** Lines the adapter binds elsewhere: asked → bound. */
  readonly moved?: Readonly<Record<number, number>>;
  /** Watch expressions that fail, with the adapter's message. */
  readonly failing?: Readonly<Record<string, string>>;
}

/** One stop of a scripted program: where, why, what it printed on the way, and its locals. */
export interface FakeStop {
  readonly reason: string;
  readonly line: number;
  readonly description?: string;
  readonly output?: string;
  /** The top frame's locals (scope "Locals", reference 10); a variable with `children` has reference 20. */
  readonly locals?: readonly FakeVariable[];
}

export interface FakeVariable {
  readonly name: string;
  readonly value: string;
  readonly type?: string;
  readonly children?: readonly FakeVariable[];
}

const LOCALS_REFERENCE = 10;
const GLOBALS_REFERENCE = 11;
const CHILDREN_REFERENCE = 20;

export class FakeConnection implements DebugConnection {
  readonly name: string;
  readonly requests: string[] = [];
  terminated = false;
  /** 'script': the program ran past its last stop (the adapter ended by itself, not told to). */
  exited = false;
  readonly ended: Promise<{ reason?: string }>;
  private endedWith!: (value: { reason?: string }) => void;
  private readonly events: DapEvent[] = [];
  private readonly listeners = new Set<(event: DapEvent) => void>();
  /** 'script': the index of the current (or next) stop. */
  private step = 0;
  private readonly reports = new BreakpointReports();
  private breakpointSeq = 0;
  /** The `evaluate` requests' contexts, in order. */
  readonly evaluateContexts: string[] = [];

  constructor(
    name: string,
    private readonly program: FakeProgram,
    /** The editor's breakpoints at launch: answered at configuration, before the program runs. */
    breakpoints: ReadonlyMap<string, readonly BreakpointSpec[]> = new Map(),
  ) {
    this.name = name;
    for (const [file, specs] of breakpoints) this.answerBreakpoints(file, specs);
    this.ended = new Promise((resolve) => (this.endedWith = resolve));
    if (program.processId !== undefined)
      this.emit({ event: 'process', body: { name, systemProcessId: program.processId } });
    if (program.output) this.emit({ event: 'output', body: { category: 'stdout', output: program.output } });
    if (program.behaviour === 'entry') this.emit({ event: 'stopped', body: { reason: 'entry', threadId: 1 } });
    if (program.behaviour === 'script') this.reachStop();
  }

  async request<T>(command: string, args?: Record<string, unknown>): Promise<T> {
    this.requests.push(command);
    if (this.terminated || this.exited) throw new Error(`"${command}" after the session ended`);
    switch (command) {
      case 'threads':
        return { threads: [{ id: 1, name: 'main' }] } as T;
      case 'stackTrace':
        if (this.program.behaviour === 'script') {
          const source = { path: this.program.source, name: 'fake' };
          return {
            stackFrames: [
              { id: 1, name: 'main', line: this.stop()?.line ?? 1, source },
              { id: 2, name: '<module>', line: 1, source },
            ],
            totalFrames: 2,
          } as T;
        }
        return { stackFrames: [{ id: 1, name: 'main', line: 1, source: { name: 'fake' } }], totalFrames: 1 } as T;
      case 'scopes':
        return {
          scopes: [
            { name: 'Locals', variablesReference: LOCALS_REFERENCE },
            { name: 'Globals', variablesReference: GLOBALS_REFERENCE, expensive: true },
          ],
        } as T;
      case 'variables': {
        const locals = this.stop()?.locals ?? [];
        const shown =
          args?.variablesReference === LOCALS_REFERENCE
            ? locals
            : args?.variablesReference === CHILDREN_REFERENCE
              ? (locals.find((local) => local.children)?.children ?? [])
              : [];
        return {
          variables: shown.map((local) => ({
            name: local.name,
            value: local.value,
            type: local.type,
            variablesReference: local.children ? CHILDREN_REFERENCE : 0,
          })),
        } as T;
      }
      case 'pause':
        setImmediate(() => this.emit({ event: 'stopped', body: { reason: 'pause', threadId: 1 } }));
        return {} as T;
      case 'continue':
      case 'next':
      case 'stepIn':
      case 'stepOut':
        this.emit({ event: 'continued', body: { threadId: 1 } });
        if (this.program.behaviour === 'entry')
          setImmediate(() => this.emit({ event: 'stopped', body: { reason: 'step', threadId: 1 } }));
        if (this.program.behaviour === 'script') {
          this.step++;
          setImmediate(() => this.reachStop());
        }
        return {} as T;
      case 'evaluate': {
        this.evaluateContexts.push(String(args?.context));
        const failure = this.program.failing?.[String(args?.expression)];
        if (failure !== undefined) throw new Error(failure);
        if (this.program.behaviour !== 'script') return { result: '42' } as T;
        const local = this.stop()?.locals?.find((candidate) => candidate.name === args?.expression);
        if (!local) return { result: `${String(args?.expression)} (frame ${String(args?.frameId)})` } as T;
        return {
          result: local.value,
          type: local.type,
          variablesReference: local.children ? CHILDREN_REFERENCE : 0,
        } as T;
      }
      default:
        return {} as T;
    }
  }

  onEvent(listener: (event: DapEvent) => void): { dispose(): void } {
    for (const event of this.events) listener(event);
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  async terminate(): Promise<void> {
    if (this.terminated) return;
    this.terminated = true;
    if (this.exited) return;
    this.emit({ event: 'terminated' });
    this.endedWith({});
  }

  async setExceptionFilters(): Promise<void> {}

  /** The editor sent the file's breakpoints: answered as the program's adapter would. */
  answerBreakpoints(file: string, specs: readonly BreakpointSpec[]): void {
    const seq = ++this.breakpointSeq;
    this.reports.requested(
      'fake',
      seq,
      file,
      specs.map((spec) => spec.line),
    );
    this.reports.answered(
      'fake',
      seq,
      true,
      specs.map((spec, index) => {
        const message = this.program.unbound?.[spec.line];
        if (message !== undefined) return { id: seq * 100 + index, verified: false, message: message || undefined };
        return { id: seq * 100 + index, verified: true, line: this.program.moved?.[spec.line] ?? spec.line };
      }),
    );
  }

  breakpointAnswerCount(): number {
    return this.reports.answerCount;
  }

  async adapterBreakpoints(file: string, wait?: { since: number; timeoutMs: number; lines: readonly number[] }) {
    return wait ? this.reports.answerAfter(file, wait.since, wait.timeoutMs, wait.lines) : this.reports.of(file);
  }

  offeredExceptionFilters(): readonly string[] | undefined {
    return undefined;
  }

  private stop(): FakeStop | undefined {
    return this.program.stops?.[this.step];
  }

  /** 'script': prints the way to the current stop and stops there, or past the last stop, exits. */
  private reachStop(): void {
    if (this.terminated || this.exited) return;
    const stop = this.stop();
    if (stop) {
      if (stop.output) this.emit({ event: 'output', body: { category: 'stdout', output: stop.output } });
      this.emit({ event: 'stopped', body: { reason: stop.reason, threadId: 1, description: stop.description } });
      return;
    }
    if (this.program.finalOutput)
      this.emit({ event: 'output', body: { category: 'stdout', output: this.program.finalOutput } });
    this.emit({ event: 'exited', body: { exitCode: this.program.exitCode ?? 0 } });
    this.exited = true;
    this.emit({ event: 'terminated' });
    this.endedWith({});
  }

  private emit(event: DapEvent): void {
    this.events.push(event);
    for (const listener of this.listeners) listener(event);
  }
}

export class FakeHost implements DebugHost {
  readonly launches: LaunchPlan[] = [];
  readonly connections: FakeConnection[] = [];
  readonly families: FakeFamily[] = [];
  readonly breakpoints = new Map<string, readonly BreakpointSpec[]>();
  /** Documents open in the fake editor, with their (unsaved) text, by absolute path. */
  readonly openDocuments = new Map<string, string>();

  constructor(
    readonly folder: string,
    /** launch.json, by name; `program` of each is what the fake runs. */
    readonly configurations: Record<string, Record<string, unknown>>,
    private readonly programs: Record<string, FakeProgram>,
  ) {}

  async launch(plan: LaunchPlan): Promise<DebugConnection> {
    this.launches.push(plan);
    const program = this.programs[String(plan.configuration.name)] ?? { behaviour: 'entry' };
    if (program.startMs) await new Promise((resolve) => setTimeout(resolve, program.startMs));
    if (program.behaviour === 'fork') {
      const family = new FakeFamily(String(plan.configuration.name), this.folder, program.distinctIds);
      this.families.push(family);
      return family;
    }
    const connection = new FakeConnection(String(plan.configuration.name), program, this.breakpoints);
    this.connections.push(connection);
    return connection;
  }

  async setBreakpoints(file: string, breakpoints: readonly BreakpointSpec[]): Promise<void> {
    this.breakpoints.set(file, breakpoints);
    // The editor sends them to the running session, whose adapter answers a moment later.
    const live = this.connections.filter((connection) => !connection.terminated && !connection.exited);
    setImmediate(() => live.forEach((connection) => connection.answerBreakpoints(file, breakpoints)));
  }

  contextFor(): ReturnType<DebugHost['contextFor']> {
    return {
      folder: this.folder,
      adapter: { root: this.folder, workspaceFolder: this.folder, pathVariable: '', hasJsDebug: false },
    };
  }

  resolvePath(file: string): string {
    return path.resolve(this.folder, file);
  }

  display(file: string): string {
    const relative = path.relative(this.folder, file);
    return relative.startsWith('..') ? file : relative.split(path.sep).join('/') || '.';
  }

  async readText(file: string): Promise<string | undefined> {
    const open = this.openDocuments.get(file);
    if (open !== undefined) return open;
    try {
      return fs.readFileSync(file, 'utf8');
    } catch {
      return undefined;
    }
  }

  namedConfiguration(name: string): Record<string, unknown> | undefined {
    return this.configurations[name];
  }
}

const ROOT: FamilyMember = { id: 'root', name: 'fork', root: true };
const PARENT: FamilyMember = { id: 'parent', name: 'main.js [100]', root: false };
const WORKER: FamilyMember = { id: 'worker', name: 'worker.js [101]', root: false };

/**
 * js-debug's shape of a program that forks: a root session with no threads, the program's session,
 * and the worker's, each numbering its one thread 1 and its frames and references alike, so a
 * request sent to the wrong session answers wrongly. The worker stops at launch (worker.js:8); its
 * continue ends it (exit code 3) and stops the parent (main.js:9); the parent's continue ends all.
 * Every request is recorded as `command@session` with its thread, frame or reference.
 */
export class FakeFamily implements DebugConnection {
  readonly requests: string[] = [];
  readonly ended: Promise<{ reason?: string }>;
  private endedWith!: (value: { reason?: string }) => void;
  private readonly events: DapEvent[] = [];
  private readonly listeners = new Set<(event: DapEvent) => void>();
  private readonly live = new Set<FamilyMember>([ROOT, PARENT, WORKER]);

  constructor(
    readonly name: string,
    private readonly folder: string,
    private readonly distinctIds = false,
  ) {
    this.ended = new Promise((resolve) => (this.endedWith = resolve));
    this.emit({ event: 'process', body: { systemProcessId: 100 } }, ROOT);
    this.emit({ event: 'output', body: { category: 'stdout', output: 'forking\n' } }, PARENT);
    this.emit({ event: 'process', body: { systemProcessId: 101 } }, WORKER);
    this.emit({ event: 'stopped', body: { reason: 'breakpoint', threadId: 1 } }, WORKER);
  }

  async request<T>(command: string, args: Record<string, unknown> = {}, session?: string): Promise<T> {
    const member = session === undefined ? [...this.live].at(-1) : [...this.live].find((m) => m.id === session);
    const detail = ['threadId', 'frameId', 'variablesReference']
      .filter((key) => args[key] !== undefined)
      .map((key) => `${key}=${String(args[key])}`)
      .join(' ');
    this.requests.push(`${command}@${session ?? '(default)'}${detail ? ` ${detail}` : ''}`);
    if (!member) throw new Error(`no session ${session}`);
    const worker = member === WORKER;
    switch (command) {
      case 'threads':
        return { threads: member.root ? [] : [{ id: 1, name: worker ? 'worker.js' : 'main.js' }] } as T;
      case 'stackTrace':
        if (args.threadId !== 1 || member.root) throw new Error(`no thread ${String(args.threadId)}`);
        return {
          stackFrames: [
            worker
              ? {
                  id: this.distinctIds ? 5 : 1,
                  name: 'total',
                  line: 8,
                  source: { path: path.join(this.folder, 'worker.js') },
                }
              : {
                  id: this.distinctIds ? 7 : 1,
                  name: '<anonymous>',
                  line: 9,
                  source: { path: path.join(this.folder, 'main.js') },
                },
          ],
          totalFrames: 1,
        } as T;
      case 'scopes':
        return { scopes: [{ name: 'Local', variablesReference: this.distinctIds && !worker ? 20 : 10 }] } as T;
      case 'variables':
        return {
          variables: [
            worker
              ? { name: 'sum', value: '15', variablesReference: 0 }
              : { name: 'reply', value: "'total 15'", variablesReference: 0 },
          ],
        } as T;
      case 'evaluate': {
        const value = worker ? { sum: '15' } : { reply: "'total 15'" };
        const result = value[String(args.expression) as keyof typeof value];
        if (result === undefined) throw new Error(`${String(args.expression)} is not defined`);
        return { result } as T;
      }
      case 'continue':
        setImmediate(() => (worker ? this.workerExits() : this.allExit()));
        return {} as T;
      default:
        return {} as T;
    }
  }

  sessions(): readonly FamilyMember[] {
    return [...this.live];
  }

  /** The parent stops too, while the worker is still stopped. */
  stopParent(): void {
    this.emit({ event: 'stopped', body: { reason: 'breakpoint', threadId: 1 } }, PARENT);
  }

  onEvent(listener: (event: DapEvent) => void): { dispose(): void } {
    for (const event of this.events) listener(event);
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  async terminate(): Promise<void> {
    if (this.live.size > 0) this.allExit();
  }

  async setExceptionFilters(): Promise<void> {}

  offeredExceptionFilters(): readonly string[] | undefined {
    return undefined;
  }

  breakpointAnswerCount(): number {
    return 0;
  }

  async adapterBreakpoints(): Promise<ReadonlyMap<number, AdapterBreakpoint>> {
    return new Map<number, AdapterBreakpoint>();
  }

  private workerExits(): void {
    this.emit({ event: 'continued', body: { threadId: 1 } }, WORKER);
    this.emit({ event: 'exited', body: { exitCode: 3 } }, WORKER);
    this.emit({ event: 'terminated' }, WORKER);
    this.live.delete(WORKER);
    this.emit({ event: 'stopped', body: { reason: 'breakpoint', threadId: 1 } }, PARENT);
  }

  private allExit(): void {
    this.emit({ event: 'terminated' }, PARENT);
    this.emit({ event: 'exited', body: { exitCode: 0 } }, ROOT);
    this.emit({ event: 'terminated' }, ROOT);
    this.live.clear();
    this.endedWith({});
  }

  private emit(event: DapEvent, from: FamilyMember): void {
    const sent = { ...event, from };
    this.events.push(sent);
    for (const listener of this.listeners) listener(sent);
  }
}
