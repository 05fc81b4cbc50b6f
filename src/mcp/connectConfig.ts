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

/** What Connect an Agent adds to one file of the workspace (asked first, showing `added`). */
export interface AgentFileChange {
  /** Workspace-relative path. */
  readonly file: string;
  /** What is added, as the human is shown it. */
  readonly added: string;
  /** The file's new text from its current one; throws saying why it cannot be changed safely. */
  apply(existing: string | undefined): string;
}

/** The agent's command for `live-tools-mcp hook`. */
export function hookCommand(node: string, bridge: string): string {
  return `${shellQuote(node)} ${shellQuote(bridge)} hook`;
}

/** Seconds each agent gives the hook (our own budget is 25 s; the agents default to 60 s or more). */
const HOOK_TIMEOUT_SECONDS = 30;

/**
 * The edit hook in each agent's project settings: before and after each of its own file edits
 * (Claude Code: `.claude/settings.local.json`, personal, since the command names this installation; Codex CLI: `.codex/hooks.json`, which Codex runs once the
 * user trusts it in /hooks; Gemini CLI: `.gemini/settings.json`, timeout in ms). None for mcp.json.
 */
export function hookInstall(target: AgentTarget, node: string, bridge: string): AgentFileChange | undefined {
  const command = hookCommand(node, bridge);
  const entry = (matcher: string, hook: Record<string, unknown>) => ({ matcher, hooks: [hook] });
  switch (target) {
    case 'claude': {
      const hook = { type: 'command', command, timeout: HOOK_TIMEOUT_SECONDS };
      const matcher = 'Edit|Write|MultiEdit|NotebookEdit';
      // The local settings (not shared with the project): the command names this installation's path.
      return hooksChange('.claude/settings.local.json', {
        PreToolUse: entry(matcher, hook),
        PostToolUse: entry(matcher, hook),
      });
    }
    case 'codex': {
      const hook = { type: 'command', command, timeout: HOOK_TIMEOUT_SECONDS };
      return hooksChange('.codex/hooks.json', {
        PreToolUse: entry('^apply_patch$', hook),
        PostToolUse: entry('^apply_patch$', hook),
      });
    }
    case 'gemini': {
      const hook = { name: 'agent-live-tools', type: 'command', command, timeout: HOOK_TIMEOUT_SECONDS * 1000 };
      return hooksChange('.gemini/settings.json', {
        BeforeTool: entry('write_file|replace', hook),
        AfterTool: entry('write_file|replace', hook),
      });
    }
    case 'mcp.json':
      return undefined;
  }
}

/** Whether a hook is ours (an earlier install, maybe of another build): replaced, never doubled. */
function isOurHook(hook: unknown): boolean {
  return /mcpBridge\.js'? hook$/.test(String((hook as { command?: unknown })?.command ?? ''));
}

/** A matcher group without our hooks (the user's own in it kept), or undefined when nothing of it is left. */
function withoutOurHooks(group: unknown): unknown {
  const hooks = (group as { hooks?: unknown })?.hooks;
  if (!Array.isArray(hooks) || !hooks.some(isOurHook)) return group;
  const kept = hooks.filter((hook) => !isOurHook(hook));
  return kept.length === 0 ? undefined : { ...(group as object), hooks: kept };
}

function hooksChange(file: string, events: Record<string, unknown>): AgentFileChange {
  return {
    file,
    added: JSON.stringify(
      { hooks: Object.fromEntries(Object.entries(events).map(([name, entry]) => [name, [entry]])) },
      null,
      2,
    ),
    apply(existing) {
      const config = jsonObject(existing, file);
      const hooks = config.hooks ?? {};
      if (typeof hooks !== 'object' || hooks === null || Array.isArray(hooks))
        throw new Error(`${file} has a "hooks" that is not an object`);
      const merged: Record<string, unknown> = { ...(hooks as Record<string, unknown>) };
      for (const [name, entry] of Object.entries(events)) {
        const current = merged[name] ?? [];
        if (!Array.isArray(current)) throw new Error(`${file} has a "hooks.${name}" that is not a list`);
        merged[name] = [...current.map(withoutOurHooks).filter((group) => group !== undefined), entry];
      }
      return `${JSON.stringify({ ...config, hooks: merged }, null, 2)}\n`;
    },
  };
}

function jsonObject(existing: string | undefined, file: string): Record<string, unknown> {
  if (existing === undefined || existing.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(existing);
  } catch {
    throw new Error(`${file} is not plain JSON (comments?), so it is not rewritten`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new Error(`${file} does not hold a JSON object`);
  return parsed as Record<string, unknown>;
}

const GUIDANCE_START = '<!-- agent-live-tools: start (Connect an Agent writes this section again) -->';
const GUIDANCE_END = '<!-- agent-live-tools: end -->';

/**
 * The server's guidance where each agent reads project guidance: a skill of its own for Claude Code
 * (`.claude/skills/agent-live-tools/SKILL.md`), a marked section of `AGENTS.md` (Codex CLI) or
 * `GEMINI.md` (Gemini CLI), written again in place on the next install. None for mcp.json.
 */
export function guidanceInstall(target: AgentTarget, instructions: string): AgentFileChange | undefined {
  const body = `## Agent Live Tools (MCP server "${SERVER_NAME}")\n\n${instructions
    .split('\n')
    .map((line) => `- ${line}`)
    .join('\n')}\n`;
  switch (target) {
    case 'claude': {
      const skill = [
        '---',
        'name: agent-live-tools',
        `description: Use the VS Code window's live tools (MCP server "${SERVER_NAME}") for language-server questions, renames, structural search, the diagnostics of your edits, debugging and questions to the human.`,
        '---',
        '',
        body,
      ].join('\n');
      return { file: '.claude/skills/agent-live-tools/SKILL.md', added: skill, apply: () => skill };
    }
    case 'codex':
      return sectionChange('AGENTS.md', body);
    case 'gemini':
      return sectionChange('GEMINI.md', body);
    case 'mcp.json':
      return undefined;
  }
}

function sectionChange(file: string, body: string): AgentFileChange {
  const section = `${GUIDANCE_START}\n${body}${GUIDANCE_END}\n`;
  return {
    file,
    added: section,
    apply(existing) {
      if (existing === undefined || existing.trim() === '') return section;
      const start = existing.indexOf(GUIDANCE_START);
      const end = start === -1 ? -1 : existing.indexOf(GUIDANCE_END, start);
      if (start !== -1 && end !== -1) {
        const after = existing.slice(end + GUIDANCE_END.length).replace(/^\r?\n/, '');
        return `${existing.slice(0, start)}${section}${after}`;
      }
      return `${existing}${existing.endsWith('\n') ? '' : '\n'}\n${section}`;
    },
  };
}
