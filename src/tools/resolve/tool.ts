import * as vscode from 'vscode';
import { acceptedAnswer, discardedAnswer, resolveConfirmation } from '../../staging/answers';
import { StagingService } from '../../staging/vscode/stagingService';
import { resolveDeclaration, ResolveInput } from './declaration';
import { errorText } from '../errorText';
import { LiveTool } from '../liveTool';
import { executableWarning, executedPaths } from '../../writes/answers';

export function createResolveTool(staging: StagingService): LiveTool<ResolveInput> {
  const display = (path: string) => staging.display(path);
  return {
    declaration: resolveDeclaration,

    invocationMessage: (input) => `${input.action === 'accept' ? 'Accepting' : 'Discarding'} ${input.edit_id}`,

    async confirmation(input) {
      let edit;
      try {
        edit = staging.store.requirePending(input.edit_id);
      } catch (error) {
        return {
          title: `Resolve ${input.edit_id}?`,
          message: `Nothing will be written: ${errorText(error, { displayPath: display }).replace(/^Error: /, '')}`,
          executes: [],
        };
      }
      const drifted = input.action === 'accept' ? await staging.drift(edit) : [];
      // What accepting writes: each file, and where a move puts one.
      const executed =
        input.action === 'accept'
          ? executedPaths([...edit.files.map((file) => file.path), ...(edit.move ? [edit.move.to] : [])], display)
          : [];
      return {
        title: input.action === 'accept' ? `Accept ${edit.id}?` : `Discard ${edit.id}?`,
        message: resolveConfirmation(edit, input.action, drifted, display) + executableWarning(executed),
        executes: executed.map(({ path }) => path),
      };
    },

    // Only the conversation that staged a change resolves it through this tool; the human can resolve any in the review.
    async invoke(input, { token, conversation }) {
      if (token.isCancellationRequested) throw new vscode.CancellationError();
      if (input.action === 'discard') return discardedAnswer(staging.discard(input.edit_id, 'agent', conversation));
      const { edit, unsaved } = await staging.accept(input.edit_id, 'agent', conversation);
      return acceptedAnswer(edit, display, unsaved);
    },
  };
}
