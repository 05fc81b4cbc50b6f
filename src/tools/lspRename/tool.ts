import * as vscode from 'vscode';
import { renameAnswer, renameSummary, withIndexingNote } from '../../lsp/answers';
import { LspService } from '../../lsp/vscode/lspService';
import { pathOf } from '../../workspace/vscode/workspaceFolders';
import { lspRenameDeclaration, LspRenameInput } from './declaration';
import { InputError } from '../../platform/inputValidation';
import { ToolName } from '../../platform/toolNames';
import { StagingService } from '../../staging/vscode/stagingService';
import { stagedFilesOf } from '../../staging/vscode/workspaceEditStaging';
import { LiveTool, writeSourceOf } from '../liveTool';
import { ChangeJournal } from '../../changes/changeJournal';

function checkNewName(input: LspRenameInput): void {
  if (input.new_name.trim() === '' || /\s/.test(input.new_name.trim())) {
    throw new InputError([`new_name must be a single identifier, got ${JSON.stringify(input.new_name)}.`]);
  }
}

export function createLspRenameTool(
  lsp: LspService,
  staging: StagingService,
  journal: ChangeJournal,
): LiveTool<LspRenameInput> {
  return {
    declaration: lspRenameDeclaration,

    invocationMessage: (input) =>
      `${input.stage ? 'Staging a rename of' : 'Renaming'} "${input.symbol}" to "${input.new_name}"`,

    async confirmation(input, token) {
      const where = `${input.file}:${input.line}`;
      const at = await lsp.target(input.file, input.line, input.symbol, input.occurrence, token);
      const { files } = await lsp.planRename(at, input.new_name, token);
      const list = files.map((file) => `- \`${file.path}\` (${file.edits})`).join('\n');
      const summary = renameSummary(at.location.symbol, input.new_name, files);
      if (input.stage) {
        return {
          title: 'Stage a rename for review?',
          message: withIndexingNote(
            `Stage the rename ${summary}, starting at \`${where}\`, for review: nothing is written now; a diff opens, and the ` +
              `files are written only when the change is accepted:\n\n${list}`,
            at.indexed,
          ),
        };
      }
      return {
        title: 'Rename symbol across the workspace?',
        message: withIndexingNote(
          `Rename ${summary}, starting at \`${where}\`, then save those files:\n\n${list}`,
          at.indexed,
        ),
      };
    },

    async invoke(input, context) {
      const { token, conversation } = context;
      checkNewName(input);
      const at = await lsp.target(input.file, input.line, input.symbol, input.occurrence, token);
      if (at.location.symbol === input.new_name) {
        throw new InputError([`"${input.symbol}" is already called ${input.new_name}; nothing to rename.`]);
      }
      if (!input.stage) {
        return withIndexingNote(
          renameAnswer(
            at.location.symbol,
            input.new_name,
            await lsp.rename(at, input.new_name, token, (writes) => journal.wrote(writeSourceOf(context), writes)),
          ),
          at.indexed,
        );
      }
      const { edit } = await lsp.planRename(at, input.new_name, token);
      const files = await stagedFilesOf(edit, (uri) => pathOf(uri));
      if (token.isCancellationRequested) throw new vscode.CancellationError();
      const staged = await staging.stage({
        conversation,
        origin: ToolName.lspRename,
        summary: `rename "${at.location.symbol}" → "${input.new_name}"`,
        files,
      });
      return withIndexingNote(staging.proposedAnswer(staged), at.indexed);
    },
  };
}
