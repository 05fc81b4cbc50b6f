/** The ask_user tool's input and declaration: a question card for the human. */
import { ToolDeclaration } from '../../platform/toolDeclaration';
import { ToolName } from '../../platform/toolNames';

export interface AskUserOption {
  label: string;
  description?: string;
}

export interface AskUserInput {
  question: string;
  context?: string;
  options?: AskUserOption[];
  allow_free_text?: boolean;
  multi_select?: boolean;
}

/** Options on one question card (1–9 have keys): a bound, far above what a human reads on one card. */
export const ASK_USER_MAX_OPTIONS = 50;

export const askUserDeclaration: ToolDeclaration = {
  name: ToolName.askUser,
  tier: 'read',
  resource: 'questions',
  displayName: 'Ask the user',
  icon: '$(question)',
  userDescription: 'Ask you a question in the Agent Questions panel and wait for your answer.',
  modelDescription: [
    "Ask the human a question on a card in the editor's Agent Questions panel, and wait for the answer. The only way to ask " +
      'the human something mid-task; use it when a decision is theirs (a preference, a risk, missing information), not for ' +
      'what you can find out yourself.',
    'Give options (each a short label, optionally a description) for a pick; multi_select lets several be picked; ' +
      'allow_free_text lets the human type an answer (with no options it is always allowed). context says why you ask and what ' +
      'depends on the answer.',
    'The result names the chosen label(s) and any typed text. A skip is an answer: proceed on a stated assumption and do not ' +
      'ask again. An expiry (no answer in time) is an error with the same instruction. With no human attached the call fails at once.',
  ].join('\n'),
  inputSchema: {
    type: 'object',
    properties: {
      question: { type: 'string', minLength: 1, description: 'The question, one or two sentences.' },
      context: { type: 'string', description: 'Why you ask and what depends on the answer.' },
      options: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            label: { type: 'string', minLength: 1, description: 'A few words; the result names it back.' },
            description: { type: 'string', description: 'One line on what this choice means.' },
          },
          required: ['label'],
          additionalProperties: false,
        },
        maxItems: ASK_USER_MAX_OPTIONS,
        description: 'Choices to pick from, each an object {label, description?}; the human picks 1–9 by number key.',
      },
      allow_free_text: {
        type: 'boolean',
        description: 'Let the human type an answer (besides or instead of picking).',
      },
      multi_select: { type: 'boolean', description: 'Several options may be picked.' },
    },
    required: ['question'],
    additionalProperties: false,
  },
};
