/** An MCP client as an agent in the integrated terminal runs it: the SDK's client starting the live-tools-mcp bridge. */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { EXTENSION_ID, waitUntil } from './tools';

/** The bridge shipped in the installed extension. */
export function bridgePath(): string {
  const extension = vscode.extensions.getExtension(EXTENSION_ID);
  if (!extension) throw new Error(`${EXTENSION_ID} is not loaded in this editor.`);
  return path.join(extension.extensionPath, 'dist', 'mcpBridge.js');
}

/** Starts the bridge under the SDK's stdio client and initializes the session. */
export async function connectBridge(
  bridge: string,
  env: NodeJS.ProcessEnv,
  cwd: string,
  name: string,
): Promise<Client> {
  const client = new Client({ name, version: '1.0.0' });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bridge],
    env: Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined)),
    cwd,
    stderr: 'pipe',
  });
  await client.connect(transport);
  return client;
}

/** The environment a new integrated terminal of this window gets (written by `env` in that terminal). */
export async function terminalEnvironment(): Promise<NodeJS.ProcessEnv> {
  const file = path.join(os.tmpdir(), `live-tools-terminal-env-${process.pid}-${Date.now()}`);
  const terminal = vscode.window.createTerminal({
    name: 'mcp test env',
    shellPath: '/bin/sh',
    shellArgs: ['-c', `env > "${file}.part" && mv "${file}.part" "${file}"`],
  });
  try {
    const text = await waitUntil('the terminal to write its environment', () =>
      fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined,
    );
    const env: NodeJS.ProcessEnv = {};
    for (const line of text.split('\n')) {
      const at = line.indexOf('=');
      if (at > 0) env[line.slice(0, at)] = line.slice(at + 1);
    }
    return env;
  } finally {
    terminal.dispose();
    fs.rmSync(file, { force: true });
  }
}

export function textOf(result: unknown): string {
  const content = (result as { content: Array<{ type: string; text?: string }> }).content;
  return content.map((part) => (part.type === 'text' ? (part.text ?? '') : `[${part.type}]`)).join('\n');
}
