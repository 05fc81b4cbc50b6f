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

  /**
   * Describes tools as they read now: the declared description with the tool's note. A note serving
   * several tools (the served languages walk the workspace's folders) is read once per describer, so
   * take one describer per tool list.
   */
  describer(): (tool: string, declared: string) => string {
    const read = new Map<() => string, string>();
    return (tool, declared) => {
      const note = this.notes.get(tool);
      if (!note) return declared;
      let text = read.get(note);
      if (text === undefined) {
        text = note();
        read.set(note, text);
      }
      return text ? `${declared}\n${text}` : declared;
    };
  }

  /** Every note as it reads now (each distinct note read once), to compare with an earlier reading. */
  snapshot(): string {
    const describe = this.describer();
    return [...this.notes.keys()].map((tool) => `${tool}:${describe(tool, '')}`).join('\n');
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
