import * as vscode from 'vscode';
import { DeadlineExceeded } from '../../async/deadline';
import { boundedTimeout } from '../../async/timers';
import { applyEdits, TextEdit, withLineBreaksOf } from '../../edits/textEdits';
import { FileChange, WorkspaceWriter, WriteKind } from '../../workspace/vscode/workspaceWriter';
import { DiagnosticItem, Severity } from '../../lsp/format';
import { LspService } from '../../lsp/vscode/lspService';
import { Setting } from '../../platform/settings';
import { currentText } from '../../workspace/vscode/fileTexts';
import { editorHoldsDisk } from '../../workspace/vscode/diskFreshness';
import { LineTexts } from '../../workspace/vscode/lineTexts';
import { isFileOrOpen, languageExtensionsReady } from '../../workspace/vscode/openDocuments';
import { workspaceFolderPaths } from '../../workspace/vscode/workspaceFolders';
import { displayPath } from '../../workspace/paths';
import { diagnosticsSection, FileCheck } from '../answers';
import { DiagnosticRegistry } from '../diagnosticRegistry';
import { importsFile, isScriptFile, WRITE_IMPORTERS_CAP } from '../importers';
import { resolveWritePath } from '../targetPath';
import { WriteSource } from '../../platform/changeJournal';

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
      else before.set(path, (await this.diagnostics(path, undefined, beforeDeadline, token)).items ?? []);
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
        const verdict = this.registry.observe(conversation, {
          path: shown,
          before: before.get(path) ?? [],
          after: result.unchecked ? [] : result.items,
        });
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
    // What the server checked must be the text on disk now: an outside rewrite not yet taken in is not verified.
    if (!(await editorHoldsDisk(document, this.display(path))).fresh) return {};
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
