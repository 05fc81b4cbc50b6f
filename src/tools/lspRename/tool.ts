import { renameAnswer, renameSummary, withIndexingNote } from '../../lsp/answers';
import { LspService } from '../../lsp/vscode/lspService';
import { RenamePlan } from '../../lsp/vscode/rename';
import { Target } from '../../lsp/vscode/target';
import { lspRenameDeclaration, LspRenameInput } from './declaration';
import { InputError } from '../../platform/inputValidation';
import { ToolName } from '../../platform/toolNames';
import { StagingService } from '../../staging/vscode/stagingService';
import { FileOperationsNotStaged } from '../../staging/stagingErrors';
import { WorkspaceWriter } from '../../workspace/vscode/workspaceWriter';
import { LiveTool, writeSourceOf } from '../liveTool';
import { executableWarning, executedPaths } from '../../writes/answers';

/** Where the rename starts and the server's plan for it, as the confirmation showed it. */
interface RenameCall {
  readonly at: Target;
  readonly rename: RenamePlan;
}

function checkNewName(input: LspRenameInput): void {
  if (input.new_name.trim() === '' || /\s/.test(input.new_name.trim())) {
    throw new InputError([`new_name must be a single identifier, got ${JSON.stringify(input.new_name)}.`]);
  }
}

export function createLspRenameTool(
  lsp: LspService,
  staging: StagingService,
  writer: WorkspaceWriter,
): LiveTool<LspRenameInput, RenameCall> {
  return {
    declaration: lspRenameDeclaration,

    invocationMessage: (input) =>
      `${input.stage ? 'Staging a rename of' : 'Renaming'} "${input.symbol}" to "${input.new_name}"`,

    async prepare(input, token) {
      checkNewName(input);
      const where = `${input.file}:${input.line}`;
      const at = await lsp.target(input.file, input.line, input.symbol, input.occurrence, token);
      if (at.location.symbol === input.new_name) {
        throw new InputError([`"${input.symbol}" is already called ${input.new_name}; nothing to rename.`]);
      }
      const rename = await lsp.planRename(at, input.new_name, token);
      const list = rename.files.map((file) => `- \`${file.path}\` (${file.edits})`).join('\n');
      const summary = renameSummary(at.location.symbol, input.new_name, rename.files);
      if (input.stage) {
        return {
          plan: { at, rename },
          confirmation: {
            title: 'Stage a rename for review?',
            message: withIndexingNote(
              `Stage the rename ${summary}, starting at \`${where}\`, for review: nothing is written now; a diff opens, and the ` +
                `files are written only when the change is accepted:\n\n${list}`,
              at.indexed,
            ),
            // Staging writes nothing: accepting it (resolve) is asked with its own files.
            executes: [],
          },
        };
      }
      const executed = executedPaths(
        rename.changes.flatMap((change) => [change.path, ...(change.moveTo ? [change.moveTo] : [])]),
        (path) => writer.display(path),
      );
      return {
        plan: { at, rename },
        confirmation: {
          title: 'Rename symbol across the workspace?',
          message:
            withIndexingNote(
              `Rename ${summary}, starting at \`${where}\`, then save those files:\n\n${list}`,
              at.indexed,
            ) + executableWarning(executed),
          executes: executed.map(({ path }) => path),
        },
      };
    },

    async invoke(input, context, { at, rename }) {
      const { token, conversation } = context;
      if (!input.stage) {
        const written = await writer.apply({
          files: rename.changes,
          kind: 'anchored',
          source: writeSourceOf(context),
          token,
        });
        const unsaved = written.files.filter((file) => file.unsaved).map((file) => writer.display(file.path));
        const answer = renameAnswer(at.location.symbol, input.new_name, rename.files, unsaved);
        return withIndexingNote([answer, ...written.notes].join('\n'), at.indexed);
      }
      const moved = rename.changes.filter((change) => change.moveTo);
      if (moved.length > 0)
        throw new FileOperationsNotStaged(
          moved.map((change) => `rename ${writer.display(change.path)} to ${writer.display(change.moveTo as string)}`),
        );
      const staged = await staging.stage({
        conversation,
        origin: ToolName.lspRename,
        summary: `rename "${at.location.symbol}" → "${input.new_name}"`,
        files: rename.changes.map((change) => ({
          path: change.path,
          original: change.before as string,
          edits: change.edits ?? [],
        })),
      });
      return withIndexingNote(staging.proposedAnswer(staged), at.indexed);
    },
  };
}
