/**
 * What a coverage run answers: per file in the workspace folder, the statements (lines) run of those
 * measured, the percentage and the lines never run — code first, test files last — capped at
 * `COVERAGE_FILES_LISTED` files and `NOT_RUN_RANGES` ranges a file, and the answer says so.
 */
import * as path from 'node:path';
import { CoverageStatement } from './coverageReport';
import { MeasuredCoverage, TestOutcome } from './runTests';
import { commandLineOf, TestPlan } from './testPlan';

export const COVERAGE_FILES_LISTED = 30;
/** Files reported to the editor a run (the rest stay in the answer's count). */
export const COVERAGE_FILES_IN_EDITOR = 2_000;
export const NOT_RUN_RANGES = 15;

/** One file's coverage, as the answer and the editor give it. */
export interface FileSummary {
  /** Absolute. */
  readonly file: string;
  /** Relative to the workspace folder, `/`-separated. */
  readonly relative: string;
  readonly covered: number;
  readonly total: number;
  readonly isTest: boolean;
  /** Lines of statements never run, in order (a Go block: its first line to its last). */
  readonly notRun: ReadonlyArray<readonly [number, number]>;
}

const TEST_FILE = /(^|\/)(test_[^/]*\.py|[^/]*_test\.(py|go)|[^/]*\.(test|spec)\.[cm]?[jt]sx?)$|(^|\/)__tests__\//;

/** The files inside the workspace folder, code first then tests, each by its path. */
export function summarize(coverage: MeasuredCoverage, workspaceFolder: string): FileSummary[] {
  const summaries: FileSummary[] = [];
  for (const { file, statements } of coverage.files) {
    const relative = path.relative(workspaceFolder, file);
    if (!relative || relative.startsWith('..') || path.isAbsolute(relative)) continue;
    const slashed = relative.split(path.sep).join('/');
    summaries.push({ file, relative: slashed, ...counts(statements), isTest: TEST_FILE.test(slashed) });
  }
  return summaries.sort(
    (a, b) => Number(a.isTest) - Number(b.isTest) || (a.relative < b.relative ? -1 : a.relative > b.relative ? 1 : 0),
  );
}

function counts(statements: readonly CoverageStatement[]): Pick<FileSummary, 'covered' | 'total' | 'notRun'> {
  let covered = 0;
  let total = 0;
  const notRun: Array<[number, number]> = [];
  for (const statement of statements) {
    total += statement.weight;
    if (statement.hits > 0) {
      covered += statement.weight;
      continue;
    }
    const end = Math.max(statement.line, statement.endLine ?? statement.line);
    const last = notRun.at(-1);
    if (last && statement.line <= last[1] + 1) last[1] = Math.max(last[1], end);
    else notRun.push([statement.line, end]);
  }
  return { covered, total, notRun };
}

const percent = (covered: number, total: number): string =>
  total ? `${Math.floor((covered / total) * 1000) / 10}%` : 'no statements';

/** The coverage part of a run's answer (after its counts and failures). */
export function coverageSection(plan: Pick<TestPlan, 'coverage' | 'workspaceFolder'>, outcome: TestOutcome): string {
  const coveragePlan = plan.coverage;
  if (!coveragePlan || outcome.stoppedBecause) return '';
  if (!outcome.coverage) return `Coverage: not measured — ${outcome.coverageProblem ?? 'no report'}.`;
  const unit = outcome.coverage.unit;
  const files = summarize(outcome.coverage, plan.workspaceFolder);
  const code = files.filter((file) => !file.isTest);
  const covered = code.reduce((sum, file) => sum + file.covered, 0);
  const total = code.reduce((sum, file) => sum + file.total, 0);
  const tests = files.length - code.length;
  const lines = [
    `Coverage (${coveragePlan.measuredBy}, ${unit} run): ${covered} of ${total} ${unit} in ${code.length} files (${percent(covered, total)})${tests ? `; ${tests} test files listed last` : ''}.`,
  ];
  for (const file of files.slice(0, COVERAGE_FILES_LISTED)) lines.push(fileLine(file, unit));
  const unlisted = files.length - Math.min(files.length, COVERAGE_FILES_LISTED);
  if (unlisted)
    lines.push(
      `…and ${unlisted} more files, not listed (${files.length > COVERAGE_FILES_IN_EDITOR ? `the editor's coverage view has the first ${COVERAGE_FILES_IN_EDITOR}` : "all are in the editor's coverage view"}).`,
    );
  const outside = outcome.coverage.files.length - files.length + outcome.coverage.otherFiles;
  if (outside) lines.push(`(${outside} measured files outside the workspace folder are left out.)`);
  if (outcome.coverage.filesLeftOut || outcome.coverage.statementsLeftOut)
    lines.push(
      `(The report was read in part: ${outcome.coverage.filesLeftOut} files and ${outcome.coverage.statementsLeftOut} ${unit} past its caps were left out.)`,
    );
  lines.push(
    "The editor shows it: the Testing view's Test Coverage section, and run and not-run lines in each file's gutter.",
  );
  return lines.join('\n');
}

function fileLine(file: FileSummary, unit: string): string {
  const shown = file.notRun
    .slice(0, NOT_RUN_RANGES)
    .map(([start, end]) => (start === end ? `${start}` : `${start}-${end}`));
  const more = file.notRun.length - shown.length;
  const notRun = shown.length ? `; not run: ${shown.join(', ')}${more ? ` and ${more} more ranges` : ''}` : '';
  return `- ${file.relative}${file.isTest ? ' (test file)' : ''}: ${file.covered}/${file.total} ${unit} (${percent(file.covered, file.total)})${notRun}`;
}

/** The answer when the runner cannot measure coverage: the tests did not run, and what to install. */
export function coverageToolMissingAnswer(plan: Pick<TestPlan, 'command' | 'args' | 'coverage' | 'root'>): string {
  return [
    `Not run: ${plan.command} cannot measure coverage (${plan.coverage?.measuredBy ?? 'coverage'} is not installed for it), so the tests did not run.`,
    `Command: ${commandLineOf(plan)} (in ${plan.root})`,
    `Next: install ${plan.coverage?.installHint ?? 'the coverage tool'}; or give mode: "run" to run the tests without coverage.`,
  ].join('\n');
}
