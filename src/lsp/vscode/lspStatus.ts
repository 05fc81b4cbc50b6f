import * as vscode from 'vscode';
import { LanguageExtensionEntry, reloadAnswer, statusAnswer } from '../answers';

/** Extensions whose activation events name languages: the editor's language feature providers. */
function languageExtensions(): LanguageExtensionEntry[] {
  const entries: LanguageExtensionEntry[] = [];
  for (const extension of vscode.extensions.all) {
    const events: unknown = extension.packageJSON?.activationEvents;
    if (!Array.isArray(events)) continue;
    const languages = events
      .filter((event): event is string => typeof event === 'string' && event.startsWith('onLanguage:'))
      .map((event) => event.slice('onLanguage:'.length));
    if (languages.length > 0) entries.push({ id: extension.id, languages, active: extension.isActive });
  }
  return entries.sort((a, b) => a.id.localeCompare(b.id));
}

export function lspStatusAnswer(): string {
  const open = new Map<string, number>();
  for (const document of vscode.workspace.textDocuments) {
    if (document.uri.scheme !== 'file') continue;
    open.set(document.languageId, (open.get(document.languageId) ?? 0) + 1);
  }
  return statusAnswer(languageExtensions(), open);
}

export function lspReloadAnswer(): string {
  return reloadAnswer();
}
