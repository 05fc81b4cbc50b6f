/**
 * The staged-edit store of one window: stages changes (validated, nothing written), and
 * resolves each one once. Accepting is "check, then write": every file is compared with the
 * text captured when it was staged, and any mismatch refuses the whole change before the
 * injected writer is called, so a change is written completely or not at all.
 */
import {
  FileMove,
  keptFiles,
  Resolution,
  ResolveAction,
  Resolver,
  StagedEdit,
  StagedFile,
  StageRequest,
  WrittenFile,
} from './stagedEdit';
import {
  AlreadyResolved,
  DriftedFile,
  InvalidStagedChange,
  MergeConflict,
  MergeRefused,
  NothingKept,
  ResolutionInProgress,
  StagedInOtherConversation,
  StaleStagedEdit,
  UnknownStagedEdit,
} from './stagingErrors';
import { belongsTo } from '../platform/caller';
import { sameLines } from '../edits/byteSplice';
import { mergeRegions, mergeWith } from '../edits/lineMerge';
import { splitLines } from '../edits/textDiff';
import { applyEdits, checkedEdits, withLineBreaksOf } from '../edits/textEdits';
import { hunksOf, toggledDrops } from './hunks';

/** The current text of a file as the editor sees it (an open document's unsaved text, else disk); undefined when it no longer exists. */
export type CurrentText = (path: string) => string | undefined;

/**
 * Files of a change whose current text differs from the text captured when it was staged, or that
 * no longer exist. Line breaks aside: a change staged on the editor's view of a file (one break for
 * every line) applies to the file's own breaks.
 */
export function driftOf(
  files: readonly Pick<StagedFile, 'path' | 'original'>[],
  currentText: CurrentText,
): DriftedFile[] {
  const drifted: DriftedFile[] = [];
  for (const file of files) {
    const current = currentText(file.path);
    if (current === undefined) drifted.push({ path: file.path, kind: 'missing' });
    else if (!sameLines(current, file.original)) drifted.push({ path: file.path, kind: 'changed' });
  }
  return drifted;
}

/**
 * The files of a three-way change as Accept writes them, each on its text now: unchanged since staging,
 * as staged; else the kept hunks merged into what changed there, where they do not meet. A kept hunk
 * that meets a change made since (touching counts), a created file that exists now with other text, or
 * a deleted or edited file that is gone or (deleted) changed, refuses the whole change: nothing is written.
 * Files already as the change would leave them are left out.
 */
export function mergedFiles(
  edit: Pick<StagedEdit, 'id' | 'origin'>,
  files: readonly WrittenFile[],
  currentText: CurrentText,
): WrittenFile[] {
  const written: WrittenFile[] = [];
  const drifted: DriftedFile[] = [];
  const conflicts: MergeConflict[] = [];
  for (const file of files) {
    const current = currentText(file.path);
    if (file.lifecycle === 'create') {
      if (current === undefined) written.push(file);
      else if (!sameLines(current, file.proposed)) drifted.push({ path: file.path, kind: 'created' });
      continue;
    }
    if (current === undefined) {
      if (file.lifecycle !== 'delete') drifted.push({ path: file.path, kind: 'missing' });
      continue;
    }
    if (sameLines(current, file.original)) {
      written.push(file);
      continue;
    }
    if (file.lifecycle === 'delete') {
      drifted.push({ path: file.path, kind: 'changed' });
      continue;
    }
    const ancestor = splitLines(file.original);
    const regions = mergeRegions(ancestor, splitLines(current), splitLines(file.proposed));
    const met = regions.filter((region) => region.changedBy === 'both');
    if (met.length > 0) {
      conflicts.push({
        path: file.path,
        lines: met.map((region) => ({ line: region.oursStart + 1, count: region.ours.length })),
      });
      continue;
    }
    const proposed = mergeWith(ancestor, regions, (region) => (region.changedBy === 'ours' ? 'ours' : 'theirs'));
    if (proposed !== current) written.push({ ...file, current, proposed });
  }
  if (conflicts.length > 0) throw new MergeRefused(edit.id, conflicts, drifted);
  if (drifted.length > 0)
    throw new StaleStagedEdit(
      edit.id,
      edit.origin,
      drifted,
      'it cannot be redone on them: discard it, then start a new worker on the files as they are now',
    );
  return written;
}

/** How accepting reads and writes, injected: the editor glue applies one WorkspaceEdit; tests write files. */
export interface AcceptIo<Written> {
  /** May be async; every file is read before any is compared, and compared before any is written. */
  currentText(path: string): string | undefined | Promise<string | undefined>;
  /** Writes every file's `proposed` text (or refuses as a whole by throwing). Called only when no file drifted. */
  write(files: readonly WrittenFile[], move?: FileMove): Promise<Written>;
}

export type StagingListener = (edit: StagedEdit) => void;

export class StagingStore {
  private readonly edits = new Map<string, StagedEdit>();
  private readonly resolving = new Set<string>();
  private readonly listeners = new Set<StagingListener>();
  private counter = 0;

  constructor(private readonly now: () => number = Date.now) {}

  /** Validates and stores a change; writes nothing. Files without edits are left out. */
  stage(request: StageRequest): StagedEdit {
    const seen = new Set<string>();
    const files: StagedFile[] = [];
    for (const file of request.files) {
      if (seen.has(file.path))
        throw new InvalidStagedChange(`${file.path} is listed twice; give each file once with all its edits.`);
      seen.add(file.path);
      if (file.edits.length === 0) continue;
      // A created file's text is taken as it is: there are no breaks of its own to follow.
      const edits = checkedEdits(
        file.original,
        file.lifecycle === 'create' ? file.edits : withLineBreaksOf(file.original, file.edits),
      );
      const proposed = applyEdits(file.original, edits);
      if (file.lifecycle === 'create' && file.original !== '')
        throw new InvalidStagedChange(`${file.path} is created by the change, so its captured text must be empty.`);
      if (file.lifecycle === 'delete' && proposed !== '')
        throw new InvalidStagedChange(`${file.path} is deleted by the change, so its edits must remove all of it.`);
      files.push({
        path: file.path,
        original: file.original,
        edits,
        proposed,
        hunks: hunksOf(file.original, edits),
        ...(file.lifecycle ? { lifecycle: file.lifecycle } : {}),
      });
    }
    if (files.length === 0 && !request.move)
      throw new InvalidStagedChange('the change has no edits, so there is nothing to stage.');
    const edit: StagedEdit = {
      id: `edit_${++this.counter}`,
      conversation: request.conversation,
      origin: request.origin,
      summary: request.summary,
      files,
      ...(request.move ? { move: request.move } : {}),
      ...(request.merge ? { merge: request.merge } : {}),
      ...(request.author ? { author: request.author } : {}),
      dropped: {},
      stagedAt: this.now(),
      state: 'pending',
    };
    this.edits.set(edit.id, edit);
    this.fire(edit);
    return edit;
  }

  get(id: string): StagedEdit | undefined {
    return this.edits.get(id.trim());
  }

  /** Pending changes, oldest first; only those of `conversation` (and its workers) when given. */
  pending(conversation?: string): StagedEdit[] {
    return [...this.edits.values()].filter(
      (edit) => edit.state === 'pending' && (conversation === undefined || belongsTo(edit.conversation, conversation)),
    );
  }

  /**
   * The pending change with this id, or the typed reason there is none. With `conversation` (a
   * tool's caller; the human's review gives none), a change of another conversation is refused.
   */
  requirePending(id: string, conversation?: string): StagedEdit {
    const edit = this.get(id);
    if (!edit)
      throw new UnknownStagedEdit(
        id,
        this.pending(conversation).map(({ id: pendingId, summary }) => ({ id: pendingId, summary })),
      );
    // A conversation resolves its own changes and its workers'.
    if (conversation !== undefined && !belongsTo(edit.conversation, conversation))
      throw new StagedInOtherConversation(edit.id, edit.conversation);
    if (edit.resolution) throw new AlreadyResolved(edit.id, edit.resolution, edit);
    return edit;
  }

  /**
   * The human's shaping in the review: drops one hunk of a file of a pending change (or, with
   * `hunk` undefined, every hunk of the file), or takes it back. Returns the changed record.
   */
  setDropped(id: string, path: string, hunk: number | undefined, drop: boolean): StagedEdit {
    const edit = this.requirePending(id);
    if (this.resolving.has(edit.id)) throw new ResolutionInProgress(edit.id);
    const file = edit.files.find((candidate) => candidate.path === path);
    if (!file) throw new Error(`${path} is not a file of ${edit.id}.`);
    if (hunk !== undefined && !file.hunks[hunk]) throw new Error(`${edit.id} has no hunk ${hunk} in ${path}.`);
    const dropped = toggledDrops(edit.dropped[path] ?? [], file.hunks.length, hunk, drop);
    const next: StagedEdit = { ...edit, dropped: { ...edit.dropped, [path]: dropped } };
    if (dropped.length === 0) delete (next.dropped as Record<string, readonly number[]>)[path];
    this.edits.set(edit.id, next);
    this.fire(next);
    return next;
  }

  /**
   * Accepts a pending change: reads every file it will write (the kept hunks'), refuses the
   * whole change (StaleStagedEdit, nothing written, still pending) if any differs from its
   * captured text or is gone, else writes them all through `io.write` and marks the change
   * accepted by `by`. With every hunk dropped there is nothing to accept (NothingKept).
   */
  async accept<Written>(
    id: string,
    by: Resolver,
    io: AcceptIo<Written>,
    conversation?: string,
  ): Promise<{ edit: StagedEdit; written: Written }> {
    const edit = this.requirePending(id, conversation);
    return this.exclusively(edit.id, async () => {
      const files = keptFiles(edit);
      if (files.length === 0 && !edit.move) throw new NothingKept(edit.id);
      const texts = new Map<string, string | undefined>();
      for (const file of files) texts.set(file.path, await io.currentText(file.path));
      if (edit.merge === 'three-way') {
        const merged = mergedFiles(edit, files, (path) => texts.get(path));
        const written = await io.write(merged, edit.move);
        return { edit: this.resolve(edit, 'accept', by), written };
      }
      const drifted = driftOf(files, (path) => texts.get(path));
      // A moved file without edits of its own must still be there to move.
      const moved = edit.move?.from;
      if (moved && !files.some((file) => file.path === moved) && (await io.currentText(moved)) === undefined)
        drifted.push({ path: moved, kind: 'missing' });
      if (drifted.length > 0) throw new StaleStagedEdit(edit.id, edit.origin, drifted);
      const written = await io.write(files, edit.move);
      return { edit: this.resolve(edit, 'accept', by), written };
    });
  }

  /** Drops a pending change; nothing is written. */
  discard(id: string, by: Resolver, conversation?: string): StagedEdit {
    const edit = this.requirePending(id, conversation);
    if (this.resolving.has(edit.id)) throw new ResolutionInProgress(edit.id);
    return this.resolve(edit, 'discard', by);
  }

  onDidChange(listener: StagingListener): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  private async exclusively<T>(id: string, work: () => Promise<T>): Promise<T> {
    if (this.resolving.has(id)) throw new ResolutionInProgress(id);
    this.resolving.add(id);
    try {
      return await work();
    } finally {
      this.resolving.delete(id);
    }
  }

  private resolve(edit: StagedEdit, action: ResolveAction, by: Resolver): StagedEdit {
    const resolution: Resolution = { action, by, at: this.now() };
    const resolved: StagedEdit = { ...edit, state: action === 'accept' ? 'accepted' : 'discarded', resolution };
    this.edits.set(edit.id, resolved);
    this.fire(resolved);
    return resolved;
  }

  private fire(edit: StagedEdit): void {
    for (const listener of this.listeners) listener(edit);
  }
}
