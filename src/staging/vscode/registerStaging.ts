import * as vscode from 'vscode';
import { Runtime } from '../../runtime';
import { StagingService } from './stagingService';
import { registerStagingReview } from './stagingReview';

/** The staged-edit store of this window, its review UI, and the `staging` resource (ready from activation). */
export function registerStaging(context: vscode.ExtensionContext, runtime: Runtime): StagingService {
  const staging = new StagingService(runtime.log, runtime.journal, runtime.writer);
  registerStagingReview(context, staging, runtime.log);
  runtime.board.set('staging', { ready: true });
  return staging;
}
