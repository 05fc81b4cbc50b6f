/**
 * The text a model reads for lsp answers: workspace-relative path, 1-based line, the line's
 * own text (so it can be addressed again), caps stated with how many were left out.
 */
import { clipLineText, plural } from '../platform/wording';

export interface CodeLine {
  readonly path: string;
  /** 1-based. */
  readonly line: number;
  readonly text: string;
}

export function codeLineLabel(item: CodeLine): string {
  return `${item.path}:${item.line}: ${clipLineText(item.text)}`;
}

/** Same path and line once, sorted by path then line. */
export function uniqueCodeLines(items: readonly CodeLine[]): CodeLine[] {
  const seen = new Set<string>();
  const unique: CodeLine[] = [];
  for (const item of items) {
    const key = `${item.path}\u0000${item.line}`;
    if (seen.has(key)) continue;
    seen.add(key);
    unique.push(item);
  }
  return unique.sort((a, b) => (a.path === b.path ? a.line - b.line : a.path < b.path ? -1 : 1));
}

export function capNote(shown: number, total: number, cap: number): string {
  return total > shown ? `… ${total - shown} more not shown (cap ${cap}).` : '';
}

/** A heading line, then one `path:line: text` line per item, then the cap note if the cap cut the list. */
export function formatCodeLines(heading: string, items: readonly CodeLine[], cap: number): string {
  const unique = uniqueCodeLines(items);
  const shown = unique.slice(0, cap);
  return [heading, ...shown.map(codeLineLabel), capNote(shown.length, unique.length, cap)]
    .filter((line) => line !== '')
    .join('\n');
}

export type Severity = 'error' | 'warning' | 'info' | 'hint';

export interface DiagnosticItem extends CodeLine {
  readonly severity: Severity;
  readonly message: string;
  readonly source?: string;
  readonly code?: string;
}

const severityOrder: Record<Severity, number> = { error: 0, warning: 1, info: 2, hint: 3 };

export function sortDiagnostics(items: readonly DiagnosticItem[]): DiagnosticItem[] {
  return [...items].sort((a, b) => {
    if (a.path !== b.path) return a.path < b.path ? -1 : 1;
    if (a.line !== b.line) return a.line - b.line;
    return severityOrder[a.severity] - severityOrder[b.severity];
  });
}

export function diagnosticLabel(item: DiagnosticItem): string {
  const origin = [item.source, item.code].filter(Boolean).join(' ');
  const message = item.message.replace(/\s*\n\s*/g, ' ');
  return `${item.path}:${item.line}: ${item.severity}${origin ? ` ${origin}` : ''}: ${message}\n    ${clipLineText(item.text)}`;
}

export function countBySeverity(items: readonly DiagnosticItem[]): string {
  const counts = new Map<Severity, number>();
  for (const item of items) counts.set(item.severity, (counts.get(item.severity) ?? 0) + 1);
  return (['error', 'warning', 'info', 'hint'] as const)
    .filter((severity) => counts.has(severity))
    .map((severity) => plural(counts.get(severity) ?? 0, severity))
    .join(', ');
}

export const DIAGNOSTICS_CAP = 100;

export function formatDiagnosticList(items: readonly DiagnosticItem[], cap = DIAGNOSTICS_CAP): string {
  const sorted = sortDiagnostics(items);
  const shown = sorted.slice(0, cap);
  return [...shown.map(diagnosticLabel), capNote(shown.length, sorted.length, cap)]
    .filter((line) => line !== '')
    .join('\n');
}
