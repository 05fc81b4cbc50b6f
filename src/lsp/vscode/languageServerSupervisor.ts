import * as path from 'node:path';
import * as vscode from 'vscode';
import { ChildProcessInfo, CloseAction, DocumentDiagnosticRequest, ErrorAction, ExecuteCommandRequest, LanguageClient, LanguageClientOptions, State } from 'vscode-languageclient/node';
import { describeError, Logger } from '../../log/logger';
import { LongLivedProcess, startLongLived } from '../../process/childProcess';
import { Setting } from '../../platform/settings';
import { userSettingValue } from '../../platform/vscode/userSettings';
import { BinaryResolution, describeResolution, resolveBinary } from '../../project/binaryResolution';
import { candidateDirs, ProjectRoot, realPathOf, rootOf, rootsFor, underOpenedFolder } from '../../project/projectRoots';
import { EditorExtension, EffectiveEntry, effectiveTable, entryForLanguageId, LanguageOverrides } from '../supervisor/serverTable';
import {
  LanguageWithoutRoot,
  ReloadOutcome,
  RootStatus,
  ServerState,
  Service,
  supervisorReloadAnswer,
  supervisorStatusAnswer,
} from '../supervisor/supervisorAnswers';

const START_SECONDS = 60;

interface SupervisedServer {
  readonly key: string;
  readonly entry: EffectiveEntry;
  readonly root: string;
  readonly binary: string;
  client?: LanguageClient;
  process?: LongLivedProcess;
  state: ServerState;
  detail?: string;
  starting?: Promise<void>;
}

export interface RootPlan {
  readonly entry: EffectiveEntry;
  readonly folder: string;
  readonly root: ProjectRoot;
}

/** Reads the supervisor's settings each time (they can change while the window lives). */
export function supervisorSettings(): { overrides: LanguageOverrides; binDirs: string[]; checkTimeoutSeconds: number } {
  const config = vscode.workspace.getConfiguration();
  return {
    // What runs is the user's choice, never a workspace's (platform/vscode/userSettings.ts).
    overrides: userSettingValue<LanguageOverrides>(Setting.lspServers) ?? {},
    binDirs: userSettingValue<string[]>(Setting.lspBinDirs) ?? [],
    checkTimeoutSeconds: config.get<number>(Setting.lspCheckTimeoutSeconds, 300),
  };
}

function folderPaths(): string[] {
  return (vscode.workspace.workspaceFolders ?? []).filter((folder) => folder.uri.scheme === 'file').map((folder) => folder.uri.fsPath);
}

/** The installed extension that serves this language, if any (then we start nothing). */
export function editorServerOf(entry: EffectiveEntry): (EditorExtension & { active: boolean }) | undefined {
  for (const candidate of entry.editorExtensions) {
    const extension = vscode.extensions.all.find((item) => item.id.toLowerCase() === candidate.id.toLowerCase());
    if (extension) return { ...candidate, id: extension.id, active: extension.isActive };
  }
  return undefined;
}

/**
 * Starts a language server per project root where no editor extension serves the language,
 * its root marker exists and its binary resolves; answers status and reload; stops every
 * server it started on dispose.
 */
export class LanguageServerSupervisor implements vscode.Disposable {
  private readonly servers = new Map<string, SupervisedServer>();
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(private readonly log: Logger) {
    this.subscriptions.push(
      vscode.workspace.onDidOpenTextDocument((document) => {
        void this.ensureFor(document).catch((error: unknown) => this.log.warn('lsp.supervisor', describeError(error)));
      }),
    );
  }

  table(): EffectiveEntry[] {
    return effectiveTable(supervisorSettings().overrides);
  }

  /** Every (language, root) in the workspace folders. */
  plan(): { roots: RootPlan[]; withoutRoot: { entry: EffectiveEntry; folder: string }[] } {
    const table = this.table();
    const roots: RootPlan[] = [];
    const withoutRoot: { entry: EffectiveEntry; folder: string }[] = [];
    const folders = folderPaths();
    for (const folder of folders) {
      const dirs = candidateDirs(folder);
      for (const entry of table) {
        const found = rootsFor(dirs, entry.rootMarkers);
        for (const root of found) roots.push({ entry, folder, root });
        if (found.length === 0 && folders.length > 0) withoutRoot.push({ entry, folder });
      }
    }
    return { roots, withoutRoot };
  }

  resolve(command: string, root: string, folder: string): BinaryResolution {
    return resolveBinary(command, { root, workspaceFolder: folder, settingDirs: supervisorSettings().binDirs, pathVariable: process.env.PATH ?? '' });
  }

  private display(folder: string, file: string): string {
    const relative = path.relative(folder, file);
    return relative === '' ? '.' : relative;
  }

  /** Who serves `plan`'s root: the editor, our server (started or not), or nobody and why. */
  private service(plan: RootPlan): Service {
    const editor = editorServerOf(plan.entry);
    if (editor) return { kind: 'editor', extensionId: editor.id, active: editor.active };
    if (!plan.entry.enabled) return { kind: 'none', why: `turned off by ${Setting.lspServers}.${plan.entry.id}.enabled` };
    const resolution = this.resolve(plan.entry.server.command, plan.root.dir, plan.folder);
    if (!resolution.found) {
      return { kind: 'none', why: `root marker present, but ${describeResolution(resolution, (dir) => this.display(plan.folder, dir))}` };
    }
    const server = this.servers.get(keyOf(plan.entry, plan.root.dir));
    return {
      kind: 'ours',
      commandLine: [plan.entry.server.command, ...plan.entry.server.args].join(' '),
      binary: describeResolution(resolution),
      state: server?.state ?? 'not started',
      pid: server?.state === 'running' || server?.state === 'starting' ? server.process?.pid : undefined,
      detail: server?.detail ?? (server ? undefined : `starts when a ${plan.entry.name} file under this root is opened, or with lsp reload`),
    };
  }

  statusAnswer(): string {
    const { roots, withoutRoot } = this.plan();
    const rootStatus: RootStatus[] = roots.map((plan) => ({
      language: plan.entry.name,
      root: this.display(plan.folder, plan.root.dir),
      markers: plan.root.markers,
      service: this.service(plan),
    }));
    const absent: LanguageWithoutRoot[] = withoutRoot
      .filter(({ entry }) => !roots.some((plan) => plan.entry.id === entry.id))
      .map(({ entry, folder }) => ({
        language: entry.name,
        markers: entry.rootMarkers,
        binary: describeResolution(this.resolve(entry.server.command, folder, folder), (dir) => this.display(folder, dir)),
        servedByEditor: editorServerOf(entry)?.id,
      }));
    const open = new Map<string, number>();
    for (const document of vscode.workspace.textDocuments) {
      if (document.uri.scheme !== 'file') continue;
      open.set(document.languageId, (open.get(document.languageId) ?? 0) + 1);
    }
    return supervisorStatusAnswer(rootStatus, absent, open);
  }

  /** Makes sure the server for this document's language and root runs (when it is ours to run); waits for its start. */
  async ensureFor(document: vscode.TextDocument): Promise<void> {
    if (document.uri.scheme !== 'file') return;
    const entry = entryForLanguageId(this.table(), document.languageId);
    if (!entry || !entry.enabled || editorServerOf(entry)) return;
    const folder = folderPaths().find((dir) => document.uri.fsPath.startsWith(dir + path.sep));
    if (!folder) return;
    const root = rootOf(rootsFor(candidateDirs(folder), entry.rootMarkers), document.uri.fsPath);
    if (!root) return;
    await this.start({ entry, folder, root });
  }

  private async start(plan: RootPlan): Promise<void> {
    const key = keyOf(plan.entry, plan.root.dir);
    const existing = this.servers.get(key);
    if (existing && (existing.state === 'running' || existing.state === 'starting')) return existing.starting;
    const resolution = this.resolve(plan.entry.server.command, plan.root.dir, plan.folder);
    if (!resolution.found) return;
    const server: SupervisedServer = { key, entry: plan.entry, root: plan.root.dir, binary: resolution.path, state: 'starting' };
    this.servers.set(key, server);
    server.starting = this.launch(server, plan.folder);
    return server.starting;
  }

  private async launch(server: SupervisedServer, folder: string): Promise<void> {
    const { entry, root } = server;
    const log = this.log;
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
    const clientOptions: LanguageClientOptions = {
        middleware: {
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
      `${entry.name} (${this.display(folder, root)})`,
      async (): Promise<ChildProcessInfo> => {
        const child = startLongLived(server.binary, entry.server.args, { cwd: root });
        server.process = child;
        log.info('lsp.supervisor', `started ${server.binary} ${entry.server.args.join(' ')} in ${root}, pid ${child.pid}`);
        void child.exited.then((code) => {
          if (server.process !== child) return;
          if (server.state === 'running' || server.state === 'starting') {
            server.state = 'exited';
            server.detail = `exited with code ${code}; lsp reload starts it again`;
          }
          log.info('lsp.supervisor', `${entry.id} server pid ${child.pid} exited (${code})`);
        });
        return { process: child.child, detached: true };
      },
      clientOptions,
    );
    server.client = client;
    shareServerCommands(client);
    try {
      await Promise.race([
        client.start(),
        new Promise((_, reject) => setTimeout(() => reject(new Error(`did not initialize within ${START_SECONDS} s`)), START_SECONDS * 1000)),
      ]);
      if (client.state === State.Running) server.state = 'running';
      server.detail = undefined;
    } catch (error) {
      server.state = 'failed';
      server.detail = `failed to start: ${error instanceof Error ? error.message : String(error)}`;
      log.warn('lsp.supervisor', `${entry.id} at ${root}: ${server.detail}`);
      await this.stopServer(server);
      server.state = 'failed';
    }
  }

  private async stopServer(server: SupervisedServer): Promise<void> {
    const client = server.client;
    server.client = undefined;
    const child = server.process;
    server.state = 'stopped';
    if (client) {
      for (const [command, owner] of claimedCommands) if (owner === client) claimedCommands.delete(command);
      await client.stop(2000).catch(() => undefined);
    }
    if (child) await child.stop();
  }

  /** Our running client for this document, if one of our servers serves it. */
  private clientFor(document: vscode.TextDocument): LanguageClient | undefined {
    for (const server of this.servers.values()) {
      if (server.state !== 'running' || !server.client) continue;
      if (!server.entry.languageIds.includes(document.languageId)) continue;
      if (document.uri.fsPath.startsWith(server.root + path.sep)) return server.client;
    }
    return undefined;
  }

  /**
   * Pulls this document's diagnostics from our server when it offers pull diagnostics (pyright
   * does, and then publishes nothing for a document that is not shown in a tab: the client pulls
   * only for visible documents). Undefined when none of our servers can answer that way.
   */
  async pullDiagnostics(document: vscode.TextDocument, token: vscode.CancellationToken): Promise<vscode.Diagnostic[] | undefined> {
    const client = this.clientFor(document);
    if (!client) return undefined;
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
   * Restarts what serves `languageId` (or everything when undefined) and says what it did; with
   * `file`, only our server of the project root that holds it.
   */
  async reload(languageId: string | undefined, file?: string): Promise<string> {
    const outcomes: ReloadOutcome[] = [];
    const { roots } = this.plan();
    const commands = new Set(await vscode.commands.getCommands(true));
    const table = this.table();
    const wanted = languageId ? table.filter((entry) => entry.languageIds.includes(languageId)) : table;
    for (const entry of wanted) {
      const editor = editorServerOf(entry);
      let entryRoots = roots.filter((plan) => plan.entry.id === entry.id);
      if (file) {
        const holding = rootOf(entryRoots.map((plan) => plan.root), file);
        if (holding) entryRoots = entryRoots.filter((plan) => plan.root === holding);
      }
      if (editor) {
        if (!languageId && entryRoots.length === 0 && !editor.active) continue;
        if (!editor.restartCommand) {
          outcomes.push({ language: entry.name, did: `served by ${editor.id}, which has no restart command; nothing done` });
        } else if (!commands.has(editor.restartCommand)) {
          outcomes.push({ language: entry.name, did: `served by ${editor.id}; its restart command ${editor.restartCommand} is not registered (the extension is not active yet); nothing done` });
        } else {
          await vscode.commands.executeCommand(editor.restartCommand);
          outcomes.push({ language: entry.name, did: `asked ${editor.id} to restart its server (${editor.restartCommand})` });
        }
        continue;
      }
      for (const plan of entryRoots) {
        const root = this.display(plan.folder, plan.root.dir);
        const service = this.service(plan);
        if (service.kind === 'none') {
          outcomes.push({ language: entry.name, root, did: `nothing started: ${service.why}` });
          continue;
        }
        const key = keyOf(entry, plan.root.dir);
        const old = this.servers.get(key);
        const oldPid = old?.process?.pid;
        if (old) {
          await old.starting?.catch(() => undefined);
          await this.stopServer(old);
          this.servers.delete(key);
        }
        await this.start(plan);
        const now = this.servers.get(key);
        const what = old ? `restarted our server (pid ${oldPid} stopped` : `started our server (`;
        outcomes.push({
          language: entry.name,
          root,
          did: now?.state === 'running' ? `${what}${old ? ', ' : ''}pid ${now.process?.pid}, running)` : `${what}${old ? ')' : ''} but it is ${now?.state}: ${now?.detail ?? ''}`.replace('(,', '('),
        });
      }
    }
    return supervisorReloadAnswer(outcomes);
  }

  /** Pids of our running servers (tests check they are stopped). */
  runningPids(): number[] {
    return [...this.servers.values()].flatMap((server) => (server.process?.pid !== undefined && server.state !== 'stopped' ? [server.process.pid] : []));
  }

  async stopAll(): Promise<void> {
    const servers = [...this.servers.values()];
    this.servers.clear();
    await Promise.all(servers.map((server) => this.stopServer(server)));
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    void this.stopAll();
  }
}

function keyOf(entry: EffectiveEntry, root: string): string {
  return `${entry.id}\u0000${root}`;
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
    const commands = (data.registerOptions.commands ?? []).filter((command) => (claimedCommands.get(command) ?? client) === client);
    for (const command of commands) claimedCommands.set(command, client);
    register({ ...data, registerOptions: { ...data.registerOptions, commands } });
  };
}
