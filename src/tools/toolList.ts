import { LspService } from '../lsp/vscode/lspService';
import { StagingService } from '../staging/vscode/stagingService';
import { AnyLiveTool } from './liveTool';
import { createLspRenameTool } from './lspRenameTool';
import { createLspTool } from './lspTool';
import { createResolveTool } from './resolveTool';

export interface ToolServices {
  readonly lsp: LspService;
  readonly staging: StagingService;
}

/** The one explicit list of implemented tools; the catalog declares the same names. */
export function createToolList(services: ToolServices): AnyLiveTool[] {
  return [
    createLspTool(services.lsp),
    createLspRenameTool(services.lsp, services.staging),
    createResolveTool(services.staging),
  ] as AnyLiveTool[];
}
