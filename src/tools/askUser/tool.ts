import * as vscode from 'vscode';
import { outcomeText } from '../../questions/questionBoard';
import { QuestionService } from '../../questions/vscode/registerQuestions';
import { askUserDeclaration, AskUserInput } from './declaration';
import { LiveTool } from '../liveTool';

export function createAskUserTool(questions: QuestionService): LiveTool<AskUserInput> {
  return {
    declaration: askUserDeclaration,

    invocationMessage: (input) =>
      `Asking you: ${input.question.length > 80 ? `${input.question.slice(0, 80)}…` : input.question}`,

    async invoke(input, { token }) {
      const { card, outcome } = await questions.ask(
        {
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
