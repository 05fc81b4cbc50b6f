/**
 * The question card as the approver of calls nobody has asked the human about yet (a worker's, a
 * cell's without a chat): who asks, on one bounded line, the tool's own confirmation — the words
 * the chat would show — and Allow / Deny.
 */
import * as vscode from 'vscode';
import { singleLine } from '../platform/caller';
import { QuestionService } from '../questions/vscode/registerQuestions';
import { Approver } from './toolRunner';

/** Characters of a confirmation shown on the card; the rest is counted. */
const CONFIRMATION_SHOWN = 4000;

export function createApprovalCard(questions: QuestionService): Approver {
  return {
    async approve({ caller, tool, confirmation }, token: vscode.CancellationToken) {
      const message = confirmation.message;
      const shown =
        message.length > CONFIRMATION_SHOWN
          ? `${message.slice(0, CONFIRMATION_SHOWN)}… (${message.length - CONFIRMATION_SHOWN} more characters)`
          : message;
      const { outcome } = await questions.ask(
        {
          question: `${singleLine(caller.label, 100)} wants to run ${tool}: ${singleLine(confirmation.title, 160)}`,
          context: shown,
          options: [
            { label: 'Allow', description: 'run this one call' },
            { label: 'Deny', description: 'the caller is told and goes on without it' },
          ],
          allowFreeText: false,
          multiSelect: false,
        },
        token,
      );
      return outcome.kind === 'answered' && outcome.labels[0] === 'Allow';
    },
  };
}
