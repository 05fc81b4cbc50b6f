/** The write tool's input and declaration: create or overwrite a file. */
import { ToolDeclaration } from '../../platform/toolDeclaration';
import { MAX_WRITE_CHARACTERS } from '../../writes/writeLimits';
import { ToolName } from '../../platform/toolNames';
import { diagnosticsOnWriteLines, fileProperty } from '../schemaParts';

export interface WriteInput {
  path: string;
  content: string;
}

export const writeDeclaration: ToolDeclaration = {
  name: ToolName.write,
  tier: 'write',
  resource: 'workspace',
  displayName: 'Write File',
  icon: '$(new-file)',
  userDescription: 'Create or overwrite a file with the given content; reports the problems the write introduced.',
  modelDescription: [
    'Create a file, or replace the whole content of an existing one. Prefer edit or patch to change part of a file.',
    ...diagnosticsOnWriteLines,
  ].join('\n'),
  inputSchema: {
    type: 'object',
    properties: {
      path: fileProperty,
      content: {
        type: 'string',
        maxLength: MAX_WRITE_CHARACTERS,
        description: 'The complete new content of the file.',
      },
    },
    required: ['path', 'content'],
    additionalProperties: false,
  },
};
