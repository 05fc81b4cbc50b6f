/** The lsp_apply tool's input and declaration: the language server's own changes, applied or staged. */
import { ToolDeclaration } from '../../platform/toolDeclaration';
import { ToolName } from '../../platform/toolNames';
import { fileProperty, lineProperty, MAX_LINE, occurrenceProperty, symbolProperty } from '../schemaParts';

export const LSP_APPLY_ACTIONS = ['code_action', 'format', 'organize_imports', 'rename_file'] as const;

export type LspApplyAction = (typeof LSP_APPLY_ACTIONS)[number];

export interface LspApplyInput {
  action: LspApplyAction;
  file: string;
  line?: number;
  end_line?: number;
  symbol?: string;
  occurrence?: number;
  title?: string;
  new_path?: string;
  stage?: boolean;
}

export const lspApplyDeclaration: ToolDeclaration = {
  name: ToolName.lspApply,
  tier: 'write',
  resource: 'lsp',
  displayName: 'Apply Language Server Change',
  icon: '$(lightbulb-autofix)',
  userDescription:
    "Apply the language server's own changes: a quick fix or refactoring, formatting, organize imports, moving a file with its imports updated.",
  modelDescription: [
    "Apply a change the editor's language server computes, exactly as the editor would: one undoable edit, the " +
      'changed files saved, and the new problems they have reported back.',
    'Actions:',
    '- code_action (file, `line` (1-based), optional `symbol` as written on that line, title): apply the quick fix or ' +
      'refactoring of that title, exactly as ' +
      '`lsp` action code_actions lists it for the same file, line and symbol (an unknown title lists the offered ones).',
    '- format (file, optional line and end_line): format the file, or those lines, with the formatter of its language.',
    '- organize_imports (file): sort the imports and remove unused ones.',
    '- rename_file (file, new_path): move or rename the file; for TypeScript and JavaScript every import of it ' +
      '(and its own relative imports) is updated as the editor does on a move.',
    'Refused as a whole when the change would touch a file outside the workspace. An action that runs an editor ' +
      'command instead of returning an edit is not applied (the answer says why).',
    'With `stage: true` nothing is written: the change is staged for review (the user sees a diff) and the result ' +
      'gives an edit_id to accept or discard with resolve.',
  ].join('\n'),
  inputSchema: {
    type: 'object',
    properties: {
      action: { type: 'string', enum: LSP_APPLY_ACTIONS, description: 'What to apply.' },
      file: fileProperty,
      line: {
        ...lineProperty,
        description: 'code_action: the 1-based line the action was listed for. format: the first line to format.',
      },
      end_line: {
        type: 'integer',
        minimum: 1,
        maximum: MAX_LINE,
        description: 'format: the last line to format (default: `line`).',
      },
      symbol: { ...symbolProperty, description: `code_action: ${symbolProperty.description}` },
      occurrence: occurrenceProperty,
      title: {
        type: 'string',
        minLength: 1,
        description: 'code_action: the title of the action exactly as `lsp` code_actions listed it.',
      },
      new_path: {
        type: 'string',
        minLength: 1,
        description: 'rename_file: where the file goes, relative to the workspace folder; must not exist yet.',
      },
      stage: {
        type: 'boolean',
        description:
          'true: write nothing; stage the change for review and return an edit_id for resolve. Default false: apply ' +
          'it and save the files at once.',
      },
    },
    required: ['action', 'file'],
    additionalProperties: false,
  },
};
