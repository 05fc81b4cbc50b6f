/** The patch tool's input and declaration: a multi-file patch. */
import { ToolDeclaration } from '../../platform/toolDeclaration';
import { MAX_WRITE_CHARACTERS } from '../../writes/writeLimits';
import { ToolName } from '../../platform/toolNames';
import { diagnosticsOnWriteLines } from '../schemaParts';

export interface PatchInput {
  patch: string;
}

export const patchDeclaration: ToolDeclaration = {
  name: ToolName.patch,
  tier: 'write',
  resource: 'workspace',
  displayName: 'Apply Patch',
  icon: '$(diff)',
  userDescription: 'Apply a multi-file patch (add, update, move, delete); reports the problems it introduced.',
  modelDescription: [
    'Apply a patch in this format (paths relative to the workspace folder):',
    '*** Begin Patch',
    '*** Add File: path/new.ts',
    '+every line of the new file, prefixed with +',
    '*** Update File: path/old.ts',
    '*** Move to: path/renamed.ts   (optional)',
    '@@ a line to find first, e.g. class Foo   (optional)',
    ' context line (prefixed with a space)',
    '-removed line',
    '+added line',
    '*** End of File   (optional: the hunk ends at the end of the file)',
    '*** Delete File: path/unused.ts',
    '*** End Patch',
    'Hunks of a file apply in order, each after the previous; about 3 lines of context before and after each change. ' +
      'Context is matched exactly, then ignoring trailing whitespace, then ignoring indentation. A hunk that does not ' +
      'match fails the whole patch (nothing is written) and the error shows that hunk and the closest line.',
    ...diagnosticsOnWriteLines,
  ].join('\n'),
  inputSchema: {
    type: 'object',
    properties: {
      patch: {
        type: 'string',
        minLength: 1,
        maxLength: MAX_WRITE_CHARACTERS,
        description: 'The whole patch, from "*** Begin Patch" to "*** End Patch".',
      },
    },
    required: ['patch'],
    additionalProperties: false,
  },
};
