/**
 * The files `npm run manifest` writes, derived from the catalog; the manifest unit test
 * compares the committed files with this.
 */
import { TOOL_CATALOG } from './declarations';
import { extensionIdOf, PLAN_AGENT_PATH, planAgentMarkdown, withCatalogContributions } from '../platform/manifest';

export function manifestFiles(packageJson: { name: string; publisher: string }): Record<string, string> {
  return {
    'package.json': `${JSON.stringify(withCatalogContributions(packageJson, TOOL_CATALOG), null, 2)}\n`,
    [PLAN_AGENT_PATH.replace(/^\.\//, '')]: planAgentMarkdown(TOOL_CATALOG, extensionIdOf(packageJson)),
  };
}
