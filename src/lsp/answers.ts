/**
 * Composes the text of each lsp answer from plain values the editor glue collected. Kept
 * apart from the glue so every wording, cap and freshness line is tested on plain Node.
 */
import { LSP_CALLS_CAP, LSP_DOCUMENT_SYMBOLS_CAP, LSP_REFERENCES_CAP, LSP_WORKSPACE_SYMBOLS_CAP } from './lspCaps';
import {
  capNote,
  CodeLine,
  countBySeverity,
  DiagnosticItem,
  formatCodeLines,
  formatDiagnosticList,
  uniqueCodeLines,
} from './format';
import { Freshness, freshnessNote } from './freshness';
import { clipLineText, plural } from '../platform/wording';

/**
 * Appended to answers that depend on a whole project being loaded, when we cannot tell that it
 * is (only the TypeScript server lets us check): the answer may be partial while it indexes.
 */
export function withIndexingNote(answer: string, indexed: boolean): string {
  return withProjectsNote(
    answer,
    indexed
      ? { kind: 'verified' }
      : { kind: 'not_verified', why: 'it is not known whether the language server has finished indexing' },
  );
}

/** Appended to a workspace-wide answer unless every project it searches was loaded first. */
export function withProjectsNote(answer: string, projects: Freshness): string {
  switch (projects.kind) {
    case 'verified':
      return answer;
    case 'timed_out':
      return `${answer}\n(Not verified: timed out after ${projects.seconds} s waiting for ${projects.waitingFor}, so this may be incomplete.)`;
    case 'not_verified':
      return `${answer}\n(Not verified: ${projects.why}, so this may be incomplete.)`;
  }
}

export type LocationKind = 'definition' | 'type_definition' | 'implementation' | 'references';

const locationNoun: Record<LocationKind, [string, string]> = {
  definition: ['definition', 'definitions'],
  type_definition: ['type definition', 'type definitions'],
  implementation: ['implementation', 'implementations'],
  references: ['reference', 'references'],
};

/** Definitions are few; references are capped by contract. */
const locationCap: Record<LocationKind, number> = {
  definition: LSP_REFERENCES_CAP,
  type_definition: LSP_REFERENCES_CAP,
  implementation: LSP_REFERENCES_CAP,
  references: LSP_REFERENCES_CAP,
};

export function locationsAnswer(kind: LocationKind, symbol: string, items: readonly CodeLine[]): string {
  const unique = uniqueCodeLines(items);
  const [singular, pluralForm] = locationNoun[kind];
  if (unique.length === 0) {
    return `No ${kind === 'references' ? pluralForm : singular} found for "${symbol}". The language server answered with nothing; check that the symbol is the one you mean, or try lsp symbols with a query.`;
  }
  const files = new Set(unique.map((item) => item.path)).size;
  const heading = `${plural(unique.length, singular, pluralForm)} of "${symbol}" in ${plural(files, 'file')}:`;
  return formatCodeLines(heading, unique, locationCap[kind]);
}

export const HOVER_TEXT_CAP = 2000;

export function hoverAnswer(symbol: string, markdown: readonly string[]): string {
  const text = markdown
    .map((part) => part.trim())
    .filter((part) => part.length > 0)
    .join('\n\n');
  if (text === '') return `No hover information for "${symbol}".`;
  if (text.length <= HOVER_TEXT_CAP) return text;
  return `${text.slice(0, HOVER_TEXT_CAP)}\n… hover text cut at ${HOVER_TEXT_CAP} characters.`;
}

export interface OutlineEntry {
  readonly depth: number;
  readonly line: number;
  readonly kind: string;
  readonly name: string;
  readonly detail?: string;
}

export function documentSymbolsAnswer(path: string, entries: readonly OutlineEntry[], query?: string): string {
  const wanted = query ? entries.filter((entry) => entry.name.toLowerCase().includes(query.toLowerCase())) : entries;
  if (wanted.length === 0) {
    return query
      ? `No symbol in ${path} matches "${query}".`
      : `${path} has no symbols (or the language server gave none).`;
  }
  const shown = wanted.slice(0, LSP_DOCUMENT_SYMBOLS_CAP);
  const lines = shown.map((entry) => {
    const detail = entry.detail ? ` — ${clipLineText(entry.detail, 80)}` : '';
    return `${'  '.repeat(query ? 0 : entry.depth)}${entry.line}: ${entry.kind} ${entry.name}${detail}`;
  });
  const heading = `${plural(wanted.length, 'symbol')} in ${path}${query ? ` matching "${query}"` : ''} (line: kind name):`;
  return [heading, ...lines, capNote(shown.length, wanted.length, LSP_DOCUMENT_SYMBOLS_CAP)].filter(Boolean).join('\n');
}

export interface WorkspaceSymbolEntry extends CodeLine {
  readonly kind: string;
  readonly name: string;
  readonly container?: string;
}

export function workspaceSymbolsAnswer(query: string, entries: readonly WorkspaceSymbolEntry[]): string {
  if (entries.length === 0) {
    return `No symbol matches "${query}" in the workspace. Try a shorter query, or lsp symbols with a file.`;
  }
  const shown = entries.slice(0, LSP_WORKSPACE_SYMBOLS_CAP);
  const lines = shown.map(
    (entry) =>
      `${entry.kind} ${entry.name}${entry.container ? ` (in ${entry.container})` : ''} — ${entry.path}:${entry.line}: ${clipLineText(entry.text)}`,
  );
  return [
    `${plural(entries.length, 'symbol')} matching "${query}":`,
    ...lines,
    capNote(shown.length, entries.length, LSP_WORKSPACE_SYMBOLS_CAP),
  ]
    .filter(Boolean)
    .join('\n');
}

export interface CodeActionEntry {
  readonly title: string;
  readonly kind?: string;
  readonly preferred: boolean;
  readonly disabledReason?: string;
  readonly files: readonly string[];
}

export function codeActionsAnswer(
  where: string,
  entries: readonly CodeActionEntry[],
  diagnosticsCurrent: boolean,
  shownInTab = false,
): string {
  const notes = [
    diagnosticsCurrent
      ? ''
      : '\nNot verified: the diagnostics of this file were not known to be current, so quick fixes for its problems may be missing.',
    shownInTab
      ? '\n(The file was opened in a preview tab: the language server reports problems only for files shown in the editor.)'
      : '',
  ];
  const caveat = notes.join('');
  if (entries.length === 0) return `No code actions are offered at ${where}.${caveat}`;
  const lines = entries.map((entry, index) => {
    const tags = [entry.kind, entry.preferred ? 'preferred' : undefined].filter(Boolean).join(', ');
    const disabled = entry.disabledReason ? ` (disabled: ${entry.disabledReason})` : '';
    const files = entry.files.length > 0 ? ` — edits ${entry.files.join(', ')}` : '';
    return `${index + 1}. ${entry.title}${tags ? ` [${tags}]` : ''}${disabled}${files}`;
  });
  return [`${plural(entries.length, 'code action')} at ${where} (listed, not applied):`, ...lines].join('\n') + caveat;
}

export interface CallEntry extends CodeLine {
  /** The other end of the call: the caller for callers, the callee for callees. */
  readonly other: string;
}

export function callsAnswer(direction: 'callers' | 'callees', symbol: string, entries: readonly CallEntry[]): string {
  if (entries.length === 0) {
    return direction === 'callers'
      ? `No callers of "${symbol}" found.`
      : `"${symbol}" calls nothing the language server knows of.`;
  }
  const sorted = uniqueCodeLines(entries) as CallEntry[];
  const shown = sorted.slice(0, LSP_CALLS_CAP);
  const heading =
    direction === 'callers'
      ? `Calls to "${symbol}" on ${plural(sorted.length, 'line')} (call site, then the calling function):`
      : `Calls made by "${symbol}" on ${plural(sorted.length, 'line')} (call site, then the function called):`;
  const lines = shown.map((entry) => `${entry.path}:${entry.line}: ${clipLineText(entry.text)}  ← ${entry.other}`);
  return [heading, ...lines, capNote(shown.length, sorted.length, LSP_CALLS_CAP)].filter(Boolean).join('\n');
}

/**
 * The direct supertypes or subtypes of a type, like callers: each line is where the other type is
 * declared, then its name and kind. `entries` undefined: the server gave no type hierarchy there.
 */
export function typesAnswer(
  direction: 'supertypes' | 'subtypes',
  symbol: string,
  language: string,
  entries: readonly CallEntry[] | undefined,
): string {
  if (entries === undefined) {
    return (
      `No type hierarchy for "${symbol}": the ${language} language server gives none here (it is not a type, or the ` +
      `server has no type hierarchy; the editor's TypeScript server has none). For what implements or extends it, ` +
      'try implementation; for what it extends, definition on the names in its declaration.'
    );
  }
  if (entries.length === 0)
    return direction === 'supertypes'
      ? `"${symbol}" has no supertypes the language server knows of.`
      : `"${symbol}" has no subtypes the language server knows of.`;
  const sorted = uniqueCodeLines(entries) as CallEntry[];
  const shown = sorted.slice(0, LSP_CALLS_CAP);
  const heading = `${direction === 'supertypes' ? 'Supertypes' : 'Subtypes'} of "${symbol}" (${sorted.length}; where each is declared, then its name):`;
  const lines = shown.map((entry) => `${entry.path}:${entry.line}: ${clipLineText(entry.text)}  ← ${entry.other}`);
  return [heading, ...lines, capNote(shown.length, sorted.length, LSP_CALLS_CAP)].filter(Boolean).join('\n');
}

export function diagnosticsAnswer(path: string, items: readonly DiagnosticItem[], freshness: Freshness): string {
  if (items.length === 0) {
    if (freshness.kind === 'verified') return `OK: no problems in ${path} (${freshnessNote(freshness)}).`;
    return `No problems known for ${path} — ${freshnessNote(freshness)}.`;
  }
  return [`${path}: ${countBySeverity(items)} (${freshnessNote(freshness)}):`, formatDiagnosticList(items)].join('\n');
}

export interface RenamedFile {
  readonly path: string;
  readonly edits: number;
}

export function renameSummary(symbol: string, newName: string, files: readonly RenamedFile[]): string {
  const edits = files.reduce((sum, file) => sum + file.edits, 0);
  return `"${symbol}" → "${newName}": ${plural(edits, 'edit')} in ${plural(files.length, 'file')}`;
}

/** `unsaved`: files changed in the editor's unsaved text and left unsaved (the user had unsaved changes there). */
export function renameAnswer(
  symbol: string,
  newName: string,
  files: readonly RenamedFile[],
  unsaved: readonly string[] = [],
): string {
  const sorted = [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const saved = unsaved.length
    ? `saved, except ${unsaved.join(', ')} (left unsaved: the user has unsaved changes there)`
    : 'all saved';
  return [
    `Renamed ${renameSummary(symbol, newName, sorted)}; ${saved}.`,
    ...sorted.map((file) => `${file.path}: ${plural(file.edits, 'edit')}`),
  ].join('\n');
}
