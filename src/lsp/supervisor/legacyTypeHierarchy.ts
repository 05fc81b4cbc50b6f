/**
 * clangd before version 15 advertises `typeHierarchyProvider` but answers the standard
 * `textDocument/prepareTypeHierarchy` with "method not found" (measured: clangd 14.0.6, Debian 12);
 * it serves its own earlier proposal, `textDocument/typeHierarchy`, which returns the item with its
 * parents or children resolved. These are that proposal's shapes.
 */

/** The LSP error code for a method the server does not know. */
export const METHOD_NOT_FOUND = -32601;

export const LEGACY_TYPE_HIERARCHY_METHOD = 'textDocument/typeHierarchy';

/** The proposal's directions: 0 children (subtypes), 1 parents (supertypes), 2 both. */
export const enum LegacyDirection {
  Children = 0,
  Parents = 1,
}

interface Position {
  readonly line: number;
  readonly character: number;
}

export interface LegacyRange {
  readonly start: Position;
  readonly end: Position;
}

export interface LegacyTypeHierarchyItem {
  readonly name: string;
  readonly detail?: string;
  /** An LSP SymbolKind. */
  readonly kind: number;
  readonly uri: string;
  readonly range: LegacyRange;
  readonly selectionRange: LegacyRange;
  readonly parents?: readonly LegacyTypeHierarchyItem[];
  readonly children?: readonly LegacyTypeHierarchyItem[];
}

export function legacyParams(uri: string, position: Position, direction: LegacyDirection, resolve: number) {
  return { textDocument: { uri }, position, resolve, direction };
}

/** Whether an error from a language client is the server's "method not found". */
export function isMethodNotFound(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === METHOD_NOT_FOUND;
}

/**
 * Whether a server is known to serve only the earlier proposal, from what it says of itself at
 * initialize (`serverInfo`): clangd before 15. Asked first, so the standard request is never sent
 * to it (a failed request would show the editor an error notification).
 */
export function servesLegacyTypeHierarchy(serverInfo: { name?: string; version?: string } | undefined): boolean {
  if (serverInfo?.name !== 'clangd') return false;
  const major = /(\d+)\.\d+/.exec(serverInfo.version ?? '')?.[1];
  return major !== undefined && Number(major) < 15;
}
