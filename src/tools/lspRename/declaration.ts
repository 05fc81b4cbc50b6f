/** The lsp_rename tool's input and declaration: a workspace-wide rename through the language server. */
import { ToolDeclaration } from '../../platform/toolDeclaration';
import { ToolName } from '../../platform/toolNames';
import { fileProperty, lineProperty, occurrenceProperty, symbolProperty } from '../schemaParts';

export interface LspRenameInput {
  file: string;
  line: number;
  symbol: string;
  occurrence?: number;
  new_name: string;
  stage?: boolean;
}

export const lspRenameDeclaration: ToolDeclaration = {
  name: ToolName.lspRename,
  tier: 'write',
  resource: 'lsp',
  displayName: 'Rename Symbol',
  icon: '$(symbol-key)',
  userDescription: 'Rename a symbol across the workspace with the language server, then save the changed files.',
  modelDescription: [
    'Rename a symbol across the whole workspace with the language server (like F2): every reference, import and ' +
      're-export is updated in one undoable edit, and the changed files are saved.',
    'Address the symbol by `file`, `line` (1-based) and `symbol` as written on that line (add `occurrence` or write ' +
      '`name#2` when it occurs more than once on the line).',
    'Refused as a whole when the rename would change files outside the workspace. Returns the changed files with ' +
      'the number of edits in each.',
    'With `stage: true` nothing is written: the rename is staged for review (the user sees a diff) and the result ' +
      'gives an edit_id to accept or discard with resolve. A rename that would also rename, create or delete files cannot be staged.',
    'Use this instead of search-and-replace to rename identifiers.',
  ].join('\n'),
  inputSchema: {
    type: 'object',
    properties: {
      file: fileProperty,
      line: lineProperty,
      symbol: symbolProperty,
      occurrence: occurrenceProperty,
      new_name: { type: 'string', minLength: 1, description: 'The new name, exactly as it should appear in code.' },
      stage: {
        type: 'boolean',
        description:
          'true: write nothing; stage the rename for review and return an edit_id for resolve. ' +
          'Default false: apply it and save the files at once.',
      },
    },
    required: ['file', 'line', 'symbol', 'new_name'],
    additionalProperties: false,
  },
};
