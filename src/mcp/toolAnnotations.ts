/**
 * What MCP clients are told a tool does (`tools/list` annotations), from our tiers and each tool's
 * behaviour: read tools are read-only (an agent's plan or ask mode may run them unasked); write and
 * exec tools say whether they may destroy what is there, whether repeating a call changes nothing more,
 * and whether they reach beyond the editor and the workspace (a program, a model provider).
 */
import { ToolDeclaration } from '../platform/toolDeclaration';
import { ToolName } from '../platform/toolNames';

/** MCP's ToolAnnotations (2025-06-18): hints, never trusted for security by the client. */
export interface McpToolAnnotations {
  readonly title: string;
  readonly readOnlyHint: boolean;
  readonly destructiveHint?: boolean;
  readonly idempotentHint?: boolean;
  readonly openWorldHint: boolean;
}

type Behaviour = Pick<McpToolAnnotations, 'destructiveHint' | 'idempotentHint' | 'openWorldHint'>;

/** Every write and exec tool, as it really behaves (a unit test holds the table to the catalog). */
export const WRITE_AND_EXEC_BEHAVIOUR: Readonly<Partial<Record<ToolName, Behaviour>>> = {
  // Replaces a whole file; the same content again changes nothing.
  [ToolName.write]: { destructiveHint: true, idempotentHint: true, openWorldHint: false },
  // A new text that holds the old one would be replaced again.
  [ToolName.edit]: { destructiveHint: true, idempotentHint: false, openWorldHint: false },
  [ToolName.patch]: { destructiveHint: true, idempotentHint: false, openWorldHint: false },
  [ToolName.lspRename]: { destructiveHint: true, idempotentHint: false, openWorldHint: false },
  [ToolName.lspApply]: { destructiveHint: true, idempotentHint: false, openWorldHint: false },
  // Stages a change for review and writes nothing; each call stages another.
  [ToolName.astEdit]: { destructiveHint: false, idempotentHint: false, openWorldHint: false },
  // A change is resolved once: the same call again only says so.
  [ToolName.resolve]: { destructiveHint: true, idempotentHint: true, openWorldHint: false },
  // Runs the project's programs and code: anything they do.
  [ToolName.debug]: { destructiveHint: true, idempotentHint: false, openWorldHint: true },
  [ToolName.eval]: { destructiveHint: true, idempotentHint: false, openWorldHint: true },
  // Runs the project's tests: its code, with whatever it does.
  [ToolName.test]: { destructiveHint: true, idempotentHint: false, openWorldHint: true },
  // A worker on a model provider's model, with the access granted.
  [ToolName.vibeSpawn]: { destructiveHint: true, idempotentHint: false, openWorldHint: true },
};

/** The most a write or exec tool may do: what a tool whose behaviour we do not know is described as. */
const ANY_BEHAVIOUR: Behaviour = { destructiveHint: true, idempotentHint: false, openWorldHint: true };

export function annotationsOf(declaration: Pick<ToolDeclaration, 'name' | 'tier' | 'displayName'>): McpToolAnnotations {
  if (declaration.tier === 'read') return { title: declaration.displayName, readOnlyHint: true, openWorldHint: false };
  const behaviour = WRITE_AND_EXEC_BEHAVIOUR[declaration.name];
  return { title: declaration.displayName, readOnlyHint: false, ...(behaviour ?? ANY_BEHAVIOUR) };
}

/** Another extension's tool counts as exec whatever its tags say, and may do anything. */
export function extensionToolAnnotations(title: string): McpToolAnnotations {
  return { title, readOnlyHint: false, ...ANY_BEHAVIOUR };
}
