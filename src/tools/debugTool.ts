import { DebugController } from '../debug/debugController';
import { declarationOf, DebugInput } from '../registry/catalog';
import { ToolName } from '../registry/toolNames';
import { LiveTool } from './liveTool';

export function createDebugTool(controller: DebugController): LiveTool<DebugInput> {
  return {
    declaration: declarationOf(ToolName.debug),

    invocationMessage: (input) => `Debug: ${input.op.replace('_', ' ')}${input.program ? ` ${input.program}` : ''}`,

    async confirmation(input) {
      // What runs, as the engine will run it: the program or launch.json configuration, cwd, every env variable.
      return { title: `Debug: ${input.op.replace('_', ' ')}?`, message: controller.describe(input) };
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
