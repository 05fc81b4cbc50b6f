/**
 * The window's MCP endpoint: a Unix socket in a fresh private directory (a named pipe on Windows)
 * that agents outside the extension host reach through the `live-tools-mcp` bridge. Each
 * authenticated connection is one MCP session — its own conversation — served by the tool runner
 * as any other caller, held to `liveTools.mcp.maxTier` (user settings only) and asked on the
 * question card for every write or exec call. Integrated terminals get the socket and token in
 * their environment; a discovery file per window (this user only) serves agents started elsewhere.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { Caller } from '../../platform/caller';
import { offeredTools } from '../../platform/availability';
import { Setting } from '../../platform/settings';
import { Tier, TIERS } from '../../platform/tiers';
import { userSettingValue } from '../../platform/vscode/userSettings';
import { Runtime } from '../../runtime';
import { TOOL_CATALOG } from '../../tools/declarations';
import { isFailureText, ToolRunner } from '../../tools/toolRunner';
import { workspaceFolderPaths } from '../../workspace/vscode/workspaceFolders';
import { annotationsOf } from '../toolAnnotations';
import { serverInstructions } from '../serverInstructions';
import { discoveryDir, SOCKET_VARIABLE, TOKEN_VARIABLE } from '../endpoint';
import { EndpointServer } from '../endpointServer';
import { connectAgentCommand } from './connectAgent';
import { ExtensionTools } from './extensionTools';
import type { McpCallResult, McpContent, McpHost, McpPeer, McpSession, McpToolInfo } from '../mcpSession';

export const SHOW_MCP_CLIENTS_COMMAND = 'liveTools.showMcpClients';
/** Shows, copies and on request adds an agent's configuration; with an argument `{ target, add }` it asks nothing and returns the text. */
export const CONNECT_AGENT_COMMAND = 'liveTools.connectAgent';
/** The id of our `contributes.mcpServerDefinitionProviders` entry. */
export const MCP_PROVIDER_ID = 'agentLiveTools.window';
/** Disconnects every MCP client; returns how many were connected (tests, and a human in a hurry). */
export const DISCONNECT_MCP_CLIENTS_COMMAND = 'liveTools.disconnectMcpClients';

/** The most an MCP client may be offered when the user has not chosen (see docs/architecture.md). */
export const DEFAULT_MCP_TIER: Tier = 'read';

/** What the endpoint shows to tests and the connect command. */
export interface McpEndpoint {
  readonly socket: string;
  readonly discoveryFile: string;
  /** Connected sessions, by id, with the client's name. */
  sessions(): Array<{ id: string; client: string }>;
}

function maxTier(): Tier {
  const value = userSettingValue<string>(Setting.mcpMaxTier);
  return TIERS.includes(value as Tier) ? (value as Tier) : DEFAULT_MCP_TIER;
}

/**
 * A session's caller. A hook's session (`live-tools-mcp hook`, run by an agent after each of its own
 * edits) is read-capped, asks `lsp` only, and shares one conversation per agent session across runs,
 * so each run compares with what the last one saw.
 */
function callerOf(peer: McpPeer): Caller {
  return {
    kind: 'mcp',
    cap: peer.agentSession ? 'read' : maxTier(),
    conversation: peer.agentSession ? `hook:${peer.agentSession}` : `mcp:${peer.id}`,
    label: `MCP client "${peer.client()}"`,
    humanAsked: false,
  };
}

/** The one tool a hook's session may call. */
const HOOK_TOOL = 'lsp';
/** Hook conversations kept (what each agent session last saw); past it the longest unused is forgotten. */
const HOOK_CONVERSATIONS_KEPT = 50;

function contentOf(result: vscode.LanguageModelToolResult): McpContent[] {
  const content: McpContent[] = [];
  for (const part of result.content) {
    if (part instanceof vscode.LanguageModelTextPart) content.push({ type: 'text', text: part.value });
    else if (part instanceof vscode.LanguageModelDataPart && part.mimeType.startsWith('image/'))
      content.push({ type: 'image', data: Buffer.from(part.data).toString('base64'), mimeType: part.mimeType });
  }
  return content;
}

/** What a session's conversation holds that ends with it. */
export interface ConversationState {
  endConversation(conversation: string): Promise<void>;
}

export function registerMcp(
  context: vscode.ExtensionContext,
  runtime: Runtime,
  runner: ToolRunner,
  state: ConversationState,
): McpEndpoint | undefined {
  const { log, board } = runtime;
  // A window started from another window's terminal inherits that window's socket and token: whatever this
  // extension host starts (other extensions' adapters and servers too) must not reach that endpoint.
  delete process.env[SOCKET_VARIABLE];
  delete process.env[TOKEN_VARIABLE];
  let sessionModule: typeof import('../mcpSession') | undefined;
  const version = String((context.extension.packageJSON as { version?: unknown }).version ?? '0.0.0');
  const extensionTools = new ExtensionTools(runner, context.extension.id);

  const host: McpHost = {
    tools: (peer) => {
      const describe = runtime.descriptions.describer();
      const ours = offeredTools(TOOL_CATALOG, board, callerOf(peer).cap)
        .filter((declaration) => !peer.agentSession || declaration.name === HOOK_TOOL)
        .map((declaration): McpToolInfo => ({
          name: declaration.name,
          title: declaration.displayName,
          description: describe(declaration.name, declaration.modelDescription),
          inputSchema: declaration.inputSchema as McpToolInfo['inputSchema'],
          annotations: annotationsOf(declaration),
        }));
      return peer.agentSession ? ours : [...ours, ...extensionTools.listed(callerOf(peer))];
    },
    call: async (name, input, peer, signal): Promise<McpCallResult> => {
      if (peer.agentSession && name !== HOOK_TOOL)
        return {
          content: [{ type: 'text', text: `Refused: a hook's session calls ${HOOK_TOOL} only.` }],
          isError: true,
        };
      const source = new vscode.CancellationTokenSource();
      const cancel = (): void => source.cancel();
      signal.addEventListener('abort', cancel);
      if (signal.aborted) cancel();
      try {
        const tool = extensionTools.runnerName(name);
        if (tool === undefined)
          return { content: [{ type: 'text', text: `Error: no tool named "${name}".` }], isError: true };
        const result = await runner.run(tool, input, callerOf(peer), source.token);
        const content = contentOf(result);
        const text = content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
        return { content, isError: isFailureText(text) };
      } catch (error) {
        const text =
          error instanceof vscode.CancellationError || source.token.isCancellationRequested
            ? `${name} was cancelled.`
            : `Error: ${name} failed: ${error instanceof Error ? error.message : String(error)}`;
        return { content: [{ type: 'text', text }], isError: true };
      } finally {
        signal.removeEventListener('abort', cancel);
        source.dispose();
      }
    },
  };

  // A hook's conversation outlives its runs (each compares with the last); bounded, the least recent forgotten.
  const hookConversations = new Set<string>();
  const keepHookConversation = (conversation: string): void => {
    hookConversations.delete(conversation);
    hookConversations.add(conversation);
    if (hookConversations.size <= HOOK_CONVERSATIONS_KEPT) return;
    const oldest = hookConversations.values().next().value as string;
    hookConversations.delete(oldest);
    void state.endConversation(oldest);
  };

  const endpoint = EndpointServer.open({
    log,
    stateDir: discoveryDir(),
    folders: realFolders,
    serve: (connection, id, bridge, agentSession) => {
      if (agentSession) keepHookConversation(`hook:${agentSession}`);
      sessionModule ??= require(
        path.join(context.extensionPath, 'dist', 'mcpSession.js'),
      ) as typeof import('../mcpSession');
      if (sessions.size === 0) offeredNow = offeredNames();
      return sessionModule.serveSession(connection, host, { id, bridge, version, agentSession });
    },
    sessionsChanged: () => showClients(),
    // A hook's conversation outlives its run: the next run compares with what this one saw.
    sessionClosed: async (session) => {
      if (!session.peer.agentSession) await state.endConversation(callerOf(session.peer).conversation);
    },
  });
  if (!endpoint) return undefined;
  const { socket, token } = endpoint;
  const sessions = endpoint.sessions();

  // Connected agents on the status bar; a click lists them and disconnects the one picked.
  const item = vscode.window.createStatusBarItem('liveTools.mcp', vscode.StatusBarAlignment.Left, 20);
  item.name = 'Agent Live Tools: MCP clients';
  item.command = SHOW_MCP_CLIENTS_COMMAND;
  // A hook's session lasts one edit's check: not shown.
  const agents = (): McpSession[] => [...sessions.values()].filter((session) => !session.peer.agentSession);
  const showClients = (): void => {
    const clients = agents().map((session) => session.peer.client());
    if (clients.length === 0) {
      item.hide();
      return;
    }
    item.text = `$(plug) ${clients.length === 1 ? clients[0] : `${clients.length} agents`}`;
    item.tooltip = `Agents connected over MCP (each its own conversation):\n${clients.join('\n')}\nClick to disconnect one.`;
    item.show();
  };
  const pickToDisconnect = async (): Promise<void> => {
    if (sessions.size === 0) {
      void vscode.window.showInformationMessage('No agent is connected over MCP.');
      return;
    }
    const picked = await vscode.window.showQuickPick(
      [...sessions].map(([id, session]) => ({
        label: session.peer.client(),
        description: `session ${id}`,
        detail: 'Disconnect: its kernels, debug session and workers end',
        id,
      })),
      { title: 'Agents connected over MCP', placeHolder: 'Pick one to disconnect it' },
    );
    if (picked) await sessions.get(picked.id)?.close();
  };

  const bridgeFile = path.join(context.extensionPath, 'dist', 'mcpBridge.js');
  // The editor's Node where it is one (code-server); in the desktop editor it is Electron: `node` from PATH.
  const nodeCommand = path.basename(process.execPath).startsWith('node') ? process.execPath : 'node';
  // The guidance names what a client at the cap is offered now.
  const connectAgent = connectAgentCommand(runtime.writer, nodeCommand, bridgeFile, maxTier, () =>
    serverInstructions(offeredTools(TOOL_CATALOG, board, maxTier()).map((declaration) => declaration.name)),
  );

  // The editor's own MCP hosts get this window's endpoint only when the user asks (see docs/architecture.md:
  // the local chat already has these tools as language model tools, and would be offered each twice).
  const definitionsChanged = new vscode.EventEmitter<void>();
  const provider: vscode.McpServerDefinitionProvider = {
    onDidChangeMcpServerDefinitions: definitionsChanged.event,
    provideMcpServerDefinitions: () =>
      userSettingValue<boolean>(Setting.mcpOfferToEditor) === true
        ? [
            new vscode.McpStdioServerDefinition(
              'Agent Live Tools (this window)',
              nodeCommand,
              [bridgeFile],
              { [SOCKET_VARIABLE]: socket, [TOKEN_VARIABLE]: token },
              version,
            ),
          ]
        : [],
  };

  const collection = context.environmentVariableCollection;
  collection.persistent = false;
  collection.description = 'Lets an agent started in this terminal reach Agent Live Tools (live-tools-mcp).';
  collection.replace(SOCKET_VARIABLE, socket);
  collection.replace(TOKEN_VARIABLE, token);

  // What a session is offered changes with the resources, vibe mode, the cap, the served languages and
  // other extensions' tools (their setting, the installed extensions): say so once per change. Read only while a session is connected (the languages walk the folders),
  // from the moment the first one connects.
  let offeredNow = '';
  const toolsMayHaveChanged = (): void => {
    if (sessions.size === 0) return;
    const now = offeredNames();
    if (now === offeredNow) return;
    offeredNow = now;
    for (const session of sessions.values()) session.toolsChanged();
  };
  context.subscriptions.push(
    item,
    vscode.commands.registerCommand(SHOW_MCP_CLIENTS_COMMAND, pickToDisconnect),
    vscode.commands.registerCommand(CONNECT_AGENT_COMMAND, connectAgent),
    vscode.commands.registerCommand(DISCONNECT_MCP_CLIENTS_COMMAND, () => endpoint.closeSessions()),
    board.onDidChange(toolsMayHaveChanged),
    runtime.descriptions.onDidChange(toolsMayHaveChanged),
    extensionTools.watch(toolsMayHaveChanged),
    definitionsChanged,
    vscode.lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, provider),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration(Setting.mcpMaxTier) || event.affectsConfiguration(Setting.mcpOfferExtensionTools))
        toolsMayHaveChanged();
      if (event.affectsConfiguration(Setting.mcpOfferToEditor)) definitionsChanged.fire();
    }),
    vscode.workspace.onDidChangeWorkspaceFolders(() => endpoint.writeRecord()),
    endpoint,
  );
  return {
    socket,
    discoveryFile: endpoint.discoveryFile,
    sessions: () => [...sessions].map(([id, session]) => ({ id, client: session.peer.client() })),
  };

  /** What a session is offered, names and what the descriptions say of the window, to compare. */
  function offeredNames(): string {
    const names = offeredTools(TOOL_CATALOG, board, maxTier()).map((declaration) => declaration.name as string);
    // Every session has the same cap: what it is offered does not depend on which one.
    const others = extensionTools.listed(callerOf({ id: '', client: () => '' })).map((tool) => tool.name);
    return `${[...names, ...others].join(',')}\n${runtime.descriptions.snapshot()}`;
  }
}

function realFolders(): string[] {
  return workspaceFolderPaths().map((folder) => {
    try {
      return fs.realpathSync(folder.path);
    } catch {
      return folder.path;
    }
  });
}
