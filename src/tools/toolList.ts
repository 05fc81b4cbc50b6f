import { LspService } from '../lsp/vscode/lspService';
import { StructuralService } from '../structural/vscode/structuralService';
import { createAstGrepTool } from './astGrepTool';
import { AnyLiveTool } from './liveTool';
import { createLspRenameTool } from './lspRenameTool';
import { createLspTool } from './lspTool';

export interface ToolServices {
  readonly lsp: LspService;
  readonly structural: StructuralService;
}

/** The one explicit list of implemented tools; the catalog declares the same names. */
export function createToolList(services: ToolServices): AnyLiveTool[] {
  return [
    createLspTool(services.lsp),
    createLspRenameTool(services.lsp),
    createAstGrepTool(services.structural),
  ] as AnyLiveTool[];
}
