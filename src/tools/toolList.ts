import { LspService } from '../lsp/vscode/lspService';
import { StagingService } from '../staging/vscode/stagingService';
import { StructuralService } from '../structural/vscode/structuralService';
import { createAstEditTool } from './astEditTool';
import { createAstGrepTool } from './astGrepTool';
import { AnyLiveTool } from './liveTool';
import { createLspRenameTool } from './lspRenameTool';
import { createLspTool } from './lspTool';
import { createResolveTool } from './resolveTool';
import { createPatchTool } from './patchTool';
import { createEditTool } from './editTool';
import { createWriteTool } from './writeTool';
import { WriteService } from '../writes/vscode/writeService';
import { DebugController } from '../debug/debugController';
import { createDebugTool } from './debugTool';
import { KernelPool } from '../kernels/kernelPool';
import { createEvalTool } from './evalTool';
import { QuestionService } from '../questions/vscode/registerQuestions';
import { createAskUserTool } from './askUserTool';
import { VibeService } from '../vibe/vscode/registerVibe';
import { createVibeTools } from './vibeTools';
import { ToolRunner } from './toolRunner';

export interface ToolServices {
  readonly lsp: LspService;
  readonly staging: StagingService;
  readonly structural: StructuralService;
  readonly writes: WriteService;
  readonly debug: DebugController;
  readonly kernels: KernelPool;
  readonly questions: QuestionService;
  readonly vibe: VibeService;
  /** Where a cell's tool() calls go. */
  readonly runner: ToolRunner;
}

/** The one explicit list of implemented tools; the catalog declares the same names. */
export function createToolList(services: ToolServices): AnyLiveTool[] {
  return [
    createLspTool(services.lsp),
    createLspRenameTool(services.lsp, services.staging),
    createAstGrepTool(services.structural),
    createAstEditTool(services.structural, services.staging),
    createResolveTool(services.staging),
    createWriteTool(services.writes),
    createEditTool(services.writes),
    createPatchTool(services.writes),
    createDebugTool(services.debug),
    createEvalTool(services.kernels, services.runner),
    createAskUserTool(services.questions),
    ...createVibeTools(services.vibe),
  ] as AnyLiveTool[];
}
