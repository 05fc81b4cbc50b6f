import { searchAnswer } from '../../structural/answers';
import { StructuralService } from '../../structural/vscode/structuralService';
import { AST_GREP_DEFAULT_RESULTS, astGrepDeclaration, AstGrepInput } from './declaration';
import { LiveTool } from '../liveTool';

export function createAstGrepTool(structural: StructuralService): LiveTool<AstGrepInput> {
  return {
    declaration: astGrepDeclaration,

    invocationMessage: (input) => `Searching for \`${input.pattern}\`${input.path ? ` in ${input.path}` : ''}`,

    async invoke(input, { token }) {
      const cap = input.max_results ?? AST_GREP_DEFAULT_RESULTS;
      const scope = await structural.scope(input.path, input.language, token);
      const result = await structural.run({
        pattern: input.pattern,
        language: input.language,
        files: scope.files,
        maxResults: cap,
        token,
      });
      return searchAnswer(input.pattern, result, structural.answerContext, cap);
    },
  };
}
