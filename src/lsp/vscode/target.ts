import * as vscode from 'vscode';
import { LineSource, SymbolLocation } from '../symbolLocation';

/** A workspace file opened for a question, and whether its language server is known to have loaded its project. */
export interface OpenedFile {
  readonly uri: vscode.Uri;
  readonly path: string;
  readonly document: vscode.TextDocument;
  readonly indexed: boolean;
}

/** A resolved `file` + `line` + `symbol`. */
export interface Target extends OpenedFile {
  readonly location: SymbolLocation;
  readonly position: vscode.Position;
}

/** A document's lines as symbol location reads them. */
export function documentLines(document: vscode.TextDocument): LineSource {
  return { lineCount: document.lineCount, lineText: (index) => document.lineAt(index).text };
}
