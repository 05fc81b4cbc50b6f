import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { DeadlineExceeded } from '../../async/deadline';
import { boundedTimeout } from '../../async/timers';
import { applyEdits, hasMixedLineBreaks, TextEdit, withLineBreaksOf } from '../../edits/textEdits';
import { describeError, Logger } from '../../log/logger';
import { DiagnosticItem, Severity } from '../../lsp/format';
import { LspService } from '../../lsp/vscode/lspService';
import { Setting } from '../../platform/settings';
import { currentText, writeTextExactly } from '../../workspace/vscode/fileTexts';
import { LineTexts } from '../../workspace/vscode/lineTexts';
import { documentAt, languageExtensionsReady } from '../../workspace/vscode/openDocuments';
import { workspaceFolderPaths } from '../../workspace/vscode/workspaceFolders';
import { assertRealPathInside } from '../../workspace/containment';
import { displayPath } from '../../workspace/paths';
import { diagnosticsSection, FileCheck } from '../answers';
import { DiagnosticRegistry } from '../diagnosticRegistry';
import { importsFile, isScriptFile, WRITE_IMPORTERS_CAP } from '../importers';
import { resolveWritePath } from '../targetPath';
import { WriteRefused } from '../writeErrors';
import { observedWrites } from '../../changes/agentChanges';
import { ChangeJournal, WriteSource } from '../../changes/changeJournal';

/** One file of a planned write. `before` undefined: created; `after` undefined: deleted. */
export interface PlannedFile {
  readonly path: string;
  readonly before: string | undefined;
  readonly after: string | undefined;
  /** Where the file goes (`*** Move to:`), absolute. */
  readonly moveTo?: string;
  /** Edits of `before` that make `after`; computed (common prefix/suffix) when absent. */
  readonly edits?: readonly TextEdit[];
}

export interface WriteOutcome {
  readonly diagnostics: string;
  /** Files written into the editor but left unsaved because the user had unsaved changes there. */
  readonly unsaved: readonly string[];
}

/** After a publication, wait this long for another one before taking the diagnostics as settled. */
const QUIET_MS = 300;

const TYPESCRIPT_LANGUAGES = new Set(['typescript', 'typescriptreact', 'javascript', 'javascriptreact']);
const severities: Record<number, Severity> = { 0: 'error', 1: 'warning', 2: 'info', 3: 'hint' };

function throwIfCancelled(token: vscode.CancellationToken): void {
  if (token.isCancellationRequested) throw new vscode.CancellationError();
}

function exists(absolutePath: string): boolean {
  if (documentAt(absolutePath)) return true;
  try {
    return fs.statSync(absolutePath).isFile();
  } catch {
    return false;
  }
}

/** One edit from the common prefix and suffix of two texts: small undo steps, markers and folds survive. */
export function minimalEdit(before: string, after: string): TextEdit {
  let start = 0;
  const limit = Math.min(before.length, after.length);
  while (start < limit && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  let tail = 0;
  while (
    tail < limit - start &&
    before.charCodeAt(before.length - 1 - tail) === after.charCodeAt(after.length - 1 - tail)
  )
    tail++;
  // Never split a CRLF or a surrogate pair.
  while (start > 0 && /[\r\uD800-\uDBFF]/.test(before[start - 1])) start--;
  while (tail > 0 && /[\n\uDC00-\uDFFF]/.test(before[before.length - tail])) tail--;
  return { start, end: before.length - tail, text: after.slice(start, after.length - tail) };
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
 * Applies planned writes through one WorkspaceEdit, saves, and reports only the diagnostics the
 * write newly introduced — in the written files and in the files that import them.
 */
export class WriteService {
  readonly registry = new DiagnosticRegistry();
  /** Texts read from a buffer with unsaved changes, by path, until the write that used them. */
  private readonly readUnsaved = new Map<string, string>();

  constructor(
    private readonly lsp: LspService,
    private readonly log: Logger,
    private readonly journal: ChangeJournal,
  ) {}

  waitSeconds(): number {
    return vscode.workspace.getConfiguration().get<number>(Setting.writesDiagnosticsWaitSeconds, 10);
  }

  display(absolutePath: string): string {
    return displayPath(workspaceFolderPaths(), absolutePath);
  }

  /** The path to write, inside the workspace; need not exist. */
  resolve(input: string): string {
    return resolveWritePath(workspaceFolderPaths(), input, exists);
  }

  /**
   * The file's text as the editor sees it (unsaved edits included); undefined when it does not
   * exist. A text read from unsaved changes is remembered: the write leaves that file unsaved even
   * if the buffer was saved meanwhile, as the user had not chosen to save what the plan was made on.
   */
  async text(absolutePath: string): Promise<string | undefined> {
    const text = await currentText(absolutePath);
    if (text !== undefined && documentAt(absolutePath)?.isDirty) this.readUnsaved.set(absolutePath, text);
    return text;
  }

  /** The edit of one file, given as data, planned on its current text (line breaks follow the file's). */
  planEdits(path: string, before: string, edits: readonly TextEdit[]): PlannedFile {
    const fitted = withLineBreaksOf(before, edits);
    return { path, before, after: applyEdits(before, fitted), edits: fitted };
  }

  async apply(
    files: readonly PlannedFile[],
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
      else before.set(path, (await this.diagnostics(path, undefined, beforeDeadline, token)).items ?? []);
    }
    throwIfCancelled(token);

    const watch = new PublicationWatch();
    try {
      const unsaved = await this.write(files, token);
      this.journal.wrote(source, observedWrites(files));
      const afterDeadline = deadline();
      const checks: FileCheck[] = [];
      for (const path of observed) {
        const result = await this.diagnostics(path, watch, afterDeadline, token);
        throwIfCancelled(token);
        const shown = this.display(path);
        const verdict = this.registry.observe(conversation, {
          path: shown,
          before: before.get(path) ?? [],
          after: result.unchecked ? [] : result.items,
        });
        checks.push({ verdict, written: finalPaths.includes(path), unchecked: result.unchecked });
      }
      return {
        diagnostics: diagnosticsSection(checks, this.waitSeconds()),
        unsaved: unsaved.map((path) => this.display(path)),
      };
    } finally {
      watch.dispose();
    }
  }

  /** One WorkspaceEdit for every file (one undo step), then saves what the user had not left unsaved. */
  private async write(files: readonly PlannedFile[], token: vscode.CancellationToken): Promise<string[]> {
    const edit = new vscode.WorkspaceEdit();
    const keepUnsaved = new Set<string>();
    // The boundary again, right before writing: a link may have been put in place since the plan.
    const folders = workspaceFolderPaths();
    for (const file of files)
      for (const target of [file.path, file.moveTo]) if (target) assertRealPathInside(folders, target);
    // A file with mixed line breaks, changed in place and not open with unsaved changes, is written as
    // bytes after the edit: through the editor's model every line would take one break.
    const exact = files.filter(
      (file) =>
        file.before !== undefined &&
        file.after !== undefined &&
        !file.moveTo &&
        hasMixedLineBreaks(file.before) &&
        !documentAt(file.path)?.isDirty,
    );
    for (const file of exact) {
      if ((await currentText(file.path)) !== file.before)
        throw new WriteRefused(
          this.display(file.path),
          'the file changed while the write was prepared; nothing was written, try again',
        );
    }
    const viaEditor = files.filter((file) => !exact.includes(file));
    for (const file of viaEditor) {
      const uri = vscode.Uri.file(file.path);
      if (file.before === undefined) {
        if (exists(file.path))
          throw new WriteRefused(this.display(file.path), 'the file was created meanwhile; read it and write again');
        edit.createFile(uri, { ignoreIfExists: false });
        if (file.after) edit.insert(uri, new vscode.Position(0, 0), file.after);
        continue;
      }
      const document = await vscode.workspace.openTextDocument(uri);
      if (document.getText() !== file.before) {
        throw new WriteRefused(
          this.display(file.path),
          'the file changed while the write was prepared; nothing was written, try again',
        );
      }
      if (document.isDirty || this.readUnsaved.get(file.path) === file.before)
        keepUnsaved.add(file.moveTo ?? file.path);
      this.readUnsaved.delete(file.path);
      if (file.after !== undefined) {
        const edits = file.edits ?? [minimalEdit(file.before, file.after)];
        for (const change of edits) {
          if (change.start === change.end && change.text === '') continue;
          edit.replace(
            uri,
            new vscode.Range(document.positionAt(change.start), document.positionAt(change.end)),
            change.text,
          );
        }
      }
      if (file.after === undefined) edit.deleteFile(uri, { ignoreIfNotExists: false });
      else if (file.moveTo) {
        if (exists(file.moveTo))
          throw new WriteRefused(this.display(file.moveTo), 'cannot move a file there: a file already exists');
        edit.renameFile(uri, vscode.Uri.file(file.moveTo), { overwrite: false });
      }
    }
    throwIfCancelled(token);
    // (The editor refuses an empty WorkspaceEdit, and `size` does not count file operations.)
    if (viaEditor.length > 0 && !(await vscode.workspace.applyEdit(edit))) {
      throw new WriteRefused(
        files.map((file) => this.display(file.path)).join(', '),
        'the editor refused the edit (a file may have changed meanwhile); nothing was written',
      );
    }
    for (const file of exact) {
      try {
        await writeTextExactly(file.path, file.before as string, file.after as string);
      } catch (error) {
        const others = files.filter((other) => other !== file).map((other) => this.display(other.path));
        throw new WriteRefused(
          this.display(file.path),
          `${describeError(error)}; it was not written${others.length ? `, but the other files of this write were: ${others.join(', ')}` : ''}`,
        );
      }
    }
    const unsaved: string[] = [];
    for (const file of files) {
      if (file.after === undefined || exact.includes(file)) continue;
      const path = file.moveTo ?? file.path;
      const document = await vscode.workspace.openTextDocument(vscode.Uri.file(path));
      if (
        document.getText() !== file.after &&
        document.getText().replace(/\r\n/g, '\n') !== file.after.replace(/\r\n/g, '\n')
      ) {
        this.log.warn('writes.apply', `${this.display(path)} does not read as planned after the edit`);
      }
      if (keepUnsaved.has(path)) unsaved.push(path);
      else if (document.isDirty && !(await document.save())) unsaved.push(path);
    }
    this.log.info(
      'writes.apply',
      `${files.length} file(s): ${files.map((file) => this.display(file.path)).join(', ')}`,
    );
    return unsaved;
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
    if (!exists(path)) return { items: [] };
    const uri = vscode.Uri.file(path);
    const document = await vscode.workspace.openTextDocument(uri);
    if (TYPESCRIPT_LANGUAGES.has(document.languageId)) {
      const remaining = deadline - Date.now();
      if (remaining <= 0) return {};
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<undefined>(
        (resolve) => (timer = boundedTimeout(() => resolve(undefined), remaining)),
      );
      try {
        const result = await Promise.race([this.lsp.fileDiagnostics(this.display(path), token), timeout]);
        if (!result || result.freshness.kind !== 'verified') return {};
        return { items: result.items };
      } catch (error) {
        if (error instanceof DeadlineExceeded) return {};
        throw error;
      } finally {
        clearTimeout(timer);
      }
    }
    if (document.languageId === 'plaintext') return { unchecked: 'plain text has no language server' };
    await languageExtensionsReady(document.languageId);
    const serving = vscode.extensions.all.some((extension) => {
      const events: unknown = extension.packageJSON?.activationEvents;
      return Array.isArray(events) && (events.includes(`onLanguage:${document.languageId}`) || events.includes('*'));
    });
    if (!serving) return { unchecked: `no language server for ${document.languageId} in this editor` };
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
}
