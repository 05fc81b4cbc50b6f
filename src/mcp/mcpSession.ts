/**
 * One MCP session over one authenticated connection, served with the official SDK: `tools/list`
 * and `tools/call` answered by the host (the extension's tool runner, the same tool objects as
 * `vscode.lm.registerTool`), `notifications/tools/list_changed` when what is offered changes, a
 * cancelled request's signal passed on. Its own bundle (dist/mcpSession.js), loaded when the
 * first client connects: the SDK is not part of activation. No `vscode` here.
 */
import { Duplex, Transform, TransformCallback } from 'node:stream';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { singleLine } from '../platform/wording';

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

/** The longest MCP message (one line) a client may send: a `write` of a large file fits, a runaway stream does not. */
export const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

/** Passes the bytes through, and calls `exceeded` (once) when a line grows past `max` bytes: the SDK's reader buffers a line whole. */
export class LineLimit extends Transform {
  private sinceNewline = 0;
  private over = false;

  constructor(
    private readonly max: number,
    private readonly exceeded: () => void,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    if (this.over) return done();
    const first = chunk.indexOf(0x0a);
    const last = chunk.lastIndexOf(0x0a);
    const longest =
      first === -1
        ? this.sinceNewline + chunk.length
        : Math.max(this.sinceNewline + first, first === last ? 0 : longestLine(chunk, first, last));
    this.sinceNewline = last === -1 ? this.sinceNewline + chunk.length : chunk.length - last - 1;
    if (longest > this.max || this.sinceNewline > this.max) {
      this.over = true;
      this.exceeded();
      return done();
    }
    done(null, chunk);
  }
}

/** The longest run between the newlines at `first` and `last` of a chunk. */
function longestLine(chunk: Buffer, first: number, last: number): number {
  let longest = 0;
  for (let at = first; at < last;) {
    const next = chunk.indexOf(0x0a, at + 1);
    longest = Math.max(longest, next - at - 1);
    at = next;
  }
  return longest;
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
      // The client names itself: one bounded line wherever it is shown (cards, logs, the status item).
      return info ? singleLine(`${info.name}${info.version ? ` ${info.version}` : ''}`, 100) : options.bridge;
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
  // What the client sends passes a cap per message; the held (paused) connection flows once piped.
  const limited = stream.pipe(new LineLimit(MAX_MESSAGE_BYTES, () => stream.destroy()));
  const transport = new StdioServerTransport(limited, stream);
  server.onclose = closedResolve;
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
