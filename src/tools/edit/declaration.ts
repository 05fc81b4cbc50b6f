/** The edit tool's input and declaration: replace an exact piece of text in a file. */
import { ToolDeclaration } from '../../platform/toolDeclaration';
import { MAX_EDIT_STRING_CHARACTERS } from '../../writes/writeLimits';
import { ToolName } from '../../platform/toolNames';
import { diagnosticsOnWriteLines, fileProperty } from '../schemaParts';

export interface EditInput {
  path: string;
  old_string: string;
  new_string: string;
  replace_all?: boolean;
}

export const editDeclaration: ToolDeclaration = {
  name: ToolName.edit,
  tier: 'write',
  resource: 'workspace',
  displayName: 'Edit File',
  icon: '$(edit)',
  userDescription: 'Replace an exact piece of text in a file; reports the problems the edit introduced.',
  modelDescription: [
    'Replace `old_string` by `new_string` in one file. `old_string` must occur exactly once (include enough surrounding ' +
      'lines to make it unique) unless `replace_all` is true. It is matched exactly, whitespace included, against the ' +
      "editor's current text of the file (unsaved changes count).",
    'When it is missing the error shows the closest near-match (e.g. the same text with other indentation); when it occurs ' +
      'several times, the line of each occurrence.',
    ...diagnosticsOnWriteLines,
  ].join('\n'),
  inputSchema: {
    type: 'object',
    properties: {
      path: fileProperty,
      old_string: {
        type: 'string',
        minLength: 1,
        maxLength: MAX_EDIT_STRING_CHARACTERS,
        description: 'The exact text to replace.',
      },
      new_string: {
        type: 'string',
        maxLength: MAX_EDIT_STRING_CHARACTERS,
        description: 'The text to put in its place.',
      },
      replace_all: { type: 'boolean', description: 'Replace every occurrence instead of exactly one. Default false.' },
    },
    required: ['path', 'old_string', 'new_string'],
    additionalProperties: false,
  },
};
