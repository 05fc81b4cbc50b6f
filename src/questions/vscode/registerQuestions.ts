/**
 * Wires the question card: the Agent Questions panel view, the `questions` resource (ready once
 * the view's provider is registered in a window), and what draws a human's eye to a new card — the
 * panel revealed without taking focus, a status bar item while cards wait, and a notification.
 */
import * as vscode from 'vscode';
import { Setting } from '../../platform/settings';
import { Runtime } from '../../runtime';
import { Card, CardOutcome, QuestionBoard, QuestionSpec } from '../questionBoard';
import { QUESTIONS_VIEW_ID, QuestionView } from './questionView';

export const DEFAULT_TIMEOUT_MINUTES = 30;
export const DEFAULT_ATTACH_SECONDS = 10;

export interface QuestionService {
  /** Puts the card up and waits for what happens to it; cancellation withdraws it. */
  ask(spec: QuestionSpec, token: vscode.CancellationToken): Promise<{ card: Card; outcome: CardOutcome }>;
}

export function registerQuestions(context: vscode.ExtensionContext, runtime: Runtime): QuestionService {
  const item = vscode.window.createStatusBarItem('liveTools.questions', vscode.StatusBarAlignment.Left, 20);
  item.name = 'Agent Live Tools: questions';
  item.command = `${QUESTIONS_VIEW_ID}.focus`;
  item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
  const board: QuestionBoard = new QuestionBoard(() => {
    view.post();
    const waiting = board.pending;
    if (waiting.length === 0) {
      item.hide();
      return;
    }
    item.text = `$(question) Agent asks #${waiting.map((card) => card.number).join(', #')}`;
    item.tooltip = `The agent waits for your answer: ${waiting[0].question.slice(0, 200)}`;
    item.show();
  });
  const view = new QuestionView(context.extensionUri, board);
  context.subscriptions.push(item, vscode.window.registerWebviewViewProvider(QUESTIONS_VIEW_ID, view), {
    dispose: () => board.dispose(),
  });
  runtime.board.set('questions', { ready: true });

  return {
    async ask(spec, token) {
      const configuration = vscode.workspace.getConfiguration();
      const timeoutMs = 60_000 * (configuration.get<number>(Setting.askUserTimeoutMinutes) ?? DEFAULT_TIMEOUT_MINUTES);
      const attachMs = 1000 * (configuration.get<number>(Setting.askUserAttachSeconds) ?? DEFAULT_ATTACH_SECONDS);
      const { card, outcome } = board.ask(spec, timeoutMs);
      runtime.log.info(
        'questions.ask',
        `#${card.number} (${spec.options.length} options), expires in ${timeoutMs / 1000} s`,
      );
      const cancel = token.onCancellationRequested(() => board.cancel(card.number));
      const presented = Date.now();
      void view.present(card, attachMs).then((rendered) => {
        runtime.log.info(
          'questions.shown',
          `#${card.number} ${rendered ? `rendered after ${Date.now() - presented} ms` : `not rendered within ${attachMs} ms`}`,
        );
        if (!rendered)
          board.unattached(
            card.number,
            `no editor window showed the card within ${attachMs / 1000} s (the Agent Questions panel could not be rendered)`,
          );
      });
      void vscode.window
        .showInformationMessage(`${noticeOf(spec)} (#${card.number}): ${spec.question.slice(0, 150)}`, 'Answer')
        .then((choice) => {
          if (choice) void vscode.commands.executeCommand(`${QUESTIONS_VIEW_ID}.focus`);
        });
      try {
        const settled = await outcome;
        runtime.log.info('questions.settled', `#${card.number}: ${settled.kind}`);
        return { card, outcome: settled };
      } finally {
        cancel.dispose();
      }
    },
  };
}

/** How the notification of a card begins: an approval is never worded as a question, and names who asks. */
function noticeOf(spec: QuestionSpec): string {
  if (spec.kind === 'approval') return `Approval needed${spec.asker ? ` for ${spec.asker}` : ''}`;
  return spec.asker ? `${spec.asker} asks` : 'The agent asks';
}
