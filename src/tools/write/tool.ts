import { writeDeclaration, WriteInput } from './declaration';
import { changePreview, executableWarning, executedPaths } from '../../writes/answers';
import { PlannedFile, WriteService } from '../../writes/vscode/writeService';
import { LiveTool, writeSourceOf } from '../liveTool';

function lineCount(text: string): number {
  return text === '' ? 0 : text.replace(/\r?\n$/, '').split(/\r?\n/).length;
}

/** The file to write, with its text now; `after` keeps the file's CRLF line breaks when it has them. */
async function plan(writes: WriteService, input: WriteInput): Promise<PlannedFile & { readonly after: string }> {
  const path = writes.resolve(input.path);
  const before = await writes.text(path);
  const after = before?.includes('\r\n') ? input.content.replace(/\r?\n/g, '\r\n') : input.content;
  return { path, before, after };
}

export function createWriteTool(writes: WriteService): LiveTool<WriteInput, PlannedFile & { readonly after: string }> {
  return {
    declaration: writeDeclaration,

    invocationMessage: (input) => `Writing ${input.path}`,

    async prepare(input) {
      const file = await plan(writes, input);
      const shown = writes.display(file.path);
      if (file.before === file.after) return { plan: file };
      const verb = file.before === undefined ? `Create \`${shown}\`` : `Overwrite \`${shown}\``;
      const executed = executedPaths([file.path], (path) => writes.display(path));
      return {
        plan: file,
        confirmation: {
          title: file.before === undefined ? 'Create file?' : 'Overwrite file?',
          message: `${verb} (${lineCount(input.content)} lines) and save it:\n\n\`\`\`diff\n${changePreview(file.before, input.content)}\n\`\`\`${executableWarning(executed)}`,
          executes: executed.map(({ path }) => path),
        },
      };
    },

    async invoke(_input, context, file) {
      const shown = writes.display(file.path);
      if (file.before === file.after) return `${shown} already has exactly this content; nothing was written.`;
      const outcome = await writes.apply([file], 'whole', writeSourceOf(context), context.token);
      const head = `${file.before === undefined ? 'Created' : 'Wrote'} ${shown} (${lineCount(file.after)} lines)${outcome.unsaved.length ? ', left unsaved because the user has unsaved changes there' : ', saved'}.`;
      return [head, ...outcome.notes, outcome.diagnostics].join('\n');
    },
  };
}
