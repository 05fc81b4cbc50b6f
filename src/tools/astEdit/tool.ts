import { noRewriteAnswer, replacementsList } from '../../structural/answers';
import { Cancellation, RewriteResult } from '../../structural/search';
import { StructuralService } from '../../structural/vscode/structuralService';
import { StagingService } from '../../staging/vscode/stagingService';
import { AST_EDIT_MAX_REPLACEMENTS, astEditDeclaration, AstEditInput } from './declaration';
import { LiveTool } from '../liveTool';
import { plural } from '../../platform/wording';

async function planRewrite(
  structural: StructuralService,
  input: AstEditInput,
  token: Cancellation,
): Promise<RewriteResult> {
  const scope = await structural.scope(input.path, input.language, token);
  return structural.rewrite({
    pattern: input.pattern,
    rewrite: input.rewrite,
    language: input.language,
    files: scope.files,
    maxReplacements: AST_EDIT_MAX_REPLACEMENTS,
    token,
  });
}

export function createAstEditTool(structural: StructuralService, staging: StagingService): LiveTool<AstEditInput> {
  return {
    declaration: astEditDeclaration,

    invocationMessage: (input) => `Staging a rewrite of \`${input.pattern}\` → \`${input.rewrite}\``,

    // Staging writes nothing, so the confirmation says so; writing is confirmed again at resolve.
    async confirmation(input, token) {
      const result = await planRewrite(structural, input, token);
      const files = result.files.map((file) => `- \`${structural.display(file.file)}\` (${file.replacements.length})`);
      return {
        title: 'Stage a structural rewrite?',
        message: [
          `Rewrite \`${input.pattern}\` as \`${input.rewrite}\`: ${plural(result.replacementCount, 'replacement')} in ${plural(result.files.length, 'file')}. ` +
            'Nothing is written yet: the change opens in a diff view where you (or the agent, through resolve) accept or discard it.',
          '',
          ...files.slice(0, 20),
          ...(files.length > 20 ? [`- … and ${files.length - 20} more files`] : []),
        ].join('\n'),
        // Staging writes nothing: accepting it (resolve) is asked with its own files.
        executes: [],
      };
    },

    async invoke(input, { token, conversation }) {
      const result = await planRewrite(structural, input, token);
      if (result.replacementCount === 0) return noRewriteAnswer(input.pattern, result, structural.answerContext);
      const edit = await staging.stage({
        conversation,
        origin: 'ast_edit',
        summary: `rewrite \`${input.pattern}\` → \`${input.rewrite}\``,
        files: result.files.map((file) => ({
          path: file.file,
          original: file.source,
          edits: file.replacements.map(({ edit: replacement }) => replacement),
        })),
      });
      return `${staging.proposedAnswer(edit)}\n${replacementsList(result, structural.answerContext)}`;
    },
  };
}
