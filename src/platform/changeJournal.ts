/**
 * Where every change to workspace files is told, once, by the one writer (`workspace/vscode/workspaceWriter`):
 * what it wrote and for whom. Agent Changes records it. The shared floor: every area may name these types.
 */

/** One tool call that changed files; Agent Changes' checkpoints are "before this call". */
export interface ChangeCall {
  readonly id: string;
  /** `edit`, `patch`, `lsp_rename`, `resolve (accepted edit_3)`… */
  readonly label: string;
  /** Milliseconds since the epoch. */
  readonly at: number;
}

/** A write as the writer saw it: the text just before and just after (undefined: absent). */
export interface ObservedWrite {
  readonly path: string;
  readonly before: string | undefined;
  readonly after: string | undefined;
}

/** A file a write changed: its text before and after, and where it moved. */
export interface WriteOfFile {
  readonly path: string;
  readonly before: string | undefined;
  readonly after: string | undefined;
  readonly moveTo?: string;
}

/** What a write did, file by file: a move is the old path gone and the new one created. */
export function observedWrites(files: readonly WriteOfFile[]): ObservedWrite[] {
  return files.flatMap((file) =>
    file.moveTo
      ? [
          { path: file.path, before: file.before, after: undefined },
          { path: file.moveTo, before: undefined, after: file.after },
        ]
      : [{ path: file.path, before: file.before, after: file.after }],
  );
}

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
