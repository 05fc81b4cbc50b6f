/**
 * Which TypeScript projects the TypeScript server is known to have loaded. While it loads a
 * project, the TypeScript extension answers references, rename, definition… from a syntax-only
 * server that sees one file; a semantic request waits for the load, so one round trip per file
 * makes every later answer whole. Its diagnostics are pulled from the server the same way.
 */
import * as vscode from 'vscode';
import { DeadlineExceeded } from '../../async/deadline';
import { LineTexts } from '../../workspace/vscode/lineTexts';
import { DiagnosticItem } from '../format';
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

  constructor(private readonly features: (token: vscode.CancellationToken) => LanguageFeatures) {}

  /** After a restart of the TypeScript server nothing is known to be loaded any more. */
  forget(): void {
    this.semanticallyLoaded.clear();
  }

  /** Whether some project is known to be loaded (workspace-wide answers are whole only then). */
  get anyLoaded(): boolean {
    return this.semanticallyLoaded.size > 0;
  }

  /** Waits for the project of a TypeScript document to be loaded; false where that cannot be checked. */
  async ensureLoaded(document: vscode.TextDocument, token: vscode.CancellationToken): Promise<boolean> {
    const key = document.uri.toString();
    if (this.semanticallyLoaded.has(key)) return true;
    if (!TYPESCRIPT_LANGUAGES.has(document.languageId)) return false;
    try {
      await this.features(token).tsserver('semanticDiagnosticsSync', { file: document.uri });
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
