/** The resolve tool's input and declaration: accept or discard a staged change. */
import { ToolDeclaration } from '../../platform/toolDeclaration';
import { ToolName } from '../../platform/toolNames';
import { RESOLVE_ACTIONS, ResolveAction } from '../../staging/stagedEdit';

export interface ResolveInput {
  edit_id: string;
  action: ResolveAction;
}

export const resolveDeclaration: ToolDeclaration = {
  name: ToolName.resolve,
  tier: 'write',
  resource: 'staging',
  displayName: 'Resolve Staged Edit',
  icon: '$(check-all)',
  userDescription: 'Accept (write and save) or discard a change that a tool staged for review.',
  modelDescription: [
    'Accept or discard a change staged for review by another tool (ast_edit, lsp_rename with stage: true) or by one of ' +
      "your workers (a write worker's work, named by vibe_wait). A staged change writes nothing until it is accepted; the user " +
      'sees it as a diff and can accept or discard it there too.',
    '- accept: checks every file of the change against the text captured when it was staged (unsaved edits count). ' +
      'If any file changed or was deleted since, the whole change is refused and nothing is written: re-run the tool ' +
      "that staged it to get a fresh edit_id. A worker's change instead merges into what changed since, and is refused " +
      'only where a change the user kept meets it. Otherwise all files are written in one undoable edit and saved.',
    '- discard: drops the change; nothing is written.',
    'Each change is resolved once: if the user already accepted or discarded it, the answer says so ' +
      '(e.g. "edit_3 was already accepted by the user").',
  ].join('\n'),
  inputSchema: {
    type: 'object',
    properties: {
      edit_id: { type: 'string', minLength: 1, description: 'The id the staging tool returned, e.g. "edit_1".' },
      action: { type: 'string', enum: RESOLVE_ACTIONS, description: 'accept: write the change; discard: drop it.' },
    },
    required: ['edit_id', 'action'],
    additionalProperties: false,
  },
};
