import { editDeclaration, EditInput } from './declaration';
import { FileNotFound } from '../../workspace/paths';
import { changePreview, executableWarning, executedPaths } from '../../writes/answers';
import { editsFor, lineList } from '../../writes/editMatch';
import { groupedPlural } from '../../platform/wording';
import { linesOfOffsets } from '../../edits/lineStarts';
import { PlannedFile, WriteService } from '../../writes/vscode/writeService';
import { LiveTool, writeSourceOf } from '../liveTool';

/** An edit's change, with the 1-based line of each replacement. */
interface EditPlan {
  readonly file: PlannedFile;
  readonly lines: readonly number[];
}

async function plan(writes: WriteService, input: EditInput): Promise<EditPlan> {
  const path = writes.resolve(input.path);
  const before = await writes.text(path);
  if (before === undefined) throw new FileNotFound(input.path, [writes.display(path)]);
  const edits = editsFor(before, input.old_string, input.new_string, input.replace_all === true);
  return {
    file: writes.planEdits(path, before, edits),
    lines: linesOfOffsets(
      before,
      edits.map((edit) => edit.start),
    ),
  };
}

function where(lines: readonly number[]): string {
  return lines.length === 1 ? `line ${lines[0]}` : `${groupedPlural(lines.length, 'place')} (lines ${lineList(lines)})`;
}

export function createEditTool(writes: WriteService): LiveTool<EditInput, EditPlan> {
  return {
    declaration: editDeclaration,

    invocationMessage: (input) => `Editing ${input.path}`,

    async prepare(input) {
      const planned = await plan(writes, input);
      const { file, lines } = planned;
      const executed = executedPaths([file.path], (path) => writes.display(path));
      return {
        plan: planned,
        confirmation: {
          title: 'Edit file?',
          message: `Edit \`${writes.display(file.path)}\` at ${where(lines)} and save it:\n\n\`\`\`diff\n${changePreview(file.before, file.after)}\n\`\`\`${executableWarning(executed)}`,
          executes: executed.map(({ path }) => path),
        },
      };
    },

    async invoke(_input, context, { file, lines }) {
      const outcome = await writes.apply([file], 'anchored', writeSourceOf(context), context.token);
      const replaced =
        lines.length === 1
          ? `1 replacement at line ${lines[0]}`
          : `${groupedPlural(lines.length, 'replacement')} at lines ${lineList(lines)}`;
      const saved = outcome.unsaved.length ? 'left unsaved because the user has unsaved changes there' : 'saved';
      return [
        `Edited ${writes.display(file.path)}: ${replaced}, ${saved}.`,
        ...outcome.notes,
        outcome.diagnostics,
      ].join('\n');
    },
  };
}
