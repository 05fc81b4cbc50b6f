/**
 * Connect an Agent: the configuration of an agent (Claude Code, Codex, Gemini, a project's
 * .mcp.json) that starts the `live-tools-mcp` bridge of this window, copied, and on request added:
 * to .mcp.json through the writer, or by the agent's own command in a new terminal (asked first).
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { Setting } from '../../platform/settings';
import { Tier } from '../../platform/tiers';
import { assertRealPathInside } from '../../workspace/containment';
import { currentText } from '../../workspace/vscode/fileTexts';
import { WorkspaceWriter } from '../../workspace/vscode/workspaceWriter';
import { workspaceFolderPaths } from '../../workspace/vscode/workspaceFolders';
import { AGENT_TARGETS, AgentConfig, agentConfig, AgentTarget, withServerAdded } from '../connectConfig';

/** The command's handler: with an argument `{ target, add }` it asks nothing and returns the text. */
export function connectAgentCommand(
  writer: WorkspaceWriter,
  nodeCommand: string,
  bridgeFile: string,
  maxTier: () => Tier,
): (request?: { target?: AgentTarget; add?: boolean }) => Promise<string | undefined> {
  const addConfig = async (config: AgentConfig): Promise<void> => {
    if (config.target === 'mcp.json') {
      const folder = workspaceFolderPaths()[0];
      if (!folder) throw new Error('No folder is open to hold .mcp.json.');
      const file = path.join(folder.path, '.mcp.json');
      // A .mcp.json that is a link out of the workspace is not followed (the writer checks it again right before writing).
      assertRealPathInside(workspaceFolderPaths(), file);
      await writer.writeForUser(file, withServerAdded(await currentText(file), nodeCommand, bridgeFile));
      return;
    }
    // The agent's own command writes outside the workspace: asked first, every time, whoever asks for it.
    const run = await vscode.window.showWarningMessage(
      `Run "${config.text}" in a new terminal? It writes ${config.writes}.`,
      { modal: true },
      'Run',
    );
    if (run !== 'Run') return;
    const terminal = vscode.window.createTerminal({ name: `Connect ${config.label}` });
    terminal.show();
    terminal.sendText(config.text);
  };
  return async (request?: { target?: AgentTarget; add?: boolean }): Promise<string | undefined> => {
    const target =
      request?.target ??
      (
        await vscode.window.showQuickPick(
          AGENT_TARGETS.map((candidate) => {
            const config = agentConfig(candidate, nodeCommand, bridgeFile);
            return { label: config.label, detail: config.text.split('\n')[0], target: candidate };
          }),
          { title: 'Connect an agent to this window (MCP)', placeHolder: 'Which agent?' },
        )
      )?.target;
    if (!target || !AGENT_TARGETS.includes(target)) return undefined;
    const config = agentConfig(target, nodeCommand, bridgeFile);
    await vscode.env.clipboard.writeText(config.text);

    if (request) {
      if (request.add) await addConfig(config);
      return config.text;
    }
    const action = target === 'mcp.json' ? 'Add to .mcp.json' : 'Run in Terminal';
    const chosen = await vscode.window.showInformationMessage(
      `Copied the ${config.label} configuration: ${config.text.split('\n')[0]}${target === 'mcp.json' ? ' …' : ''}. Agents connected this way are offered ${maxTier()} tools (${Setting.mcpMaxTier}).`,
      action,
    );
    if (chosen === action) {
      try {
        await addConfig(config);
      } catch (error) {
        void vscode.window.showErrorMessage(
          `Could not add the configuration: ${error instanceof Error ? error.message : String(error)}. It is on the clipboard; add it by hand.`,
        );
      }
    }
    return config.text;
  };
}
