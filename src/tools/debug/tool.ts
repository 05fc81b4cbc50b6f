import { DebugController } from '../../debug/debugController';
import { debugDeclaration, DebugInput } from './declaration';
import { withAbortSignal } from '../../async/abortSignal';
import { LiveTool } from '../liveTool';

export function createDebugTool(controller: DebugController): LiveTool<DebugInput> {
  return {
    declaration: debugDeclaration,

    invocationMessage: (input) => `Debug: ${input.op.replace('_', ' ')}${input.program ? ` ${input.program}` : ''}`,

    async confirmation(input) {
      // What runs, as the engine will run it: the program or launch.json configuration, cwd, every env variable.
      return { title: `Debug: ${input.op.replace('_', ' ')}?`, message: controller.describe(input) };
    },

    // A cancelled call answers at once (the runner turns it into a CancellationError); the session goes on.
    invoke: (input, { conversation, token }) => withAbortSignal(token, (signal) => controller.run(conversation, input, signal)),
  };
}
