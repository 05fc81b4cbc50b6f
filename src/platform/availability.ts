/**
 * Which tools a model may be offered: within the caller's tier cap and with their resource
 * wired. The Plan agent's list and every loop of our own that offers tools go through here.
 */
import { ToolDeclaration } from './toolDeclaration';
import { ResourceBoard } from './resources';
import { Tier, tierWithinCap } from './tiers';

export function offeredTools(catalog: readonly ToolDeclaration[], board: ResourceBoard, cap: Tier): ToolDeclaration[] {
  return catalog.filter((tool) => tierWithinCap(tool.tier, cap) && board.get(tool.resource).ready);
}
