/**
 * Produces the parts of package.json and the Plan agent file that must follow the catalog:
 * `contributes.languageModelTools` (tags carry tier and resource, `when` names the
 * resource's context key) and the Plan agent whose tool list is exactly the read tier.
 * `npm run manifest` writes them; a unit test fails when the committed files drift.
 */
import { JsonSchema, ToolDeclaration } from './toolDeclaration';
import { contextKeyOf } from './resources';
import { tierWithinCap } from './tiers';

export const EXTENSION_TAG = 'agent-live-tools';
export const PLAN_AGENT_NAME = 'Live Plan';
export const PLAN_AGENT_PATH = './media/plan.agent.md';

export interface ManifestTool {
  name: string;
  displayName: string;
  toolReferenceName: string;
  canBeReferencedInPrompt: boolean;
  userDescription: string;
  modelDescription: string;
  icon: string;
  tags: string[];
  when: string;
  inputSchema: JsonSchema;
}

export function tierTag(tool: Pick<ToolDeclaration, 'tier'>): string {
  return `tier:${tool.tier}`;
}

export function resourceTag(tool: Pick<ToolDeclaration, 'resource'>): string {
  return `resource:${tool.resource}`;
}

export function languageModelToolsContribution(catalog: readonly ToolDeclaration[]): ManifestTool[] {
  return catalog.map((tool) => ({
    name: tool.name,
    displayName: tool.displayName,
    toolReferenceName: tool.name,
    canBeReferencedInPrompt: true,
    userDescription: tool.userDescription,
    modelDescription: tool.modelDescription,
    icon: tool.icon,
    tags: [EXTENSION_TAG, tierTag(tool), resourceTag(tool)],
    when: contextKeyOf(tool.resource),
    inputSchema: tool.inputSchema,
  }));
}

/** How VS Code names an extension's tool in an agent file: `<extension id, lower case>/<toolReferenceName>`. */
export function fullReferenceName(extensionId: string, toolName: string): string {
  return `${extensionId.toLowerCase()}/${toolName}`;
}

export function readTierTools(catalog: readonly ToolDeclaration[]): ToolDeclaration[] {
  return catalog.filter((tool) => tierWithinCap(tool.tier, 'read'));
}

export function planAgentMarkdown(catalog: readonly ToolDeclaration[], extensionId: string): string {
  const tools = readTierTools(catalog).map((tool) => `'${fullReferenceName(extensionId, tool.name)}'`);
  return [
    '---',
    `name: ${PLAN_AGENT_NAME}`,
    'description: Research with the read-only tools of Agent Live Tools and write a plan; changes nothing.',
    `tools: [${tools.join(', ')}]`,
    '# Generated from src/tools/declarations.ts by `npm run manifest`; do not edit by hand.',
    '---',
    'You are planning, not implementing. You have only the read tier of Agent Live Tools: they query the',
    'live editor (language servers and the like) and change nothing. Tools that write files or start',
    'processes are not available in this agent, so do not ask for them.',
    '',
    'Work in this order:',
    '1. Find the code that matters with the tools: definitions, references, callers, symbols, diagnostics.',
    '2. Read what you need to be sure; name files with workspace-relative paths and 1-based lines.',
    '3. Answer with a numbered plan: each step names the files and symbols to change and why,',
    '   then the risks and the checks that would prove the change.',
    '',
  ].join('\n');
}

interface PackageJson {
  name: string;
  publisher: string;
  contributes?: Record<string, unknown>;
  [key: string]: unknown;
}

export function extensionIdOf(packageJson: Pick<PackageJson, 'name' | 'publisher'>): string {
  return `${packageJson.publisher}.${packageJson.name}`;
}

/** package.json with the catalog-derived contributions put in place (the rest untouched, key order kept). */
export function withCatalogContributions<T extends PackageJson>(
  packageJson: T,
  catalog: readonly ToolDeclaration[],
): T {
  return {
    ...packageJson,
    contributes: {
      ...packageJson.contributes,
      languageModelTools: languageModelToolsContribution(catalog),
      chatAgents: [{ path: PLAN_AGENT_PATH }],
    },
  };
}
