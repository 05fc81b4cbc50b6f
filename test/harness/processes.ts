/**
 * Every process the harness starts goes through here: started in its own process group,
 * stopped by that pid (the group takes the extension host and language servers with it),
 * escalating to SIGKILL, and waited for.
 */
import { ChildProcess, spawn, SpawnOptions } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import { processGroupExists, signalProcessGroup } from '../../src/process/childProcess';

export interface StartedProcess {
  readonly child: ChildProcess;
  readonly pid: number;
  readonly exited: Promise<number | null>;
}

const started = new Set<StartedProcess>();

export function startProcess(
  command: string,
  args: string[],
  options: SpawnOptions & { logFile: string },
): StartedProcess {
  const log = fs.openSync(options.logFile, 'a');
  const child = spawn(command, args, { ...options, detached: true, stdio: ['ignore', log, log] });
  fs.closeSync(log);
  if (child.pid === undefined) throw new Error(`Could not start ${command}.`);
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.once('error', () => resolve(null));
  });
  const process_ = { child, pid: child.pid, exited };
  started.add(process_);
  void exited.then(() => started.delete(process_));
  return process_;
}

/** SIGTERM to the group, SIGKILL after `graceMs`, then wait until no member is left. */
export async function stopProcess(target: StartedProcess, graceMs = 5000): Promise<void> {
  signalProcessGroup(target.pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (processGroupExists(target.pid) && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 100));
  if (processGroupExists(target.pid)) signalProcessGroup(target.pid, 'SIGKILL');
  await Promise.race([target.exited, new Promise((resolve) => setTimeout(resolve, 2000))]);
  for (let tries = 0; tries < 50 && processGroupExists(target.pid); tries++)
    await new Promise((resolve) => setTimeout(resolve, 100));
}

/** Stops whatever is still running (used on hard timeouts and signals). */
export async function stopAll(): Promise<void> {
  await Promise.all([...started].map((target) => stopProcess(target, 2000)));
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export async function waitForHttp(url: string, timeoutMs: number, stillRunning: () => boolean): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError = '';
  while (Date.now() < deadline) {
    if (!stillRunning()) throw new Error(`The server exited before ${url} answered.`);
    try {
      const response = await fetch(url);
      if (response.ok) return;
      lastError = `HTTP ${response.status}`;
    } catch (error) {
      lastError = error instanceof Error ? error.message : String(error);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s (${lastError}).`);
}
