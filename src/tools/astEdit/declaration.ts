/** The ast_edit tool's input and declaration: a structural rewrite, staged for review. */
import { ToolDeclaration } from '../../platform/toolDeclaration';
import { ToolName } from '../../platform/toolNames';
import { languageProperty, MAX_PATTERN_LENGTH, pathProperty, patternDescriptionLines } from '../schemaParts';

export interface AstEditInput {
  pattern: string;
  rewrite: string;
  path?: string;
  language?: string;
}

/** ast_edit stages at most this many replacements at once; a larger rewrite is refused with a narrower-path hint. */
export const AST_EDIT_MAX_REPLACEMENTS = 2000;

export const astEditDeclaration: ToolDeclaration = {
  name: ToolName.astEdit,
  tier: 'write',
  resource: 'structural',
  displayName: 'Structural Rewrite',
  icon: '$(replace-all)',
  userDescription: 'Rewrite code by structure (pattern → template). The change is staged for review, not written.',
  modelDescription: [
    'Rewrite every match of a structural pattern with a template, across files. Nothing is written: the change is ' +
      'staged, the human sees it in a diff view, and you get an edit_id to pass to `resolve` (accept or discard).',
    ...patternDescriptionLines,
    'In `rewrite`, metavariables are replaced by what they matched (`$$$X` keeps its original separators); a multi-line ' +
      'rewrite follows the indentation of the matched code. Nested matches give way to the outermost.',
    `At most ${AST_EDIT_MAX_REPLACEMENTS} replacements per call. Returns "(proposed) N replacements in M files" with each replacement's line.`,
  ].join('\n'),
  inputSchema: {
    type: 'object',
    properties: {
      pattern: {
        type: 'string',
        minLength: 1,
        maxLength: MAX_PATTERN_LENGTH,
        description: 'Code fragment with metavariables, e.g. `$X.dispose()`.',
      },
      rewrite: {
        type: 'string',
        maxLength: MAX_PATTERN_LENGTH,
        description: "Replacement code using the pattern's metavariables, e.g. `dispose($X)`.",
      },
      path: pathProperty,
      language: languageProperty,
    },
    required: ['pattern', 'rewrite'],
    additionalProperties: false,
  },
};
