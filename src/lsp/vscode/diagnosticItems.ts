import * as vscode from 'vscode';
import { LineTexts } from '../../workspace/vscode/lineTexts';
import { DiagnosticItem, Severity } from '../format';

const severities: Record<number, Severity> = {
  [vscode.DiagnosticSeverity.Error]: 'error',
  [vscode.DiagnosticSeverity.Warning]: 'warning',
  [vscode.DiagnosticSeverity.Information]: 'info',
  [vscode.DiagnosticSeverity.Hint]: 'hint',
};

/** An editor diagnostic as answers list it, with the text of its line. */
export function diagnosticItem(
  uri: vscode.Uri,
  path: string,
  diagnostic: vscode.Diagnostic,
  texts: LineTexts,
): DiagnosticItem {
  return {
    path,
    line: diagnostic.range.start.line + 1,
    text: texts.text(uri, diagnostic.range.start.line),
    severity: severities[diagnostic.severity] ?? 'info',
    message: diagnostic.message,
    source: diagnostic.source,
    code: diagnosticCode(diagnostic.code),
  };
}

function diagnosticCode(code: vscode.Diagnostic['code']): string | undefined {
  if (code === undefined) return undefined;
  if (typeof code === 'object') return String(code.value);
  return String(code);
}
