/**
 * What a tool's model description says about this window right now (the languages a language server
 * serves), added to the declared text wherever we build the tool list ourselves: the MCP endpoint's
 * tools/list and the tools offered to workers. The chat reads the description from package.json,
 * which the stable API does not let an extension change at run time (measured in 1.139: only the
 * proposed `languageModelToolSupportsModel` has `lm.registerToolDefinition`).
 */
export class LiveDescriptions {
  private readonly notes = new Map<string, () => string>();
  private readonly listeners = new Set<() => void>();

  /** `note` is read each time a description of one of `tools` is built. */
  set(tools: readonly string[], note: () => string): void {
    for (const tool of tools) this.notes.set(tool, note);
  }

  /** The declared description with the tool's note for now, if it has one. */
  describe(tool: string, declared: string): string {
    const note = this.notes.get(tool)?.();
    return note ? `${declared}\n${note}` : declared;
  }

  /** Every note as it reads now, to compare with an earlier reading. */
  snapshot(): string {
    return [...this.notes].map(([tool, note]) => `${tool}:${note()}`).join('\n');
  }

  /** Told when a note may read differently now. */
  onDidChange(listener: () => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  changed(): void {
    for (const listener of [...this.listeners]) listener();
  }
}
