/**
 * The window's MCP endpoint: a Unix socket in a fresh private directory (a named pipe on Windows)
 * that agents outside the extension host reach through the `live-tools-mcp` bridge. Each
 * authenticated connection is one MCP session — its own conversation — served by the tool runner
 * as any other caller, held to `liveTools.mcp.maxTier` (user settings only) and asked on the
 * question card for every write or exec call. Integrated terminals get the socket and token in
 * their environment; a discovery file per window (this user only) serves agents started elsewhere.
 */
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
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
import { assertRealPathInside } from '../../workspace/containment';
import { workspaceFolderPaths } from '../../workspace/vscode/workspaceFolders';
import { currentText } from '../../workspace/vscode/fileTexts';
import {
  discoveryDir,
  ensurePrivateDir,
  HELLO_TIMEOUT_MS,
  HelloReply,
  MAX_HELLO_LENGTH,
  parseHello,
  SOCKET_VARIABLE,
  socketPath,
  TOKEN_VARIABLE,
  WindowRecord,
} from '../endpoint';
import { AGENT_TARGETS, AgentConfig, agentConfig, AgentTarget, withServerAdded } from '../connectConfig';
import type { McpCallResult, McpContent, McpHost, McpPeer, McpSession, McpToolInfo } from '../mcpSession';
import { singleLine } from '../../platform/wording';

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

function callerOf(peer: McpPeer): Caller {
  return {
    kind: 'mcp',
    cap: maxTier(),
    conversation: `mcp:${peer.id}`,
    label: `MCP client "${peer.client()}"`,
    humanAsked: false,
  };
}

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
  let privateDir: string;
  try {
    privateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-live-tools-'));
  } catch (error) {
    log.warn('mcp', `no MCP endpoint: cannot create its directory (${String(error)})`);
    return undefined;
  }
  const nonce = crypto.randomBytes(8).toString('hex');
  const token = crypto.randomBytes(32).toString('base64url');
  const socket = socketPath(privateDir, nonce);
  const sessions = new Map<string, McpSession>();
  let nextSession = 1;
  let sessionModule: typeof import('../mcpSession') | undefined;
  const version = String((context.extension.packageJSON as { version?: unknown }).version ?? '0.0.0');

  const host: McpHost = {
    tools: (peer) => {
      const describe = runtime.descriptions.describer();
      return offeredTools(TOOL_CATALOG, board, callerOf(peer).cap).map((declaration): McpToolInfo => ({
        name: declaration.name,
        title: declaration.displayName,
        description: describe(declaration.name, declaration.modelDescription),
        inputSchema: declaration.inputSchema as McpToolInfo['inputSchema'],
      }));
    },
    call: async (name, input, peer, signal): Promise<McpCallResult> => {
      const source = new vscode.CancellationTokenSource();
      const cancel = (): void => source.cancel();
      signal.addEventListener('abort', cancel);
      if (signal.aborted) cancel();
      try {
        const result = await runner.run(name, input, callerOf(peer), source.token);
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

  const serve = (connection: net.Socket, bridge: string): void => {
    sessionModule ??= require(
      path.join(context.extensionPath, 'dist', 'mcpSession.js'),
    ) as typeof import('../mcpSession');
    const id = String(nextSession++);
    const session = sessionModule.serveSession(connection, host, {
      id,
      bridge,
      version,
    });
    if (sessions.size === 0) offeredNow = offeredNames();
    sessions.set(id, session);
    showClients();
    log.info('mcp', `session ${id} opened (${bridge})`);
    void session.closed.then(async () => {
      sessions.delete(id);
      showClients();
      log.info('mcp', `session ${id} closed (${session.peer.client()}): ending its kernels, debug session and workers`);
      await state.endConversation(callerOf(session.peer).conversation);
    });
  };

  // Connected agents on the status bar; a click lists them and disconnects the one picked.
  const item = vscode.window.createStatusBarItem('liveTools.mcp', vscode.StatusBarAlignment.Left, 20);
  item.name = 'Agent Live Tools: MCP clients';
  item.command = SHOW_MCP_CLIENTS_COMMAND;
  const showClients = (): void => {
    if (sessions.size === 0) {
      item.hide();
      return;
    }
    const clients = [...sessions.values()].map((session) => session.peer.client());
    item.text = `$(plug) ${sessions.size === 1 ? clients[0] : `${sessions.size} agents`}`;
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
  const connectAgent = async (request?: { target?: AgentTarget; add?: boolean }): Promise<string | undefined> => {
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
    const cap = maxTier();
    if (request) {
      if (request.add) await addConfig(config);
      return config.text;
    }
    const action = target === 'mcp.json' ? 'Add to .mcp.json' : 'Run in Terminal';
    const chosen = await vscode.window.showInformationMessage(
      `Copied the ${config.label} configuration: ${config.text.split('\n')[0]}${target === 'mcp.json' ? ' …' : ''}. Agents connected this way are offered ${cap} tools (${Setting.mcpMaxTier}).`,
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
  const addConfig = async (config: AgentConfig): Promise<void> => {
    if (config.target === 'mcp.json') {
      const folder = workspaceFolderPaths()[0];
      if (!folder) throw new Error('No folder is open to hold .mcp.json.');
      const file = path.join(folder.path, '.mcp.json');
      // A .mcp.json that is a link out of the workspace is not followed (the writer checks it again right before writing).
      assertRealPathInside(workspaceFolderPaths(), file);
      await runtime.writer.writeForUser(file, withServerAdded(await currentText(file), nodeCommand, bridgeFile));
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

  const server = net.createServer((connection) => {
    // The first line must be this window's token; nothing else is read before it.
    let buffered = Buffer.alloc(0);
    const refuse = (error: string): void => {
      const reply: HelloReply = { ok: false, error };
      connection.end(`${JSON.stringify(reply)}\n`);
      log.warn('mcp', `connection refused: ${error}`);
    };
    const timer = setTimeout(() => refuse('no token was sent in time.'), HELLO_TIMEOUT_MS);
    const onData = (chunk: Buffer): void => {
      buffered = Buffer.concat([buffered, chunk]);
      const end = buffered.indexOf(0x0a);
      if (end === -1 && buffered.length <= MAX_HELLO_LENGTH) return;
      clearTimeout(timer);
      connection.pause();
      connection.off('data', onData);
      const hello = end === -1 ? undefined : parseHello(buffered.subarray(0, end).toString('utf8'));
      if (!hello || !sameToken(hello.token, token)) {
        refuse(
          "wrong or missing token: this is not the window's token. Start the agent from a terminal of the window, or through its discovery file.",
        );
        return;
      }
      const reply: HelloReply = { ok: true };
      connection.write(`${JSON.stringify(reply)}\n`);
      const rest = buffered.subarray(end + 1);
      if (rest.length > 0) connection.unshift(rest);
      serve(connection, singleLine(hello.client, 100));
    };
    connection.on('data', onData);
    connection.on('error', () => clearTimeout(timer));
    connection.on('close', () => clearTimeout(timer));
  });
  server.on('error', (error) => log.warn('mcp', `endpoint error: ${error.message}`));
  const stateDir = discoveryDir();
  const discoveryFile = path.join(stateDir, `${process.pid}-${nonce}.json`);
  const writeDiscovery = (): void => {
    try {
      ensurePrivateDir(stateDir);
      const record: WindowRecord = { socket, token, folders: realFolders(), pid: process.pid };
      fs.writeFileSync(discoveryFile, JSON.stringify(record), { mode: 0o600 });
    } catch (error) {
      log.warn('mcp', `no discovery file: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  server.listen(socket, () => {
    if (process.platform !== 'win32') fs.chmodSync(socket, 0o600);
    log.info('mcp', `listening at ${socket}`);
    // Announced once it listens (and off activation: the file's directory, the folders' real paths, the write).
    writeDiscovery();
  });

  const collection = context.environmentVariableCollection;
  collection.persistent = false;
  collection.description = 'Lets an agent started in this terminal reach Agent Live Tools (live-tools-mcp).';
  collection.replace(SOCKET_VARIABLE, socket);
  collection.replace(TOKEN_VARIABLE, token);

  // What a session is offered changes with the resources, vibe mode, the cap and the served languages:
  // say so once per change. Read only while a session is connected (the languages walk the folders),
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
    vscode.commands.registerCommand(DISCONNECT_MCP_CLIENTS_COMMAND, async () => {
      const connected = [...sessions.values()];
      await Promise.all(connected.map((session) => session.close()));
      return connected.length;
    }),
    board.onDidChange(toolsMayHaveChanged),
    runtime.descriptions.onDidChange(toolsMayHaveChanged),
    definitionsChanged,
    vscode.lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, provider),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration(Setting.mcpMaxTier)) toolsMayHaveChanged();
      if (event.affectsConfiguration(Setting.mcpOfferToEditor)) definitionsChanged.fire();
    }),
    vscode.workspace.onDidChangeWorkspaceFolders(writeDiscovery),
    {
      dispose: () => {
        for (const session of sessions.values()) void session.close();
        server.close();
        fs.rmSync(discoveryFile, { force: true });
        fs.rmSync(privateDir, { recursive: true, force: true });
      },
    },
  );
  return {
    socket,
    discoveryFile,
    sessions: () => [...sessions].map(([id, session]) => ({ id, client: session.peer.client() })),
  };

  /** What a session is offered, names and what the descriptions say of the window, to compare. */
  function offeredNames(): string {
    const names = offeredTools(TOOL_CATALOG, board, maxTier()).map((declaration) => declaration.name);
    return `${names.join(',')}\n${runtime.descriptions.snapshot()}`;
  }
}

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && crypto.timingSafeEqual(a, b);
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
