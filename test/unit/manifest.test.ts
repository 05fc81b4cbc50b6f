import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';
import { TOOL_CATALOG } from '../../src/tools/declarations';
import { manifestFiles } from '../../src/tools/manifestEntry';
import { EXTENSION_TAG, fullReferenceName, PLAN_AGENT_PATH, resourceTag, tierTag } from '../../src/platform/manifest';
import { contextKeyOf, RESOURCES } from '../../src/platform/resources';
import { Setting } from '../../src/platform/settings';
import { TIERS } from '../../src/platform/tiers';
import { ToolName } from '../../src/platform/toolNames';
import { repoRoot } from '../support/repoRoot';

const root = repoRoot();
const packageJson = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const contributedTools: {
  name: string;
  tags: string[];
  when: string;
  inputSchema: { required?: string[]; properties?: object };
}[] = packageJson.contributes.languageModelTools;

/** Pascal-cased input interface name of a tool: lsp_rename → LspRenameInput. */
function inputInterfaceName(tool: string): string {
  return `${tool
    .split('_')
    .map((part) => part[0].toUpperCase() + part.slice(1))
    .join('')}Input`;
}

/** Keys of an input interface declared in some src/tools/<tool>/declaration.ts, read with the TypeScript compiler: name → optional. */
function interfaceKeys(name: string): Map<string, boolean> {
  const toolsDir = path.join(root, 'src', 'tools');
  const files = fs
    .readdirSync(toolsDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => path.join(toolsDir, entry.name, 'declaration.ts'))
    .filter((file) => fs.existsSync(file));
  const declaration = files
    .map((file) => ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true))
    .flatMap((source) => source.statements)
    .find(
      (statement): statement is ts.InterfaceDeclaration =>
        ts.isInterfaceDeclaration(statement) && statement.name.text === name,
    );
  assert.ok(declaration, `interface ${name} is not declared in any src/tools/<tool>/declaration.ts`);
  const keys = new Map<string, boolean>();
  for (const member of declaration.members) {
    if (ts.isPropertySignature(member) && member.name && ts.isIdentifier(member.name)) {
      keys.set(member.name.text, member.questionToken !== undefined);
    }
  }
  return keys;
}

describe('manifest follows the catalog', () => {
  it('package.json and media/plan.agent.md are what `npm run manifest` writes', () => {
    const expected = manifestFiles(packageJson);
    for (const [file, text] of Object.entries(expected)) {
      assert.equal(fs.readFileSync(path.join(root, file), 'utf8'), text, `${file} is stale: run npm run manifest`);
    }
  });

  it('every contributed tool is in the catalog and every catalog tool is contributed, names from one place', () => {
    const names = Object.values(ToolName).sort();
    assert.deepEqual(contributedTools.map((tool) => tool.name).sort(), names);
    assert.deepEqual(TOOL_CATALOG.map((tool) => tool.name).sort(), names);
  });

  it('tags carry the extension, the tier and the resource; `when` names the resource context key', () => {
    for (const declaration of TOOL_CATALOG) {
      const tool = contributedTools.find((candidate) => candidate.name === declaration.name);
      assert.ok(tool);
      assert.deepEqual(tool.tags, [EXTENSION_TAG, tierTag(declaration), resourceTag(declaration)]);
      assert.ok(TIERS.includes(declaration.tier));
      assert.ok(RESOURCES.some((resource) => resource.id === declaration.resource));
      assert.equal(tool.when, contextKeyOf(declaration.resource));
      assert.equal(tool.when, `liveTools.${declaration.resource}.ready`);
    }
  });

  it("each schema's required and optional keys are exactly its input type's", () => {
    for (const declaration of TOOL_CATALOG) {
      const keys = interfaceKeys(inputInterfaceName(declaration.name));
      const required = [...keys]
        .filter(([, optional]) => !optional)
        .map(([key]) => key)
        .sort();
      assert.deepEqual(
        [...(declaration.inputSchema.required ?? [])].sort(),
        required,
        `${declaration.name}: required keys`,
      );
      assert.deepEqual(
        Object.keys(declaration.inputSchema.properties ?? {}).sort(),
        [...keys.keys()].sort(),
        `${declaration.name}: all keys`,
      );
      assert.equal(declaration.inputSchema.additionalProperties, false, `${declaration.name} must reject unknown keys`);
    }
  });

  it('model descriptions teach positions as line + symbol and never mention columns as input', () => {
    for (const declaration of TOOL_CATALOG.filter((tool) => 'line' in (tool.inputSchema.properties ?? {}))) {
      assert.match(declaration.modelDescription, /`line` \(1-based\)/, declaration.name);
      assert.match(declaration.modelDescription, /`symbol`/, declaration.name);
      assert.ok(!('column' in (declaration.inputSchema.properties ?? {})), declaration.name);
    }
  });

  it('uses only stable contributions: nothing that needs an API proposal in stock VS Code', () => {
    assert.equal(packageJson.enabledApiProposals, undefined);
    assert.equal(packageJson.enableProposedApi, undefined);
    // Stock VS Code refuses these without a proposal (code-server checks none, so this test does). Not gated, read
    // in 1.139's workbench: mcpServerDefinitionProviders (its handler checks no proposal; lm.registerMcpServerDefinitionProvider is stable).
    for (const gated of ['languageModelToolSets', 'chatParticipants', 'chatSessions']) {
      assert.equal(packageJson.contributes[gated], undefined, `contributes.${gated} needs an API proposal`);
    }
    for (const tool of contributedTools) {
      assert.doesNotMatch(tool.name, /^(copilot_|vscode_)/);
      for (const tag of tool.tags) assert.doesNotMatch(tag, /^(copilot_|vscode_)/);
    }
  });

  it('activates on startup only: tools and commands activate the extension themselves', () => {
    assert.deepEqual(packageJson.activationEvents, ['onStartupFinished']);
    assert.equal(packageJson.main, './dist/extension.js');
  });

  it('the Plan agent lists exactly the read tier, by full reference name', () => {
    const agent = fs.readFileSync(path.join(root, PLAN_AGENT_PATH), 'utf8');
    const extensionId = `${packageJson.publisher}.${packageJson.name}`;
    const listed =
      /^tools: \[(.*)\]$/m
        .exec(agent)?.[1]
        .split(', ')
        .map((entry) => entry.slice(1, -1)) ?? [];
    const readTier = TOOL_CATALOG.filter((tool) => tool.tier === 'read').map((tool) =>
      fullReferenceName(extensionId, tool.name),
    );
    assert.deepEqual(listed.sort(), readTier.sort());
    assert.deepEqual(packageJson.contributes.chatAgents, [{ path: PLAN_AGENT_PATH }]);
  });

  it('declares exactly the settings the code reads', () => {
    assert.deepEqual(
      Object.keys(packageJson.contributes.configuration.properties).sort(),
      Object.values(Setting).sort(),
    );
    const sources = fs
      .readdirSync(path.join(root, 'src'), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && entry.name !== 'settings.ts')
      .map((entry) => fs.readFileSync(path.join(entry.parentPath, entry.name), 'utf8'))
      .join('\n');
    assert.doesNotMatch(
      sources,
      /getConfiguration\('liveTools/,
      'read settings through Setting (src/platform/settings.ts)',
    );
    assert.doesNotMatch(sources, /'liveTools\.\w+\.\w+'/, 'setting names belong in src/platform/settings.ts');
  });
});
