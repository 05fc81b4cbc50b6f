/**
 * Which commands attached to a code action leave the files alone. An action's `edit` is what we
 * show, check and record; a command runs after it, and whatever it does (edits the server sends
 * while it runs, packages it installs) cannot be shown first. Known commands that only count the
 * action (telemetry) are harmless; any other command makes the action one we do not apply.
 */

export interface ActionCommand {
  readonly command: string;
  readonly arguments?: readonly unknown[];
}

/** The TypeScript extension's commands that only log telemetry (read in its 1.139 source). */
const TELEMETRY_ONLY = new Set(['_typescript.didApplyRefactoring', '_typescript.didOrganizeImports']);

function isEmptyList(value: unknown): boolean {
  return value === undefined || value === null || (Array.isArray(value) && value.length === 0);
}

/** Reads `path` from an argument object, undefined where the shape differs. */
function field(value: unknown, ...path: string[]): unknown {
  let current = value;
  for (const key of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/**
 * Undefined when running `command` changes nothing beyond the action's edit; otherwise why its
 * effect cannot be captured, to be said to the model.
 */
export function uncapturedEffect(command: ActionCommand, depth = 0): string | undefined {
  if (TELEMETRY_ONLY.has(command.command)) return undefined;
  const first = command.arguments?.[0];
  switch (command.command) {
    // Runs the TypeScript server's own commands of a quick fix (such as installing a types package), when it has any.
    case '_typescript.applyCodeActionCommand':
      return isEmptyList(field(first, 'action', 'commands'))
        ? undefined
        : "which runs the TypeScript server's own commands for this fix (such as installing a package)";
    case '_typescript.applyFixAllCodeAction':
      return isEmptyList(field(first, 'action', 'combinedResponse', 'body', 'commands'))
        ? undefined
        : "which runs the TypeScript server's own commands for these fixes (such as installing a package)";
    case '_typescript.compositeCommand': {
      if (depth > 4) return 'which nests commands too deeply to check';
      for (const inner of command.arguments ?? []) {
        const name = field(inner, 'command');
        if (typeof name !== 'string') return 'which runs commands of a shape not known here';
        const why = uncapturedEffect({ command: name, arguments: field(inner, 'arguments') as unknown[] }, depth + 1);
        if (why) return why;
      }
      return undefined;
    }
    default:
      return 'whose effect (edits a language server sends while it runs, or anything else) cannot be shown and checked before it happens';
  }
}
