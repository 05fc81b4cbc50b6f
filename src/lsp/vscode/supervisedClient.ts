/**
 * The language client of one of our servers (vscode-languageclient), in a bundle of its own
 * (dist/languageClient.js) loaded when the first server starts: the library is most of what
 * evaluating the extension would otherwise cost, and most windows never start a server of ours.
 * Only `import type` of this module elsewhere: a value import would bring the library back.
 */
import type { ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  ChildProcessInfo,
  CloseAction,
  DocumentDiagnosticRequest,
  ErrorAction,
  ExecuteCommandRequest,
  LanguageClient,
  LanguageClientOptions,
  State,
} from 'vscode-languageclient/node';
import type { Logger } from '../../log/logger';
import { realPathOf, underOpenedFolder } from '../../project/projectRoots';
import type { ServerClient, ServerLaunch } from '../supervisor/supervisorEngine';
import { legacyTypeHierarchy } from './legacyTypeHierarchyMiddleware';

/** One of our servers' clients: the engine's view of it, and what the lsp tool asks of it directly. */
export interface SupervisedClient extends ServerClient {
  /** The document's diagnostics pulled from the server; undefined when it does not answer that way. */
  pullDiagnostics(
    document: vscode.TextDocument,
    token: vscode.CancellationToken,
  ): Promise<vscode.Diagnostic[] | undefined>;
}

/** Starts the server's process (the supervisor's own spawn, so its process is tracked and stopped as before). */
export type SpawnServer = (binary: string, args: readonly string[], cwd: string) => ChildProcess;

export function createSupervisedClient(launch: ServerLaunch, log: Logger, spawn: SpawnServer): SupervisedClient {
  const { entry, root } = launch;
  const tag = `lsp.server.${entry.id}`;
  const channel = {
    name: `Agent Live Tools: ${entry.name}`,
    append: (value: string) => log.debug(tag, value.trimEnd()),
    appendLine: (value: string) => log.debug(tag, value),
    replace: (value: string) => log.debug(tag, value),
    clear: () => undefined,
    show: () => undefined,
    hide: () => undefined,
    dispose: () => undefined,
    logLevel: vscode.LogLevel.Debug,
    onDidChangeLogLevel: new vscode.EventEmitter<vscode.LogLevel>().event,
    trace: (message: string) => log.trace(tag, message),
    debug: (message: string) => log.debug(tag, message),
    info: (message: string) => log.info(tag, message),
    warn: (message: string) => log.warn(tag, message),
    error: (message: string | Error) => log.error(tag, String(message)),
  } as unknown as vscode.LogOutputChannel;
  const realRoot = realPathOf(root);
  const settings = entry.settings;
  const clientOptions: LanguageClientOptions = {
    // Where the table gives the server its settings, those are all it is told: never the workspace's.
    ...(settings ? { initializationOptions: settings.value } : {}),
    middleware: {
      ...(settings
        ? {
            workspace: {
              configuration: (params: { items: ReadonlyArray<{ section?: string }> }) =>
                params.items.map((item) => (item.section === settings.section ? settings.value : null)),
            },
          }
        : {}),
      // Where the server knows only the earlier type hierarchy proposal (clangd 14), ask it that way.
      ...legacyTypeHierarchy(() => client),
      // pyright publishes real paths when the workspace is reached through a symlink.
      handleDiagnostics: (uri, diagnostics, next) =>
        next(uri.scheme === 'file' ? vscode.Uri.file(underOpenedFolder(uri.fsPath, root, realRoot)) : uri, diagnostics),
    },
    documentSelector: entry.languageIds.map((language) => ({ scheme: 'file', language, pattern: `${root}/**/*` })),
    workspaceFolder: { uri: vscode.Uri.file(root), name: path.basename(root), index: 0 },
    outputChannel: channel,
    traceOutputChannel: channel,
    errorHandler: {
      error: () => ({ action: ErrorAction.Continue }),
      closed: () => ({ action: CloseAction.DoNotRestart, handled: true }),
    },
  };
  const client = new LanguageClient(
    `liveTools.${entry.id}`,
    `${entry.name} (${launch.displayRoot})`,
    async (): Promise<ChildProcessInfo> => ({ process: spawn(launch.binary, entry.server.args, root), detached: true }),
    clientOptions,
  );
  shareServerCommands(client);
  return {
    start: () => client.start(),
    get running() {
      return client.state === State.Running;
    },
    pullDiagnostics: (document, token) => pullDiagnostics(client, document, token),
    stop: async () => {
      for (const [command, owner] of claimedCommands) if (owner === client) claimedCommands.delete(command);
      await client.stop(2000).catch(() => undefined);
    },
  };
}

/**
 * Pulls this document's diagnostics when the server offers pull diagnostics (pyright does, and then
 * publishes nothing for a document that is not shown in a tab: the client pulls only for visible documents).
 */
async function pullDiagnostics(
  client: LanguageClient,
  document: vscode.TextDocument,
  token: vscode.CancellationToken,
): Promise<vscode.Diagnostic[] | undefined> {
  // Servers may register pull diagnostics dynamically (pyright does), so the client's feature says.
  const registered = client.getFeature(DocumentDiagnosticRequest.method)?.getProvider(document) !== undefined;
  if (!registered && !client.initializeResult?.capabilities.diagnosticProvider) return undefined;
  const report = await client.sendRequest(
    DocumentDiagnosticRequest.type,
    { textDocument: { uri: client.code2ProtocolConverter.asUri(document.uri) } },
    token,
  );
  if (report.kind !== 'full') return undefined;
  return client.protocol2CodeConverter.asDiagnostics(report.items, token);
}

/**
 * Commands a server announces (`executeCommandProvider`) are registered in the editor by name, and
 * a name registered twice fails the second client's start ("command 'gopls.add_dependency' already
 * exists"): two project roots of one language run two servers with the same names. The first
 * server to claim a name keeps it; the others start without it.
 */
const claimedCommands = new Map<string, LanguageClient>();

function shareServerCommands(client: LanguageClient): void {
  const feature = client.getFeature(ExecuteCommandRequest.method) as unknown as {
    register(data: { registerOptions: { commands?: string[] } }): void;
  };
  const register = feature.register.bind(feature);
  feature.register = (data) => {
    const commands = (data.registerOptions.commands ?? []).filter(
      (command) => (claimedCommands.get(command) ?? client) === client,
    );
    for (const command of commands) claimedCommands.set(command, client);
    register({ ...data, registerOptions: { ...data.registerOptions, commands } });
  };
}
