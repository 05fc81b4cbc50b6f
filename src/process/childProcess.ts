/**
 * The one way the extension starts child processes: each in its own process group, stopped by
 * that group (SIGTERM, then SIGKILL) on timeout, cancellation or dispose, so nothing outlives us.
 * `runToCompletion` collects a short-lived command's output; `startLongLived` hands a server its pipes.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { boundedTimeout } from '../async/timers';
import { ModelFacingError } from '../platform/modelFacingError';
import { withoutEndpointAccess } from './childEnvironment';

export interface ProcessOptions {
  readonly cwd: string;
  readonly env?: NodeJS.ProcessEnv;
}

export interface CompletedProcess {
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  /** With `binaryStdout`: stdout's bytes as they came (`stdout` is then empty). */
  readonly stdoutBytes?: Buffer;
  readonly stderr: string;
  /** Set when we stopped it: the time bound passed, or the caller cancelled. */
  readonly stoppedBecause?: 'timeout' | 'cancelled';
  readonly seconds: number;
}

/** The command could not be started at all (no such file, not executable). */
export class ProcessNotStarted extends ModelFacingError {
  constructor(
    readonly command: string,
    readonly reason: string,
  ) {
    super(`could not start ${command}: ${reason}`);
    this.name = 'ProcessNotStarted';
  }
}

const KILL_GRACE_MS = 2000;

/** Sends `signal` to the process group led by `pid`; a group already gone is no error. */
export function signalProcessGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is already gone.
  }
}

/** Whether any process of the group led by `pid` is still alive (or a zombie not yet reaped). */
export function processGroupExists(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Stops the whole process group of `child`: SIGTERM, then SIGKILL after a grace period. Resolves on exit. */
export function stopProcessGroup(child: ChildProcess, graceMs = KILL_GRACE_MS): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return Promise.resolve();
  const pid = child.pid;
  const signal = (name: NodeJS.Signals): void => {
    try {
      if (!groupLeaders.has(child)) throw new Error('not a group leader');
      process.kill(-pid, name);
    } catch {
      try {
        child.kill(name);
      } catch {
        // already gone
      }
    }
  };
  return new Promise<void>((resolve) => {
    const timer = setTimeout(() => {
      signal('SIGKILL');
      // Give the kernel a moment to reap; never wait forever.
      setTimeout(resolve, 200);
    }, graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      signal('SIGKILL'); // grandchildren left in the group
      resolve();
    });
    signal('SIGTERM');
  });
}

/** Children started as leaders of their own process group. */
const groupLeaders = new WeakSet<ChildProcess>();
/** Groups still running; if the host process exits without stopping them, they are killed then. */
const liveGroups = new Set<number>();
let exitHookInstalled = false;

function killLiveGroups(): void {
  for (const pid of liveGroups) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  liveGroups.clear();
}

function spawnInGroup(
  command: string,
  args: readonly string[],
  options: ProcessOptions,
  ownGroup = true,
): ChildProcess {
  const child = spawn(command, [...args], {
    cwd: options.cwd,
    env: withoutEndpointAccess(options.env ?? process.env),
    detached: ownGroup, // its own process group, so a stop reaches its children too
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const pid = child.pid;
  if (pid !== undefined && ownGroup) {
    groupLeaders.add(child);
    liveGroups.add(pid);
    child.once('exit', () => liveGroups.delete(pid));
    if (!exitHookInstalled) {
      exitHookInstalled = true;
      process.once('exit', killLiveGroups);
    }
  }
  return child;
}

/**
 * Runs a command to completion, bounded by `timeoutSeconds`; `onCancel` registers a callback
 * the caller fires to stop it early. Output is kept up to `maxOutputChars` per stream.
 */
export function runToCompletion(
  command: string,
  args: readonly string[],
  options: ProcessOptions & {
    readonly timeoutSeconds: number;
    readonly onCancel?: (cancel: () => void) => void;
    readonly onOutput?: (chunk: string) => void;
    /** Each stream's chunks apart (called before `onOutput`). */
    readonly onStdout?: (chunk: string) => void;
    readonly onStderr?: (chunk: string) => void;
    readonly maxOutputChars?: number;
    /** Keep stdout as bytes (at most `maxOutputChars` of them), not decoded. */
    readonly binaryStdout?: boolean;
  },
): Promise<CompletedProcess> {
  const started = Date.now();
  const max = options.maxOutputChars ?? 20_000_000;
  return new Promise<CompletedProcess>((resolve, reject) => {
    let child: ChildProcess;
    try {
      child = spawnInGroup(command, args, options);
    } catch (error) {
      reject(new ProcessNotStarted(command, error instanceof Error ? error.message : String(error)));
      return;
    }
    child.stdin?.end();
    let stdout = '';
    const stdoutChunks: Buffer[] = [];
    let stdoutBytes = 0;
    let stderr = '';
    let stoppedBecause: CompletedProcess['stoppedBecause'];
    if (options.binaryStdout)
      child.stdout?.on('data', (chunk: Buffer) => {
        if (stdoutBytes < max) stdoutChunks.push(chunk.subarray(0, max - stdoutBytes));
        stdoutBytes += chunk.length;
      });
    else
      child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
        if (stdout.length < max) stdout += chunk;
        options.onStdout?.(chunk);
        options.onOutput?.(chunk);
      });
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      if (stderr.length < max) stderr += chunk;
      options.onStderr?.(chunk);
      options.onOutput?.(chunk);
    });
    const stop = (why: 'timeout' | 'cancelled'): void => {
      if (stoppedBecause) return;
      stoppedBecause = why;
      void stopProcessGroup(child);
    };
    const timer = boundedTimeout(() => stop('timeout'), options.timeoutSeconds * 1000);
    options.onCancel?.(() => stop('cancelled'));
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(new ProcessNotStarted(command, error.message));
    });
    child.once('close', (exitCode, signal) => {
      clearTimeout(timer);
      resolve({
        exitCode,
        signal,
        stdout,
        ...(options.binaryStdout ? { stdoutBytes: Buffer.concat(stdoutChunks) } : {}),
        stderr,
        stoppedBecause,
        seconds: (Date.now() - started) / 1000,
      });
    });
  });
}

/**
 * A long-lived child (a language server): its pipes go to the caller; `stop` ends it (SIGTERM,
 * then SIGKILL). It stays in our process group, so whoever stops the editor's process group (a
 * crash, the test harness) takes it along even when deactivate never runs.
 */
export interface LongLivedProcess {
  readonly child: ChildProcess;
  readonly pid: number | undefined;
  readonly exited: Promise<number | null>;
  stop(): Promise<void>;
}

export function startLongLived(command: string, args: readonly string[], options: ProcessOptions): LongLivedProcess {
  const child = spawnInGroup(command, args, options, false);
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.once('error', () => resolve(null));
  });
  return { child, pid: child.pid, exited, stop: () => stopProcessGroup(child) };
}
