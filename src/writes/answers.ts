/**
 * The text a model reads after write, edit and patch: what was written, then only the
 * diagnostics the write newly introduced (in the file and its importers), how many it fixed,
 * and honestly "pending" when a server did not answer in time.
 */
import { capNote, countBySeverity, diagnosticLabel, DiagnosticItem, formatDiagnosticList } from '../lsp/format';
import { FileVerdict, SinceVerdict } from './diagnosticRegistry';
import { plural } from '../platform/wording';
import { realPathOf } from '../workspace/containment';

/** New diagnostics listed in a write's answer; the rest are counted. */
export const WRITE_DIAGNOSTICS_CAP = 30;

export interface FileCheck {
  readonly verdict: FileVerdict<DiagnosticItem>;
  /** The file was written by this call (false: an importer). */
  readonly written: boolean;
  /** Why it could not be checked at all (no language server for it), if so. */
  readonly unchecked?: string;
}

export function diagnosticsSection(checks: readonly FileCheck[], waitSeconds: number): string {
  const checked = checks.filter((check) => !check.unchecked);
  const pending = checked.filter((check) => check.verdict.pending);
  const notCompared = checked.filter((check) => check.verdict.notCompared);
  const introduced = checked.flatMap((check) => check.verdict.introduced);
  const fixed = checked.reduce((sum, check) => sum + check.verdict.fixed, 0);
  const importers = checked.filter(
    (check) => !check.written && !check.verdict.pending && !check.verdict.notCompared,
  ).length;
  const lines: string[] = [];
  const fixedNote = fixed > 0 ? ` This write fixed ${plural(fixed, 'problem')}.` : '';
  const scope = importers > 0 ? ` (also checked ${plural(importers, 'importing file')})` : '';
  if (checked.length === 0) {
    const reasons = [...new Set(checks.map((check) => check.unchecked))].join('; ');
    return `Diagnostics: not checked: ${reasons}.`;
  }
  if (introduced.length === 0) {
    lines.push(
      pending.length === checked.length
        ? 'Diagnostics: pending.'
        : pending.length + notCompared.length === checked.length
          ? 'Diagnostics: not compared.'
          : `Diagnostics: no new problems${scope}${notCompared.length > 0 ? `; ${plural(notCompared.length, 'file')} not compared` : ''}.${fixedNote}`,
    );
  } else {
    const files = new Set(introduced.map((item) => item.path)).size;
    lines.push(
      `Diagnostics: ${plural(introduced.length, 'new problem')}${files > 1 ? ` in ${files} files` : ''}${scope}.${fixedNote}`,
    );
    const brokenImporters = checks
      .filter((check) => !check.written && check.verdict.introduced.length > 0)
      .map((check) => check.verdict.path);
    if (brokenImporters.length > 0)
      lines.push(
        `This write broke ${plural(brokenImporters.length, 'file')} that import${brokenImporters.length === 1 ? 's' : ''} it: ${brokenImporters.join(', ')}.`,
      );
    const shown = introduced.slice(0, WRITE_DIAGNOSTICS_CAP);
    lines.push(...shown.map(diagnosticLabel));
    if (introduced.length > shown.length)
      lines.push(`… ${introduced.length - shown.length} more not shown (cap ${WRITE_DIAGNOSTICS_CAP}).`);
  }
  for (const check of notCompared)
    lines.push(notComparedLine(check.verdict.path, check.verdict.notCompared ?? [], waitSeconds));
  if (pending.length > 0) {
    lines.push(
      `Pending for ${pending.map((check) => check.verdict.path).join(', ')}: no answer from the language server within ${waitSeconds} s; ` +
        'not verified — ask lsp diagnostics for those files later (what they report then, new to this conversation, is reported by the next write too).',
    );
  }
  const unchecked = checks.filter((check) => check.unchecked);
  if (unchecked.length > 0)
    lines.push(`Not checked: ${unchecked.map((check) => `${check.verdict.path} (${check.unchecked})`).join(', ')}.`);
  return lines.join('\n');
}

/** One file of a "since your last look" answer: a file asked about (or changed on disk), or one importing such a file. */
export interface SinceCheck {
  readonly verdict: SinceVerdict<DiagnosticItem>;
  /** False: an importer of a file asked about. */
  readonly named: boolean;
  /** The file is gone from disk. */
  readonly deleted?: boolean;
  /** Why it could not be checked at all (no language server for it), if so. */
  readonly unchecked?: string;
}

/**
 * What changed in the diagnostics of files edited elsewhere (on disk, by another tool) since this
 * conversation last saw them: new problems with their line text, how many were fixed, files never
 * seen before with what they have now, importers that broke, and honestly what is pending.
 */
export function sinceAnswer(checks: readonly SinceCheck[], waitSeconds: number): string {
  const checked = checks.filter((check) => !check.unchecked && !check.deleted && !check.verdict.pending);
  const compared = checked.filter((check) => !check.verdict.firstLook);
  const introduced = compared.flatMap((check) => check.verdict.introduced);
  const fixed = compared.reduce((sum, check) => sum + check.verdict.fixed, 0);
  const firstLooks = checked.filter((check) => check.verdict.firstLook);
  const importers = compared.filter((check) => !check.named).length;
  const scope = `${plural(compared.length, 'file')} compared${importers > 0 ? `, ${importers} of them importing the others` : ''}`;
  const lines: string[] = [];
  const fixedNote = fixed > 0 ? `, ${fixed} fixed` : '';
  const pending = checks.filter((check) => !check.unchecked && check.verdict.pending);
  if (compared.length === 0)
    lines.push(
      firstLooks.length > 0
        ? 'Diagnostics: nothing earlier to compare with (first look).'
        : pending.length > 0
          ? 'Diagnostics: pending.'
          : 'Diagnostics: nothing could be checked.',
    );
  else if (introduced.length === 0)
    lines.push(`Diagnostics since your last look: no new problems${fixedNote} (${scope}).`);
  else {
    const files = new Set(introduced.map((item) => item.path)).size;
    lines.push(
      `Diagnostics since your last look: ${plural(introduced.length, 'new problem')}${files > 1 ? ` in ${files} files` : ''}${fixedNote} (${scope}).`,
    );
    const broken = compared.filter((check) => !check.named && check.verdict.introduced.length > 0);
    if (broken.length > 0)
      lines.push(
        `Broken importers (they import a changed file): ${broken.map((check) => check.verdict.path).join(', ')}.`,
      );
    const shown = introduced.slice(0, WRITE_DIAGNOSTICS_CAP);
    lines.push(...shown.map(diagnosticLabel), capNote(shown.length, introduced.length, WRITE_DIAGNOSTICS_CAP));
  }
  const stillThere = compared
    .filter((check) => check.named && check.verdict.present.length > check.verdict.introduced.length)
    .map((check) => {
      const isNew = new Set(check.verdict.introduced);
      return `${check.verdict.path} (${countBySeverity(check.verdict.present.filter((item) => !isNew.has(item)))})`;
    });
  if (stillThere.length > 0) lines.push(`Still there from before: ${stillThere.join(', ')}.`);
  for (const check of firstLooks) lines.push(firstLookLine(check.verdict.path, check.verdict.present));
  const deleted = checks.filter((check) => check.deleted).map((check) => check.verdict.path);
  if (deleted.length > 0) lines.push(`Deleted: ${deleted.join(', ')}.`);
  if (pending.length > 0)
    lines.push(
      `Pending for ${pending.map((check) => check.verdict.path).join(', ')}: no answer from the language server within ${waitSeconds} s; ` +
        'not verified — ask again for those files later (they are compared with what you saw before).',
    );
  lines.push(uncheckedLine(checks));
  return lines.filter((line) => line !== '').join('\n');
}

/** The answer to a baseline call (before an edit made elsewhere): what each file has now, briefly. */
export function baselineAnswer(checks: readonly SinceCheck[], waitSeconds: number): string {
  const taken = checks.filter((check) => !check.unchecked && !check.verdict.pending);
  const pending = checks.filter((check) => !check.unchecked && check.verdict.pending);
  const lines = [
    taken.length > 0
      ? `Baseline taken (the next call with files compares with it): ${taken
          .map(
            (check) =>
              `${check.verdict.path} (${check.verdict.present.length === 0 ? 'no problems' : countBySeverity(check.verdict.present)})`,
          )
          .join(', ')}.`
      : 'No baseline taken.',
  ];
  if (pending.length > 0)
    lines.push(
      `Pending for ${pending.map((check) => check.verdict.path).join(', ')}: no answer from the language server within ${waitSeconds} s; the next call lists them whole.`,
    );
  lines.push(uncheckedLine(checks));
  return lines.filter((line) => line !== '').join('\n');
}

function firstLookLine(path: string, present: readonly DiagnosticItem[]): string {
  return present.length === 0
    ? `${path}: first look (nothing earlier to compare with): no problems.`
    : `${path}: first look (nothing earlier to compare with): ${countBySeverity(present)} now:\n${formatDiagnosticList(present, WRITE_DIAGNOSTICS_CAP)}`;
}

/** A written file whose diagnostics before the write were not known in time (nor seen earlier): what it has, none called new. */
function notComparedLine(path: string, present: readonly DiagnosticItem[], waitSeconds: number): string {
  const why = `not compared (the language server did not answer for the text before this write within ${waitSeconds} s)`;
  return present.length === 0
    ? `${path}: ${why}: no problems now.`
    : `${path}: ${why}: ${countBySeverity(present)} now:\n${formatDiagnosticList(present, WRITE_DIAGNOSTICS_CAP)}`;
}

function uncheckedLine(checks: readonly SinceCheck[]): string {
  const unchecked = checks.filter((check) => check.unchecked);
  return unchecked.length === 0
    ? ''
    : `Not checked: ${unchecked.map((check) => `${check.verdict.path} (${check.unchecked})`).join(', ')}.`;
}

/** A short unified-looking preview of a change for confirmations: removed and added lines, capped. */
export function changePreview(before: string | undefined, after: string | undefined, maxLines = 40): string {
  const oldLines = before === undefined ? [] : before.replace(/\r\n/g, '\n').replace(/\n$/, '').split('\n');
  const newLines = after === undefined ? [] : after.replace(/\r\n/g, '\n').replace(/\n$/, '').split('\n');
  let head = 0;
  while (head < oldLines.length && head < newLines.length && oldLines[head] === newLines[head]) head++;
  let tail = 0;
  while (
    tail < oldLines.length - head &&
    tail < newLines.length - head &&
    oldLines[oldLines.length - 1 - tail] === newLines[newLines.length - 1 - tail]
  )
    tail++;
  const removed = oldLines.slice(head, oldLines.length - tail).map((line) => `-${line}`);
  const added = newLines.slice(head, newLines.length - tail).map((line) => `+${line}`);
  const body = [`@@ line ${head + 1}`, ...removed, ...added];
  const cut = body.length > maxLines ? [...body.slice(0, maxLines), `… ${body.length - maxLines} more lines`] : body;
  return cut.join('\n');
}

/**
 * Places whose files later tool calls run or read as instructions: a write there can make them run
 * something else. Matched on the workspace-relative path, anywhere in it (nested projects too).
 */
const EXECUTED_PLACES: ReadonlyArray<{ readonly segment: RegExp; readonly why: string }> = [
  {
    segment: /(^|\/)\.vscode\//,
    why: 'the editor and the debug tool read it (launch configurations, tasks, settings)',
  },
  { segment: /(^|\/)node_modules\/\.bin\//, why: 'language servers, checkers and scripts are started from there' },
  {
    segment: /(^|\/)\.?venv\/bin\//,
    why: 'the eval kernel, the debugger and language servers run the Python and tools found there',
  },
  { segment: /(^|\/)\.git\/hooks\//, why: 'git runs these hooks' },
  { segment: /(^|\/)\.husky\//, why: 'git hooks run these' },
  {
    segment: /(^|\/)build\.rs$/,
    why: 'cargo runs the build script: the project checker (lsp diagnostics "*") and debugging a Rust test build with it',
  },
  {
    segment: /(^|\/)cargo\.toml$/,
    why: 'cargo reads it: it names the build script (`build = …`) and the build dependencies it runs',
  },
  {
    segment: /(^|\/)rust-toolchain(\.toml)?$/,
    why: 'cargo runs the toolchain it names (a `path` is any program)',
  },
  {
    segment: /(^|\/)\.cargo\//,
    why: 'cargo reads its configuration (wrappers, runners and aliases that run programs)',
  },
  { segment: /(^|\/)conftest\.py$/, why: 'pytest runs it when a Python test is debugged' },
  {
    segment: /(^|\/)(pytest\.ini|pyproject\.toml|setup\.cfg|tox\.ini)$/,
    why: "pytest reads its options (addopts may load the project's plugins) when a Python test is debugged",
  },
  {
    segment: /(^|\/)package\.json$/,
    why: 'its scripts run (npm), and debugging a JavaScript test starts the runner its test script names',
  },
  {
    segment: /(^|\/)((jest|vitest|vite)\.config\.[cm]?[jt]s|\.mocharc\.[cm]?js)$/,
    why: 'the test runner loads it when a JavaScript test is debugged',
  },
];

/**
 * The files (absolute) that later tool calls may execute, as shown, each with why: by the path
 * written, or by where a symbolic link on it leads (a write through `notes.rs` linked to build.rs
 * writes the build script).
 */
export function executedPaths(
  files: readonly string[],
  display: (file: string) => string,
): Array<{ readonly path: string; readonly why: string }> {
  return files.flatMap((file) => {
    const shown = display(file);
    const place = placeOf(shown);
    if (place) return [{ path: shown, why: place.why }];
    const real = realPathOrNone(file);
    const target = real === undefined || real === file ? undefined : placeOf(display(real));
    return target ? [{ path: shown, why: `a link to \`${display(real as string)}\`: ${target.why}` }] : [];
  });
}

/** Matched without regard to case: on a file system that ignores it, `BUILD.RS` is the build script. */
function placeOf(shown: string): { readonly why: string } | undefined {
  const lower = shown.toLowerCase();
  return EXECUTED_PLACES.find((candidate) => candidate.segment.test(lower));
}

/** Where the path leads (links followed, a dangling one too: writing through it creates its target), or none (a loop). */
function realPathOrNone(file: string): string | undefined {
  try {
    return realPathOf(file);
  } catch {
    return undefined;
  }
}

/** The warning a write confirmation carries for files that later tool calls may execute; empty when none. */
export function executableWarning(executed: ReturnType<typeof executedPaths>): string {
  const lines = executed.map(({ path, why }) => `- \`${path}\`: ${why}`);
  return lines.length === 0
    ? ''
    : `\n\n**Warning:** this writes files that later tool calls can execute:\n${lines.join('\n')}`;
}
