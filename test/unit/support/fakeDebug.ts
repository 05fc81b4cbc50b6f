/**
 * An in-memory editor for the debug engine: a host whose sessions are fake connections that play
 * one program behaviour (stop at entry, or never stop until paused), answer the requests the
 * controller makes, and record what they were asked. For engine rules (waits, time to live,
 * cancellation, answers); real adapters are the integration tests' business.
 */
import * as path from 'node:path';
import { BreakpointSpec, DebugHost, LaunchPlan } from '../../../src/debug/debugController';
import { DapEvent, DebugConnection } from '../../../src/debug/debugSession';

export interface FakeProgram {
  /** 'entry': stops on launch and after each resume; 'never': runs until paused. */
  readonly behaviour: 'entry' | 'never';
  /** Reported in a `process` event when set. */
  readonly processId?: number;
  /** How long the editor takes to start the session. */
  readonly startMs?: number;
}

export class FakeConnection implements DebugConnection {
  readonly name: string;
  readonly requests: string[] = [];
  terminated = false;
  readonly ended: Promise<{ reason?: string }>;
  private endedWith!: (value: { reason?: string }) => void;
  private readonly events: DapEvent[] = [];
  private readonly listeners = new Set<(event: DapEvent) => void>();

  constructor(
    name: string,
    private readonly program: FakeProgram,
  ) {
    this.name = name;
    this.ended = new Promise((resolve) => (this.endedWith = resolve));
    if (program.processId !== undefined) this.emit({ event: 'process', body: { name, systemProcessId: program.processId } });
    if (program.behaviour === 'entry') this.emit({ event: 'stopped', body: { reason: 'entry', threadId: 1 } });
  }

  async request<T>(command: string): Promise<T> {
    this.requests.push(command);
    if (this.terminated) throw new Error(`"${command}" after the session ended`);
    switch (command) {
      case 'threads':
        return { threads: [{ id: 1, name: 'main' }] } as T;
      case 'stackTrace':
        return { stackFrames: [{ id: 1, name: 'main', line: 1, source: { name: 'fake' } }], totalFrames: 1 } as T;
      case 'pause':
        setImmediate(() => this.emit({ event: 'stopped', body: { reason: 'pause', threadId: 1 } }));
        return {} as T;
      case 'continue':
      case 'next':
      case 'stepIn':
      case 'stepOut':
        this.emit({ event: 'continued', body: { threadId: 1 } });
        if (this.program.behaviour === 'entry') setImmediate(() => this.emit({ event: 'stopped', body: { reason: 'step', threadId: 1 } }));
        return {} as T;
      case 'evaluate':
        return { result: '42' } as T;
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
    this.emit({ event: 'terminated' });
    this.endedWith({});
  }

  async setExceptionFilters(): Promise<void> {}

  offeredExceptionFilters(): readonly string[] | undefined {
    return undefined;
  }

  private emit(event: DapEvent): void {
    this.events.push(event);
    for (const listener of this.listeners) listener(event);
  }
}

export class FakeHost implements DebugHost {
  readonly launches: LaunchPlan[] = [];
  readonly connections: FakeConnection[] = [];
  readonly breakpoints = new Map<string, readonly BreakpointSpec[]>();

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
    const connection = new FakeConnection(String(plan.configuration.name), program);
    this.connections.push(connection);
    return connection;
  }

  async setBreakpoints(file: string, breakpoints: readonly BreakpointSpec[]): Promise<void> {
    this.breakpoints.set(file, breakpoints);
  }

  contextFor(): ReturnType<DebugHost['contextFor']> {
    return { folder: this.folder, adapter: { root: this.folder, workspaceFolder: this.folder, pathVariable: '', hasJsDebug: false } };
  }

  resolvePath(file: string): string {
    return path.resolve(this.folder, file);
  }

  display(file: string): string {
    const relative = path.relative(this.folder, file);
    return relative.startsWith('..') ? file : relative.split(path.sep).join('/') || '.';
  }

  namedConfiguration(name: string): Record<string, unknown> | undefined {
    return this.configurations[name];
  }
}
