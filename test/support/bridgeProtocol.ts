/** Messages between a test in the extension host and the harness that drives the browser. */
export type BridgeRequest = {
  readonly timeoutMs?: number;
  /** Iframe selectors from the page inwards: the selector is looked up in the innermost (a webview's content). */
  readonly frames?: readonly string[];
} & (
  | {
      readonly op: 'click';
      readonly selector: string;
      readonly text?: string;
      readonly container?: string;
      /**
       * Found and clicked in one step inside the page (a DOM click on that very element), not by the
       * mouse at where it was: a list that re-renders reuses its row elements for other rows, so a
       * row's action found a moment earlier may by then be another row's.
       */
      readonly atomic?: boolean;
    }
  /** `text` (a regular expression) narrows to elements whose text matches it, as for click. */
  | { readonly op: 'text'; readonly selector: string; readonly text?: string }
  | { readonly op: 'count'; readonly selector: string; readonly text?: string }
  | { readonly op: 'html'; readonly selector: string }
  /** Requests to URLs matching the glob fail until unblocked (a webview that cannot load: no client can show it). */
  | { readonly op: 'block'; readonly url: string }
  | { readonly op: 'unblock'; readonly url: string }
  | { readonly op: 'type'; readonly text: string }
  | { readonly op: 'press'; readonly key: string }
  | { readonly op: 'screenshot'; readonly path: string }
);

export type BridgeReply =
  | {
      readonly ok: true;
      readonly text?: string;
      /** For click with a container: the container's visible text and its accessible label. */
      readonly containerText?: string;
      readonly containerLabel?: string;
      readonly count?: number;
    }
  | { readonly ok: false; readonly error: string };

/** A failed test as the run's summary names it: its full title and the first line of its error. */
export interface FailedTest {
  readonly title: string;
  readonly message: string;
}

/** A failed test with its error's message on one line, cut at 300 characters. */
export function failedTest(title: string, error: Error): FailedTest {
  const message = error.message
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .join(' ');
  return { title, message: message.length > 300 ? `${message.slice(0, 300)}…` : message };
}

/** What the test entry writes to `summaryFile` when its suites end. */
export interface RunSummary {
  readonly passed: number;
  readonly failed: number;
  readonly failures: readonly FailedTest[];
}

/** Parameters the harness hands to the test entry inside the extension host. */
export interface RunParams {
  readonly reportFile: string;
  readonly summaryFile: string;
  /** Absent where no browser drives the editor (desktop VS Code through @vscode/test-electron). */
  readonly bridgeUrl?: string;
  readonly grep?: string;
  /** Which suites: "integration" (tests) or "bench" (the benchmark). */
  readonly mode: 'integration' | 'bench';
  readonly benchReportFile?: string;
}
