import * as vscode from 'vscode';
import { outcomeText } from '../../questions/questionBoard';
import { QuestionService } from '../../questions/vscode/registerQuestions';
import { askUserDeclaration, AskUserInput } from './declaration';
import { LiveTool } from '../liveTool';
import { singleLine } from '../../platform/wording';

export function createAskUserTool(questions: QuestionService): LiveTool<AskUserInput> {
  return {
    declaration: askUserDeclaration,

    invocationMessage: (input) =>
      `Asking you: ${input.question.length > 80 ? `${input.question.slice(0, 80)}…` : input.question}`,

    async invoke(input, { token, caller }) {
      const { card, outcome } = await questions.ask(
        {
          kind: 'question',
          // The chat's own question is the human's conversation; any other asker is named on the card.
          asker: caller.kind === 'chat' ? undefined : singleLine(caller.label, 100),
          question: input.question,
          context: input.context,
          options: (input.options ?? []).map((option) => ({ label: option.label, description: option.description })),
          allowFreeText: input.allow_free_text === true,
          multiSelect: input.multi_select === true,
        },
        token,
      );
      if (outcome.kind === 'cancelled') throw new vscode.CancellationError();
      return outcomeText(card, outcome);
    },
  };
}
