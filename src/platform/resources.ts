/**
 * The live resources tools depend on, and whether each is wired in this window. A tool is
 * offered to a model only while its resource is ready; invoked anyway, it refuses with the
 * reason. The editor glue mirrors every state into a context key the tool's `when` names.
 */
export type ResourceId = 'lsp' | 'staging' | 'structural' | 'workspace' | 'debug' | 'kernels' | 'questions' | 'vibe';

export interface ResourceDeclaration {
  readonly id: ResourceId;
  /** What the resource is, as a person reads it in a refusal ("the editor's language features"). */
  readonly title: string;
}

export const RESOURCES: readonly ResourceDeclaration[] = [
  { id: 'lsp', title: "the editor's language features" },
  { id: 'staging', title: 'the staged-edit store' },
  { id: 'structural', title: 'the structural search engine (tree-sitter grammars)' },
  { id: 'workspace', title: 'an open workspace folder to write files in' },
  { id: 'debug', title: "the editor's debugger with a workspace folder open" },
  { id: 'kernels', title: 'the Python and JavaScript kernels, with a workspace folder open' },
  { id: 'questions', title: 'the Agent Questions panel in an editor window' },
  { id: 'vibe', title: 'vibe mode (background workers)' },
];

export type ResourceState = { readonly ready: true } | { readonly ready: false; readonly reason: string };

export const NOT_WIRED: ResourceState = { ready: false, reason: 'it has not been wired yet in this window' };

export function contextKeyOf(id: ResourceId): string {
  return `liveTools.${id}.ready`;
}

export type ResourceListener = (id: ResourceId, state: ResourceState) => void;

/** Current state of every resource, with change notification. Starts with nothing wired. */
export class ResourceBoard {
  private readonly states = new Map<ResourceId, ResourceState>();
  private readonly listeners = new Set<ResourceListener>();

  get(id: ResourceId): ResourceState {
    return this.states.get(id) ?? NOT_WIRED;
  }

  set(id: ResourceId, state: ResourceState): void {
    if (sameState(this.get(id), state)) return;
    this.states.set(id, state);
    for (const listener of this.listeners) listener(id, state);
  }

  onDidChange(listener: ResourceListener): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }
}

function sameState(a: ResourceState, b: ResourceState): boolean {
  if (a.ready || b.ready) return a.ready === b.ready;
  return a.reason === b.reason;
}

export function resourceTitle(id: ResourceId): string {
  return RESOURCES.find((resource) => resource.id === id)?.title ?? id;
}
