import type * as vscode from 'vscode';
import { Approver } from '../platform/vscode/approver';
import { LspService } from '../lsp/vscode/lspService';
import { StagingService } from '../staging/vscode/stagingService';
import { WorkspaceWriter } from '../workspace/vscode/workspaceWriter';
import { StructuralService } from '../structural/vscode/structuralService';
import { createAstEditTool } from './astEdit/tool';
import { createAstGrepTool } from './astGrep/tool';
import { AnyLiveTool } from './liveTool';
import { createLspRenameTool } from './lspRename/tool';
import { createLspApplyTool } from './lspApply/tool';
import { LspApply } from '../lsp/vscode/lspApply';
import { createLspTool } from './lsp/tool';
import { createResolveTool } from './resolve/tool';
import { createPatchTool } from './patch/tool';
import { createEditTool } from './edit/tool';
import { createWriteTool } from './write/tool';
import { WriteService } from '../writes/vscode/writeService';
import { DebugController } from '../debug/debugController';
import { createDebugTool } from './debug/tool';
import { withSecretsMasked } from '../platform/vscode/userSettings';
import { KernelPool } from '../kernels/kernelPool';
import { createEvalTool } from './eval/tool';
import { createTestTool } from './test/tool';
import { TestExplorer } from '../testing/vscode/testExplorer';
import { QuestionService } from '../questions/vscode/registerQuestions';
import { createAskUserTool } from './askUser/tool';
import { VibeService } from '../vibe/vscode/registerVibe';
import { createVibeTools } from './vibe/tool';
import { ToolRunner } from './toolRunner';

export interface ToolServices {
  readonly lsp: LspService;
  readonly lspApply: LspApply;
  readonly staging: StagingService;
  readonly structural: StructuralService;
  readonly writes: WriteService;
  readonly debug: DebugController;
  readonly kernels: KernelPool;
  /** Where the test tool's runs show in Test Explorer. */
  readonly tests: TestExplorer;
  readonly questions: QuestionService;
  readonly vibe: VibeService;
  /** Where a cell's tool() calls go. */
  readonly runner: ToolRunner;
  /** The one writer (a rename writes through it directly). */
  readonly writer: WorkspaceWriter;
  /** Asks the human about a call nobody else asks about (the approval card). */
  readonly approver: Approver;
  /** What this workspace remembers (the project checkers the human allowed). */
  readonly workspaceState: vscode.Memento;
}

/** The one explicit list of implemented tools; the catalog declares the same names. */
export function createToolList(services: ToolServices): AnyLiveTool[] {
  return [
    createLspTool(services.lsp, services.writes, services.approver, services.workspaceState),
    createLspRenameTool(services.lsp, services.staging, services.writer),
    createLspApplyTool(services.lspApply, services.staging, services.writes),
    createAstGrepTool(services.structural),
    createAstEditTool(services.structural, services.staging),
    createResolveTool(services.staging),
    createWriteTool(services.writes),
    createEditTool(services.writes),
    createPatchTool(services.writes),
    createDebugTool(services.debug, withSecretsMasked, services.approver),
    createEvalTool(services.kernels, services.runner),
    createTestTool(services.tests),
    createAskUserTool(services.questions),
    ...createVibeTools(services.vibe),
  ] as AnyLiveTool[];
}
