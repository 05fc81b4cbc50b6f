import * as vscode from 'vscode';
import { boundedTimeout } from '../../async/timers';
import { DiagnosticsClock } from '../freshness';

/**
 * Watches, from activation on, when each document changes and when diagnostics are
 * published for it, so a diagnostics answer can say whether it describes the current text.
 */
export class DiagnosticsTracker implements vscode.Disposable {
  private readonly clock = new DiagnosticsClock();
  private readonly waiters = new Map<string, Set<() => void>>();
  private readonly subscriptions: vscode.Disposable[];

  constructor() {
    this.subscriptions = [
      vscode.languages.onDidChangeDiagnostics((event) => {
        for (const uri of event.uris) {
          const key = uri.toString();
          this.clock.notePublished(key);
          for (const wake of this.waiters.get(key) ?? []) wake();
        }
      }),
      vscode.workspace.onDidChangeTextDocument((event) => {
        if (event.contentChanges.length > 0) this.clock.noteChanged(event.document.uri.toString());
      }),
      vscode.workspace.onDidCloseTextDocument((document) => this.clock.forget(document.uri.toString())),
    ];
  }

  isFresh(uri: vscode.Uri): boolean {
    return this.clock.isFresh(uri.toString());
  }

  /** Resolves true at the next publication for `uri`, false when `seconds` pass first. */
  nextPublication(uri: vscode.Uri, seconds: number, token: vscode.CancellationToken): Promise<boolean> {
    const key = uri.toString();
    return new Promise<boolean>((resolve) => {
      const waiters = this.waiters.get(key) ?? new Set<() => void>();
      this.waiters.set(key, waiters);
      const finish = (published: boolean): void => {
        clearTimeout(timer);
        cancellation.dispose();
        waiters.delete(wake);
        if (waiters.size === 0) this.waiters.delete(key);
        resolve(published);
      };
      const wake = (): void => finish(true);
      const timer = boundedTimeout(() => finish(false), seconds * 1000);
      const cancellation = token.onCancellationRequested(() => finish(false));
      waiters.add(wake);
    });
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    this.waiters.clear();
  }
}
