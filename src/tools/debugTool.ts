import { DebugController } from '../debug/debugController';
import { declarationOf, DebugInput } from '../registry/catalog';
import { ToolName } from '../registry/toolNames';
import { LiveTool } from './liveTool';

/** What each op does, for the confirmation the human answers. */
function describe(input: DebugInput): string {
  switch (input.op) {
    case 'launch':
      return input.configuration
        ? `Start the debug configuration **${input.configuration}** from launch.json.`
        : `Start \`${input.program ?? '?'}\`${input.args?.length ? ` with arguments \`${input.args.join(' ')}\`` : ''} under the ${input.adapter ?? 'matching'} debugger.`;
    case 'attach':
      return `Attach the ${input.adapter ?? ''} debugger to ${input.port !== undefined ? `port ${input.port}` : `process ${input.pid}`}.`;
    case 'evaluate':
      return `Evaluate \`${input.expression ?? ''}\` in the debugged program (it may run code there).`;
    case 'terminate':
      return 'End the debug session and stop the program.';
    case 'breakpoints':
      return input.file ? `Set breakpoints in \`${input.file}\` at lines ${(input.lines ?? []).map((line) => line.line).join(', ') || '(none: clear them)'}.` : 'Set exception breakpoints.';
    default:
      return `Debugger: ${input.op.replace('_', ' ')}.`;
  }
}

export function createDebugTool(controller: DebugController): LiveTool<DebugInput> {
  return {
    declaration: declarationOf(ToolName.debug),

    invocationMessage: (input) => `Debug: ${input.op.replace('_', ' ')}${input.program ? ` ${input.program}` : ''}`,

    async confirmation(input) {
      return { title: `Debug: ${input.op.replace('_', ' ')}?`, message: describe(input) };
    },

    async invoke(input, { conversation, token }) {
      // A cancelled call answers at once (the runner turns it into a CancellationError); the session goes on.
      const abort = new AbortController();
      const listener = token.onCancellationRequested(() => abort.abort());
      if (token.isCancellationRequested) abort.abort();
      try {
        return await controller.run(conversation, input, abort.signal);
      } finally {
        listener.dispose();
      }
    },
  };
}
