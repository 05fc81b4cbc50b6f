/**
 * Workers in their own copy: a write or exec worker gets a private copy of the workspace (see
 * `workerCopies.ts`) made when it starts; its tool calls are rooted there. When it ends, what it
 * changed becomes one staged change for its owner and the human (three-way: merged into what
 * changed in the live files since, refused where they meet); the copy goes when that change is
 * resolved, when the worker is stopped without keeping its work, or at the next activation once
 * its window is gone. A finished worker given a message continues in the same copy.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { Logger } from '../../log/logger';
import { workerConversation } from '../../platform/caller';
import { plural } from '../../platform/wording';
import { diffEdits } from '../../edits/textDiff';
import { TextEdit } from '../../edits/textEdits';
import { textOfBytes } from '../../workspace/vscode/fileTexts';
import { windowFolderPaths } from '../../workspace/vscode/workspaceFolders';
import { WorkerSummary } from '../vibeWorkers';
import {
  CopyChange,
  CopyOwner,
  copyChanges,
  makeWorkerCopy,
  removeWorkerCopy,
  sweepWorkerCopies,
  WorkerCopy,
} from '../workerCopies';

/** A worker's change as the staging service takes it (the same shape as its StageRequest). */
export interface WorkerChangeRequest {
  readonly conversation: string;
  readonly origin: string;
  readonly summary: string;
  readonly author: string;
  readonly merge: 'three-way';
  readonly files: readonly {
    readonly path: string;
    readonly original: string;
    readonly edits: readonly TextEdit[];
    readonly lifecycle?: 'create' | 'delete';
  }[];
}

/** What isolation needs of the rest of the extension, wired in extension.ts. */
export interface WorkerReview {
  /** Stages a worker's change for review; its id (`edit_3`). */
  stage(request: WorkerChangeRequest): Promise<string>;
  /** Withdraws a pending change (its worker continues and will stage all its work again). */
  withdraw(id: string): void;
  /** `listener` is told the id of each change accepted or discarded. */
  onResolved(listener: (id: string) => void): vscode.Disposable;
  /** Ends a conversation's kernels and debug session (their working directory is going). */
  endConversation(conversation: string): Promise<void>;
}

/** The folders a worker works in, as a caller's `copy`. */
export type CopyFolders = readonly { readonly name: string; readonly path: string }[];

interface Isolated {
  readonly worker: Pick<WorkerSummary, 'id' | 'label' | 'owner'>;
  copy: WorkerCopy | undefined;
  /** Watches the copy, so the editor takes in what is written there (see `watchCopy`). */
  watcher?: vscode.Disposable;
  /** Its pending staged change. */
  editId?: string;
  /** Set while its pending change is withdrawn because it continues: the copy stays. */
  continuing?: boolean;
}

/** This extension host: copies record it, so the next activation can tell whose window is gone. */
const HOST: CopyOwner = { pid: process.pid, startedAt: Math.round(Date.now() - process.uptime() * 1000) };

function alive(owner: CopyOwner): boolean {
  if (owner.pid === process.pid) return Math.abs(owner.startedAt - HOST.startedAt) < 2000;
  try {
    process.kill(owner.pid, 0);
    return true;
  } catch {
    // ESRCH: gone; EPERM: another user's process holds the pid now, so the window that made the copy is gone too.
    return false;
  }
}

/** files.exclude entries that are on, relative to the folder. */
function excludeGlobs(folder: string): string[] {
  const table =
    vscode.workspace.getConfiguration('files', vscode.Uri.file(folder)).get<Record<string, unknown>>('exclude') ?? {};
  return Object.entries(table)
    .filter(([, on]) => on)
    .map(([glob]) => glob);
}

/**
 * Measured in 1.139 (code-server): a document the editor holds outside the workspace folders is not
 * reloaded when its file changes on disk, so the writer waited its 3 s for every write in a copy and
 * the language servers read stale text. A file-system watcher on the copy makes the editor watch it.
 */
function watchCopy(copy: WorkerCopy): vscode.Disposable {
  const watchers = copy.folders.map((folder) =>
    vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(folder.copy), '**/*')),
  );
  return vscode.Disposable.from(...watchers);
}

/** Bytes holding NUL in their first 8 KB are taken for binary: not brought back as text. */
function isBinary(bytes: Buffer | undefined): boolean {
  return bytes !== undefined && bytes.subarray(0, 8192).includes(0);
}

export class WorkerIsolation implements vscode.Disposable {
  private readonly workers = new Map<string, Isolated>();
  private readonly storage: string;
  private readonly subscription: vscode.Disposable;

  constructor(
    storageRoot: string,
    private readonly review: WorkerReview,
    private readonly log: Logger,
  ) {
    this.storage = path.join(storageRoot, 'worker-copies');
    this.subscription = review.onResolved((id) => void this.resolved(id));
    void sweepWorkerCopies(this.storage, alive).then(
      (removed) =>
        removed > 0 &&
        this.log.info('vibe.copy', `removed ${plural(removed, 'copy', 'copies')} of windows that are gone`),
      (error: unknown) => this.log.warn('vibe.copy', `sweeping old copies failed: ${String(error)}`),
    );
  }

  /** Makes a worker's copy before it starts (refused with CopyRefused: too big, no git). */
  async prepare(worker: Pick<WorkerSummary, 'id' | 'label' | 'owner'>): Promise<void> {
    const copy = await this.makeCopy(worker.id);
    this.workers.set(worker.id, { worker, copy, watcher: watchCopy(copy) });
  }

  /** Moves a copy made under a provisional id to the worker's id, once the pool numbered it. */
  adopt(provisional: string, worker: Pick<WorkerSummary, 'id' | 'label' | 'owner'>): void {
    const isolated = this.workers.get(provisional);
    if (!isolated) return;
    this.workers.delete(provisional);
    this.workers.set(worker.id, { ...isolated, worker });
  }

  /** The folders a worker's calls are rooted in, or undefined for a worker in the live workspace. */
  copyOf(workerId: string): CopyFolders | undefined {
    return this.workers.get(workerId)?.copy?.folders.map((folder) => ({ name: folder.name, path: folder.copy }));
  }

  isIsolated(workerId: string): boolean {
    return this.workers.has(workerId);
  }

  /** How many files the worker changed in its copy (0 without one). */
  async changedFiles(workerId: string): Promise<number> {
    const copy = this.workers.get(workerId)?.copy;
    return copy ? (await copyChanges(copy)).length : 0;
  }

  /** The worker ended: its work staged for review (or dropped), said for its owner. */
  async settle(worker: WorkerSummary, keep: boolean | Promise<boolean>): Promise<string | undefined> {
    const isolated = this.workers.get(worker.id);
    if (!isolated?.copy) return undefined;
    const { copy } = isolated;
    if (!(await keep)) {
      await this.drop(isolated);
      return 'Its work in its copy was discarded.';
    }
    const changes = await copyChanges(copy);
    if (changes.length === 0) {
      await this.drop(isolated);
      return 'It changed no file in its copy.';
    }
    const { request, skipped } = await this.changeRequest(isolated, changes);
    const skippedNote = skipped.length ? ` Not brought back (binary): ${skipped.join(', ')}.` : '';
    if (request.files.length === 0) {
      await this.drop(isolated);
      return `It changed only binary files in its copy, which are not brought back: ${skipped.join(', ')}.`;
    }
    isolated.editId = await this.review.stage(request);
    isolated.continuing = false;
    this.log.info('vibe.copy', `${worker.id}: ${changes.length} changed files staged as ${isolated.editId}`);
    return (
      `Its work in its copy is staged as ${isolated.editId} for review: ${request.summary}.${skippedNote} ` +
      `The human can shape it per file and hunk in Staged Edits; resolve with edit_id "${isolated.editId}" ` +
      '(accept merges it into the live files where nobody changed the same lines since, and is refused, naming them, where they meet).'
    );
  }

  /** A finished worker continues: its pending change is withdrawn (it stages all its work again), or a new copy is made. */
  async resume(worker: WorkerSummary): Promise<void> {
    const isolated = this.workers.get(worker.id);
    if (!isolated) return;
    if (isolated.editId) {
      isolated.continuing = true;
      try {
        this.review.withdraw(isolated.editId);
      } catch {
        // Resolved meanwhile: its copy went with it, and a new one is made below.
      }
      isolated.editId = undefined;
    }
    if (!isolated.copy) {
      isolated.copy = await this.makeCopy(worker.id);
      isolated.watcher = watchCopy(isolated.copy);
    }
  }

  dispose(): void {
    this.subscription.dispose();
  }

  private async makeCopy(id: string): Promise<WorkerCopy> {
    const started = Date.now();
    const copy = await makeWorkerCopy({
      storage: this.storage,
      id: `${id}-${process.pid}-${Date.now().toString(36)}`,
      owner: HOST,
      folders: windowFolderPaths(),
      excludeGlobs: (folder) => excludeGlobs(folder.path),
    });
    this.log.info(
      'vibe.copy',
      `${id}: ${copy.folders.map((folder) => `${folder.kind} ${folder.copy}`).join(', ')}; ${copy.files} files, ` +
        `${(copy.bytes / 1024 ** 2).toFixed(1)} MiB in ${Date.now() - started} ms`,
    );
    return copy;
  }

  private async resolved(editId: string): Promise<void> {
    for (const isolated of this.workers.values()) {
      if (isolated.editId !== editId) continue;
      isolated.editId = undefined;
      if (isolated.continuing) return;
      await this.drop(isolated);
      return;
    }
  }

  /** Removes the copy and ends what ran in it. */
  private async drop(isolated: Isolated): Promise<void> {
    const { copy } = isolated;
    isolated.copy = undefined;
    isolated.watcher?.dispose();
    isolated.watcher = undefined;
    if (!copy) return;
    await this.review.endConversation(workerConversation(isolated.worker.owner, isolated.worker.id));
    await removeWorkerCopy(copy).catch((error: unknown) =>
      this.log.warn('vibe.copy', `could not remove ${copy.dir}: ${String(error)}`),
    );
    this.log.info('vibe.copy', `${isolated.worker.id}: copy removed`);
  }

  /** The copy's changes as one staged change of live files: edits, created and deleted files (a move is both). */
  private async changeRequest(
    isolated: Isolated,
    changes: readonly CopyChange[],
  ): Promise<{ request: WorkerChangeRequest; skipped: string[] }> {
    const files: WorkerChangeRequest['files'][number][] = [];
    const skipped: string[] = [];
    let edited = 0;
    let created = 0;
    let deleted = 0;
    for (const change of changes) {
      const live = (relative: string): string => path.join(change.folder.live, ...relative.split('/'));
      if (isBinary(change.before) || isBinary(change.after)) {
        skipped.push(change.path);
        continue;
      }
      if (change.before !== undefined && (change.kind === 'deleted' || change.kind === 'moved')) {
        const from = live(change.from ?? change.path);
        const original = await textOfBytes(from, change.before);
        files.push({
          path: from,
          original,
          edits: [{ start: 0, end: original.length, text: '' }],
          lifecycle: 'delete',
        });
        deleted++;
      }
      if (change.after !== undefined && (change.kind === 'created' || change.kind === 'moved')) {
        const to = live(change.path);
        // A created file is read as its live twin would be (UTF-8 unless a mark or the settings say otherwise).
        const text = await textOfBytes(to, change.after);
        files.push({ path: to, original: '', edits: [{ start: 0, end: 0, text }], lifecycle: 'create' });
        created++;
      }
      if (change.kind === 'modified' && change.before && change.after) {
        const file = live(change.path);
        const original = await textOfBytes(file, change.before);
        const proposed = await textOfBytes(file, change.after);
        files.push({ path: file, original, edits: diffEdits(original, proposed) });
        edited++;
      }
    }
    const parts = [
      edited ? `${edited} edited` : '',
      created ? `${created} created` : '',
      deleted ? `${deleted} deleted` : '',
    ].filter(Boolean);
    const { worker } = isolated;
    return {
      request: {
        conversation: workerConversation(worker.owner, worker.id),
        origin: `worker ${worker.id}`,
        summary: `${worker.id} "${worker.label}": ${plural(files.length, 'file')} (${parts.join(', ')})`,
        author: `Worker "${worker.label}" (${worker.id})`,
        merge: 'three-way',
        files,
      },
      skipped,
    };
  }
}
