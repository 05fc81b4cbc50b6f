/**
 * Where every write an agent makes is told: the write paths (write/edit/patch, a direct rename,
 * an accepted staged change) report what they wrote and for whom; Agent Changes records it.
 */
import { ChangeCall, ObservedWrite } from './agentChanges';

/** Who wrote: the conversation, how the human knows it, and the tool call. */
export interface WriteSource {
  readonly conversation: string;
  /** The caller's label (`chat`, `MCP client "…"`, `worker w2 "…"`); empty when not known here. */
  readonly label: string;
  readonly call: ChangeCall;
}

export type JournalListener = (source: WriteSource, writes: readonly ObservedWrite[]) => void;

export class ChangeJournal {
  private readonly listeners = new Set<JournalListener>();
  private calls = 0;

  /** A new call id (`call_7`) for a write that did not come through the tool runner. */
  nextCallId(): string {
    return `call_${++this.calls}`;
  }

  wrote(source: WriteSource, writes: readonly ObservedWrite[]): void {
    for (const listener of this.listeners) listener(source, writes);
  }

  onDidWrite(listener: JournalListener): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }
}
