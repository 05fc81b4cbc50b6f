/**
 * How each agent is told to start `live-tools-mcp`: the command line that registers it (Claude Code,
 * Codex CLI, Gemini CLI) or the `mcpServers` entry of an `mcp.json` (any other client, and a
 * project's `.mcp.json`). No `vscode` here.
 */
export type AgentTarget = 'claude' | 'codex' | 'gemini' | 'mcp.json';

export const AGENT_TARGETS: readonly AgentTarget[] = ['claude', 'codex', 'gemini', 'mcp.json'];

/** The server's name in each agent's configuration. */
export const SERVER_NAME = 'live-tools';

export interface AgentConfig {
  readonly target: AgentTarget;
  readonly label: string;
  /** What to paste: a command line, or a JSON object. */
  readonly text: string;
  /** Where running or adding it writes (said before it is done). */
  readonly writes: string;
}

/** POSIX shell quoting, for a path with spaces or quotes in it. */
function shellQuote(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

export function agentConfig(target: AgentTarget, node: string, bridge: string): AgentConfig {
  const command = `${shellQuote(node)} ${shellQuote(bridge)}`;
  switch (target) {
    case 'claude':
      return {
        target,
        label: 'Claude Code',
        text: `claude mcp add ${SERVER_NAME} -- ${command}`,
        writes: "Claude Code's configuration of this project (~/.claude.json)",
      };
    case 'codex':
      return {
        target,
        label: 'Codex CLI',
        text: `codex mcp add ${SERVER_NAME} -- ${command}`,
        writes: "Codex's configuration (~/.codex/config.toml)",
      };
    case 'gemini':
      return {
        target,
        label: 'Gemini CLI',
        text: `gemini mcp add ${SERVER_NAME} ${command}`,
        writes: "Gemini CLI's project settings (.gemini/settings.json)",
      };
    case 'mcp.json':
      return {
        target,
        label: 'Any MCP client (mcp.json)',
        text: JSON.stringify({ mcpServers: { [SERVER_NAME]: mcpServerEntry(node, bridge) } }, null, 2),
        writes: '.mcp.json in the workspace folder',
      };
  }
}

export function mcpServerEntry(node: string, bridge: string): { command: string; args: string[] } {
  return { command: node, args: [bridge] };
}

/**
 * The text of a project's `.mcp.json` with our server added (others kept), or an error saying why the
 * file cannot be changed safely.
 */
export function withServerAdded(existing: string | undefined, node: string, bridge: string): string {
  let config: { mcpServers?: Record<string, unknown> } & Record<string, unknown> = {};
  if (existing !== undefined && existing.trim() !== '') {
    const parsed: unknown = JSON.parse(existing);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
      throw new Error('.mcp.json does not hold a JSON object');
    config = parsed as typeof config;
  }
  const servers = config.mcpServers;
  if (servers !== undefined && (typeof servers !== 'object' || servers === null || Array.isArray(servers)))
    throw new Error('.mcp.json has an "mcpServers" that is not an object');
  return `${JSON.stringify({ ...config, mcpServers: { ...servers, [SERVER_NAME]: mcpServerEntry(node, bridge) } }, null, 2)}\n`;
}
