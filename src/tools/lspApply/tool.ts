import * as vscode from 'vscode';
import { applyEdits } from '../../edits/textEdits';
import { changeList, changeSize, PlannedChange } from '../../lsp/applyAnswers';
import { ApplyPlan, LspApply } from '../../lsp/vscode/lspApply';
import { InputError } from '../../platform/inputValidation';
import { Setting } from '../../platform/settings';
import { ToolName } from '../../platform/toolNames';
import { userSettingValue } from '../../platform/vscode/userSettings';
import { StagingService } from '../../staging/vscode/stagingService';
import { changePreview, executableWarning, executedPaths } from '../../writes/answers';
import { PlannedFile, WriteService } from '../../writes/vscode/writeService';
import { LiveTool, writeSourceOf } from '../liveTool';
import { LspApplyAction, lspApplyDeclaration, LspApplyInput } from './declaration';

type Argument = 'line' | 'symbol' | 'title' | 'new_path' | 'end_line';

/** What each action needs, and what it takes besides `file` (anything else is a mistake worth saying). */
const needs: Record<LspApplyAction, { required: readonly Argument[]; optional: readonly Argument[] }> = {
  code_action: { required: ['line', 'title'], optional: ['symbol'] },
  format: { required: [], optional: ['line', 'end_line'] },
  organize_imports: { required: [], optional: [] },
  rename_file: { required: ['new_path'], optional: [] },
};

function checkArguments(input: LspApplyInput): void {
  const { required, optional } = needs[input.action];
  const problems: string[] = [];
  const missing = required.filter((key) => input[key] === undefined);
  if (missing.length > 0)
    problems.push(`${input.action} needs ${['file', ...required].join(', ')}; missing ${missing.join(', ')}.`);
  const extra = (['line', 'symbol', 'title', 'new_path', 'end_line'] as const).filter(
    (key) => input[key] !== undefined && !required.includes(key) && !optional.includes(key),
  );
  if (extra.length > 0) problems.push(`${input.action} does not take ${extra.join(', ')}.`);
  if (input.action === 'format' && input.end_line !== undefined && input.line === undefined)
    problems.push('format with end_line needs line (the first line of the range).');
  if (input.occurrence !== undefined && input.symbol === undefined) problems.push('occurrence needs symbol.');
  if (problems.length > 0) {
    const hint =
      input.action === 'code_action' && missing.includes('title')
        ? 'List the actions with lsp action code_actions (same file, line and symbol), then give one title exactly.'
        : undefined;
    throw new InputError(problems, hint);
  }
}

export function createLspApplyTool(
  apply: LspApply,
  staging: StagingService,
  writes: WriteService,
): LiveTool<LspApplyInput, ApplyPlan> {
  const plan = (input: LspApplyInput, token: vscode.CancellationToken): Promise<ApplyPlan> => {
    checkArguments(input);
    switch (input.action) {
      case 'code_action':
        return apply.codeAction(
          input.file,
          input.line as number,
          input.symbol,
          input.occurrence,
          input.title as string,
          token,
        );
      case 'format':
        return apply.format(input.file, input.line, input.end_line, token);
      case 'organize_imports':
        return apply.organizeImports(input.file, token);
      case 'rename_file':
        return apply.renameFile(input.file, writes.resolve(input.new_path as string), token);
    }
  };
  const shown = (plan: ApplyPlan): PlannedChange[] =>
    plan.files.map((file) => ({ path: writes.display(file.path), edits: file.edits.length }));
  const moveShown = (plan: ApplyPlan) =>
    plan.move && { from: writes.display(plan.move.from), to: writes.display(plan.move.to) };
  // A workspace may turn review on, never off: the user's own setting counts whatever the workspace says.
  const staged = (input: LspApplyInput): boolean =>
    input.stage === true ||
    userSettingValue<boolean>(Setting.lspReviewChanges) === true ||
    vscode.workspace.getConfiguration().get<boolean>(Setting.lspReviewChanges) === true;
  const isEmpty = (plan: ApplyPlan): boolean => plan.files.length === 0 && !plan.move;

  return {
    declaration: lspApplyDeclaration,

    invocationMessage: (input) => `lsp_apply ${input.action} ${input.title ? `"${input.title}" in ` : ''}${input.file}`,

    async prepare(input, token) {
      const planned = await plan(input, token);
      if (isEmpty(planned)) return { plan: planned };
      const size = changeSize(shown(planned), moveShown(planned));
      const previews = planned.files
        .slice(0, 5)
        .map(
          (file) =>
            `\`${writes.display(file.path)}\`\n\`\`\`diff\n${changePreview(file.before, applyEdits(file.before ?? '', file.edits), 20)}\n\`\`\``,
        )
        .join('\n\n');
      const more = planned.files.length > 5 ? `\n\n…and ${planned.files.length - 5} more files.` : '';
      if (staged(input)) {
        return {
          plan: planned,
          confirmation: {
            title: 'Stage a language server change for review?',
            message: `${planned.title}: ${size}. Nothing is written now; a diff opens, and the files are written only when the change is accepted.\n\n${previews}${more}`,
            // Staging writes nothing: accepting it (resolve) is asked with its own files.
            executes: [],
          },
        };
      }
      const executed = executedPaths(
        [...planned.files.map((file) => file.path), ...(planned.move ? [planned.move.to] : [])],
        (path) => writes.display(path),
      );
      return {
        plan: planned,
        confirmation: {
          title: 'Apply a language server change?',
          message: `${planned.title}: ${size}, then save those files.\n\n${previews}${more}${executableWarning(executed)}`,
          executes: executed.map(({ path }) => path),
        },
      };
    },

    async invoke(input, context, planned) {
      const { token, conversation } = context;
      const notes = planned.notes.length > 0 ? `\n${planned.notes.join('\n')}` : '';
      if (isEmpty(planned)) return `${planned.title}: nothing to change; nothing was written.${notes}`;
      if (token.isCancellationRequested) throw new vscode.CancellationError();
      const size = changeSize(shown(planned), moveShown(planned));
      if (staged(input)) {
        if (planned.files.some((file) => file.before === undefined)) {
          throw new InputError([
            `${planned.title} creates a file, which cannot be staged for review; call it without stage to apply it (the user is asked first).`,
          ]);
        }
        const edit = await staging.stage({
          conversation,
          origin: ToolName.lspApply,
          summary: planned.title,
          files: planned.files.map((file) => ({ path: file.path, original: file.before as string, edits: file.edits })),
          move: planned.move,
        });
        return `${staging.proposedAnswer(edit)}${notes}`;
      }
      const files: PlannedFile[] = planned.files.map((file) =>
        file.before === undefined
          ? { path: file.path, before: undefined, after: applyEdits('', file.edits) }
          : file.path === planned.move?.from
            ? { ...writes.planEdits(file.path, file.before, file.edits), moveTo: planned.move.to }
            : writes.planEdits(file.path, file.before, file.edits),
      );
      if (planned.move && !files.some((file) => file.path === planned.move?.from)) {
        const text = (await writes.text(planned.move.from)) ?? '';
        files.push({ path: planned.move.from, before: text, after: text, moveTo: planned.move.to, edits: [] });
      }
      const outcome = await writes.apply(files, 'anchored', writeSourceOf(context), token);
      const saved = outcome.unsaved.length
        ? `saved, except ${outcome.unsaved.join(', ')} (left unsaved: the user has unsaved changes there)`
        : 'saved';
      const list = planned.files.length > 0 ? `\n${changeList(shown(planned))}` : '';
      const writerNotes = outcome.notes.length > 0 ? `\n${outcome.notes.join('\n')}` : '';
      return `${planned.title}: applied ${size}; ${saved}.${list}${notes}${writerNotes}\n${outcome.diagnostics}`;
    },
  };
}
