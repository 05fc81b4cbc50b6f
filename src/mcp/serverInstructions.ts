/**
 * What an agent connecting over MCP reads first (the server's `instructions`): when to reach for the
 * editor's tools instead of text search, hand edits and print statements, and what the tiers mean —
 * naming only the tools this session is offered (a unit test checks every combination).
 */
import { ToolName } from '../platform/toolNames';

/** One piece of guidance, given when every tool it names is offered. */
interface Guidance {
  readonly needs: readonly ToolName[];
  readonly text: string;
}

const GUIDANCE: readonly Guidance[] = [
  {
    needs: [ToolName.lsp],
    text: 'To find where a symbol is defined, used or called, ask lsp (definition, references, callers, symbols) instead of searching text: it follows the language, not the spelling, and reads unsaved editor text.',
  },
  {
    needs: [ToolName.lsp],
    text: 'After editing files with your own tools, ask lsp diagnostics with files (or changed_on_disk: true) to hear what those edits introduced, broke in importers or fixed.',
  },
  {
    needs: [ToolName.astGrep],
    text: 'For code of a shape (a call with given arguments, a construct across files), use ast_grep patterns instead of regular expressions.',
  },
  {
    needs: [ToolName.lspRename],
    text: 'To rename a symbol, use lsp_rename: the language server changes every use, in every file.',
  },
  {
    needs: [ToolName.lspApply],
    text: "To apply a language server's fix or refactoring, use lsp_apply instead of editing by hand.",
  },
  {
    needs: [ToolName.edit],
    text: 'Change files with edit: its answer names only the problems that change introduced.',
  },
  {
    needs: [ToolName.astEdit],
    text: 'ast_edit rewrites every match of a pattern and stages the change for the human to review.',
  },
  {
    needs: [ToolName.askUser],
    text: "When you need the human's decision, ask with ask_user (a card in the editor) rather than in your reply.",
  },
  {
    needs: [ToolName.debug],
    text: 'To see why code misbehaves, use debug (breakpoints, stepping, variables) instead of adding print statements.',
  },
];

const TIERS =
  'Read tools change nothing. Write tools change files and exec tools run programs: each such call waits for the ' +
  "human's approval in the editor, and which tiers you are offered is the human's setting.";

/** The instructions for a session offered `offered`. */
export function serverInstructions(offered: readonly string[]): string {
  const has = new Set(offered);
  return [
    "Tools of the VS Code window this server belongs to, on the editor's live state. Paths are relative to the workspace folders; lines are 1-based.",
    ...GUIDANCE.filter((guidance) => guidance.needs.every((name) => has.has(name))).map((guidance) => guidance.text),
    TIERS,
  ].join('\n');
}
