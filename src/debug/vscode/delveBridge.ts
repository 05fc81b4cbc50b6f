/**
 * delve speaks DAP over TCP only, and connects out: we listen on a local port, start
 * `dlv dap --client-addr=127.0.0.1:PORT`, and carry the connection to the editor as an inline
 * adapter. The program's stdout arrives on dlv's own stdout; it is forwarded as DAP `output`
 * events, so the Debug Console and the agent both see it. dlv is stopped with the session.
 */
import * as net from 'node:net';
import * as vscode from 'vscode';
import { DapReader, frameDapMessage } from '../dapFraming';
import { LongLivedProcess, startLongLived } from '../../process/childProcess';

const CONNECT_TIMEOUT_MS = 20_000;

export async function startDelve(dlv: string, cwd: string): Promise<vscode.DebugAdapterDescriptor> {
  const server = net.createServer((connection) => connection.on('error', () => undefined));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const port = (server.address() as net.AddressInfo).port;
  const process = startLongLived(dlv, ['dap', `--client-addr=127.0.0.1:${port}`], { cwd });
  let earlyOutput = '';
  const collect = (chunk: Buffer): void => {
    earlyOutput = (earlyOutput + chunk.toString('utf8')).slice(-2000);
  };
  process.child.stdout?.on('data', collect);
  process.child.stderr?.on('data', collect);
  let socket: net.Socket;
  try {
    socket = await new Promise<net.Socket>((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            new Error(
              `dlv did not connect within ${CONNECT_TIMEOUT_MS / 1000} s. Its output: ${earlyOutput.trim() || '(none)'}`,
            ),
          ),
        CONNECT_TIMEOUT_MS,
      );
      server.once('connection', (connection) => {
        clearTimeout(timer);
        resolve(connection);
      });
      void process.exited.then((code) => {
        clearTimeout(timer);
        reject(
          new Error(`dlv exited with code ${code} before connecting. Its output: ${earlyOutput.trim() || '(none)'}`),
        );
      });
    });
  } catch (error) {
    server.close();
    await process.stop();
    throw error;
  }
  server.close();
  process.child.stdout?.off('data', collect);
  process.child.stderr?.off('data', collect);
  return new vscode.DebugAdapterInlineImplementation(new SocketAdapter(socket, process, earlyOutput));
}

class SocketAdapter implements vscode.DebugAdapter {
  private readonly emitter = new vscode.EventEmitter<vscode.DebugProtocolMessage>();
  readonly onDidSendMessage = this.emitter.event;
  private outputSeq = 1_000_000;

  constructor(
    private readonly socket: net.Socket,
    private readonly dlv: LongLivedProcess,
    pendingOutput: string,
  ) {
    const reader = new DapReader((message) => this.emitter.fire(message));
    socket.on('data', (chunk) => reader.push(chunk));
    // dlv resets the connection when it exits; the session ends through 'close'.
    socket.on('error', () => undefined);
    socket.on('close', () => void this.dlv.stop());
    const forward = (category: 'stdout' | 'stderr') => (chunk: Buffer) => this.output(category, chunk.toString('utf8'));
    if (pendingOutput) this.output('stdout', pendingOutput);
    dlv.child.stdout?.on('data', forward('stdout'));
    dlv.child.stderr?.on('data', forward('stderr'));
  }

  handleMessage(message: vscode.DebugProtocolMessage): void {
    if (!this.socket.destroyed) this.socket.write(frameDapMessage(message));
  }

  dispose(): void {
    this.socket.destroy();
    void this.dlv.stop();
    this.emitter.dispose();
  }

  private output(category: 'stdout' | 'stderr', output: string): void {
    // dlv's own banner ("DAP server listening at…") is not the program's output.
    const text = output.replace(/^DAP server (listening|connecting).*\n?/gm, '');
    if (text)
      this.emitter.fire({
        type: 'event',
        seq: this.outputSeq++,
        event: 'output',
        body: { category, output: text },
      } as vscode.DebugProtocolMessage);
  }
}
