/** The ast_grep tool's input and declaration: structural search. */
import { ToolDeclaration } from '../../platform/toolDeclaration';
import { ToolName } from '../../platform/toolNames';
import { STRUCTURAL_LANGUAGES } from '../../structural/grammarManifest';
import { languageProperty, MAX_PATTERN_LENGTH, pathProperty, patternDescriptionLines } from '../schemaParts';

export interface AstGrepInput {
  pattern: string;
  path?: string;
  language?: string;
  max_results?: number;
}

export const AST_GREP_DEFAULT_RESULTS = 50;
export const AST_GREP_MAX_RESULTS = 1000;

export const astGrepDeclaration: ToolDeclaration = {
  name: ToolName.astGrep,
  tier: 'read',
  resource: 'structural',
  displayName: 'Structural Search',
  icon: '$(search)',
  userDescription: 'Search code by structure (tree-sitter patterns with $X metavariables), like ast-grep.',
  modelDescription: [
    'Search code by its syntax tree rather than its text: find every call, statement or declaration shaped like a pattern.',
    ...patternDescriptionLines,
    `Returns each match as path:line: text with its captures, and the total (or "more than N" when stopped at max_results, default ${AST_GREP_DEFAULT_RESULTS}).`,
    'Languages: ' +
      STRUCTURAL_LANGUAGES.join(', ') +
      '. Use this for code shapes; use lsp references for uses of one symbol.',
  ].join('\n'),
  inputSchema: {
    type: 'object',
    properties: {
      pattern: {
        type: 'string',
        minLength: 1,
        maxLength: MAX_PATTERN_LENGTH,
        description: 'Code fragment with metavariables, e.g. `foo($A, $$$REST)`.',
      },
      path: pathProperty,
      language: languageProperty,
      max_results: {
        type: 'integer',
        minimum: 1,
        maximum: AST_GREP_MAX_RESULTS,
        description: `Stop after this many matches. Default ${AST_GREP_DEFAULT_RESULTS}.`,
      },
    },
    required: ['pattern'],
    additionalProperties: false,
  },
};
