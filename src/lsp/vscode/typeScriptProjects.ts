/**
 * Which TypeScript projects the TypeScript server is known to have loaded. While it loads a
 * project, the TypeScript extension answers references, rename, definition… from a syntax-only
 * server that sees one file; a semantic request waits for the load, so one round trip per file
 * makes every later answer whole. Before a workspace-wide question every project of the workspace
 * is loaded that way, by opening one of its files without a tab (`ProjectLoads`). Its diagnostics
 * are pulled from the server the same way.
 */
import * as vscode from 'vscode';
import { withAbortSignal } from '../../async/abortSignal';
import { DeadlineExceeded } from '../../async/deadline';
import { Logger } from '../../log/logger';
import { findScriptProjects } from '../../project/scriptProjects';
import { WorkspaceFolderPath } from '../../workspace/paths';
import { LineTexts } from '../../workspace/vscode/lineTexts';
import { documentAt, openWorkspaceDocument } from '../../workspace/vscode/openDocuments';
import { DiagnosticItem } from '../format';
import { Freshness } from '../freshness';
import { ProjectLoads } from '../projectLoads';
import { LanguageFeatures } from './languageFeatures';

export const TYPESCRIPT_LANGUAGES = new Set(['typescript', 'typescriptreact', 'javascript', 'javascriptreact']);

interface TsServerDiagnostic {
  start: { line: number; offset: number };
  text: string;
  code?: number;
  category: string;
}

export class TypeScriptProjects {
  private readonly semanticallyLoaded = new Set<string>();
  private readonly workspace: ProjectLoads;

  constructor(
    private readonly features: (token: vscode.CancellationToken) => LanguageFeatures,
    log: Logger,
  ) {
    const neverCancelled = new vscode.CancellationTokenSource().token; // A later question may wait on the same load.
    this.workspace = new ProjectLoads(
      findScriptProjects,
      {
        load: async (entry) => this.load(await openWorkspaceDocument(vscode.Uri.file(entry)), neverCancelled),
        isOpen: (entry) => documentAt(entry) !== undefined,
      },
      log,
    );
  }

  /** After a restart of the TypeScript server nothing is known to be loaded any more. */
  forget(): void {
    this.semanticallyLoaded.clear();
    this.workspace.forget();
  }

  /** A project file (tsconfig.json, jsconfig.json, package.json) was created, changed or deleted. */
  projectsChanged(): void {
    this.workspace.refind();
  }

  /** Waits for the project of a TypeScript document to be loaded; false where that cannot be checked. */
  async ensureLoaded(document: vscode.TextDocument, token: vscode.CancellationToken): Promise<boolean> {
    if (this.semanticallyLoaded.has(document.uri.toString())) return true;
    return this.load(document, token);
  }

  /**
   * Loads every TypeScript/JavaScript project in `folders` (each once, within `seconds`) so that a
   * workspace-wide answer is whole; says whether it is.
   */
  loadWorkspace(
    folders: readonly WorkspaceFolderPath[],
    seconds: number,
    token: vscode.CancellationToken,
  ): Promise<Freshness> {
    return withAbortSignal(token, (signal) =>
      this.workspace.ensure(folders, seconds, signal, () => new vscode.CancellationError()),
    );
  }

  /** One semantic request for the document, which the server answers once its project is loaded. */
  private async load(document: vscode.TextDocument, token: vscode.CancellationToken): Promise<boolean> {
    const key = document.uri.toString();
    if (!TYPESCRIPT_LANGUAGES.has(document.languageId)) return false;
    try {
      const response = await this.features(token).tsserver<{ body?: unknown }>('semanticDiagnosticsSync', {
        file: document.uri,
      });
      if (!Array.isArray(response?.body)) return false; // The server did not check the file: no project to tell by.
      this.semanticallyLoaded.add(key);
      return true;
    } catch (error) {
      if (error instanceof vscode.CancellationError) throw error;
      if (error instanceof DeadlineExceeded) {
        throw new DeadlineExceeded(
          'the TypeScript server to load the project (it may still be indexing)',
          error.seconds,
        );
      }
      // Without the TypeScript extension's request command we cannot tell; go on with what the providers say.
      return false;
    }
  }

  /** The file's syntactic and semantic diagnostics, run now; undefined when the server cannot be asked. */
  async pullDiagnostics(
    uri: vscode.Uri,
    path: string,
    texts: LineTexts,
    token: vscode.CancellationToken,
  ): Promise<DiagnosticItem[] | undefined> {
    const features = this.features(token);
    const request = (command: string) => features.tsserver<{ body?: TsServerDiagnostic[] }>(command, { file: uri });
    let responses: ({ body?: TsServerDiagnostic[] } | undefined)[];
    try {
      responses = await Promise.all([request('syntacticDiagnosticsSync'), request('semanticDiagnosticsSync')]);
    } catch (error) {
      if (error instanceof vscode.CancellationError || error instanceof DeadlineExceeded) throw error;
      return undefined; // The TypeScript extension is absent or refused: fall back to published diagnostics.
    }
    if (responses.some((response) => !Array.isArray(response?.body))) return undefined;
    this.semanticallyLoaded.add(uri.toString()); // A semantic answer came: the project is loaded.
    return responses.flatMap((response) =>
      (response?.body ?? []).map((diagnostic): DiagnosticItem => ({
        path,
        line: diagnostic.start.line,
        text: texts.text(uri, diagnostic.start.line - 1),
        severity: diagnostic.category === 'error' ? 'error' : diagnostic.category === 'warning' ? 'warning' : 'info',
        message: diagnostic.text,
        source: 'ts',
        code: diagnostic.code === undefined ? undefined : String(diagnostic.code),
      })),
    );
  }
}
