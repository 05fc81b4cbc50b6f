/**
 * What the agent's test runs show the human in Test Explorer: our own TestController, one item per
 * test file and test, and a TestRun per `test` call with each test's state, duration and failure
 * message at its location. `liveTools.testExplorerState` hands back what was reported (for tests).
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { Failure, failuresOf } from '../answers';
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

export interface ReportedRun {
  readonly name: string;
  readonly results: readonly ReportedResult[];
}

export class TestExplorer implements vscode.Disposable {
  private readonly controller = vscode.tests.createTestController('agentLiveTools.tests', 'Agent Live Tools');
  private readonly runs: ReportedRun[] = [];

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
        item: this.itemFor(plan.workspaceFolder, facts.file, facts.id, testCase.name, facts.location?.line),
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
    const run = this.controller.createTestRun(new vscode.TestRunRequest(items), name, false);
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
    run.end();
    this.runs.push({ name, results });
    if (this.runs.length > 20) this.runs.shift();
  }

  /** The controller's items (file → tests) and the runs reported, newest last. */
  state(): { items: Array<{ id: string; label: string; children: string[] }>; runs: readonly ReportedRun[] } {
    const items: Array<{ id: string; label: string; children: string[] }> = [];
    this.controller.items.forEach((item) => {
      const children: string[] = [];
      item.children.forEach((child) => children.push(child.id));
      items.push({ id: item.id, label: item.label, children });
    });
    return { items, runs: this.runs };
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

export function registerTestExplorer(context: vscode.ExtensionContext): TestExplorer {
  const explorer = new TestExplorer();
  context.subscriptions.push(
    explorer,
    vscode.commands.registerCommand(TEST_EXPLORER_STATE_COMMAND, () => explorer.state()),
  );
  return explorer;
}
