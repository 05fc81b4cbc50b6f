import * as vscode from 'vscode';
import { editDeclaration, EditInput } from './declaration';
import { FileNotFound } from '../../workspace/paths';
import { changePreview, executableWarning } from '../../writes/answers';
import { editsFor } from '../../writes/editMatch';
import { PlannedFile, WriteService } from '../../writes/vscode/writeService';
import { LiveTool, writeSourceOf } from '../liveTool';

function lineAt(text: string, offset: number): number {
  return text.slice(0, offset).split('\n').length;
}

async function plan(writes: WriteService, input: EditInput): Promise<{ file: PlannedFile; lines: number[] }> {
  const path = writes.resolve(input.path);
  const before = await writes.text(path);
  if (before === undefined) throw new FileNotFound(input.path, [writes.display(path)]);
  const edits = editsFor(before, input.old_string, input.new_string, input.replace_all === true);
  return { file: writes.planEdits(path, before, edits), lines: edits.map((edit) => lineAt(before, edit.start)) };
}

export function createEditTool(writes: WriteService): LiveTool<EditInput> {
  return {
    declaration: editDeclaration,

    invocationMessage: (input) => `Editing ${input.path}`,

    async confirmation(input) {
      const { file, lines } = await plan(writes, input);
      const where = lines.length === 1 ? `line ${lines[0]}` : `${lines.length} places (lines ${lines.join(', ')})`;
      return {
        title: 'Edit file?',
        message: `Edit \`${writes.display(file.path)}\` at ${where} and save it:\n\n\`\`\`diff\n${changePreview(file.before, file.after)}\n\`\`\`${executableWarning([writes.display(file.path)])}`,
      };
    },

    async invoke(input, context) {
      const { token } = context;
      const { file, lines } = await plan(writes, input);
      if (token.isCancellationRequested) throw new vscode.CancellationError();
      const outcome = await writes.apply([file], writeSourceOf(context), token);
      const where =
        lines.length === 1
          ? `1 replacement at line ${lines[0]}`
          : `${lines.length} replacements at lines ${lines.join(', ')}`;
      const saved = outcome.unsaved.length ? 'left unsaved because the user has unsaved changes there' : 'saved';
      return `Edited ${writes.display(file.path)}: ${where}, ${saved}.\n${outcome.diagnostics}`;
    },
  };
}
