/**
 * The explicit list of every tool's declaration (each lives beside its tool in
 * `src/tools/<tool>/declaration.ts`). The manifest (`contributes.languageModelTools`), the Plan
 * agent and our own tool loops are all produced from this list.
 */
import { ToolDeclaration } from '../platform/toolDeclaration';
import { ToolName } from '../platform/toolNames';
import { lspDeclaration } from './lsp/declaration';
import { lspRenameDeclaration } from './lspRename/declaration';
import { lspApplyDeclaration } from './lspApply/declaration';
import { astGrepDeclaration } from './astGrep/declaration';
import { astEditDeclaration } from './astEdit/declaration';
import { resolveDeclaration } from './resolve/declaration';
import { writeDeclaration } from './write/declaration';
import { editDeclaration } from './edit/declaration';
import { patchDeclaration } from './patch/declaration';
import { debugDeclaration } from './debug/declaration';
import { evalDeclaration } from './eval/declaration';
import { testDeclaration } from './test/declaration';
import { askUserDeclaration } from './askUser/declaration';
import {
  vibeSpawnDeclaration,
  vibeSpawnReadonlyDeclaration,
  vibeSendDeclaration,
  vibeWaitDeclaration,
  vibeKillDeclaration,
  vibeListDeclaration,
} from './vibe/declaration';

export const TOOL_CATALOG: readonly ToolDeclaration[] = [
  lspDeclaration,
  lspRenameDeclaration,
  lspApplyDeclaration,
  astGrepDeclaration,
  astEditDeclaration,
  resolveDeclaration,
  writeDeclaration,
  editDeclaration,
  patchDeclaration,
  debugDeclaration,
  evalDeclaration,
  testDeclaration,
  askUserDeclaration,
  vibeSpawnDeclaration,
  vibeSpawnReadonlyDeclaration,
  vibeSendDeclaration,
  vibeWaitDeclaration,
  vibeKillDeclaration,
  vibeListDeclaration,
];

export function declarationOf(name: ToolName): ToolDeclaration {
  const declaration = TOOL_CATALOG.find((tool) => tool.name === name);
  if (!declaration) throw new Error(`No catalog entry for tool ${name}.`);
  return declaration;
}
