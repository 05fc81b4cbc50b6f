import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { workspaceFolderPaths } from '../../workspace/vscode/workspaceFolders';
import { viewedFolders } from '../../workspace/folderView';
import { documentAt } from '../../workspace/vscode/openDocuments';
import { Logger } from '../../log/logger';
import { containingFolder, displayPath, resolveFileArgument, WorkspaceFolderPath } from '../../workspace/paths';
import { AnswerContext } from '../answers';
import { FileText } from '../fileMatcher';
import { listFiles } from '../../workspace/fileWalker';
import { GRAMMARS } from '../grammarManifest';
import { LanguageRegistry } from '../languages';
import { Setting } from '../../platform/settings';
import { userSettingValue } from '../../platform/vscode/userSettings';
import {
  Cancellation,
  MAX_SEARCHED_FILE_LENGTH,
  RewriteRequest,
  RewriteResult,
  SearchRequest,
  SearchCancelled,
  SearchResult,
  StructuralSearch,
} from '../search';
import { SourceCache } from '../sourceCache';
import { ParsePool } from '../parsePool';
import { TrigramFilter } from '../trigramFilter';
import { DEFAULT_MEMORY_BUDGET_MB, EngineMemory, MIN_MEMORY_BUDGET_MB, parsingThreadsFor } from '../engineMemory';

/** The trigram index's file in the workspace storage. */
export const TRIGRAM_INDEX_FILE = 'structural-trigrams.bin';

export interface SearchScope {
  readonly files: string[];
  /** How the scope reads in an answer ("src/", "the workspace"). */
  readonly description: string;
}

/**
 * The structural engine bound to this window: grammars from the extension's dist/grammars,
 * files from the workspace (open editors' unsaved text first), excludes from the settings.
 */
export class StructuralService implements vscode.Disposable {
  readonly registry: LanguageRegistry;
  private readonly search: StructuralSearch;
  private readonly cache = new SourceCache();
  private readonly pool: ParsePool;
  private readonly index: TrigramFilter;
  /** The engine's one memory budget: the threads' measures and the caches' shares (engineMemory.ts). */
  readonly memory: EngineMemory;

  /** `storageDir`: the extension's workspace storage, where the trigram index is kept between windows. */
  constructor(
    extensionPath: string,
    private readonly log: Logger,
    storageDir?: string,
  ) {
    this.registry = new LanguageRegistry({
      grammars: GRAMMARS,
      locateWasm: (entry) => path.join(extensionPath, 'dist', 'grammars', `${entry.id}.wasm`),
      runtimeWasm: path.join(extensionPath, 'dist', 'web-tree-sitter.wasm'),
    });
    // Every search parses on worker threads, one file too: nothing a pattern does can hold up this thread
    // (one per core, at most four; they stop after a minute idle, ten minutes while they hold structural
    // indexes, and a cancelled search terminates them). Files searched are indexed in the background, so
    // the next pattern matches them without parsing.
    const budget = memoryBudgetBytes();
    this.pool = new ParsePool({
      script: path.join(extensionPath, 'dist', 'parseWorker.js'),
      size: parsingThreadsFor(budget, os.availableParallelism()),
      index: true,
    });
    // Files that surely lack a pattern's trigrams are not read: the index is built on its own thread
    // between searches and kept in the workspace storage, so the first search after a reload uses it.
    this.index = new TrigramFilter({
      script: path.join(extensionPath, 'dist', 'indexWorker.js'),
      storageFile: storageDir === undefined ? undefined : path.join(storageDir, TRIGRAM_INDEX_FILE),
      report: (line) => log.info('structural.index', line),
    });
    const index = this.index;
    this.search = new StructuralSearch(this.registry, (file, maxLength) => this.readText(file, maxLength), {
      pool: this.pool,
      cacheMatches: true,
      index: {
        // The index knows the files on disk: one with unsaved text is read (its text is what is searched).
        ruledOut: async (files, required, maxBytes, signal) => {
          // The index is the window's, kept across reloads: a worker's copy (short-lived) is read, not indexed.
          if (viewedFolders()) return new Set<string>();
          const ruledOut = await index.ruledOut(files, required, maxBytes, signal);
          for (const document of vscode.workspace.textDocuments)
            if (document.isDirty && document.uri.scheme === 'file') ruledOut.delete(document.uri.fsPath);
          return ruledOut;
        },
        searchEnded: () => index.searchEnded(),
      },
    });
    const pool = this.pool;
    this.memory = new EngineMemory(budget, {
      threads: () => pool.threadMemory(),
      indexThread: () => index.threadMemory(),
      retireIdleThreads: () => pool.retireIdleThreads(),
      structuralIndexes: pool.structuralIndexes,
      sourceCache: this.cache,
      matchCache: this.search.matchCache,
    });
    this.memory.settle();
    this.watcher = watchFiles(this.registry, (files) => index.changed(files));
    this.configuration = vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration(Setting.structuralMemoryBudget)) this.memory.setBudget(memoryBudgetBytes());
    });
  }

  private readonly configuration: vscode.Disposable;
  private readonly watcher: vscode.Disposable;

  /** After each search: what it read is kept over what comes next, and the caches are held to their shares. */
  private searchEnded(): void {
    this.cache.searchEnded();
    this.memory.settle();
    this.log.info('structural.memory', this.memory.report().replace(/\n/g, ' '));
  }

  dispose(): void {
    this.watcher.dispose();
    this.configuration.dispose();
    this.pool.dispose();
    this.index.dispose();
  }

  display(file: string): string {
    return displayPath(workspaceFolderPaths(), file);
  }

  readonly answerContext: AnswerContext = {
    display: (file) => this.display(file),
    // Naming the file in `path` does not pass the cap: what memory pays for is the user's to raise.
    sizeCapHint: (largest, count) =>
      `The human can raise the cap to ${largest.toLocaleString('en-US')} or more with the user setting ${Setting.structuralMaxFileCharacters} to search ${count === 1 ? 'it' : 'them'}.`,
  };

  /** The size cap of every search (one file named by path too): the setting, else the engine's default. */
  private maxFileLength(): number {
    // A resource bound is the user's, like what runs: a workspace cannot raise it (platform/vscode/userSettings.ts).
    const setting = userSettingValue<number>(Setting.structuralMaxFileCharacters);
    return typeof setting === 'number' && Number.isInteger(setting) && setting > 0 ? setting : MAX_SEARCHED_FILE_LENGTH;
  }

  async scope(
    pathArgument: string | undefined,
    language: string | undefined,
    token: Cancellation,
  ): Promise<SearchScope> {
    const folders = workspaceFolderPaths();
    const starts = pathArgument?.trim()
      ? [resolveFileArgument(folders, pathArgument, exists)]
      : folders.map((folder) => folder.path);
    if (language) this.registry.entry(language);
    const files: string[] = [];
    for (const start of starts) {
      const folder = containingFolder(folders, start) as WorkspaceFolderPath;
      files.push(
        ...(await listFiles(start, {
          root: folder.path,
          excludeGlobs: excludeGlobs(vscode.Uri.file(folder.path)),
          useGitignore: vscode.workspace
            .getConfiguration('search', vscode.Uri.file(folder.path))
            .get<boolean>('useIgnoreFiles', true),
          accept: (file) => this.registry.entryForFile(file) !== undefined,
          token,
          cancelled: () => new SearchCancelled(),
        })),
      );
    }
    const description = pathArgument?.trim() ? displayPath(folders, starts[0]) : 'the workspace';
    return { files, description };
  }

  async run(request: SearchRequest): Promise<SearchResult> {
    const started = performance.now();
    const ruledOutBefore = this.index.ruledOutCount;
    let result: SearchResult;
    try {
      result = await this.search.search({ maxFileLength: this.maxFileLength(), ...request });
    } finally {
      this.searchEnded();
    }
    this.log.info(
      'structural.search',
      `${JSON.stringify(request.pattern)} files=${request.files.length} ruledOut=${this.index.ruledOutCount - ruledOutBefore} parsed=${result.filesParsed} matches=${result.matchCount}` +
        ` in ${(performance.now() - started).toFixed(0)} ms`,
    );
    return result;
  }

  async rewrite(request: RewriteRequest): Promise<RewriteResult> {
    const started = performance.now();
    let result: RewriteResult;
    try {
      result = await this.search.rewrite({ maxFileLength: this.maxFileLength(), ...request });
    } finally {
      this.searchEnded();
    }
    this.log.info(
      'structural.rewrite',
      `${JSON.stringify(request.pattern)} → ${JSON.stringify(request.rewrite)} files=${request.files.length} replacements=${result.replacementCount}` +
        ` in ${(performance.now() - started).toFixed(0)} ms`,
    );
    return result;
  }

  private readText(file: string, maxLength: number): Promise<FileText> {
    // Unsaved text counts; a clean document is read from disk, as staging captures it (the editor's
    // model may differ from the file: it normalizes mixed line breaks, or has not reloaded yet).
    const open = documentAt(file);
    if (open?.isDirty) return Promise.resolve(open.getText());
    return this.cache.read(file, maxLength);
  }
}

/** Files the editor saw change on disk, be created or deleted, in a language with a grammar: handed over in batches. */
const CHANGED_FILES_EVERY_MS = 500;
/** More in one batch than this (a checkout, a build writing sources) are left to the next search's stat. */
const CHANGED_FILES_MAX = 10_000;

function watchFiles(registry: LanguageRegistry, changed: (files: string[]) => void): vscode.Disposable {
  const watcher = vscode.workspace.createFileSystemWatcher('**/*');
  const batch = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  const note = (uri: vscode.Uri): void => {
    if (uri.scheme !== 'file' || !registry.entryForFile(uri.fsPath) || batch.size >= CHANGED_FILES_MAX) return;
    batch.add(uri.fsPath);
    timer ??= setTimeout(() => {
      timer = undefined;
      const files = [...batch];
      batch.clear();
      changed(files);
    }, CHANGED_FILES_EVERY_MS);
  };
  const subscriptions = [watcher, watcher.onDidChange(note), watcher.onDidCreate(note), watcher.onDidDelete(note)];
  return new vscode.Disposable(() => {
    clearTimeout(timer);
    for (const subscription of subscriptions) subscription.dispose();
  });
}

/** The user's budget for the engine's memory (a workspace cannot raise it), in bytes. */
function memoryBudgetBytes(): number {
  const setting = userSettingValue<number>(Setting.structuralMemoryBudget);
  const mb =
    typeof setting === 'number' && Number.isFinite(setting)
      ? Math.max(MIN_MEMORY_BUDGET_MB, setting)
      : DEFAULT_MEMORY_BUDGET_MB;
  return mb * 1024 * 1024;
}

function exists(absolutePath: string): boolean {
  return fs.existsSync(absolutePath);
}

/** files.exclude and search.exclude entries that are on (`true`; `when` clauses are treated as on). */
function excludeGlobs(folder: vscode.Uri): string[] {
  const globs: string[] = [];
  for (const section of ['files.exclude', 'search.exclude']) {
    const table = vscode.workspace.getConfiguration(undefined, folder).get<Record<string, unknown>>(section) ?? {};
    for (const [glob, on] of Object.entries(table)) if (on) globs.push(glob);
  }
  return globs;
}
