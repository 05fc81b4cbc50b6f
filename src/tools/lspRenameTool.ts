import { renameAnswer, renameSummary, withIndexingNote } from '../lsp/answers';
import { LspService } from '../lsp/vscode/lspService';
import { declarationOf, LspRenameInput } from '../registry/catalog';
import { InputError } from '../registry/inputValidation';
import { ToolName } from '../registry/toolNames';
import { LiveTool } from './liveTool';

function checkNewName(input: LspRenameInput): void {
  if (input.new_name.trim() === '' || /\s/.test(input.new_name.trim())) {
    throw new InputError([`new_name must be a single identifier, got ${JSON.stringify(input.new_name)}.`]);
  }
}

export function createLspRenameTool(lsp: LspService): LiveTool<LspRenameInput> {
  return {
    declaration: declarationOf(ToolName.lspRename),

    invocationMessage: (input) => `Renaming "${input.symbol}" to "${input.new_name}"`,

    async confirmation(input, token) {
      const where = `${input.file}:${input.line}`;
      const at = await lsp.target(input.file, input.line, input.symbol, input.occurrence, token);
      const { files } = await lsp.planRename(at, input.new_name, token);
      const list = files.map((file) => `- \`${file.path}\` (${file.edits})`).join('\n');
      return {
        title: 'Rename symbol across the workspace?',
        message: withIndexingNote(
          `Rename ${renameSummary(at.location.symbol, input.new_name, files)}, starting at \`${where}\`, then save those files:\n\n${list}`,
          at.indexed,
        ),
      };
    },

    async invoke(input, { token }) {
      checkNewName(input);
      const at = await lsp.target(input.file, input.line, input.symbol, input.occurrence, token);
      if (at.location.symbol === input.new_name) {
        throw new InputError([`"${input.symbol}" is already called ${input.new_name}; nothing to rename.`]);
      }
      return withIndexingNote(renameAnswer(at.location.symbol, input.new_name, await lsp.rename(at, input.new_name, token)), at.indexed);
    },
  };
}
