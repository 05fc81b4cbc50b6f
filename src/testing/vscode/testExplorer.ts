/**
 * What the agent's test runs show the human in Test Explorer: our own TestController, one item per
 * test file and test, and a TestRun per `test` call with each test's state, duration and failure
 * message at its location; a coverage run's files through `addCoverage`, their lines loaded by the
 * editor from the coverage profile. `liveTools.testExplorerState` hands back what was reported (for tests).
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { Failure, failuresOf } from '../answers';
import { COVERAGE_FILES_IN_EDITOR, FileSummary, summarize } from '../coverageAnswer';
import { CoverageStatement } from '../coverageReport';
import { caseFacts } from '../failureFacts';
import { TestOutcome } from '../runTests';
import { commandLineOf, TestPlan } from '../testPlan';

export const TEST_EXPLORER_STATE_COMMAND = 'liveTools.testExplorerState';

/** One result as it was reported to the editor. */
export interface ReportedResult {
  readonly id: string;
  readonly state: 'passed' | 'failed' | 'errored' | 'skipped';
  readonly durationMs?: number;
  readonly message?: string;
  readonly location?: { readonly file: string; readonly line: number };
}

/** A file's coverage as it was given to the editor: counts, and the lines run and not run (first 1000 each). */
export interface ReportedCoverage {
  readonly file: string;
  readonly covered: number;
  readonly total: number;
  readonly linesRun: readonly number[];
  readonly linesNotRun: readonly number[];
}

export interface ReportedRun {
  readonly name: string;
  readonly results: readonly ReportedResult[];
  readonly coverage?: readonly ReportedCoverage[];
}

/** Lines of a file `liveTools.testExplorerState` hands back. */
const REPORTED_LINES = 1_000;

export class TestExplorer implements vscode.Disposable {
  private readonly controller = vscode.tests.createTestController('agentLiveTools.tests', 'Agent Live Tools');
  private readonly runs: ReportedRun[] = [];
  /** Each file's statements, for the editor's `loadDetailedCoverage`. */
  private readonly details = new WeakMap<vscode.FileCoverage, readonly CoverageStatement[]>();
  /** Files whose lines the editor asked for, newest last (for tests). */
  private readonly detailsLoaded: string[] = [];
  /**
   * Coverage runs are made with this profile: the editor asks it for a file's lines. Its tag is on no
   * item, so Test Explorer offers no "run with coverage" button for the agent's items.
   */
  private readonly coverageProfile = this.controller.createRunProfile(
    'Agent coverage',
    vscode.TestRunProfileKind.Coverage,
    () => undefined,
    false,
    new vscode.TestTag('agentLiveTools.agentRunsOnly'),
  );

  constructor() {
    this.coverageProfile.loadDetailedCoverage = async (_run, fileCoverage) => {
      this.detailsLoaded.push(fileCoverage.uri.fsPath);
      if (this.detailsLoaded.length > 50) this.detailsLoaded.shift();
      return (this.details.get(fileCoverage) ?? []).map(statementCoverage);
    };
  }

  /** Reports a finished (or ended) run: items for its tests, their states, the failures at their lines. */
  record(plan: TestPlan, outcome: TestOutcome, runningTest?: { readonly id: string; readonly file?: string }): void {
    const cases = outcome.report?.cases ?? [];
    const failures = new Map<string, Failure>();
    for (const failure of failuresOf(plan, cases)) failures.set(failure.facts.id, failure);
    const entries = cases.map((testCase) => {
      const facts = caseFacts(plan.runner, testCase, plan.root, plan.workspaceFolder);
      return {
        testCase,
        facts,
        item: this.itemFor(
          plan.workspaceFolder,
          facts.file,
          facts.id,
          testCase.name,
          facts.location?.line ?? facts.line,
        ),
      };
    });
    // A pytest node id names its file; go's and cargo's events name the file apart.
    const hungItem = runningTest
      ? this.itemFor(
          plan.workspaceFolder,
          runningTest.file ?? runningTest.id.split('::')[0],
          runningTest.id,
          runningTest.id,
        )
      : undefined;
    const items = [...entries.map((entry) => entry.item), ...(hungItem ? [hungItem] : [])];
    const name = `Agent: ${commandLineOf(plan)}`;
    const profile = outcome.coverage ? this.coverageProfile : undefined;
    const run = this.controller.createTestRun(new vscode.TestRunRequest(items, undefined, profile), name, false);
    const results: ReportedResult[] = [];
    for (const { testCase, facts, item } of entries) {
      const durationMs = Math.round(testCase.seconds * 1000);
      if (testCase.outcome === 'passed') {
        run.passed(item, durationMs);
        results.push({ id: facts.id, state: 'passed', durationMs });
      } else if (testCase.outcome === 'skipped') {
        run.skipped(item);
        results.push({ id: facts.id, state: 'skipped' });
      } else {
        const failure = failures.get(facts.id);
        const text = [facts.sourceLine, failure?.facts.message].filter(Boolean).join('\n') || testCase.outcome;
        const message = new vscode.TestMessage(text);
        if (facts.expected !== undefined) message.expectedOutput = facts.expected;
        if (facts.actual !== undefined) message.actualOutput = facts.actual;
        const location = facts.location && {
          file: path.resolve(plan.workspaceFolder, facts.location.file),
          line: facts.location.line,
        };
        if (location)
          message.location = new vscode.Location(
            vscode.Uri.file(location.file),
            new vscode.Position(Math.max(0, location.line - 1), 0),
          );
        const state = testCase.outcome === 'failed' ? 'failed' : 'errored';
        if (state === 'failed') run.failed(item, message, durationMs);
        else run.errored(item, message, durationMs);
        results.push({ id: facts.id, state, durationMs, message: text, ...(location ? { location } : {}) });
      }
    }
    if (hungItem && runningTest) {
      const text = `Hung: ended after ${outcome.seconds.toFixed(1)} s without output.`;
      run.errored(hungItem, new vscode.TestMessage(text));
      results.push({ id: runningTest.id, state: 'errored', message: text });
    }
    if (outcome.outputTail) run.appendOutput(outcome.outputTail.replace(/\r?\n/g, '\r\n'));
    const coverage = outcome.coverage ? this.addCoverage(run, plan, outcome) : undefined;
    run.end();
    this.runs.push({ name, results, ...(coverage ? { coverage } : {}) });
    if (this.runs.length > 20) this.runs.shift();
  }

  /** Each workspace file's coverage on the run: its counts now, its statements when the editor asks. */
  private addCoverage(run: vscode.TestRun, plan: TestPlan, outcome: TestOutcome): ReportedCoverage[] {
    const statements = new Map((outcome.coverage?.files ?? []).map((file) => [file.file, file.statements]));
    const reported: ReportedCoverage[] = [];
    const files = outcome.coverage ? summarize(outcome.coverage, plan.workspaceFolder) : [];
    for (const summary of files.slice(0, COVERAGE_FILES_IN_EDITOR)) {
      const fileCoverage = new vscode.FileCoverage(
        vscode.Uri.file(summary.file),
        new vscode.TestCoverageCount(summary.covered, summary.total),
      );
      this.details.set(fileCoverage, statements.get(summary.file) ?? []);
      run.addCoverage(fileCoverage);
      reported.push(reportedCoverage(summary, statements.get(summary.file) ?? []));
    }
    return reported;
  }

  /** The controller's items (file → tests), the runs reported (newest last), the files whose lines the editor loaded. */
  state(): {
    items: Array<{ id: string; label: string; children: string[] }>;
    runs: readonly ReportedRun[];
    coverageDetailsLoaded: readonly string[];
  } {
    const items: Array<{ id: string; label: string; children: string[] }> = [];
    this.controller.items.forEach((item) => {
      const children: string[] = [];
      item.children.forEach((child) => children.push(child.id));
      items.push({ id: item.id, label: item.label, children });
    });
    return { items, runs: this.runs, coverageDetailsLoaded: this.detailsLoaded };
  }

  dispose(): void {
    this.controller.dispose();
  }

  /** The test's item under its file's item, made when new; its range moved to the failing line when known. */
  private itemFor(root: string, file: string | undefined, id: string, label: string, line?: number): vscode.TestItem {
    const fileId = file ?? '(no file)';
    let parent = this.controller.items.get(fileId);
    if (!parent) {
      parent = this.controller.createTestItem(
        fileId,
        fileId,
        file ? vscode.Uri.file(path.resolve(root, file)) : undefined,
      );
      this.controller.items.add(parent);
    }
    let item = parent.children.get(id);
    if (!item) {
      item = this.controller.createTestItem(id, label, parent.uri);
      parent.children.add(item);
    }
    if (line !== undefined && item.uri) item.range = new vscode.Range(line - 1, 0, line - 1, 0);
    return item;
  }
}

/** A statement as the editor shows it: an lcov line as its line, a Go block as its range (columns 1-based). */
function statementCoverage(statement: CoverageStatement): vscode.StatementCoverage {
  const line = statement.line - 1;
  const location =
    statement.endLine === undefined
      ? new vscode.Position(line, 0)
      : new vscode.Range(
          line,
          Math.max(0, (statement.column ?? 1) - 1),
          statement.endLine - 1,
          Math.max(0, (statement.endColumn ?? 1) - 1),
        );
  return new vscode.StatementCoverage(statement.hits, location);
}

function reportedCoverage(summary: FileSummary, statements: readonly CoverageStatement[]): ReportedCoverage {
  const linesRun: number[] = [];
  const linesNotRun: number[] = [];
  for (const statement of statements) {
    const lines = statement.hits > 0 ? linesRun : linesNotRun;
    if (lines.length < REPORTED_LINES) lines.push(statement.line);
  }
  return { file: summary.relative, covered: summary.covered, total: summary.total, linesRun, linesNotRun };
}

export function registerTestExplorer(context: vscode.ExtensionContext): TestExplorer {
  const explorer = new TestExplorer();
  context.subscriptions.push(
    explorer,
    vscode.commands.registerCommand(TEST_EXPLORER_STATE_COMMAND, () => explorer.state()),
  );
  return explorer;
}
