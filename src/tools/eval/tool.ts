import { KernelPool, LANGUAGE_NAMES } from '../../kernels/kernelPool';
import { KernelResult } from '../../kernels/kernelResult';
import { evalDeclaration, EvalInput } from './declaration';
import { LiveTool, ToolAnswer } from '../liveTool';
import { ToolRunner } from '../toolRunner';
import { withSecretsMasked } from '../../platform/vscode/userSettings';

/** Lines of the cell shown in the confirmation; the rest is counted. */
const CONFIRMATION_LINES = 40;

function codeExcerpt(code: string): string {
  const lines = code.split('\n');
  const shown = lines.slice(0, CONFIRMATION_LINES).join('\n').replace(/```/g, '` ` `');
  return lines.length > CONFIRMATION_LINES ? `${shown}\n… (${lines.length - CONFIRMATION_LINES} more lines)` : shown;
}

/** The first line a model reads when the cell did not simply run to its end. */
function statusLine(result: KernelResult): string | undefined {
  switch (result.status) {
    case 'ok':
      return undefined;
    case 'error':
      return 'The cell raised an error (the kernel and its state are kept):';
    case 'interrupted':
      return 'The cell was interrupted (the kernel and its state are kept):';
    case 'killed':
    case 'crashed':
      return 'The kernel was lost; the next cell starts a fresh one:';
  }
}

export function createEvalTool(pool: KernelPool, runner: ToolRunner): LiveTool<EvalInput> {
  const declaration = evalDeclaration;
  return {
    declaration,

    invocationMessage: (input) => `${LANGUAGE_NAMES[input.language ?? 'python']}: ${input.description}`,

    async confirmation(input) {
      const language = input.language ?? 'python';
      return {
        title: `Run ${LANGUAGE_NAMES[language]}: ${input.description}?`,
        message: `${input.reset ? 'Start a fresh kernel (the current one and its variables are dropped), then run' : 'Run'} this ${LANGUAGE_NAMES[language]} cell in the agent's kernel, in the workspace folder:\n\n\`\`\`${language}\n${codeExcerpt(input.code)}\n\`\`\``,
      };
    },

    async invoke(input, { conversation, caller, token, invocationToken }): Promise<string | ToolAnswer> {
      const language = input.language ?? 'python';
      // A cell may call what its caller may (a worker's cell no more than the worker), never eval or the workers'
      // tools; in a chat its calls go back through the chat, elsewhere a write or exec call is asked on the card.
      const cell = {
        kind: 'cell' as const,
        cap: caller.cap,
        conversation,
        label: `A ${LANGUAGE_NAMES[language]} cell of ${caller.label}`,
        humanAsked: false,
        chatToken: invocationToken,
        // A worker's cell works in the worker's copy, as the worker does.
        ...(caller.copy ? { copy: caller.copy } : {}),
      };
      // No interpreter, or a kernel that would not start: the error says so (its modelText) through the runner.
      const answer = await pool.run(conversation, language, {
        code: input.code,
        description: input.description,
        reset: input.reset,
        cancellation: token,
        callTool: (name, toolInput) => runner.relay(name, toolInput, cell, token),
      });
      const status = statusLine(answer.result);
      // A cell's output can hold credentials: masked before the model reads it.
      const text = withSecretsMasked(status ? `${status}\n${answer.text}` : answer.text);
      const images = answer.result.parts.flatMap((part) =>
        part.kind === 'image' ? [{ mime: part.mime, data: part.data }] : [],
      );
      return images.length > 0 ? { text, images } : text;
    },
  };
}
