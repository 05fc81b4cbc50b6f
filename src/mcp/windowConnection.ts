/**
 * Reaching a VS Code window's MCP endpoint from outside it, as `live-tools-mcp` and its `hook` do:
 * the window of the terminal, else each live window whose folder holds the directory (deepest
 * first); the token sent only to a socket and directory of this user alone; a window that cannot be
 * trusted or reached passed over for the next. No `vscode` here (the bridge's bundle).
 */
import * as net from 'node:net';
import { findWindows, Hello, HelloReply, MAX_HELLO_LENGTH, unsafeSocket } from './endpoint';

/** An authenticated connection (paused), with whatever the window sent after its answer to the hello. */
export interface WindowConnection {
  readonly socket: net.Socket;
  readonly rest: Buffer;
}

/** A connection to the first window that takes this hello, or why none did (one line). */
export async function connectToWindow(
  env: NodeJS.ProcessEnv,
  cwd: string,
  hello: Omit<Hello, 'token'>,
): Promise<WindowConnection | string> {
  const found = findWindows(env, cwd);
  if (typeof found === 'string') return found;
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
    const full: Hello = { ...hello, token: candidate.token };
    socket.write(`${JSON.stringify(full)}\n`);
    const answer = await firstLine(socket);
    if (typeof answer === 'string') {
      socket.destroy();
      return answer;
    }
    if (!answer.reply.ok) {
      socket.destroy();
      return answer.reply.error;
    }
    return { socket, rest: answer.rest };
  }
  return `no window could be reached (${passedOver.join('; ')}). Is the window still open? Start the agent again from one of its terminals.`;
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
      resolve(socket);
    });
  });
}

/** The endpoint's one-line answer to the hello and whatever came after it, or why there is none. */
function firstLine(socket: net.Socket): Promise<{ reply: HelloReply; rest: Buffer } | string> {
  return new Promise((resolve) => {
    let buffered = Buffer.alloc(0);
    const done = (result: { reply: HelloReply; rest: Buffer } | string): void => {
      socket.off('data', onData);
      socket.off('close', onClose);
      socket.off('error', onClose);
      resolve(result);
    };
    const onData = (chunk: Buffer): void => {
      buffered = Buffer.concat([buffered, chunk]);
      const end = buffered.indexOf(0x0a);
      if (end === -1) {
        if (buffered.length > MAX_HELLO_LENGTH) done('the window answered something that is not an MCP endpoint.');
        return;
      }
      // Held until the caller reads on: nothing the window sends next may be lost between the listeners.
      socket.pause();
      try {
        done({
          reply: JSON.parse(buffered.subarray(0, end).toString('utf8')) as HelloReply,
          rest: buffered.subarray(end + 1),
        });
      } catch {
        done('the window answered something that is not an MCP endpoint.');
      }
    };
    const onClose = (): void => done('the window closed the connection before answering.');
    socket.on('data', onData);
    socket.on('close', onClose);
    socket.on('error', onClose);
  });
}
