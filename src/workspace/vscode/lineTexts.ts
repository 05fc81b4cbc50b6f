/**
 * The text of one line of a file, for the locations an answer lists. Uses the open document when
 * there is one (unsaved text), otherwise reads the file once; never opens documents, which would
 * start more work in language servers.
 */
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { documentFor } from './openDocuments';

export class LineTexts {
  private readonly files = new Map<string, string[] | undefined>();

  text(uri: vscode.Uri, line0: number): string {
    const open = documentFor(uri);
    if (open) return line0 < open.lineCount ? open.lineAt(line0).text : '';
    const key = uri.toString();
    if (!this.files.has(key)) {
      let lines: string[] | undefined;
      try {
        lines = uri.scheme === 'file' ? fs.readFileSync(uri.fsPath, 'utf8').split(/\r?\n/) : undefined;
      } catch {
        lines = undefined;
      }
      this.files.set(key, lines);
    }
    return this.files.get(key)?.[line0] ?? '';
  }
}
