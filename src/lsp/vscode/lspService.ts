/**
 * The lsp tool's questions, answered by the editor's language features (providers of the
 * language's extension, or of a server the supervisor started): a file opened and its project
 * loaded, a symbol located on its line, then locations, hover, outline, calls, code actions,
 * diagnostics and rename, with the texts of the lines they point at.
 */
import * as vscode from 'vscode';
import { withDeadline } from '../../async/deadline';
import { Logger } from '../../log/logger';
import { containingFolder } from '../../workspace/paths';
import { LineTexts } from '../../workspace/vscode/lineTexts';
import { activatesOn, languageExtensionsReady, openWorkspaceDocument } from '../../workspace/vscode/openDocuments';
import { DiskFreshness, editorHoldsDisk } from '../../workspace/vscode/diskFreshness';
import { pathOf, resolveWorkspaceFile, workspaceFolderPaths } from '../../workspace/vscode/workspaceFolders';
import { viewedFolders } from '../../workspace/folderView';
import { CallEntry, CodeActionEntry, LocationKind, OutlineEntry, WorkspaceSymbolEntry } from '../answers';
import { CodeLine, DiagnosticItem } from '../format';
import { Freshness } from '../freshness';
import { checkLine, locateSymbol } from '../symbolLocation';
import { diagnosticItem } from './diagnosticItems';
import { DiagnosticsTracker } from './diagnosticsTracker';
import { LanguageFeatures } from './languageFeatures';
import { LanguageServerSupervisor } from './languageServerSupervisor';
import { LspSettings } from './lspSettings';
import { planRename, RenamePlan } from './rename';
import { documentLines, OpenedFile, Target } from './target';
import { TYPESCRIPT_LANGUAGES, TypeScriptProjects } from './typeScriptProjects';

const locationCommands = {
  definition: 'vscode.executeDefinitionProvider',
  type_definition: 'vscode.executeTypeDefinitionProvider',
  implementation: 'vscode.executeImplementationProvider',
  references: 'vscode.executeReferenceProvider',
} as const;

function throwIfCancelled(token: vscode.CancellationToken): void {
  if (token.isCancellationRequested) throw new vscode.CancellationError();
}

function symbolKindName(kind: vscode.SymbolKind): string {
  return (vscode.SymbolKind[kind] ?? 'symbol').toLowerCase();
}

function hoverText(content: vscode.MarkdownString | vscode.MarkedString): string {
  if (typeof content === 'string') return content;
  if ('language' in content) return `\`\`\`${content.language}\n${content.value}\n\`\`\``;
  return content.value;
}

export class LspService {
  private readonly typeScript: TypeScriptProjects;

  constructor(
    private readonly diagnostics: DiagnosticsTracker,
    private readonly settings: LspSettings,
    /** Starts our own server for a document's language and root where that is ours to do. */
    readonly supervisor: LanguageServerSupervisor,
    readonly log: Logger,
  ) {
    this.typeScript = new TypeScriptProjects((token) => this.features(token), log);
  }

  /** The editor's language features, each request bounded by the request timeout and `token`. */
  features(token: vscode.CancellationToken): LanguageFeatures {
    return new LanguageFeatures(() => this.settings.requestTimeoutSeconds(), token);
  }

  /** Opens the file and makes sure its project is loaded where that can be checked. */
  async document(file: string, token: vscode.CancellationToken): Promise<OpenedFile> {
    const opened = await this.open(file, token);
    return { ...opened, indexed: await this.typeScript.ensureLoaded(opened.document, token) };
  }

  /**
   * Opens the file as the editor holds it, having the editor take in first what another program
   * wrote to it on disk (a moment ago, say): answers are about the text on disk now, or say not.
   */
  private async open(
    file: string,
    token: vscode.CancellationToken,
  ): Promise<Omit<OpenedFile, 'indexed'> & { readonly disk: DiskFreshness }> {
    const uri = resolveWorkspaceFile(file);
    const document = await openWorkspaceDocument(uri);
    throwIfCancelled(token);
    const path = pathOf(uri);
    const disk = await editorHoldsDisk(document, path);
    throwIfCancelled(token);
    await this.supervisor.ensureFor(document);
    throwIfCancelled(token);
    return { uri, document, path, disk };
  }

  /** After a restart of the TypeScript server nothing is known to be loaded any more. */
  forgetProjectLoads(): void {
    this.typeScript.forget();
  }

  /** A project file (tsconfig.json, jsconfig.json, package.json) was created, changed or deleted. */
  projectsChanged(): void {
    this.typeScript.projectsChanged();
  }

  async target(
    file: string,
    line: number,
    symbol: string,
    occurrence: number | undefined,
    token: vscode.CancellationToken,
  ): Promise<Target> {
    const opened = await this.document(file, token);
    const location = locateSymbol(documentLines(opened.document), line, symbol, occurrence);
    return { ...opened, location, position: new vscode.Position(location.line - 1, location.character) };
  }

  async locations(kind: LocationKind, target: Target, token: vscode.CancellationToken): Promise<CodeLine[]> {
    const found = await this.features(token).locations(locationCommands[kind], target.uri, target.position);
    const texts = new LineTexts();
    return found.map((location) => ({
      path: pathOf(location.uri),
      line: location.range.start.line + 1,
      text: texts.text(location.uri, location.range.start.line),
    }));
  }

  async hover(target: Target, token: vscode.CancellationToken): Promise<string[]> {
    const hovers = await this.features(token).hover(target.uri, target.position);
    return hovers.flatMap((hover) => hover.contents.map(hoverText));
  }

  async documentSymbols(
    file: string,
    token: vscode.CancellationToken,
  ): Promise<{ path: string; entries: OutlineEntry[] }> {
    const { uri, path } = await this.open(file, token); // An outline is syntactic: no project load needed.
    const symbols = await this.features(token).documentSymbols(uri);
    const entries: OutlineEntry[] = [];
    const walk = (symbol: vscode.DocumentSymbol | vscode.SymbolInformation, depth: number): void => {
      const range = 'selectionRange' in symbol ? symbol.selectionRange : symbol.location.range;
      entries.push({
        depth,
        line: range.start.line + 1,
        kind: symbolKindName(symbol.kind),
        name: symbol.name,
        detail: 'detail' in symbol && symbol.detail ? symbol.detail : undefined,
      });
      if ('children' in symbol) for (const child of symbol.children) walk(child, depth + 1);
    };
    for (const symbol of symbols) walk(symbol, 0);
    return { path, entries };
  }

  /**
   * The symbols matching `query` in the workspace, with whether every project of it was loaded first:
   * the TypeScript server searches only the projects it holds, and a window with no file open holds none.
   */
  async workspaceSymbols(
    query: string,
    token: vscode.CancellationToken,
  ): Promise<{ entries: WorkspaceSymbolEntry[]; projects: Freshness }> {
    const folders = workspaceFolderPaths(); // Within a worker's call, its copy's folders.
    const projects = await this.typeScript.loadWorkspace(folders, this.settings.requestTimeoutSeconds(), token);
    let symbols = await this.features(token).workspaceSymbols(query);
    // A worker in its copy: the servers also know the live workspace's symbols, which are not its workspace.
    const copy = viewedFolders();
    if (copy) symbols = symbols.filter((symbol) => containingFolder(copy, symbol.location.uri.fsPath) !== undefined);
    const texts = new LineTexts();
    const entries = symbols.map((symbol) => ({
      kind: symbolKindName(symbol.kind),
      name: symbol.name,
      container: symbol.containerName || undefined,
      path: pathOf(symbol.location.uri),
      line: symbol.location.range.start.line + 1,
      text: texts.text(symbol.location.uri, symbol.location.range.start.line),
    }));
    return { entries, projects };
  }

  /**
   * Where code actions are asked for: the symbol's range, or the whole line without a symbol, with
   * the file's diagnostics settled first (quick fixes are computed from them).
   */
  async codeActionSite(
    file: string,
    line: number,
    symbol: string | undefined,
    occurrence: number | undefined,
    token: vscode.CancellationToken,
  ): Promise<CodeActionSite> {
    let opened: OpenedFile;
    let range: vscode.Range;
    let where: string;
    if (symbol !== undefined) {
      const target = await this.target(file, line, symbol, occurrence, token);
      opened = target;
      range = new vscode.Range(target.position, target.position.translate(0, target.location.length));
      where = `${target.path}:${line} ("${target.location.symbol}")`;
    } else {
      opened = await this.document(file, token);
      checkLine(documentLines(opened.document), line);
      range = opened.document.lineAt(line - 1).range;
      where = `${opened.path}:${line}`;
    }
    const settled = await this.settleDiagnostics(opened.document, range, token);
    return { ...opened, range, where, diagnosticsCurrent: settled.current, shownInTab: settled.shownInTab };
  }

  /** The code actions offered at a site, unresolved (what `lsp code_actions` lists). */
  async codeActionsAt(
    site: CodeActionSite,
    token: vscode.CancellationToken,
  ): Promise<(vscode.CodeAction | vscode.Command)[]> {
    return this.features(token).codeActions(site.uri, site.range);
  }

  async codeActions(
    file: string,
    line: number,
    symbol: string | undefined,
    occurrence: number | undefined,
    token: vscode.CancellationToken,
  ): Promise<{ where: string; entries: CodeActionEntry[]; diagnosticsCurrent: boolean; shownInTab: boolean }> {
    const site = await this.codeActionSite(file, line, symbol, occurrence, token);
    const found = await this.codeActionsAt(site, token);
    const entries = found.map((action): CodeActionEntry => {
      if (typeof action.command === 'string') return { title: action.title, preferred: false, files: [] };
      const codeAction = action as vscode.CodeAction;
      return {
        title: codeAction.title,
        kind: codeAction.kind?.value,
        preferred: codeAction.isPreferred === true,
        disabledReason: codeAction.disabled?.reason,
        files: (codeAction.edit?.entries() ?? []).map(([uri]) => pathOf(uri)),
      };
    });
    return { where: site.where, entries, diagnosticsCurrent: site.diagnosticsCurrent, shownInTab: site.shownInTab };
  }

  /**
   * Quick fixes are computed from the diagnostics the editor holds, so before asking for code
   * actions we wait until those are current for the range: for TypeScript until the errors the
   * server reports there have been published; elsewhere we only say whether they are fresh.
   */
  private async settleDiagnostics(
    document: vscode.TextDocument,
    range: vscode.Range,
    token: vscode.CancellationToken,
  ): Promise<{ current: boolean; shownInTab: boolean }> {
    const uri = document.uri;
    if (!TYPESCRIPT_LANGUAGES.has(document.languageId))
      return { current: this.diagnostics.isFresh(uri), shownInTab: false };
    const pulled = await this.typeScript.pullDiagnostics(uri, pathOf(uri), new LineTexts(), token);
    if (!pulled) return { current: false, shownInTab: false };
    const inRange = (line0: number) => line0 >= range.start.line && line0 <= range.end.line;
    const expected = pulled.filter((item) => inRange(item.line - 1)).length;
    const published = () =>
      vscode.languages
        .getDiagnostics(uri)
        .filter((diagnostic) => diagnostic.source === 'ts' && inRange(diagnostic.range.start.line)).length;
    if (published() >= expected) return { current: true, shownInTab: false };
    // The TypeScript extension reports diagnostics only for files shown in a tab: show this one, in preview, keeping focus.
    const shownInTab = !isInTab(uri);
    if (shownInTab) await vscode.window.showTextDocument(document, { preview: true, preserveFocus: true });
    const deadline = Date.now() + this.settings.diagnosticsWaitSeconds() * 1000;
    while (published() < expected) {
      const remaining = (deadline - Date.now()) / 1000;
      if (remaining <= 0) return { current: false, shownInTab };
      await this.diagnostics.nextPublication(uri, remaining, token);
      throwIfCancelled(token);
    }
    return { current: true, shownInTab };
  }

  async calls(direction: 'callers' | 'callees', target: Target, token: vscode.CancellationToken): Promise<CallEntry[]> {
    const features = this.features(token);
    const items = await features.prepareCallHierarchy(target.uri, target.position);
    const texts = new LineTexts();
    const entries: CallEntry[] = [];
    for (const item of items) {
      if (direction === 'callers') {
        for (const call of await features.incomingCalls(item)) {
          for (const range of call.fromRanges) {
            entries.push({
              path: pathOf(call.from.uri),
              line: range.start.line + 1,
              text: texts.text(call.from.uri, range.start.line),
              other: call.from.name,
            });
          }
        }
      } else {
        for (const call of await features.outgoingCalls(item)) {
          const callee = `${call.to.name} (${pathOf(call.to.uri)}:${call.to.selectionRange.start.line + 1})`;
          for (const range of call.fromRanges) {
            entries.push({
              path: pathOf(item.uri),
              line: range.start.line + 1,
              text: texts.text(item.uri, range.start.line),
              other: callee,
            });
          }
        }
      }
    }
    return entries;
  }

  /**
   * The direct supertypes or subtypes of the type at `target`, each with where it is declared;
   * undefined when the server gives no type hierarchy item there (or has no type hierarchy at all).
   */
  async typeHierarchy(
    direction: 'supertypes' | 'subtypes',
    target: Target,
    token: vscode.CancellationToken,
  ): Promise<CallEntry[] | undefined> {
    const features = this.features(token);
    const items = await features.prepareTypeHierarchy(target.uri, target.position);
    if (items.length === 0) return undefined;
    const texts = new LineTexts();
    const entries: CallEntry[] = [];
    for (const item of items) {
      for (const related of await features.relatedTypes(direction, item)) {
        entries.push({
          path: pathOf(related.uri),
          line: related.selectionRange.start.line + 1,
          text: texts.text(related.uri, related.selectionRange.start.line),
          other: `${related.name} (${symbolKindName(related.kind)})`,
        });
      }
    }
    return entries;
  }

  /**
   * Diagnostics of one file with their freshness. For TypeScript and JavaScript the check is
   * run now through the TypeScript server (so "OK" means it really ran on the current text);
   * for other languages we use what the server published, waiting for a publication when
   * the text changed since the last one.
   */
  async fileDiagnostics(
    file: string,
    token: vscode.CancellationToken,
  ): Promise<{ path: string; items: DiagnosticItem[]; freshness: Freshness }> {
    // No readiness probe first: for TypeScript the pull below is itself a semantic request.
    const { uri, document, path, disk } = await this.open(file, token);
    const texts = new LineTexts();
    const pushed = (): DiagnosticItem[] =>
      vscode.languages.getDiagnostics(uri).map((diagnostic) => diagnosticItem(uri, path, diagnostic, texts));
    if (!disk.fresh) return { path, items: pushed(), freshness: { kind: 'not_verified', why: disk.why } };

    if (TYPESCRIPT_LANGUAGES.has(document.languageId)) {
      const pulled = await this.typeScript.pullDiagnostics(uri, path, texts, token);
      if (pulled) {
        const others = pushed().filter((item) => item.source !== 'ts');
        return { path, items: [...pulled, ...others], freshness: { kind: 'verified' } };
      }
    }
    // No server will publish: said now, not after the wait.
    const unchecked = await this.whyNotChecked(document);
    if (unchecked) return { path, items: pushed(), freshness: { kind: 'not_verified', why: unchecked } };
    const pulled = await withDeadline(
      this.supervisor.pullDiagnostics(document, token),
      this.settings.requestTimeoutSeconds(),
      `the language server's diagnostics for ${path}`,
    );
    throwIfCancelled(token);
    if (pulled) {
      const items = pulled.map((diagnostic) => diagnosticItem(uri, path, diagnostic, texts));
      return { path, items, freshness: { kind: 'verified' } };
    }
    if (this.diagnostics.isFresh(uri)) return { path, items: pushed(), freshness: { kind: 'verified' } };
    const seconds = this.settings.diagnosticsWaitSeconds();
    const published = await this.diagnostics.nextPublication(uri, seconds, token);
    throwIfCancelled(token);
    return {
      path,
      items: pushed(),
      freshness: published
        ? { kind: 'verified' }
        : { kind: 'timed_out', seconds, waitingFor: `a language server to publish diagnostics for ${path}` },
    };
  }

  /**
   * Why no language server will check this document, when that is known: plain text, or a language
   * of our table that neither an editor extension nor our server serves here (and why). An extension
   * that starts for the language may serve it; so may one that starts on anything (`*`, at startup),
   * so for a language not in our table nothing is claimed.
   */
  async whyNotChecked(document: vscode.TextDocument): Promise<string | undefined> {
    if (document.languageId === 'plaintext') return 'plain text has no language server';
    await languageExtensionsReady(document.languageId);
    if (activatesOn(document.languageId)) return undefined;
    const service = this.supervisor.serviceOf(document);
    return service.kind === 'none' ? service.why : undefined;
  }

  /**
   * The document's diagnostics pulled from our own server for it (started first, when it is ours to
   * start), on its current text (pyright publishes nothing for a document not shown in a tab);
   * undefined when none of ours answers that way. `path` is the document as answers name it.
   */
  async pulledDiagnostics(
    document: vscode.TextDocument,
    path: string,
    token: vscode.CancellationToken,
  ): Promise<DiagnosticItem[] | undefined> {
    await this.supervisor.ensureFor(document);
    throwIfCancelled(token);
    const pulled = await this.supervisor.pullDiagnostics(document, token);
    throwIfCancelled(token);
    const texts = new LineTexts();
    return pulled?.map((diagnostic) => diagnosticItem(document.uri, path, diagnostic, texts));
  }

  /** Every diagnostic the editor holds for files inside the workspace. */
  allDiagnostics(): { items: DiagnosticItem[]; fileCount: number } {
    const texts = new LineTexts();
    const folders = workspaceFolderPaths();
    const items: DiagnosticItem[] = [];
    let fileCount = 0;
    for (const [uri, diagnostics] of vscode.languages.getDiagnostics()) {
      if (uri.scheme !== 'file' || diagnostics.length === 0) continue;
      if (!containingFolder(folders, uri.fsPath)) continue;
      fileCount++;
      const path = pathOf(uri);
      for (const diagnostic of diagnostics) items.push(diagnosticItem(uri, path, diagnostic, texts));
    }
    return { items, fileCount };
  }

  /** The rename the language server proposes, checked to stay inside the workspace; nothing is applied. */
  planRename(target: Target, newName: string, token: vscode.CancellationToken): Promise<RenamePlan> {
    return planRename(this.features(token), target, newName);
  }
}

/** A place code actions are asked for, with what the answer should say about its diagnostics. */
export interface CodeActionSite extends OpenedFile {
  readonly range: vscode.Range;
  /** `src/a.ts:3 ("name")` */
  readonly where: string;
  readonly diagnosticsCurrent: boolean;
  readonly shownInTab: boolean;
}

function isInTab(uri: vscode.Uri): boolean {
  return vscode.window.tabGroups.all.some((group) =>
    group.tabs.some((tab) => tab.input instanceof vscode.TabInputText && tab.input.uri.toString() === uri.toString()),
  );
}
