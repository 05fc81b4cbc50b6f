/**
 * The text of `lsp status`, `lsp reload` and the whole-project `lsp diagnostics "*"`, composed
 * from plain values the glue collected: per root, who serves the language (the editor's extension,
 * our supervised server with its command and pid, or nobody — and then exactly why).
 */
import { countBySeverity, DiagnosticItem, formatDiagnosticList } from '../format';
import { plural } from '../../platform/wording';

export type ServerState = 'running' | 'starting' | 'not started' | 'stopped' | 'failed' | 'exited';

export type Service =
  | { readonly kind: 'editor'; readonly extensionId: string; readonly active: boolean }
  | {
      readonly kind: 'ours';
      readonly commandLine: string;
      readonly binary: string;
      readonly state: ServerState;
      readonly pid?: number;
      readonly detail?: string;
    }
  | { readonly kind: 'none'; readonly why: string };

export interface RootStatus {
  readonly language: string;
  /** Workspace-relative (`.` for the folder itself). */
  readonly root: string;
  readonly markers: readonly string[];
  readonly service: Service;
}

export interface LanguageWithoutRoot {
  readonly language: string;
  readonly markers: readonly string[];
  /** What the binary check said, so "binary without marker" is visible too. */
  readonly binary: string;
  readonly servedByEditor?: string;
}

export function serviceLine(service: Service): string {
  switch (service.kind) {
    case 'editor':
      return `served by the editor's extension ${service.extensionId} (${service.active ? 'active' : 'not activated yet'})`;
    case 'ours': {
      const pid = service.pid === undefined ? '' : `, pid ${service.pid}`;
      const detail = service.detail ? ` — ${service.detail}` : '';
      return `our server \`${service.commandLine}\` (${service.binary}): ${service.state}${pid}${detail}`;
    }
    case 'none':
      return `no server: ${service.why}`;
  }
}

export function supervisorStatusAnswer(
  roots: readonly RootStatus[],
  withoutRoot: readonly LanguageWithoutRoot[],
  openLanguages: ReadonlyMap<string, number>,
): string {
  const lines: string[] = [];
  if (roots.length === 0) lines.push('No project root of a known language in the workspace.');
  else {
    lines.push('Project roots and their language servers:');
    for (const root of roots) {
      lines.push(`- ${root.language} at ${root.root} (${root.markers.join(', ')}): ${serviceLine(root.service)}`);
    }
  }
  if (withoutRoot.length > 0) {
    lines.push('Languages without a root marker in the workspace (no server is started without one):');
    for (const language of withoutRoot) {
      const served = language.servedByEditor ? `; the editor's ${language.servedByEditor} serves its files anyway` : '';
      lines.push(
        `- ${language.language}: no ${language.markers.join(', ')} found; server binary: ${language.binary}${served}`,
      );
    }
  }
  if (openLanguages.size > 0) {
    lines.push(
      `Open documents: ${[...openLanguages].map(([language, files]) => `${language} (${plural(files, 'file')})`).join(', ')}.`,
    );
  }
  return lines.join('\n');
}

/** Reasons are cut here in a description line (status has them whole). */
const REASON_WIDTH = 80;

/**
 * `Languages with a language server in this window now: Go (gopls), TypeScript/JavaScript (the
 * editor's vscode.typescript-language-features). No server for: Dart (`dart` not found …).`
 */
export function servedLanguagesText(
  served: ReadonlyMap<string, string>,
  unserved: ReadonlyMap<string, string>,
): string {
  const list = (entries: ReadonlyMap<string, string>) =>
    [...entries]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(
        ([language, why]) => `${language} (${why.length > REASON_WIDTH ? `${why.slice(0, REASON_WIDTH - 1)}…` : why})`,
      )
      .join(', ');
  const lines = [
    served.size > 0
      ? `Languages with a language server in this window now: ${list(served)}.`
      : 'No language has a language server in this window now.',
  ];
  if (unserved.size > 0) lines.push(`No server for: ${list(unserved)}; lsp action status says more.`);
  return lines.join(' ');
}

export interface ReloadOutcome {
  readonly language: string;
  readonly root?: string;
  readonly did: string;
}

export function supervisorReloadAnswer(outcomes: readonly ReloadOutcome[]): string {
  if (outcomes.length === 0)
    return 'Nothing to reload: no language server serves this workspace (see lsp status for why).';
  return [
    'Reload:',
    ...outcomes.map((outcome) => `- ${outcome.language}${outcome.root ? ` at ${outcome.root}` : ''}: ${outcome.did}`),
  ].join('\n');
}

export type CheckRun =
  | {
      readonly kind: 'ran';
      readonly commandLine: string;
      readonly seconds: number;
      readonly exitCode: number | null;
      readonly count: number;
    }
  | { readonly kind: 'timed_out'; readonly commandLine: string; readonly seconds: number }
  | { readonly kind: 'cancelled'; readonly commandLine: string }
  | { readonly kind: 'failed'; readonly commandLine: string; readonly why: string }
  | { readonly kind: 'not_run'; readonly why: string };

export interface RootCheck {
  readonly language: string;
  readonly root: string;
  readonly run: CheckRun;
}

function checkLine(check: RootCheck): string {
  const where = `${check.language} at ${check.root}`;
  const run = check.run;
  switch (run.kind) {
    case 'ran':
      return `- ${where}: \`${run.commandLine}\` ran in ${run.seconds.toFixed(1)} s (exit ${run.exitCode}): ${run.count === 0 ? 'no problems' : plural(run.count, 'problem')}`;
    case 'timed_out':
      return `- ${where}: \`${run.commandLine}\` timed out after ${run.seconds} s and was stopped; not verified`;
    case 'cancelled':
      return `- ${where}: \`${run.commandLine}\` was cancelled; not verified`;
    case 'failed':
      return `- ${where}: \`${run.commandLine}\` failed: ${run.why}; not verified`;
    case 'not_run':
      return `- ${where}: not checked: ${run.why}`;
  }
}

/** The whole-project answer: one line per root checked, then the findings in the lsp diagnostics format. */
export function projectCheckAnswer(
  checks: readonly RootCheck[],
  items: readonly DiagnosticItem[],
  fallbackNote?: string,
): string {
  const allRan = checks.length > 0 && checks.every((check) => check.run.kind === 'ran');
  const heading =
    checks.length === 0
      ? 'No project root with a checker in the workspace.'
      : items.length === 0
        ? allRan
          ? 'OK: the project checkers found no problems.'
          : 'No problems found by the checkers that ran; some roots were not verified (see below).'
        : `${countBySeverity(items)} in ${plural(new Set(items.map((item) => item.path)).size, 'file')} (from the project checkers${allRan ? '' : '; some roots not verified'}):`;
  const lines = [heading, ...checks.map(checkLine)];
  if (items.length > 0) lines.push(formatDiagnosticList(items));
  if (fallbackNote) lines.push(fallbackNote);
  return lines.join('\n');
}
