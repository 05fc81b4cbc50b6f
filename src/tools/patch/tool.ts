import { patchDeclaration, PatchInput } from './declaration';
import { FileNotFound } from '../../workspace/paths';
import { changePreview, executableWarning, executedPaths } from '../../writes/answers';
import { applyHunks, MatchKind } from '../../writes/applyPatch';
import { parsePatch } from '../../writes/patchParser';
import { WriteRefused } from '../../edits/writerErrors';
import { PlannedFile, WriteService } from '../../writes/vscode/writeService';
import { LiveTool, writeSourceOf } from '../liveTool';
import { plural } from '../../platform/wording';

interface PatchPlan {
  readonly files: PlannedFile[];
  /** One line per file: `M src/a.ts (2 hunks)`. */
  readonly lines: string[];
  /** Hunks that matched only loosely, worth telling the model. */
  readonly loose: string[];
}

async function plan(writes: WriteService, input: PatchInput): Promise<PatchPlan> {
  const operations = parsePatch(input.patch);
  const files: PlannedFile[] = [];
  const lines: string[] = [];
  const loose: string[] = [];
  const seen = new Set<string>();
  for (const operation of operations) {
    const path = writes.resolve(operation.path);
    const shown = writes.display(path);
    if (seen.has(path))
      throw new WriteRefused(
        shown,
        'the patch names this file twice; merge its hunks into one "*** Update File:" section',
      );
    seen.add(path);
    const before = await writes.text(path);
    if (operation.kind === 'add') {
      if (before !== undefined)
        throw new WriteRefused(shown, 'it already exists; use "*** Update File:" to change it (or delete it first)');
      files.push({ path, before: undefined, after: operation.content });
      lines.push(`A ${shown}`);
    } else if (before === undefined) {
      throw new FileNotFound(operation.path, [shown]);
    } else if (operation.kind === 'delete') {
      files.push({ path, before, after: undefined });
      lines.push(`D ${shown}`);
    } else {
      const patched = operation.hunks.length
        ? applyHunks(shown, before, operation.hunks)
        : { text: before, matches: [] as MatchKind[] };
      patched.matches.forEach((kind, index) => {
        if (kind !== 'exact') loose.push(`${shown} hunk ${index + 1} matched with ${kind}`);
      });
      const moveTo = operation.moveTo === undefined ? undefined : writes.resolve(operation.moveTo);
      if (moveTo !== undefined) {
        const target = writes.display(moveTo);
        if (seen.has(moveTo))
          throw new WriteRefused(
            target,
            'the patch names this file twice (as a file it adds, changes or deletes and as a "*** Move to:" target); give each file one section',
          );
        if ((await writes.text(moveTo)) !== undefined)
          throw new WriteRefused(
            target,
            'cannot move a file there: a file already exists; delete it first or move elsewhere',
          );
        seen.add(moveTo);
      }
      files.push({ path, before, after: patched.text, moveTo });
      lines.push(
        `M ${shown}${moveTo ? ` → ${writes.display(moveTo)}` : ''} (${plural(operation.hunks.length, 'hunk')})`,
      );
    }
  }
  return { files, lines, loose };
}

export function createPatchTool(writes: WriteService): LiveTool<PatchInput, PatchPlan> {
  return {
    declaration: patchDeclaration,

    invocationMessage: () => 'Applying a patch',

    async prepare(input) {
      const planned = await plan(writes, input);
      const { files, lines } = planned;
      const previews = files
        .filter((file) => file.after !== undefined)
        .map(
          (file) =>
            `\`${writes.display(file.moveTo ?? file.path)}\`\n\`\`\`diff\n${changePreview(file.before, file.after, 20)}\n\`\`\``,
        );
      const executed = executedPaths(
        files.flatMap((file) => [file.path, ...(file.moveTo ? [file.moveTo] : [])]),
        (path) => writes.display(path),
      );
      return {
        plan: planned,
        confirmation: {
          title: `Apply a patch to ${plural(files.length, 'file')}?`,
          message: `Write and save:\n\n${lines.map((line) => `- ${line}`).join('\n')}\n\n${previews.join('\n\n')}${executableWarning(executed)}`,
          executes: executed.map(({ path }) => path),
        },
      };
    },

    async invoke(_input, context, { files, lines, loose }) {
      const outcome = await writes.apply(files, 'anchored', writeSourceOf(context), context.token);
      const unsaved = outcome.unsaved.length
        ? `\nLeft unsaved (the user has unsaved changes there): ${outcome.unsaved.join(', ')}.`
        : '';
      const looseNote = loose.length ? `\nNote: ${loose.join('; ')}.` : '';
      const notes = outcome.notes.length ? `\n${outcome.notes.join('\n')}` : '';
      return `Patch applied to ${plural(files.length, 'file')}:\n${lines.join('\n')}${looseNote}${unsaved}${notes}\n${outcome.diagnostics}`;
    },
  };
}
