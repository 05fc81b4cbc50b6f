/**
 * Leftover-process checks count only the processes of their own test run: another checkout's
 * editor, or a second run on the same machine, may have kernels or debuggers of its own. A process
 * is this run's when it carries the run's marker in its environment (the harness sets it on the
 * editor it starts; everything the editor starts inherits it, and an orphan keeps it) or descends
 * from this extension host.
 */
import * as fs from 'node:fs';

/** The environment variable that names a test run; its value is unique per run. */
export const RUN_MARKER = 'LIVE_TOOLS_TEST_RUN';

/** Live (not zombie) processes of this run whose command line matches, as "pid: command line". */
export function processesMatching(pattern: RegExp, run = process.env[RUN_MARKER], host = process.pid): string[] {
  if (!run) throw new Error(`${RUN_MARKER} is not set: the test harness sets it on the editor, so that a run counts only its own processes.`);
  const found: string[] = [];
  for (const pid of fs.readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      if (/^State:\s+Z/m.test(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))) continue;
      const command = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
      if (pattern.test(command) && (carriesMarker(Number(pid), run) || descendsFrom(Number(pid), host))) found.push(`${pid}: ${command}`);
    } catch {
      // gone meanwhile
    }
  }
  return found;
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
    current = parentOf(current);
  }
  return false;
}

function parentOf(pid: number): number {
  try {
    // The command name in parentheses may hold spaces and parentheses: the fields after its last ")" are fixed.
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return 0;
  }
}
