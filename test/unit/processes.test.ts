/**
 * Leftover-process checks count only their own run's processes (test/support/processes.ts):
 * a process that looks like a kernel but belongs to another run on this machine (another checkout's
 * editor) is not counted; one of this run is, and so is an orphan that only carries the marker.
 */
import * as assert from 'node:assert/strict';
import { ChildProcess, spawn } from 'node:child_process';
import { processesMatching, RUN_MARKER } from '../support/processes';

/** A process whose command line names a kernel, started with the given run marker (none: no marker). */
function lookalike(run: string | undefined, detached = false): ChildProcess {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env[RUN_MARKER];
  if (run) env[RUN_MARKER] = run;
  // The script name is an argument only: the command line matches the checks' pattern.
  return spawn(
    process.execPath,
    ['-e', 'setTimeout(() => {}, 60000)', 'dist/kernels/python_kernel.py', run ?? 'none'],
    { env, detached, stdio: 'ignore' },
  );
}

describe('leftover-process checks', function () {
  this.timeout(10_000);
  const started: ChildProcess[] = [];
  const kernels = (run: string, host: number): string[] => processesMatching(/kernels\/python_kernel\.py/, run, host);

  after(() => {
    for (const child of started) child.kill('SIGKILL');
  });

  it("count this run's processes, never another run's on the same machine", async () => {
    const mine = lookalike('run-mine');
    const theirs = lookalike('run-theirs');
    started.push(mine, theirs);
    await new Promise((resolve) => setTimeout(resolve, 200));
    // As seen from an editor that is not these processes' parent (pid 1: no process descends from it but through init).
    const seen = kernels('run-mine', 1).map((line) => Number(line.split(':')[0]));
    assert.ok(seen.includes(mine.pid as number), `this run's process is counted: ${seen.join(', ')}`);
    assert.ok(!seen.includes(theirs.pid as number), "another run's process is not counted");
  });

  it('count a child of this editor even without the marker', async () => {
    const child = lookalike(undefined);
    started.push(child);
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.ok(kernels('run-mine', process.pid).some((line) => line.startsWith(`${child.pid}:`)));
    assert.ok(
      !kernels('run-mine', 1).some((line) => line.startsWith(`${child.pid}:`)),
      'without the marker or the parent it is not',
    );
  });

  it('refuse to count without a run marker', () => {
    assert.throws(() => processesMatching(/x/, undefined), new RegExp(`${RUN_MARKER} is not set`));
  });
});
