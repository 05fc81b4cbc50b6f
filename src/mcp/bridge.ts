/**
 * `live-tools-mcp`: the stdio MCP server an agent outside the extension host starts (Claude Code,
 * Codex CLI, Gemini CLI, any MCP client). It finds its VS Code window — through the variables the
 * window put into the integrated terminal it runs in, else through the windows' discovery files
 * (the windows whose folder holds the current directory, the deepest first) — checks that the
 * socket and its directory are this user's alone before it sends the window's token (a record left
 * by a window that crashed may name a directory someone else made since), passes over a window it
 * cannot trust or reach, and then passes bytes both ways: the MCP session itself is served in the window.
 *
 * `live-tools-mcp hook` is the command an agent runs around its own edits (Claude Code's and Codex's
 * PreToolUse/PostToolUse, Gemini CLI's BeforeTool/AfterTool): see hook.ts.
 */
import * as net from 'node:net';
import { runHook } from './hook';
import { connectToWindow } from './windowConnection';

const NAME = 'live-tools-mcp';

/** Ends the bridge with one line saying why (an MCP client shows a server's stderr). */
function fail(reason: string): never {
  process.stderr.write(`${NAME}: ${reason}\n`);
  process.exit(1);
}

async function main(): Promise<void> {
  if (process.argv[2] === 'hook') {
    const code = await runHook(process.stdin, process.stdout, process.stderr, process.env, process.cwd());
    // A call still out past the budget holds the connection open: the answer is printed, so the run ends here.
    process.stdout.write('', () => process.exit(code));
    return;
  }
  const connection = await connectToWindow(process.env, process.cwd(), { client: `${NAME} (pid ${process.pid})` });
  if (typeof connection === 'string') fail(connection);
  bridge(connection.socket, connection.rest);
}

function bridge(socket: net.Socket, rest: Buffer): void {
  socket.on('error', (error: NodeJS.ErrnoException) =>
    fail(`the connection to the window's endpoint failed (${error.code ?? error.message}).`),
  );
  if (rest.length > 0) process.stdout.write(rest);
  socket.pipe(process.stdout);
  process.stdin.pipe(socket);
  // The window closed the session (or went away): the MCP client sees its server exit.
  socket.on('close', () => process.exit(0));
  process.stdin.on('end', () => socket.end());
}

if (require.main === module) void main();
