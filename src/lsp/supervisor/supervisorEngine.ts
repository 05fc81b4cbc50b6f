/**
 * The language server supervisor's state machine, without the editor: which (language, root)
 * pairs a workspace holds, who serves each, starting our server for a root once (starting →
 * running | failed; a process that exits → exited), reload, status and stopping everything.
 * The editor's part (settings, installed extensions, commands, the language client) is a host.
 */
import * as path from 'node:path';
import { Logger } from '../../log/logger';
import { Setting } from '../../platform/settings';
import { BinaryResolution, describeResolution, resolveBinary } from '../../project/binaryResolution';
import { candidateDirs, ProjectRoot, rootHolding, rootOf, rootsFor } from '../../project/projectRoots';
import { EditorExtension, EffectiveEntry, entryForLanguageId } from './serverTable';
import {
  LanguageWithoutRoot,
  ReloadOutcome,
  RootStatus,
  ServerState,
  servedLanguagesText,
  Service,
  supervisorReloadAnswer,
  supervisorStatusAnswer,
} from './supervisorAnswers';

export const START_SECONDS = 60;

/** A server process the host spawned (a LongLivedProcess in the extension). */
export interface ServerProcess {
  readonly pid: number | undefined;
  /** Resolves with the exit code (null when killed or never started). */
  readonly exited: Promise<number | null>;
  stop(): Promise<void>;
}

/** What the host needs to make a client for one of our servers. */
export interface ServerLaunch {
  readonly entry: EffectiveEntry;
  /** The project root, absolute: the server's working directory and workspace folder. */
  readonly root: string;
  /** The root as status lines show it (relative to its workspace folder). */
  readonly displayRoot: string;
  /** The resolved executable. */
  readonly binary: string;
  /** The host calls this with each process it spawns for the client. */
  spawned(process: ServerProcess): void;
}

/** A language client of one of our servers. */
export interface ServerClient {
  /** Starts the client and its server; resolves once the server has initialized. */
  start(): Promise<void>;
  /** Whether the client is running (read once `start` resolved). */
  readonly running: boolean;
  /** Stops the client (bounded; never throws). The engine stops the process afterwards. */
  stop(): Promise<void>;
}

export interface SupervisorHost<Client extends ServerClient = ServerClient> {
  /** The workspace folders on disk. */
  folders(): readonly string[];
  /** The server table with the user's overrides (read at each call: settings can change). */
  table(): EffectiveEntry[];
  /** `liveTools.lsp.binDirs` (read at each call). */
  binDirs(): readonly string[];
  /** `liveTools.lsp.projectServers`: whether a server installed in the project (node_modules/.bin, .venv/bin) may be started. */
  projectServers(): boolean;
  /** The PATH string. */
  pathVariable(): string;
  /** The installed extension that serves this entry's language, if any (then we start nothing). */
  editorServer(entry: EffectiveEntry): (EditorExtension & { active: boolean }) | undefined;
  /** The ids of the commands registered in the editor. */
  commands(): Promise<ReadonlySet<string>>;
  executeCommand(command: string): Promise<unknown>;
  /** How many file documents are open, per language id. */
  openDocumentLanguages(): ReadonlyMap<string, number>;
  /** A client for one of our servers, not started yet. */
  client(launch: ServerLaunch): Client;
}

export interface RootPlan {
  readonly entry: EffectiveEntry;
  readonly folder: string;
  readonly root: ProjectRoot;
}

interface SupervisedServer<Client> {
  readonly key: string;
  readonly entry: EffectiveEntry;
  readonly root: string;
  readonly binary: string;
  client?: Client;
  process?: ServerProcess;
  state: ServerState;
  detail?: string;
  starting?: Promise<void>;
}

export class SupervisorEngine<Client extends ServerClient = ServerClient> {
  private readonly servers = new Map<string, SupervisedServer<Client>>();
  private readonly changeListeners = new Set<() => void>();

  /** Told when a server starts, runs, fails, exits or stops. */
  onDidChange(listener: () => void): { dispose(): void } {
    this.changeListeners.add(listener);
    return { dispose: () => this.changeListeners.delete(listener) };
  }

  private changed(): void {
    for (const listener of [...this.changeListeners]) listener();
  }

  constructor(
    private readonly host: SupervisorHost<Client>,
    private readonly log: Logger,
    private readonly startSeconds = START_SECONDS,
  ) {}

  table(): EffectiveEntry[] {
    return this.host.table();
  }

  /** Every (language, root) in the workspace folders, and the languages a folder has no root of. */
  plan(): { roots: RootPlan[]; withoutRoot: { entry: EffectiveEntry; folder: string }[] } {
    const table = this.table();
    const roots: RootPlan[] = [];
    const withoutRoot: { entry: EffectiveEntry; folder: string }[] = [];
    const folders = this.host.folders();
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

  /** Where a checker's (or, with `projectDirs` false, a server's) executable is. */
  resolve(command: string, root: string, folder: string, projectDirs = true): BinaryResolution {
    return resolveBinary(command, {
      root,
      workspaceFolder: folder,
      settingDirs: this.host.binDirs(),
      pathVariable: this.host.pathVariable(),
      projectDirs,
    });
  }

  /**
   * Where a server's executable is. A server installed in the project is the project's own code,
   * started by merely opening a file (a read): only where the user's settings allow it.
   */
  private resolveServer(entry: EffectiveEntry, root: string, folder: string): BinaryResolution {
    return this.resolve(entry.server.command, root, folder, this.host.projectServers());
  }

  /** Why this server is not started: it runs the project's code, and the user's settings do not allow that. */
  private runsProjectCode(entry: EffectiveEntry): string | undefined {
    if (!entry.runsProjectCode || this.host.projectServers()) return undefined;
    return `not started: ${entry.runsProjectCode}, and a server starts when a file is opened (set ${Setting.lspProjectServers} to true in user settings to allow it, or install ${entry.editorExtensions[0]?.id ?? "the language's extension"})`;
  }

  /** Why no server was found, naming a project's own copy that was left alone. */
  private notFound(entry: EffectiveEntry, resolution: BinaryResolution, root: string, folder: string): string {
    const looked = describeResolution(resolution, (dir) => this.display(folder, dir));
    const own = this.host.projectServers() ? undefined : this.resolve(entry.server.command, root, folder, true);
    if (!own?.found) return looked;
    return `${looked}; the project's own ${this.display(folder, own.path)} is not started: it is the project's code, and a server starts when a file is opened (set ${Setting.lspProjectServers} to true in user settings to use it)`;
  }

  private display(folder: string, file: string): string {
    const relative = path.relative(folder, file);
    return relative === '' ? '.' : relative;
  }

  /** Who serves `plan`'s root: the editor, our server (started or not), or nobody and why. */
  private service(plan: RootPlan): Service {
    const editor = this.host.editorServer(plan.entry);
    if (editor) return { kind: 'editor', extensionId: editor.id, active: editor.active };
    if (!plan.entry.enabled)
      return { kind: 'none', why: `turned off by ${Setting.lspServers}.${plan.entry.id}.enabled` };
    const blocked = this.runsProjectCode(plan.entry);
    if (blocked) return { kind: 'none', why: blocked };
    const resolution = this.resolveServer(plan.entry, plan.root.dir, plan.folder);
    if (!resolution.found) {
      return {
        kind: 'none',
        why: `root marker present, but ${this.notFound(plan.entry, resolution, plan.root.dir, plan.folder)}`,
      };
    }
    const server = this.servers.get(keyOf(plan.entry, plan.root.dir));
    return {
      kind: 'ours',
      commandLine: [plan.entry.server.command, ...plan.entry.server.args].join(' '),
      binary: describeResolution(resolution),
      state: server?.state ?? 'not started',
      pid: server?.state === 'running' || server?.state === 'starting' ? server.process?.pid : undefined,
      detail:
        server?.detail ??
        (server ? undefined : `starts when a ${plan.entry.name} file under this root is opened, or with lsp reload`),
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
        binary: describeResolution(this.resolveServer(entry, folder, folder), (dir) => this.display(folder, dir)),
        servedByEditor: this.host.editorServer(entry)?.id,
      }));
    return supervisorStatusAnswer(rootStatus, absent, this.host.openDocumentLanguages());
  }

  /**
   * For tool descriptions: the languages a language server serves in this window now (the editor's
   * extension, or ours running or ready to start on first use), and those none does, with why.
   */
  servedLanguagesLine(): string {
    const { roots, withoutRoot } = this.plan();
    const served = new Map<string, string>();
    const unserved = new Map<string, string>();
    for (const plan of roots) {
      const service = this.service(plan);
      const name = plan.entry.name;
      const by =
        service.kind === 'editor'
          ? `the editor's ${service.extensionId}`
          : service.kind === 'ours' && ['running', 'starting', 'not started'].includes(service.state)
            ? plan.entry.server.command
            : undefined;
      if (by) {
        served.set(name, by);
        unserved.delete(name);
      } else if (!served.has(name) && service.kind !== 'editor') {
        unserved.set(name, service.kind === 'none' ? service.why : `${plan.entry.server.command} ${service.state}`);
      }
    }
    for (const { entry } of withoutRoot) {
      const editor = this.host.editorServer(entry);
      if (editor && !served.has(entry.name)) served.set(entry.name, `the editor's ${editor.id}`);
    }
    return servedLanguagesText(served, unserved);
  }

  /**
   * Why no language server serves this file, when its language is one of the table's and none does
   * now or can: no editor extension serves it, and ours cannot run for it (no project root holds it,
   * turned off, it runs the project's code, not found). Undefined when one serves it or can (ours
   * starts on the file's opening), or when the language is not the table's (then nothing is known).
   */
  whyNotServed(file: string, languageId: string): string | undefined {
    const entry = entryForLanguageId(this.table(), languageId);
    if (!entry || this.host.editorServer(entry) || this.clientFor(file, languageId)) return undefined;
    const place = this.placeOf(entry, file);
    if (!place) return undefined;
    const { folder, root } = place;
    const none = `no ${entry.name} language server`;
    if (!entry.enabled) return `${none}: turned off by ${Setting.lspServers}.${entry.id}.enabled`;
    if (!root) return `${none}: no project root holds it (a folder with ${entry.rootMarkers.join(', ')})`;
    const blocked = this.runsProjectCode(entry);
    if (blocked) return `${none}: ${blocked}`;
    if (!this.resolveServer(entry, root.dir, folder).found)
      return `${none}: \`${entry.server.command}\` not found (lsp action "status" says where it looked; install it or set ${Setting.lspBinDirs})`;
    return undefined;
  }

  /** Makes sure the server for this file's language and root runs (when it is ours to run); waits for its start. */
  async ensureFor(file: string, languageId: string): Promise<void> {
    const entry = entryForLanguageId(this.table(), languageId);
    if (!entry || !entry.enabled || this.host.editorServer(entry)) return;
    const place = this.placeOf(entry, file);
    if (!place?.root) return;
    await this.start({ entry, folder: place.folder, root: place.root });
  }

  /**
   * The workspace folder holding `file` and the entry's project root that holds it there (from the
   * file's own folders: run on every document opened, so no walk of the whole folder).
   */
  private placeOf(entry: EffectiveEntry, file: string): { folder: string; root?: ProjectRoot } | undefined {
    const folder = this.host.folders().find((dir) => file.startsWith(dir + path.sep));
    return folder ? { folder, root: rootHolding(folder, file, entry.rootMarkers) } : undefined;
  }

  private async start(plan: RootPlan): Promise<void> {
    if (this.runsProjectCode(plan.entry)) return;
    const key = keyOf(plan.entry, plan.root.dir);
    const existing = this.servers.get(key);
    if (existing && (existing.state === 'running' || existing.state === 'starting')) return existing.starting;
    const resolution = this.resolveServer(plan.entry, plan.root.dir, plan.folder);
    if (!resolution.found) return;
    const server: SupervisedServer<Client> = {
      key,
      entry: plan.entry,
      root: plan.root.dir,
      binary: resolution.path,
      state: 'starting',
    };
    this.servers.set(key, server);
    this.changed();
    server.starting = this.launch(server, plan.folder);
    return server.starting;
  }

  private async launch(server: SupervisedServer<Client>, folder: string): Promise<void> {
    const { entry, root } = server;
    const log = this.log;
    const client = this.host.client({
      entry,
      root,
      displayRoot: this.display(folder, root),
      binary: server.binary,
      spawned: (child) => {
        server.process = child;
        log.info(
          'lsp.supervisor',
          `started ${server.binary} ${entry.server.args.join(' ')} in ${root}, pid ${child.pid}`,
        );
        void child.exited.then((code) => {
          if (server.process !== child) return;
          if (server.state === 'running' || server.state === 'starting') {
            server.state = 'exited';
            server.detail = `exited with code ${code}; lsp reload starts it again`;
            this.changed();
          }
          log.info('lsp.supervisor', `${entry.id} server pid ${child.pid} exited (${code})`);
        });
      },
    });
    server.client = client;
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        client.start(),
        new Promise((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`did not initialize within ${this.startSeconds} s`)),
            this.startSeconds * 1000,
          );
        }),
      ]);
      if (client.running) server.state = 'running';
      server.detail = undefined;
    } catch (error) {
      server.state = 'failed';
      server.detail = `failed to start: ${error instanceof Error ? error.message : String(error)}`;
      log.warn('lsp.supervisor', `${entry.id} at ${root}: ${server.detail}`);
      await this.stopServer(server);
      server.state = 'failed';
    } finally {
      clearTimeout(timer);
      this.changed();
    }
  }

  private async stopServer(server: SupervisedServer<Client>): Promise<void> {
    const client = server.client;
    server.client = undefined;
    const child = server.process;
    server.state = 'stopped';
    this.changed();
    if (client) await client.stop();
    if (child) await child.stop();
  }

  /** Our running client for this file, if one of our servers serves it. */
  clientFor(file: string, languageId: string): Client | undefined {
    for (const server of this.servers.values()) {
      if (server.state !== 'running' || !server.client) continue;
      if (!server.entry.languageIds.includes(languageId)) continue;
      if (file.startsWith(server.root + path.sep)) return server.client;
    }
    return undefined;
  }

  /**
   * Restarts what serves `languageId` (or everything when undefined) and says what it did; with
   * `file`, only our server of the project root that holds it.
   */
  async reload(languageId: string | undefined, file?: string): Promise<string> {
    const outcomes: ReloadOutcome[] = [];
    const { roots } = this.plan();
    const commands = await this.host.commands();
    const table = this.table();
    const wanted = languageId ? table.filter((entry) => entry.languageIds.includes(languageId)) : table;
    for (const entry of wanted) {
      const editor = this.host.editorServer(entry);
      let entryRoots = roots.filter((plan) => plan.entry.id === entry.id);
      if (file) {
        const holding = rootOf(
          entryRoots.map((plan) => plan.root),
          file,
        );
        if (holding) entryRoots = entryRoots.filter((plan) => plan.root === holding);
      }
      if (editor) {
        if (!languageId && entryRoots.length === 0 && !editor.active) continue;
        if (!editor.restartCommand) {
          outcomes.push({
            language: entry.name,
            did: `served by ${editor.id}, which has no restart command; nothing done`,
          });
        } else if (!commands.has(editor.restartCommand)) {
          outcomes.push({
            language: entry.name,
            did: `served by ${editor.id}; its restart command ${editor.restartCommand} is not registered (the extension is not active yet); nothing done`,
          });
        } else {
          await this.host.executeCommand(editor.restartCommand);
          outcomes.push({
            language: entry.name,
            did: `asked ${editor.id} to restart its server (${editor.restartCommand})`,
          });
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
          did:
            now?.state === 'running'
              ? `${what}${old ? ', ' : ''}pid ${now.process?.pid}, running)`
              : `${what}${old ? ')' : ''} but it is ${now?.state}: ${now?.detail ?? ''}`.replace('(,', '('),
        });
      }
    }
    return supervisorReloadAnswer(outcomes);
  }

  /** Pids of our running servers (tests check they are stopped). */
  runningPids(): number[] {
    return [...this.servers.values()].flatMap((server) =>
      server.process?.pid !== undefined && server.state !== 'stopped' ? [server.process.pid] : [],
    );
  }

  /** Stops the servers whose root is `dir` or inside it. */
  async stopUnder(dir: string): Promise<void> {
    const under = [...this.servers.entries()].filter(
      ([, server]) => server.root === dir || server.root.startsWith(dir + path.sep),
    );
    for (const [key] of under) this.servers.delete(key);
    await Promise.all(under.map(([, server]) => this.stopServer(server)));
    if (under.length > 0) this.changed();
  }

  async stopAll(): Promise<void> {
    const servers = [...this.servers.values()];
    this.servers.clear();
    await Promise.all(servers.map((server) => this.stopServer(server)));
  }
}

function keyOf(entry: EffectiveEntry, root: string): string {
  return `${entry.id}\u0000${root}`;
}
