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
import { processLive, processStartTime } from '../../process/processLiveness';
import { workerConversation } from '../../platform/caller';
import { plural } from '../../platform/wording';
import { diffEdits } from '../../edits/textDiff';
import { TextEdit } from '../../edits/textEdits';
import { textOfBytes } from '../../workspace/vscode/fileTexts';
import { windowFolderPaths } from '../../workspace/vscode/workspaceFolders';
import { WorkerSummary } from '../vibeWorkers';
import {
  changeCount,
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
  /**
   * Withdraws a pending change (its worker continues and will stage all its work again); false when it
   * was resolved first (an accept in flight is waited for).
   */
  withdraw(id: string): Promise<boolean>;
  /** Whether a change is still pending (the human may resolve it while its review opens). */
  isPending(id: string): boolean;
  /** `listener` is told the id of each change accepted or discarded. */
  onResolved(listener: (id: string) => void): vscode.Disposable;
  /**
   * Ends what ran in a copy that is going: the conversation's kernels and debug session, and our
   * language servers rooted in its folders.
   */
  release(conversation: string, folders: readonly string[]): Promise<void>;
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
  /** From its start (or continuing) until it settles: its copy is never removed meanwhile. */
  running: boolean;
  /** A new copy being made for it as it continues (settling waits for it). */
  making?: Promise<void>;
}

/** This extension host: copies record it, so the next activation can tell whose window is gone. */
const HOST: CopyOwner = { pid: process.pid, started: processStartTime(process.pid) };

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
    void sweepWorkerCopies(this.storage, processLive).then(
      (removed) =>
        removed > 0 &&
        this.log.info('vibe.copy', `removed ${plural(removed, 'copy', 'copies')} of windows that are gone`),
      (error: unknown) => this.log.warn('vibe.copy', `sweeping old copies failed: ${String(error)}`),
    );
  }

  /** Makes a worker's copy before it starts, keyed by its reserved id (refused with CopyRefused: too big, no git). */
  async prepare(worker: Pick<WorkerSummary, 'id' | 'label' | 'owner'>): Promise<void> {
    const copy = await this.makeCopy(worker.id);
    this.workers.set(worker.id, { worker, copy, watcher: watchCopy(copy), running: true });
  }

  /** The worker started: its summary (the label as spawned) replaces the one its copy was made for. */
  started(worker: Pick<WorkerSummary, 'id' | 'label' | 'owner'>): void {
    const isolated = this.workers.get(worker.id);
    if (isolated) this.workers.set(worker.id, { ...isolated, worker });
  }

  /**
   * The folders a worker's calls are rooted in, or undefined for a worker in the live workspace. A worker
   * whose copy is gone gets no folder at all (its tools refuse): never the live workspace.
   */
  copyOf(workerId: string): CopyFolders | undefined {
    const isolated = this.workers.get(workerId);
    if (!isolated) return undefined;
    return isolated.copy?.folders.map((folder) => ({ name: folder.name, path: folder.copy })) ?? [];
  }

  isIsolated(workerId: string): boolean {
    return this.workers.has(workerId);
  }

  /** How many files the worker changed in its copy (0 without one; names only, nothing is read). */
  async changedFiles(workerId: string): Promise<number> {
    const copy = this.workers.get(workerId)?.copy;
    return copy ? changeCount(copy) : 0;
  }

  /** The worker ended: its work staged for review (or dropped), said for its owner. */
  async settle(worker: WorkerSummary, keep: boolean | Promise<boolean>): Promise<string | undefined> {
    const isolated = this.workers.get(worker.id);
    if (!isolated) return undefined;
    // Stopped while a new copy was being made for it: that copy is settled too, not left behind.
    await isolated.making?.catch(() => undefined);
    isolated.running = false;
    const { copy } = isolated;
    if (!copy) return undefined;
    if (!(await keep)) {
      await this.drop(isolated);
      return 'Its work in its copy was discarded.';
    }
    const { changes, skipped } = await copyChanges(copy);
    const { request, binary } = await this.changeRequest(isolated, changes);
    const left = [
      ...skipped.map((file) => `${file.path} (${file.reason})`),
      ...binary.map((file) => `${file} (binary)`),
    ];
    const leftNote = left.length ? ` Not brought back: ${left.join(', ')}.` : '';
    if (request.files.length === 0) {
      await this.drop(isolated);
      return left.length
        ? `It changed only files that do not come back as text, and its copy was removed: ${left.join(', ')}.`
        : 'It changed no file in its copy.';
    }
    const editId = await this.review.stage(request);
    this.log.info('vibe.copy', `${worker.id}: ${request.files.length} changed files staged as ${editId}`);
    // The human may have resolved it while its review opened: then its copy goes now.
    if (this.review.isPending(editId)) isolated.editId = editId;
    else await this.drop(isolated);
    return (
      `Its work in its copy is staged as ${editId} for review: ${request.summary}.${leftNote} ` +
      `The human can shape it per file and hunk in Staged Edits; resolve with edit_id "${editId}" ` +
      '(accept merges it into the live files where nobody changed the same lines since, and is refused, naming them, where they meet).'
    );
  }

  /**
   * A finished worker continues (its last run's work is settled by now): its pending change is withdrawn
   * and it goes on in the same copy, to stage all its work again; if that change was resolved meanwhile
   * (its copy went with it, or an accept won the race), it goes on in a new copy of the workspace as it is now.
   */
  async resume(worker: WorkerSummary): Promise<void> {
    const isolated = this.workers.get(worker.id);
    if (!isolated) return;
    isolated.running = true;
    const pending = isolated.editId;
    isolated.editId = undefined;
    if (pending && !(await this.review.withdraw(pending))) await this.drop(isolated);
    if (!isolated.copy) {
      isolated.making = this.makeCopy(worker.id).then((copy) => {
        isolated.copy = copy;
        isolated.watcher = watchCopy(copy);
      });
      try {
        await isolated.making;
      } finally {
        isolated.making = undefined;
      }
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

  /** A worker's change was resolved: its copy goes, unless the worker runs again (it settles it then). */
  private async resolved(editId: string): Promise<void> {
    for (const isolated of this.workers.values()) {
      if (isolated.editId !== editId) continue;
      isolated.editId = undefined;
      if (!isolated.running) await this.drop(isolated);
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
    await this.review.release(
      workerConversation(isolated.worker.owner, isolated.worker.id),
      copy.folders.map((folder) => folder.workTree),
    );
    await removeWorkerCopy(copy).catch((error: unknown) =>
      this.log.warn('vibe.copy', `could not remove ${copy.dir}: ${String(error)}`),
    );
    this.log.info('vibe.copy', `${isolated.worker.id}: copy removed`);
  }

  /** The copy's changes as one staged change of live files: edits, created and deleted files (a move is both). */
  private async changeRequest(
    isolated: Isolated,
    changes: readonly CopyChange[],
  ): Promise<{ request: WorkerChangeRequest; binary: string[] }> {
    const files: WorkerChangeRequest['files'][number][] = [];
    const binary: string[] = [];
    let edited = 0;
    let created = 0;
    let deleted = 0;
    for (const change of changes) {
      const live = (relative: string): string => path.join(change.folder.live, ...relative.split('/'));
      if (isBinary(change.before) || isBinary(change.after)) {
        binary.push(change.path);
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
      binary,
    };
  }
}
