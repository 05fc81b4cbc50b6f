/**
 * `live-tools-mcp`: the stdio MCP server an agent outside the extension host starts (Claude Code,
 * Codex CLI, Gemini CLI, any MCP client). It finds its VS Code window — through the variables the
 * window put into the integrated terminal it runs in, else through the windows' discovery files
 * (the windows whose folder holds the current directory, the deepest first) — checks that the
 * socket and its directory are this user's alone before it sends the window's token (a record left
 * by a window that crashed may name a directory someone else made since), passes over a window it
 * cannot trust or reach, and then passes bytes both ways: the MCP session itself is served in the window.
 */
import * as net from 'node:net';
import { findWindows, Hello, HelloReply, MAX_HELLO_LENGTH, unsafeSocket, WindowEndpoint } from './endpoint';

const NAME = 'live-tools-mcp';

/** Ends the bridge with one line saying why (an MCP client shows a server's stderr). */
function fail(reason: string): never {
  process.stderr.write(`${NAME}: ${reason}\n`);
  process.exit(1);
}

async function main(): Promise<void> {
  const found = findWindows(process.env, process.cwd());
  if (typeof found === 'string') fail(found);
  const passedOver: string[] = [];
  for (const candidate of found) {
    // The token goes only to a socket of this user, in a directory no one else can enter.
    const unsafe = unsafeSocket(candidate.socket);
    if (unsafe) {
      passedOver.push(`not trusted: ${unsafe}`);
      continue;
    }
    const socket = await connected(candidate.socket);
    if (typeof socket === 'string') {
      passedOver.push(socket);
      continue;
    }
    return bridge(socket, candidate);
  }
  fail(
    `no window could be reached (${passedOver.join('; ')}). Is the window still open? Start the agent again from one of its terminals.`,
  );
}

/** A connection to the socket, or why there is none. */
function connected(path: string): Promise<net.Socket | string> {
  return new Promise((resolve) => {
    const socket = net.createConnection(path);
    const onError = (error: NodeJS.ErrnoException): void =>
      resolve(`cannot reach ${path} (${error.code ?? error.message})`);
    socket.once('error', onError);
    socket.once('connect', () => {
      socket.off('error', onError);
      socket.on('error', (error: NodeJS.ErrnoException) =>
        fail(`the connection to the window's endpoint at ${path} failed (${error.code ?? error.message}).`),
      );
      resolve(socket);
    });
  });
}

async function bridge(socket: net.Socket, window: WindowEndpoint): Promise<void> {
  const hello: Hello = { token: window.token, client: `${NAME} (pid ${process.pid})` };
  socket.write(`${JSON.stringify(hello)}\n`);
  const { reply, rest } = await firstLine(socket);
  if (!reply.ok) fail(reply.error);
  if (rest.length > 0) process.stdout.write(rest);
  socket.pipe(process.stdout);
  process.stdin.pipe(socket);
  // The window closed the session (or went away): the MCP client sees its server exit.
  socket.on('close', () => process.exit(0));
  process.stdin.on('end', () => socket.end());
}

/** The endpoint's one-line answer to the hello, and whatever came after it. */
function firstLine(socket: net.Socket): Promise<{ reply: HelloReply; rest: Buffer }> {
  return new Promise((resolve) => {
    let buffered = Buffer.alloc(0);
    const onData = (chunk: Buffer): void => {
      buffered = Buffer.concat([buffered, chunk]);
      const end = buffered.indexOf(0x0a);
      if (end === -1) {
        if (buffered.length > MAX_HELLO_LENGTH) fail('the window answered something that is not an MCP endpoint.');
        return;
      }
      // Held until piped: nothing the window sends next may be lost between the listeners.
      socket.pause();
      socket.off('data', onData);
      socket.off('close', onClose);
      let reply: HelloReply;
      try {
        reply = JSON.parse(buffered.subarray(0, end).toString('utf8')) as HelloReply;
      } catch {
        fail('the window answered something that is not an MCP endpoint.');
      }
      resolve({ reply, rest: buffered.subarray(end + 1) });
    };
    const onClose = (): void => fail('the window closed the connection before answering.');
    socket.on('data', onData);
    socket.on('close', onClose);
  });
}

if (require.main === module) void main();
