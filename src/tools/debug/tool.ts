import { AnchoredSpec } from '../../debug/breakpointAnchors';
import { DebugController } from '../../debug/debugController';
import { DebugRefusal } from '../../debug/debugErrors';
import { refusal } from '../../debug/answers';
import { LaunchRequest } from '../../debug/launchPlan';
import {
  describeAttach,
  describeBreakpoints,
  describeEvaluate,
  describeOp,
  describeWatch,
  TERMINATE_PREVIEW,
} from '../../debug/launchPreview';
import { debugDeclaration, DebugInput } from './declaration';
import { withAbortSignal } from '../../async/abortSignal';
import type { LiveTool } from '../liveTool';
import type { Caller } from '../../platform/caller';
import type { Approver } from '../../platform/vscode/approver';
import type * as vscode from 'vscode';

/**
 * `mask` hides credentials in the answer (platform/secretMask.ts; the identity when the user turned that off);
 * `approver` asks the human once whether a conversation may drive the session they sent to the chat.
 */
export function createDebugTool(
  controller: DebugController,
  mask: (text: string) => string,
  approver: Approver,
): LiveTool<DebugInput> {
  /** A question about driving the human's session on screen, per conversation: a second call waits for its answer. */
  const asking = new Map<string, Promise<void>>();
  return {
    declaration: debugDeclaration,

    invocationMessage: (input) =>
      `Debug: ${input.op.replace('_', ' ')}${input.test ? ` test ${input.test}` : ''}${input.program ? ` ${input.program}` : ''}`,

    async confirmation(input) {
      // What runs, as the engine will run it: the program or launch.json configuration, cwd, every env variable.
      return { title: `Debug: ${input.op.replace('_', ' ')}?`, message: debugConfirmation(controller, input) };
    },

    // A cancelled call answers at once (the runner turns it into a CancellationError); the session goes on.
    // Values, evaluations and program output can hold credentials: masked before the model reads them.
    invoke: async (input, { conversation, caller, token }) => {
      // The human sent their session to the chat: a worker or a terminal agent never sees it.
      if (!HUMAN_SESSION_CALLERS.has(caller.kind) || caller.copy) controller.keepFromHumanSession(conversation);
      // Another call's question failing is that call's to answer, not this one's.
      for (let pending = asking.get(conversation); pending; pending = asking.get(conversation))
        await pending.catch(() => undefined);
      const question = askToDrive(controller, approver, caller, conversation, input.op, token);
      asking.set(conversation, question);
      await question.finally(() => {
        if (asking.get(conversation) === question) asking.delete(conversation);
      });
      return mask(await withAbortSignal(token, (signal) => runDebugOp(controller, conversation, input, signal)));
    },
  };
}

/** Callers that may use the session the human sent to the chat (the chat's own, and what acts in its name). */
const HUMAN_SESSION_CALLERS: ReadonlySet<Caller['kind']> = new Set(['chat', 'extension', 'playground', 'cell']);

/**
 * The first op of a conversation that would drive the human's own session (the one they sent to the
 * chat) asks them, on the card naming who asks; the answer holds for the conversation. A conversation
 * with a session of its own, or one that only reads, is not asked.
 */
async function askToDrive(
  controller: DebugController,
  approver: Approver,
  caller: Caller,
  conversation: string,
  op: string,
  token: vscode.CancellationToken,
): Promise<void> {
  const question = controller.driveQuestion(conversation, op);
  if (question === undefined) return;
  const { session } = question;
  const choice = await approver.choose(
    {
      caller,
      question: `Let ${caller.label} drive your debug session "${session}"?`,
      context:
        `${caller.label} asks to **${op.replace('_', ' ')}** in your debug session "${session}", which you sent to the chat. ` +
        'Allowed, it may continue, step, pause and evaluate expressions in that session until its conversation ends ' +
        '(you are not asked again); it never ends your session. Denied, it is told, and may still read the state you sent.',
      options: [
        {
          label: 'Allow',
          description: 'it may drive this session (continue, step, pause, evaluate); it never ends it',
        },
        { label: 'Deny', description: 'it is told; the session is left as it is' },
      ],
    },
    token,
  );
  // A cancelled call is answered as cancelled by the op itself; nothing is recorded.
  if (token.isCancellationRequested) return;
  controller.answerDrive(conversation, question, choice === undefined ? undefined : choice === 'Allow');
}

/** One op of the tool as the controller's typed call: the model's snake_case input mapped onto it. */
export function runDebugOp(
  controller: DebugController,
  conversation: string,
  input: DebugInput,
  signal?: AbortSignal,
): Promise<string> {
  const wait = { threadId: input.thread_id, timeoutSeconds: input.timeout_seconds };
  switch (input.op) {
    case 'adapters':
      return controller.adapters(conversation, signal);
    case 'status':
      return controller.status(conversation, signal);
    case 'breakpoints':
      return controller.setBreakpoints(
        conversation,
        {
          file: input.file,
          lines: input.file === undefined ? undefined : breakpointSpecs(input.lines),
          exceptions: input.exceptions,
        },
        signal,
      );
    case 'launch':
      return controller.launch(conversation, launchRequest(input), signal);
    case 'attach':
      return controller.attach(
        conversation,
        {
          program: input.program,
          adapter: input.adapter,
          cwd: input.cwd,
          configuration: input.configuration,
          port: input.port,
          pid: input.pid,
          timeoutSeconds: input.timeout_seconds,
        },
        signal,
      );
    case 'continue':
    case 'step_over':
    case 'step_in':
    case 'step_out':
      return controller.resume(conversation, input.op, wait, signal);
    case 'pause':
      return controller.pause(conversation, wait, signal);
    case 'threads':
      return controller.threads(conversation, signal);
    case 'stack':
      return controller.stack(conversation, { threadId: input.thread_id }, signal);
    case 'scopes':
      return controller.scopes(conversation, { threadId: input.thread_id, frameId: input.frame_id }, signal);
    case 'variables':
      return controller.variables(conversation, { threadId: input.thread_id, reference: input.reference }, signal);
    case 'evaluate':
      return controller.evaluate(
        conversation,
        { expression: input.expression, threadId: input.thread_id, frameId: input.frame_id },
        signal,
      );
    case 'watch':
      return controller.setWatch(conversation, input.expressions, signal);
    case 'output':
      return controller.output(conversation, signal);
    case 'terminate':
      return controller.terminate(conversation, signal);
    default:
      // The schema allows only the ops above; an input that got past it is refused as before.
      return Promise.reject(new DebugRefusal(refusal.unknownOp(String((input as { op: unknown }).op))));
  }
}

/** What the call will do, for the human who allows it (markdown). */
export function debugConfirmation(controller: DebugController, input: DebugInput): string {
  switch (input.op) {
    case 'launch':
      return controller.describeLaunch(launchRequest(input));
    case 'attach':
      return describeAttach({ adapter: input.adapter, port: input.port, pid: input.pid, cwd: input.cwd });
    case 'evaluate':
      return describeEvaluate(input.expression);
    case 'watch':
      return describeWatch(input.expressions);
    case 'terminate':
      return TERMINATE_PREVIEW;
    case 'breakpoints':
      return describeBreakpoints(
        input.file,
        breakpointSpecs(input.lines).map((spec) => spec.line),
      );
    default:
      return describeOp(input.op);
  }
}

function launchRequest(input: DebugInput): LaunchRequest {
  return {
    program: input.program,
    args: input.args,
    adapter: input.adapter,
    cwd: input.cwd,
    env: input.env,
    configuration: input.configuration,
    test: input.test,
    timeoutSeconds: input.timeout_seconds,
  };
}

/** Breakpoint lines as the model may write them: plain 1-based numbers, or objects with a condition or log message. */
function breakpointSpecs(lines: DebugInput['lines']): AnchoredSpec[] {
  return (lines ?? []).map((line) => {
    if (typeof line === 'number') return { line };
    const { line: number, line_text: lineText, symbol, condition, hit_condition: hitCondition } = line;
    const logMessage = line.log_message;
    return {
      line: number,
      ...(lineText !== undefined ? { lineText } : {}),
      ...(symbol !== undefined ? { symbol } : {}),
      ...(condition !== undefined ? { condition } : {}),
      ...(hitCondition !== undefined ? { hitCondition } : {}),
      ...(logMessage !== undefined ? { logMessage } : {}),
    };
  });
}
