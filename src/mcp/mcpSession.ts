/**
 * One MCP session over one authenticated connection, served with the official SDK: `tools/list`
 * and `tools/call` answered by the host (the extension's tool runner, the same tool objects as
 * `vscode.lm.registerTool`), `notifications/tools/list_changed` when what is offered changes, a
 * cancelled request's signal passed on. Its own bundle (dist/mcpSession.js), loaded when the
 * first client connects: the SDK is not part of activation. No `vscode` here.
 */
import { Duplex } from 'node:stream';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

export interface McpToolInfo {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly inputSchema: { readonly type: 'object'; readonly [key: string]: unknown };
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

export function serveSession(
  stream: Duplex,
  host: McpHost,
  options: { readonly id: string; readonly bridge: string; readonly version: string },
): McpSession {
  const server = new Server(
    { name: 'agent-live-tools', title: 'Agent Live Tools', version: options.version },
    {
      capabilities: { tools: { listChanged: true } },
      instructions:
        'Tools of the VS Code window this server belongs to: language servers, structural search and staged rewrites, a debugger, kernels, the question card. Paths are relative to the workspace folders.',
    },
  );
  const peer: McpPeer = {
    id: options.id,
    client: () => {
      const info = server.getClientVersion();
      return info ? `${info.name}${info.version ? ` ${info.version}` : ''}` : options.bridge;
    },
  };
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: host.tools(peer).map((tool) => ({ ...tool })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const result = await host.call(request.params.name, request.params.arguments ?? {}, peer, extra.signal);
    return { content: result.content.map((part) => ({ ...part })), isError: result.isError };
  });
  let closedResolve: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => (closedResolve = resolve));
  const transport = new StdioServerTransport(stream, stream);
  server.onclose = closedResolve;
  stream.on('close', () => void server.close());
  stream.on('error', () => void server.close());
  // The connection was held paused while its token was read: it flows once the transport listens.
  void server.connect(transport).then(() => stream.resume());
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
