/**
 * The question card as the approver of calls nobody has asked the human about yet (a worker's, a
 * cell's without a chat): who asks, on one bounded line, the tool's own confirmation — the words
 * the chat would show — and Allow / Deny.
 */
import * as vscode from 'vscode';
import { QuestionService } from '../questions/vscode/registerQuestions';
import { Approver } from '../platform/vscode/approver';
import { singleLine } from '../platform/wording';

/** Characters of a confirmation shown on the card; the rest is counted. */
const CONFIRMATION_SHOWN = 4000;

const ALLOW_ONCE = 'Allow once';
const ALLOW_WORKER_WRITES = "Allow this worker's writes";

export function createApprovalCard(questions: QuestionService): Approver {
  /** Workers (by conversation) whose write calls the human allowed for the rest of their run. */
  const writesAllowed = new Set<string>();
  return {
    async approve({ caller, tool, tier, confirmation }, token: vscode.CancellationToken) {
      // A worker's write calls, once allowed for its run, go on (each lands in Agent Changes, revertable); exec is always asked.
      // A write of files later calls execute (build.rs, hooks, runner configuration) is asked each time: it would be exec nobody
      // approved. So is a write whose tool does not say which files it writes (`executes` absent).
      const executes = confirmation.executes ?? [];
      const workerWrite =
        caller.kind === 'worker' && tier === 'write' && confirmation.executes !== undefined && executes.length === 0;
      if (workerWrite && writesAllowed.has(caller.conversation)) return true;
      const message = confirmation.message;
      const shown =
        message.length > CONFIRMATION_SHOWN
          ? `${message.slice(0, CONFIRMATION_SHOWN)}… (${message.length - CONFIRMATION_SHOWN} more characters)`
          : message;
      const { outcome } = await questions.ask(
        {
          kind: 'approval',
          asker: singleLine(caller.label, 100),
          question: `${singleLine(caller.label, 100)} wants to run ${tool}: ${singleLine(confirmation.title, 160)}`,
          context: shown,
          options: [
            {
              label: workerWrite ? ALLOW_ONCE : 'Allow',
              description: executes.length
                ? 'run this one call (it writes files later calls execute: such a write is asked each time)'
                : 'run this one call',
            },
            ...(workerWrite
              ? [
                  {
                    label: ALLOW_WORKER_WRITES,
                    description:
                      'its write calls run without asking until it ends; each is listed in Agent Changes, where you can revert it',
                  },
                ]
              : []),
            { label: 'Deny', description: 'the caller is told and goes on without it' },
          ],
          allowFreeText: false,
          multiSelect: false,
        },
        token,
      );
      if (outcome.kind !== 'answered') return false;
      const [choice] = outcome.labels;
      if (choice === ALLOW_WORKER_WRITES) writesAllowed.add(caller.conversation);
      return choice === 'Allow' || choice === ALLOW_ONCE || choice === ALLOW_WORKER_WRITES;
    },
    async choose({ caller, question, context, options }, token) {
      const { outcome } = await questions.ask(
        {
          kind: 'approval',
          asker: singleLine(caller.label, 100),
          question: `${singleLine(caller.label, 100)}: ${singleLine(question, 200)}`,
          context: context.length > CONFIRMATION_SHOWN ? `${context.slice(0, CONFIRMATION_SHOWN)}…` : context,
          options: [...options],
          allowFreeText: false,
          multiSelect: false,
        },
        token,
      );
      return outcome.kind === 'answered' ? outcome.labels[0] : undefined;
    },
  };
}
