/**
 * What the debug engine needs of the editor: starting sessions, placing breakpoints where the
 * human sees them, the workspace's folders, paths and launch.json. The editor's side is
 * `vscode/vscodeDebugHost.ts`; the unit tests' is an in-memory fake.
 */
import type { AdapterContext, AdapterResolution } from './adapters';
import type { DebugConnection } from './debugSession';

export interface BreakpointSpec {
  readonly line: number;
  readonly condition?: string;
  /** When to stop by hit count, as the adapter reads it (`>= 3`, `% 2`…). */
  readonly hitCondition?: string;
  /** Logged (with {expressions}) instead of stopping. */
  readonly logMessage?: string;
}

export interface LaunchPlan {
  /** What the answers call the adapter: one of ours, or the launch.json configuration's type. */
  readonly adapter: string;
  /** How it starts; absent for a launch.json type that is none of ours (its own extension starts it). */
  readonly resolution?: Extract<AdapterResolution, { ok: true }>;
  /** Where the adapter comes from, in a few words. */
  readonly detail: string;
  readonly configuration: Record<string, unknown>;
  /** The workspace folder the session belongs to. */
  readonly folder: string;
  /** Exception filters set before the launch: they apply when the adapter is configured. */
  readonly exceptions: readonly string[];
  /** What the answer says was launched, when the configuration's program does not say it (a test). */
  readonly what?: string;
}

export interface DebugHost {
  launch(plan: LaunchPlan): Promise<DebugConnection>;
  /** Places the file's breakpoints in the editor (replacing its earlier ones); empty clears them. */
  setBreakpoints(file: string, breakpoints: readonly BreakpointSpec[]): Promise<void>;
  /** The workspace folder and adapter context for a program (or the first folder). */
  contextFor(file: string | undefined): { folder: string; adapter: AdapterContext };
  /** An absolute path from what the model wrote (relative to the workspace folder). */
  resolvePath(file: string): string;
  display(file: string): string;
  /**
   * A source file's text as the human sees it: the open document's (unsaved changes included),
   * else the disk's; undefined when it is neither open nor readable.
   */
  readText(file: string): Promise<string | undefined>;
  /** A configuration of the folder's launch.json, by name. */
  namedConfiguration(name: string): Record<string, unknown> | undefined;
}
