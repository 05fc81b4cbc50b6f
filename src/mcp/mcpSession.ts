/**
 * One MCP session over one authenticated connection, served with the official SDK: `tools/list`
 * and `tools/call` answered by the host (the extension's tool runner, the same tool objects as
 * `vscode.lm.registerTool`), `notifications/tools/list_changed` when what is offered changes, a
 * cancelled request's signal passed on. Its own bundle (dist/mcpSession.js), loaded when the
 * first client connects: the SDK is not part of activation. No `vscode` here.
 */
import { Duplex } from 'node:stream';
import { LineLimit } from './lineLimit';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { singleLine } from '../platform/wording';
import type { McpToolAnnotations } from './toolAnnotations';
import { serverInstructions } from './serverInstructions';

export interface McpToolInfo {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly inputSchema: { readonly type: 'object'; readonly [key: string]: unknown };
  readonly annotations: McpToolAnnotations;
}

export type McpContent =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'image'; readonly data: string; readonly mimeType: string };

export interface McpCallResult {
  readonly content: readonly McpContent[];
  readonly isError: boolean;
}

/** Who is connected, as the client named itself in `initialize` (until then, as the bridge did). */
export interface McpPeer {
  readonly id: string;
  /** The agent session a `live-tools-mcp hook` connection reports on (it asks `lsp` only). */
  readonly agentSession?: string;
  client(): string;
}

/** What the window provides to every session. */
export interface McpHost {
  /** The tools this session is offered now (within the endpoint's cap, resources wired). */
  tools(peer: McpPeer): readonly McpToolInfo[];
  call(name: string, input: unknown, peer: McpPeer, signal: AbortSignal): Promise<McpCallResult>;
}

export interface McpSession {
  readonly peer: McpPeer;
  /** Settles when the connection is gone. */
  readonly closed: Promise<void>;
  /** Tells the client to list the tools again. */
  toolsChanged(): void;
  close(): Promise<void>;
}

/** The longest MCP message (one line) a client may send: a `write` of a large file fits, a runaway stream does not. */
export const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

/** What a client gets for a message past the cap, before the connection closes (JSON-RPC's invalid request). */
export function oversizeReply(max: number): string {
  return `${JSON.stringify({
    jsonrpc: '2.0',
    id: null,
    error: {
      code: -32600,
      message: `a message over ${max / (1024 * 1024)} MiB (one line of JSON) is not taken; the connection is closed. Send smaller inputs (write a large file in parts with edit or patch).`,
    },
  })}\n`;
}

export function serveSession(
  stream: Duplex,
  host: McpHost,
  options: { readonly id: string; readonly bridge: string; readonly version: string; readonly agentSession?: string },
): McpSession {
  // The peer names its client once `initialize` has come; before the server is made (the instructions ask
  // what this peer is offered), it is the bridge's name.
  let started: Server | undefined;
  const peer: McpPeer = {
    id: options.id,
    agentSession: options.agentSession,
    client: () => {
      const info = started?.getClientVersion();
      // The client names itself: one bounded line wherever it is shown (cards, logs, the status item).
      return info ? singleLine(`${info.name}${info.version ? ` ${info.version}` : ''}`, 100) : options.bridge;
    },
  };
  const server = new Server(
    { name: 'agent-live-tools', title: 'Agent Live Tools', version: options.version },
    {
      capabilities: { tools: { listChanged: true } },
      // Guidance naming only the tools offered when the session starts.
      instructions: serverInstructions(host.tools(peer).map((tool) => tool.name)),
    },
  );
  started = server;
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: host.tools(peer).map((tool) => ({ ...tool, annotations: { ...tool.annotations } })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const result = await host.call(request.params.name, request.params.arguments ?? {}, peer, extra.signal);
    return { content: result.content.map((part) => ({ ...part })), isError: result.isError };
  });
  let closedResolve: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => (closedResolve = resolve));
  // What the client sends passes a cap per message (past it the client is told, and the connection ends);
  // the held (paused) connection flows once piped. The SDK's own cap (10 MiB) is raised to ours.
  const limited = stream.pipe(new LineLimit(MAX_MESSAGE_BYTES, () => stream.end(oversizeReply(MAX_MESSAGE_BYTES))));
  const transport = new StdioServerTransport(limited, stream, { maxBufferSize: MAX_MESSAGE_BYTES + 1 });
  // However the session ends (the SDK gives up on a message too), the connection ends with it: a client never waits on an open socket.
  server.onclose = () => {
    closedResolve();
    if (!stream.writableEnded) stream.end();
  };
  stream.on('close', () => void server.close());
  stream.on('error', () => void server.close());
  void server.connect(transport);
  return {
    peer,
    closed,
    toolsChanged: () => void server.sendToolListChanged().catch(() => undefined),
    close: async () => {
      await server.close();
      stream.destroy();
    },
  };
}
