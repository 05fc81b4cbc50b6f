/**
 * What the tests see of other processes, read from /proc (Linux): whether one runs, its command
 * line, its descendants, and which ones belong to this test run.
 *
 * Leftover-process checks count only the processes of their own test run: another checkout's
 * editor, or a second run on the same machine, may have kernels or debuggers of its own. A process
 * is this run's when it carries the run's marker in its environment (the harness sets it on the
 * editor it starts; everything the editor starts inherits it, and an orphan keeps it) or descends
 * from this extension host.
 */
import * as fs from 'node:fs';

/** The environment variable that names a test run; its value is unique per run. */
export const RUN_MARKER = 'LIVE_TOOLS_TEST_RUN';

/** A process that runs, with its command line (arguments joined by spaces). */
export interface LiveProcess {
  readonly pid: number;
  readonly command: string;
}

/** True while the process exists and is not a zombie waiting to be reaped (containers may lack a reaper). */
export function isAlive(pid: number): boolean {
  const state = stat(pid)?.state;
  return state !== undefined && state !== 'Z' && state !== 'X';
}

/** The command line of a process that runs; undefined once it is gone or a zombie. */
export function commandLine(pid: number): string | undefined {
  if (!isAlive(pid)) return undefined;
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return undefined; // gone meanwhile
  }
}

/** Every process on the machine that runs, whoever started it. */
export function liveProcesses(): LiveProcess[] {
  const found: LiveProcess[] = [];
  for (const pid of allPids()) {
    const command = commandLine(pid);
    if (command !== undefined) found.push({ pid, command });
  }
  return found;
}

/** Live processes of this run whose command line matches, as "pid: command line". */
export function processesMatching(pattern: RegExp, run = process.env[RUN_MARKER], host = process.pid): string[] {
  if (!run)
    throw new Error(
      `${RUN_MARKER} is not set: the test harness sets it on the editor, so that a run counts only its own processes.`,
    );
  return liveProcesses()
    .filter(({ pid, command }) => pattern.test(command) && (carriesMarker(pid, run) || descendsFrom(pid, host)))
    .map(({ pid, command }) => `${pid}: ${command}`);
}

/** Descendants of `root` (zombies included; filter with isAlive): debuggees may leave the adapter's process group. */
export function descendants(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const pid of allPids()) {
    const ppid = stat(pid)?.ppid;
    if (ppid === undefined) continue;
    children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  }
  const found: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    for (const child of children.get(queue.shift()!) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

function allPids(): number[] {
  return fs
    .readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number);
}

function carriesMarker(pid: number, run: string): boolean {
  try {
    return fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(`${RUN_MARKER}=${run}`);
  } catch {
    return false;
  }
}

function descendsFrom(pid: number, ancestor: number): boolean {
  for (let current = pid, hops = 0; current > 1 && hops < 64; hops++) {
    if (current === ancestor) return true;
    current = stat(current)?.ppid ?? 0;
  }
  return false;
}

/** The state letter and parent pid from /proc/<pid>/stat; undefined once the process is gone. */
function stat(pid: number): { state: string; ppid: number } | undefined {
  let text: string;
  try {
    text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so split after the last ')'.
  const [state, ppid] = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { state, ppid: Number(ppid) };
}
