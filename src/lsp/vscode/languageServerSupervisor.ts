import * as path from 'node:path';
import * as vscode from 'vscode';
import { describeError, Logger } from '../../log/logger';
import { Setting } from '../../platform/settings';
import { userSettingValue } from '../../platform/vscode/userSettings';
import { startLongLived } from '../../process/childProcess';
import { BinaryResolution } from '../../project/binaryResolution';
import {
  EditorExtension,
  EffectiveEntry,
  effectiveTable,
  entryForLanguageId,
  LanguageOverrides,
} from '../supervisor/serverTable';
import type { SupervisedClient } from './supervisedClient';
import { workspaceFolderPaths } from '../../workspace/vscode/workspaceFolders';
import { RootPlan, ServerLaunch, SupervisorEngine, SupervisorHost } from '../supervisor/supervisorEngine';

/** Who serves a document: a language server (the editor's or ours), none and why, or not known (a language not in our table). */
export type DocumentService = { kind: 'served' } | { kind: 'none'; why: string } | { kind: 'unknown' };

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

/**
 * The installed extensions by lower-case id, built once per change of the installed set: every lsp
 * call asks whether an editor extension serves the file's language (measured ~0.7 ms a call when
 * `vscode.extensions.all` was walked each time).
 */
let installed: Map<string, vscode.Extension<unknown>> | undefined;

/** The installed extension that serves this language, if any (then we start nothing). */
export function editorServerOf(entry: EffectiveEntry): (EditorExtension & { active: boolean }) | undefined {
  installed ??= new Map(vscode.extensions.all.map((extension) => [extension.id.toLowerCase(), extension]));
  for (const candidate of entry.editorExtensions) {
    const extension = installed.get(candidate.id.toLowerCase());
    if (extension) return { ...candidate, id: extension.id, active: extension.isActive };
  }
  return undefined;
}

/** dist/languageClient.js (supervisedClient.ts), loaded when the first of our servers starts. */
let clientModule: { createSupervisedClient: typeof import('./supervisedClient').createSupervisedClient } | undefined;
function languageClients(): NonNullable<typeof clientModule> {
  clientModule ??= require(path.join(__dirname, 'languageClient.js')) as NonNullable<typeof clientModule>;
  return clientModule;
}

/** The editor as the supervisor engine's host: settings, extensions, commands, documents, language clients. */
class EditorSupervisorHost implements SupervisorHost<SupervisedClient> {
  /** The table with the user's overrides, until the lsp settings change. */
  private effective: EffectiveEntry[] | undefined;

  constructor(private readonly log: Logger) {}

  /** The lsp settings or the installed extensions changed: read them again at the next call. */
  forget(): void {
    this.effective = undefined;
    installed = undefined;
  }

  /** The workspace folders; within a worker's call in its copy, the copy's (a server is started for its roots there). */
  folders(): string[] {
    return workspaceFolderPaths().map((folder) => folder.path);
  }

  table(): EffectiveEntry[] {
    this.effective ??= effectiveTable(supervisorSettings().overrides);
    return this.effective;
  }

  projectServers(): boolean {
    return userSettingValue<boolean>(Setting.lspProjectServers) === true;
  }

  binDirs(): string[] {
    return supervisorSettings().binDirs;
  }

  pathVariable(): string {
    return process.env.PATH ?? '';
  }

  editorServer(entry: EffectiveEntry): (EditorExtension & { active: boolean }) | undefined {
    return editorServerOf(entry);
  }

  async commands(): Promise<Set<string>> {
    return new Set(await vscode.commands.getCommands(true));
  }

  async executeCommand(command: string): Promise<unknown> {
    return vscode.commands.executeCommand(command);
  }

  openDocumentLanguages(): Map<string, number> {
    const open = new Map<string, number>();
    for (const document of vscode.workspace.textDocuments) {
      if (document.uri.scheme !== 'file') continue;
      open.set(document.languageId, (open.get(document.languageId) ?? 0) + 1);
    }
    return open;
  }

  client(launch: ServerLaunch): SupervisedClient {
    return languageClients().createSupervisedClient(launch, this.log, (binary, args, cwd) => {
      const child = startLongLived(binary, args, { cwd });
      launch.spawned(child);
      return child.child;
    });
  }
}

/**
 * Starts a language server per project root where no editor extension serves the language,
 * its root marker exists and its binary resolves; answers status and reload; stops every
 * server it started on dispose. The state machine is SupervisorEngine; this is its editor side.
 */
export class LanguageServerSupervisor implements vscode.Disposable {
  private readonly engine: SupervisorEngine<SupervisedClient>;
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(private readonly log: Logger) {
    const host = new EditorSupervisorHost(log);
    this.engine = new SupervisorEngine(host, log);
    this.subscriptions.push(
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration('liveTools.lsp')) host.forget();
      }),
      vscode.extensions.onDidChange(() => host.forget()),
      vscode.workspace.onDidOpenTextDocument((document) => {
        void this.ensureFor(document).catch((error: unknown) => this.log.warn('lsp.supervisor', describeError(error)));
      }),
    );
  }

  table(): EffectiveEntry[] {
    return this.engine.table();
  }

  /** Every (language, root) in the workspace folders. */
  plan(): { roots: RootPlan[]; withoutRoot: { entry: EffectiveEntry; folder: string }[] } {
    return this.engine.plan();
  }

  resolve(command: string, root: string, folder: string): BinaryResolution {
    return this.engine.resolve(command, root, folder);
  }

  statusAnswer(): string {
    return this.engine.statusAnswer();
  }

  /** The languages served now, for tool descriptions (see SupervisorEngine.servedLanguagesLine). */
  servedLanguagesLine(): string {
    return this.engine.servedLanguagesLine();
  }

  /** Stops our servers whose root is `dir` or inside it (a worker's copy that is going away). */
  stopUnder(dir: string): Promise<void> {
    return this.engine.stopUnder(dir);
  }

  /** Told when one of our servers starts, runs, fails, exits or stops. */
  onDidChange(listener: () => void): vscode.Disposable {
    return new vscode.Disposable(this.engine.onDidChange(listener).dispose);
  }

  /**
   * Whether a language server serves this document or can (the editor's, or ours: it starts when the
   * file opens); none, and why; or unknown, for a language not in our table.
   */
  serviceOf(document: vscode.TextDocument): DocumentService {
    if (!entryForLanguageId(this.engine.table(), document.languageId)) return { kind: 'unknown' };
    const why =
      document.uri.scheme === 'file' ? this.engine.whyNotServed(document.uri.fsPath, document.languageId) : undefined;
    return why ? { kind: 'none', why } : { kind: 'served' };
  }

  /** Makes sure the server for this document's language and root runs (when it is ours to run); waits for its start. */
  async ensureFor(document: vscode.TextDocument): Promise<void> {
    if (document.uri.scheme !== 'file') return;
    await this.engine.ensureFor(document.uri.fsPath, document.languageId);
  }

  /**
   * Pulls this document's diagnostics from our server when it offers pull diagnostics (pyright
   * does, and then publishes nothing for a document that is not shown in a tab: the client pulls
   * only for visible documents). Undefined when none of our servers can answer that way.
   */
  async pullDiagnostics(
    document: vscode.TextDocument,
    token: vscode.CancellationToken,
  ): Promise<vscode.Diagnostic[] | undefined> {
    return this.engine.clientFor(document.uri.fsPath, document.languageId)?.pullDiagnostics(document, token);
  }

  /**
   * Restarts what serves `languageId` (or everything when undefined) and says what it did; with
   * `file`, only our server of the project root that holds it.
   */
  reload(languageId: string | undefined, file?: string): Promise<string> {
    return this.engine.reload(languageId, file);
  }

  /** Pids of our running servers (tests check they are stopped). */
  runningPids(): number[] {
    return this.engine.runningPids();
  }

  stopAll(): Promise<void> {
    return this.engine.stopAll();
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    void this.stopAll();
  }
}
