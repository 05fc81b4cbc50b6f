import * as fs from 'node:fs';
import * as nodePath from 'node:path';
import * as vscode from 'vscode';
import { DeadlineExceeded, withDeadline } from '../../async/deadline';
import { boundedTimeout } from '../../async/timers';
import { applyEdits, TextEdit, withLineBreaksOf } from '../../edits/textEdits';
import { FileChange, WorkspaceWriter, WriteKind } from '../../workspace/vscode/workspaceWriter';
import { DiagnosticItem, Severity } from '../../lsp/format';
import { LspService } from '../../lsp/vscode/lspService';
import { Setting } from '../../platform/settings';
import { currentText } from '../../workspace/vscode/fileTexts';
import { editorHoldsDisk } from '../../workspace/vscode/diskFreshness';
import { LineTexts } from '../../workspace/vscode/lineTexts';
import { isFileOrOpen } from '../../workspace/vscode/openDocuments';
import { workspaceFolderPaths } from '../../workspace/vscode/workspaceFolders';
import { displayPath } from '../../workspace/paths';
import { isInside } from '../../workspace/containment';
import { baselineAnswer, diagnosticsSection, FileCheck, SinceCheck, sinceAnswer } from '../answers';
import { DiagnosticRegistry, SinceVerdict } from '../diagnosticRegistry';
import { CHANGED_FILES_CAP, DiskChangeLog } from '../diskChangeLog';
import { importsFile, isScriptFile, WRITE_IMPORTERS_CAP } from '../importers';
import { resolveWritePath } from '../targetPath';
import { WriteSource } from '../../platform/changeJournal';
import { plural } from '../../platform/wording';

/** One file of a planned write (the writer's own change). */
export type PlannedFile = FileChange;

export interface WriteOutcome {
  readonly diagnostics: string;
  /** Files changed in the editor but left unsaved because the user had unsaved changes there. */
  readonly unsaved: readonly string[];
  /** What the writer says the model should know (lines others changed since its last write…), one line each. */
  readonly notes: readonly string[];
}

/** After a publication, wait this long for another one before taking the diagnostics as settled. */
const QUIET_MS = 300;

const TYPESCRIPT_LANGUAGES = new Set(['typescript', 'typescriptreact', 'javascript', 'javascriptreact']);
const severities: Record<number, Severity> = { 0: 'error', 1: 'warning', 2: 'info', 3: 'hint' };

function throwIfCancelled(token: vscode.CancellationToken): void {
  if (token.isCancellationRequested) throw new vscode.CancellationError();
}

/** Watches diagnostic publications from its creation on, so a wait cannot miss one that came early. */
class PublicationWatch implements vscode.Disposable {
  private readonly last = new Map<string, number>();
  private readonly wakers = new Set<() => void>();
  private readonly subscription = vscode.languages.onDidChangeDiagnostics((event) => {
    const now = Date.now();
    for (const uri of event.uris) this.last.set(uri.toString(), now);
    for (const wake of [...this.wakers]) wake();
  });

  /** True once a publication came for `uri` and no other for QUIET_MS; false at the deadline. */
  async settled(uri: vscode.Uri, deadline: number, token: vscode.CancellationToken): Promise<boolean> {
    const key = uri.toString();
    for (;;) {
      const published = this.last.get(key);
      const now = Date.now();
      if (published !== undefined && now - published >= QUIET_MS) return true;
      if (now >= deadline || token.isCancellationRequested) return false;
      const until = published === undefined ? deadline : Math.min(deadline, published + QUIET_MS);
      await new Promise<void>((resolve) => {
        const wake = (): void => {
          clearTimeout(timer);
          this.wakers.delete(wake);
          resolve();
        };
        const timer = boundedTimeout(wake, Math.max(1, until - now));
        this.wakers.add(wake);
      });
    }
  }

  dispose(): void {
    this.subscription.dispose();
    for (const wake of [...this.wakers]) wake();
  }
}

/**
 * The write tools' service: plans on the text the editor sees, has the one writer apply the change,
 * and reports only the diagnostics the write newly introduced — in the written files and in the
 * files that import them.
 */
export class WriteService {
  readonly registry = new DiagnosticRegistry();
  /** Files changed on disk, fed by the window's watcher (registerWrites). */
  readonly changes = new DiskChangeLog();

  constructor(
    private readonly lsp: LspService,
    private readonly writer: WorkspaceWriter,
  ) {}

  waitSeconds(): number {
    return vscode.workspace.getConfiguration().get<number>(Setting.writesDiagnosticsWaitSeconds, 10);
  }

  display(absolutePath: string): string {
    return displayPath(workspaceFolderPaths(), absolutePath);
  }

  /** The path to write, inside the workspace; need not exist. */
  resolve(input: string): string {
    return resolveWritePath(workspaceFolderPaths(), input, isFileOrOpen);
  }

  /** The file's text as the editor sees it (unsaved edits included); undefined when it does not exist. */
  text(absolutePath: string): Promise<string | undefined> {
    return currentText(absolutePath);
  }

  /** The edit of one file, given as data, planned on its current text (line breaks follow the file's). */
  planEdits(path: string, before: string, edits: readonly TextEdit[]): PlannedFile {
    const fitted = withLineBreaksOf(before, edits);
    return { path, before, after: applyEdits(before, fitted), edits: fitted };
  }

  /** Applies a planned change through the writer (`whole`: the write tool's own copy; `anchored`: edits), with diagnostics before and after. */
  async apply(
    files: readonly PlannedFile[],
    kind: WriteKind,
    source: WriteSource,
    token: vscode.CancellationToken,
  ): Promise<WriteOutcome> {
    const { conversation } = source;
    const deadline = () => Date.now() + this.waitSeconds() * 1000;
    const finalPaths = files.filter((file) => file.after !== undefined).map((file) => file.moveTo ?? file.path);
    // Importers of every file whose content or place changes (deleting or moving a file breaks them too).
    const importers = await this.importersOf(
      files.map((file) => file.path),
      new Set([...finalPaths, ...files.map((file) => file.path)]),
      token,
    );
    const observed = [...new Set([...finalPaths, ...importers])];
    const before = new Map<string, DiagnosticItem[] | undefined>();
    const beforeDeadline = deadline();
    for (const path of observed) {
      const planned = files.find((file) => (file.moveTo ?? file.path) === path);
      if (planned && planned.before === undefined) before.set(path, []);
      else if (planned?.moveTo) before.set(path, []);
      // Not known in time (pending): undefined, never taken for "none".
      else before.set(path, (await this.diagnostics(path, undefined, beforeDeadline, token)).items);
    }
    throwIfCancelled(token);

    const watch = new PublicationWatch();
    try {
      const written = await this.writer.apply({ files, kind, source, token });
      const afterDeadline = deadline();
      const checks: FileCheck[] = [];
      for (const path of observed) {
        const result = await this.diagnostics(path, watch, afterDeadline, token);
        throwIfCancelled(token);
        const shown = this.display(path);
        // A file nothing checks leaves the registry as it was (a later check starts from what it knew).
        const verdict = result.unchecked
          ? { path: shown, pending: false, introduced: [], fixed: 0 }
          : this.registry.observe(conversation, { path: shown, before: before.get(path), after: result.items });
        checks.push({ verdict, written: finalPaths.includes(path), unchecked: result.unchecked });
      }
      return {
        diagnostics: diagnosticsSection(checks, this.waitSeconds()),
        unsaved: written.files.filter((file) => file.unsaved).map((file) => this.display(file.path)),
        notes: written.notes,
      };
    } finally {
      watch.dispose();
    }
  }

  /**
   * What changed in the diagnostics of `files` (as the model names them; edited elsewhere, e.g. by a
   * terminal agent's own tools on disk) and of the files importing them, since the conversation last
   * saw them (its writes' answers, its looks), within `liveTools.writes.diagnosticsWaitSeconds` for the
   * whole call; with `baseline`, only what they have now, for the next call to compare with. A file
   * outside the workspace is named as not checked; the others are still answered.
   */
  sinceLastSeen(
    files: readonly string[],
    conversation: string,
    mode: SinceMode,
    token: vscode.CancellationToken,
  ): Promise<string> {
    const refused: SinceCheck[] = [];
    const paths: string[] = [];
    for (const file of files) {
      try {
        paths.push(this.resolveNamed(file));
      } catch (error) {
        refused.push({ verdict: unseen(file), named: true, unchecked: firstLine(error) });
      }
    }
    return this.overFiles(paths, conversation, mode, false, token, refused);
  }

  /** The same for the files changed on disk since the conversation's last such call (inside the folders it sees). */
  async changedSinceLastCall(conversation: string, token: vscode.CancellationToken): Promise<string> {
    await this.changesSettled(token);
    const { paths, dropped, firstCall, through } = this.changes.since(conversation);
    const folders = workspaceFolderPaths();
    // Folders change too (their events say nothing of which): only files, and those gone, are news.
    const inside = paths.filter(
      (path) =>
        folders.some((folder) => isInside(folder.path, path)) &&
        fs.statSync(path, { throwIfNoEntry: false })?.isDirectory() !== true,
    );
    const since = firstCall ? 'since this window started watching (your first such call)' : 'since your last such call';
    const droppedNote = dropped ? ' Older changes were not kept: pass the files you edited in `files`.' : '';
    if (inside.length === 0) {
      this.changes.advance(conversation, through);
      return `No file changed on disk ${since}.${droppedNote}`;
    }
    const checked = inside.slice(-CHANGED_FILES_CAP);
    const skipped = inside.slice(0, inside.length - checked.length).map((path) => this.display(path));
    const heading = `${plural(inside.length, 'file')} changed on disk ${since}: ${checked.map((path) => this.display(path)).join(', ')}.`;
    const skippedNote =
      skipped.length > 0
        ? `\nNot checked (cap ${CHANGED_FILES_CAP}, the latest changes checked): ${skipped.slice(-CHANGED_FILES_CAP).join(', ')}${skipped.length > CHANGED_FILES_CAP ? ` and ${skipped.length - CHANGED_FILES_CAP} more` : ''} — pass them in \`files\`.`
        : '';
    const answer = await this.overFiles(checked, conversation, 'compare', true, token);
    // Only an answer given moves the conversation on: a cancelled call leaves these changes for the next one.
    this.changes.advance(conversation, through);
    return `${heading}${droppedNote}${skippedNote}\n${answer}`;
  }

  /**
   * `fromDisk`: the paths are what the watcher saw change, so one that is gone was deleted (else: it may
   * never have existed). What each file has now is found first and recorded only once all are, so a
   * cancelled call leaves the conversation as it was.
   */
  private async overFiles(
    paths: readonly string[],
    conversation: string,
    mode: SinceMode,
    fromDisk: boolean,
    token: vscode.CancellationToken,
    checks: SinceCheck[] = [],
  ): Promise<string> {
    const deadline = Date.now() + this.waitSeconds() * 1000;
    const named = [...new Set(paths)];
    const importers = await this.importersOf(named, new Set(named), token);
    const found: FoundNow[] = [];
    for (const path of [...named, ...importers]) {
      const entry = { shown: this.display(path), named: named.includes(path) };
      const stat = fs.statSync(path, { throwIfNoEntry: false });
      if (!stat) found.push({ ...entry, missing: true });
      else if (!stat.isFile()) found.push({ ...entry, unchecked: 'not a file' });
      else {
        try {
          found.push({ ...entry, ...(await this.currentDiagnostics(path, deadline, token)) });
        } catch (error) {
          if (token.isCancellationRequested) throw error;
          found.push({ ...entry, unchecked: firstLine(error) });
        }
      }
    }
    throwIfCancelled(token);
    for (const { shown, named: isNamed, missing, unchecked, items } of found) {
      if (missing) {
        // Not there yet (an edit about to create it): it starts from nothing, so what it brings is new.
        if (mode === 'baseline') this.registry.baseline(conversation, shown, []);
        const deleted = mode === 'compare' && (fromDisk || this.registry.hasSeen(conversation, shown));
        if (mode === 'compare')
          checks.push(
            deleted
              ? { verdict: unseen(shown), named: isNamed, deleted }
              : { verdict: unseen(shown), named: isNamed, unchecked: 'no such file' },
          );
      } else if (unchecked) checks.push({ verdict: unseen(shown), named: isNamed, unchecked });
      else if (mode === 'baseline') {
        if (items) this.registry.baseline(conversation, shown, items);
        checks.push({
          verdict: { ...unseen(shown), pending: items === undefined, present: items ?? [] },
          named: isNamed,
        });
      } else checks.push({ verdict: this.registry.sinceLastSeen(conversation, shown, items), named: isNamed });
    }
    return mode === 'baseline' ? baselineAnswer(checks, this.waitSeconds()) : sinceAnswer(checks, this.waitSeconds());
  }

  /** A named file: inside the workspace as given, or (an agent started in a folder opened through a link) by its real path. */
  private resolveNamed(file: string): string {
    try {
      return this.resolve(file);
    } catch (error) {
      if (nodePath.isAbsolute(file)) {
        for (const folder of workspaceFolderPaths()) {
          const real = realPathOrSelf(folder.path);
          if (real !== folder.path && isInside(real, file))
            return this.resolve(nodePath.join(folder.path, nodePath.relative(real, file)));
        }
      }
      throw error;
    }
  }

  /** Watcher events come at least ~75 ms after a write: waits until none came for a moment (at most 2 s). */
  private async changesSettled(token: vscode.CancellationToken): Promise<void> {
    const started = Date.now();
    const pause = (ms: number) => new Promise<void>((resolve) => boundedTimeout(resolve, ms));
    await pause(SETTLE_MS);
    while (Date.now() - this.changes.lastRecordedAt < SETTLE_MS && Date.now() - started < 2000) {
      throwIfCancelled(token);
      await pause(100);
    }
  }

  /** A conversation ended: what it saw and its place in the change log are forgotten. */
  endConversation(conversation: string): void {
    this.registry.forget(conversation);
    this.changes.forget(conversation);
  }

  /**
   * Script files inside the workspace that import one of `targets`, found by their import
   * specifiers (text, not the type checker), at most WRITE_IMPORTERS_CAP.
   */
  private async importersOf(
    targets: readonly string[],
    exclude: ReadonlySet<string>,
    token: vscode.CancellationToken,
  ): Promise<string[]> {
    const scripts = targets.filter(isScriptFile);
    if (scripts.length === 0) return [];
    const candidates = await vscode.workspace.findFiles(
      '**/*.{ts,tsx,mts,cts,js,jsx,mjs,cjs}',
      '**/node_modules/**',
      5000,
      token,
    );
    const found: string[] = [];
    for (const uri of candidates) {
      if (found.length >= WRITE_IMPORTERS_CAP) break;
      if (exclude.has(uri.fsPath)) continue;
      const text = await currentText(uri.fsPath);
      if (text !== undefined && scripts.some((target) => importsFile(uri.fsPath, text, target))) found.push(uri.fsPath);
    }
    return found.sort();
  }

  /**
   * Diagnostics of one file. TypeScript/JavaScript: pulled from the TypeScript server on the
   * current text (its publication covers only files shown in a tab). Others: with a watch, the
   * first publication after the write plus a quiet period, bounded by `deadline`; without one
   * (the baseline), what the editor holds.
   */
  private async diagnostics(
    path: string,
    watch: PublicationWatch | undefined,
    deadline: number,
    token: vscode.CancellationToken,
  ): Promise<{ items?: DiagnosticItem[]; unchecked?: string }> {
    if (!isFileOrOpen(path)) return { items: [] };
    const uri = vscode.Uri.file(path);
    const document = await vscode.workspace.openTextDocument(uri);
    if (TYPESCRIPT_LANGUAGES.has(document.languageId)) return this.lspDiagnostics(path, deadline, token);
    const unchecked = await this.lsp.whyNotChecked(document);
    if (unchecked) return { unchecked };
    // What the server checked must be the text on disk now: an outside rewrite not yet taken in is not verified.
    if (!(await editorHoldsDisk(document, this.display(path))).fresh) return {};
    // Our own server answers a pull (pyright publishes nothing for a document not shown in a tab); a
    // pull that fails leaves the publications to go by.
    const pulling = (): Promise<DiagnosticItem[] | undefined> =>
      this.lsp.pulledDiagnostics(document, this.display(path), token).catch((error: unknown) => {
        if (error instanceof vscode.CancellationError) throw error;
        return undefined;
      });
    const pulled = await this.beforeDeadline(pulling, deadline, path);
    if (pulled.late) return {};
    if (pulled.value) return { items: pulled.value };
    if (watch && !(await watch.settled(uri, deadline, token))) return {};
    const texts = new LineTexts();
    const shown = this.display(path);
    return {
      items: vscode.languages.getDiagnostics(uri).map((diagnostic) => ({
        path: shown,
        line: diagnostic.range.start.line + 1,
        text: texts.text(uri, diagnostic.range.start.line),
        severity: severities[diagnostic.severity] ?? 'info',
        message: diagnostic.message,
        source: diagnostic.source,
        code:
          diagnostic.code === undefined
            ? undefined
            : String(typeof diagnostic.code === 'object' ? diagnostic.code.value : diagnostic.code),
      })),
    };
  }

  /**
   * Diagnostics of one file as they are now, whatever edited it: the lsp tool's own answer (the disk
   * text taken in first, pulled where the server can be asked), bounded by `deadline` (past it: pending).
   */
  private async currentDiagnostics(
    path: string,
    deadline: number,
    token: vscode.CancellationToken,
  ): Promise<{ items?: DiagnosticItem[]; unchecked?: string }> {
    const document = await vscode.workspace.openTextDocument(vscode.Uri.file(path));
    if (!TYPESCRIPT_LANGUAGES.has(document.languageId)) {
      const unchecked = await this.lsp.whyNotChecked(document);
      if (unchecked) return { unchecked };
    }
    return this.lspDiagnostics(path, deadline, token);
  }

  /** The lsp tool's diagnostics of a file when verified before `deadline`; nothing (pending) otherwise. */
  private async lspDiagnostics(
    path: string,
    deadline: number,
    token: vscode.CancellationToken,
  ): Promise<{ items?: DiagnosticItem[] }> {
    const result = await this.beforeDeadline(() => this.lsp.fileDiagnostics(this.display(path), token), deadline, path);
    return result.value?.freshness.kind === 'verified' ? { items: result.value.items } : {};
  }

  /** What `work` answers before `deadline`, or `late` (then it is let go; past the deadline it is not started). */
  private async beforeDeadline<T>(
    work: () => Promise<T>,
    deadline: number,
    path: string,
  ): Promise<{ value?: T; late?: true }> {
    const remaining = deadline - Date.now();
    if (remaining <= 0) return { late: true };
    try {
      return { value: await withDeadline(work(), remaining / 1000, `the diagnostics of ${this.display(path)}`) };
    } catch (error) {
      if (error instanceof DeadlineExceeded) return { late: true };
      throw error;
    }
  }
}

/** What one file has now, before anything is recorded: its diagnostics (none: pending), or why there are none. */
interface FoundNow {
  readonly shown: string;
  readonly named: boolean;
  readonly missing?: boolean;
  readonly unchecked?: string;
  readonly items?: DiagnosticItem[];
}

/** Whether a "since last seen" call compares (and reports), or only notes what files have before an edit. */
export type SinceMode = 'compare' | 'baseline';

/** The quiet after the last watcher event before "changed on disk" is read. */
const SETTLE_MS = 300;

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
}

function realPathOrSelf(path: string): string {
  try {
    return fs.realpathSync(path);
  } catch {
    return path;
  }
}

/** The verdict of a file that was not compared (deleted, not checked). */
function unseen(path: string): SinceVerdict<DiagnosticItem> {
  return { path, pending: false, introduced: [], fixed: 0, firstLook: false, present: [] };
}
