/**
 * A worker's copy of a 10,000-file workspace (copies of Python's standard library, real code):
 * what making it costs (wall time, disk) and what reading the worker's changes back costs, beside
 * the peers from the same run — a bare `git worktree add` (what the field's background agents do,
 * carrying nothing) and `cp -r` of the folder. Plain Node; `--copies-only` runs just this one.
 * The workspace is a git repository with the human's uncommitted edits and untracked files, so the
 * worktree carries them; the folder copy is the same tree with its `.git` left out.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { copyChanges, makeWorkerCopy, removeWorkerCopy } from '../src/vibe/workerCopies';
import { filesUnder } from '../test/support/filesUnder';
import { markdownTable, ratio } from './timedRun';

const FILES = 10_000;
const PYTHON_LIBRARY = '/usr/lib/python3.11';

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@example.com', ...args], {
    cwd,
    stdio: 'ignore',
  });
}

function diskKiB(dir: string): number {
  return Number(execFileSync('du', ['-sk', dir], { encoding: 'utf8' }).split('\t')[0]);
}

async function timed<T>(work: () => Promise<T> | T): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await work();
  return { ms: performance.now() - started, value };
}

/** A workspace of FILES Python files, committed, then some edited and some added (the human's state). */
function workspace(root: string): { files: number; mib: number } {
  const library = fs.existsSync(PYTHON_LIBRARY)
    ? filesUnder(PYTHON_LIBRARY, '.py').filter((file) => !file.includes('site-packages'))
    : [];
  if (library.length === 0) throw new Error(`no Python standard library at ${PYTHON_LIBRARY} (Debian python3)`);
  let bytes = 0;
  for (let index = 0; index < FILES; index++) {
    const source = library[index % library.length];
    const target = path.join(root, `copy${Math.floor(index / library.length)}`, path.relative(PYTHON_LIBRARY, source));
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.copyFileSync(source, target);
    bytes += fs.statSync(target).size;
  }
  git(root, 'init', '-q');
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'workspace');
  const tracked = filesUnder(root, '.py').slice(0, 50);
  for (const file of tracked) fs.appendFileSync(file, '\n# edited by the human, not committed\n');
  for (let index = 0; index < 20; index++) fs.writeFileSync(path.join(root, `untracked${index}.py`), `X = ${index}\n`);
  return { files: FILES + 20, mib: bytes / 1024 ** 2 };
}

export async function workerCopyBenchmark(log: (line: string) => void): Promise<void> {
  const temp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'live-tools-copies-')));
  try {
    const live = path.join(temp, 'live');
    fs.mkdirSync(live);
    const { files, mib } = workspace(live);
    const plain = path.join(temp, 'plain');
    execFileSync('cp', ['-r', live, plain]);
    fs.rmSync(path.join(plain, '.git'), { recursive: true, force: true });
    const storage = path.join(temp, 'storage');
    const owner = { pid: process.pid };
    const rows: string[][] = [
      ['copy', 'ours', 'peer', 'ours / peer', 'disk MiB ours / peer', 'changes read back (20 edited)'],
    ];

    for (const kind of ['worktree', 'folder'] as const) {
      const source = kind === 'worktree' ? live : plain;
      const made = await timed(() =>
        makeWorkerCopy({ storage, id: kind, owner, folders: [{ name: 'w', path: source }], excludeGlobs: () => [] }),
      );
      const copy = made.value;
      const ownDisk = diskKiB(copy.dir) / 1024;
      // The worker's work: 20 files edited.
      for (const file of filesUnder(copy.folders[0].copy, '.py').slice(100, 120))
        fs.appendFileSync(file, '\n# edited by the worker\n');
      const read = await timed(async () => (await copyChanges(copy)).changes);
      if (read.value.length !== 20) throw new Error(`${kind}: ${read.value.length} changes read back, 20 made`);
      const peerDir = path.join(temp, `peer-${kind}`);
      const peer = await timed(() =>
        kind === 'worktree'
          ? git(live, '-c', 'core.hooksPath=/dev/null', 'worktree', 'add', '--detach', '--quiet', peerDir, 'HEAD')
          : execFileSync('cp', ['-r', plain, peerDir]),
      );
      const peerDisk = diskKiB(peerDir) / 1024;
      rows.push([
        kind === 'worktree'
          ? 'git repository: worktree + carried changes + baseline'
          : 'folder outside git: copy + baseline',
        `${(made.ms / 1000).toFixed(2)} s`,
        `${(peer.ms / 1000).toFixed(2)} s (${kind === 'worktree' ? 'git worktree add' : 'cp -r'})`,
        ratio(made.ms, peer.ms),
        `${ownDisk.toFixed(0)} / ${peerDisk.toFixed(0)}`,
        `${read.ms.toFixed(0)} ms`,
      ]);
      await removeWorkerCopy(copy);
      if (kind === 'worktree') git(live, 'worktree', 'remove', '--force', peerDir);
    }
    log(
      `Worker copies of a workspace of ${files.toLocaleString('en-US')} files (${mib.toFixed(0)} MiB of Python's standard library, ` +
        'committed, 50 files edited and 20 added since):',
    );
    log(markdownTable(rows));
  } finally {
    fs.rmSync(temp, { recursive: true, force: true });
  }
}
