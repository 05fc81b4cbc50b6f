import * as vscode from 'vscode';
import { writeDeclaration, WriteInput } from './declaration';
import { changePreview, executableWarning } from '../../writes/answers';
import { WriteService } from '../../writes/vscode/writeService';
import { LiveTool, writeSourceOf } from '../liveTool';

function lineCount(text: string): number {
  return text === '' ? 0 : text.replace(/\r?\n$/, '').split(/\r?\n/).length;
}

export function createWriteTool(writes: WriteService): LiveTool<WriteInput> {
  return {
    declaration: writeDeclaration,

    invocationMessage: (input) => `Writing ${input.path}`,

    async confirmation(input) {
      const path = writes.resolve(input.path);
      const before = await writes.text(path);
      const shown = writes.display(path);
      const verb = before === undefined ? `Create \`${shown}\`` : `Overwrite \`${shown}\``;
      return {
        title: before === undefined ? 'Create file?' : 'Overwrite file?',
        message: `${verb} (${lineCount(input.content)} lines) and save it:\n\n\`\`\`diff\n${changePreview(before, input.content)}\n\`\`\`${executableWarning([shown])}`,
      };
    },

    async invoke(input, context) {
      const { token } = context;
      const path = writes.resolve(input.path);
      const before = await writes.text(path);
      if (token.isCancellationRequested) throw new vscode.CancellationError();
      const shown = writes.display(path);
      const after = before?.includes('\r\n') ? input.content.replace(/\r?\n/g, '\r\n') : input.content;
      if (before === after) return `${shown} already has exactly this content; nothing was written.`;
      const outcome = await writes.apply([{ path, before, after }], writeSourceOf(context), token);
      const head = `${before === undefined ? 'Created' : 'Wrote'} ${shown} (${lineCount(after)} lines)${outcome.unsaved.length ? ', left unsaved because the user has unsaved changes there' : ', saved'}.`;
      return `${head}\n${outcome.diagnostics}`;
    },
  };
}
