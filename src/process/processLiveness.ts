/**
 * Whether the process that left a record (a window's discovery file, a worker's copy) still runs: its
 * pid is alive as this user's and, where the system says when processes start, it is the one that
 * started then (a pid is reused after the process ends, or after a reboot).
 */
import * as fs from 'node:fs';

/** When the process started (field 22 of /proc/<pid>/stat), where the system says; undefined elsewhere or when it is gone. */
export function processStartTime(pid: number): string | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: count from its closing one.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

/** The process of a record still runs: alive and, where known, the one that started then. */
export function processLive(record: { readonly pid: number; readonly started?: string }): boolean {
  return processAlive(record.pid) && (record.started === undefined || processStartTime(record.pid) === record.started);
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    // EPERM: a process of another user has the pid now; the one that wrote the record (ours) is gone.
    return false;
  }
}
