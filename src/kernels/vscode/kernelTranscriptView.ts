/**
 * The human's view of the agent's kernels: a read-only notebook per conversation and language (a
 * notebook type of our own, served by a read-only file system of ours, so the editor allows no
 * edit and reloads it when we say it changed), the Agent Kernels view listing each kernel with its
 * top-level names, and the actions Interrupt, Restart and Export as .ipynb.
 *
 * The file's bytes only name the transcript (and change with it); the serializer builds the cells
 * from the transcript in memory, so images never pass through JSON and base64 on the way.
 */
import * as vscode from 'vscode';
import { WorkspaceWriter } from '../../workspace/vscode/workspaceWriter';
import * as path from 'node:path';
import { EvalLanguage, EVAL_LANGUAGES, KernelPool, KernelVariable, LANGUAGE_NAMES } from '../kernelPool';
import { KernelPart } from '../kernelResult';
import { cellOutcome, partsOf, toIpynb, Transcript, TranscriptCell } from '../transcript';
import { workspaceFolderPaths } from '../../workspace/vscode/workspaceFolders';

export const TRANSCRIPT_SCHEME = 'agent-kernel';
export const TRANSCRIPT_NOTEBOOK_TYPE = 'agent-kernel-transcript';
export const KERNELS_VIEW = 'liveTools.kernels';
export const OPEN_TRANSCRIPT_COMMAND = 'liveTools.openKernelTranscript';
export const INTERRUPT_KERNEL_COMMAND = 'liveTools.interruptKernel';
export const RESTART_KERNEL_COMMAND = 'liveTools.restartKernel';
export const EXPORT_TRANSCRIPT_COMMAND = 'liveTools.exportKernelTranscript';
const HAS_TRANSCRIPTS_KEY = 'liveTools.kernelTranscripts';
/** A notebook reloads at most this often while a cell streams output. */
const RELOAD_EVERY_MS = 250;

/** One kernel, as the commands take it (from the view's row, or the notebook the human has open). */
export interface KernelRef {
  readonly conversation: string;
  readonly language: EvalLanguage;
}

export function transcriptUri(ref: KernelRef): vscode.Uri {
  return vscode.Uri.from({
    scheme: TRANSCRIPT_SCHEME,
    path: `/${encodeURIComponent(ref.conversation)}/${LANGUAGE_NAMES[ref.language]} kernel.agent-kernel`,
  });
}

function refOf(uri: vscode.Uri): KernelRef | undefined {
  if (uri.scheme !== TRANSCRIPT_SCHEME) return undefined;
  const [, conversation, file] = uri.path.split('/');
  const language = EVAL_LANGUAGES.find((candidate) => file === `${LANGUAGE_NAMES[candidate]} kernel.agent-kernel`);
  return conversation !== undefined && language
    ? { conversation: decodeURIComponent(conversation), language }
    : undefined;
}

/** Who the kernel belongs to, in the human's words. */
function ownerLabel(conversation: string): string {
  const worker = /#worker-(.+)$/.exec(conversation)?.[1];
  if (worker) return `worker ${worker}`;
  return conversation === 'window' ? 'outside chat' : 'a chat session';
}

/** The transcript's bytes: which one, and its version (so the editor sees a change). */
function transcriptBytes(transcript: Transcript | undefined, ref: KernelRef): Uint8Array {
  return Buffer.from(JSON.stringify({ ...ref, version: transcript?.version ?? 0 }));
}

/** A read-only file system whose files are the transcripts; a change is announced, and the open notebook reloads. */
class TranscriptFileSystem implements vscode.FileSystemProvider {
  private readonly changes = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changes.event;
  /** Per file, its modification time: strictly increasing, so every version is new to the editor. */
  private readonly stamps = new Map<string, number>();

  constructor(private readonly pool: KernelPool) {}

  changed(uri: vscode.Uri): void {
    const key = uri.toString();
    this.stamps.set(key, Math.max(Date.now(), (this.stamps.get(key) ?? 0) + 1));
    this.changes.fire([{ type: vscode.FileChangeType.Changed, uri }]);
  }

  stat(uri: vscode.Uri): vscode.FileStat {
    const ref = refOf(uri);
    if (!ref) throw vscode.FileSystemError.FileNotFound(uri);
    const size = transcriptBytes(this.pool.transcripts.get(ref.conversation, ref.language), ref).byteLength;
    const mtime = this.stamps.get(uri.toString()) ?? 0;
    return { type: vscode.FileType.File, ctime: 0, mtime, size, permissions: vscode.FilePermission.Readonly };
  }

  readFile(uri: vscode.Uri): Uint8Array {
    const ref = refOf(uri);
    if (!ref) throw vscode.FileSystemError.FileNotFound(uri);
    return transcriptBytes(this.pool.transcripts.get(ref.conversation, ref.language), ref);
  }

  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }

  readDirectory(): [string, vscode.FileType][] {
    return [];
  }

  createDirectory(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  writeFile(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  delete(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  rename(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }
}

/** The transcript as notebook cells: a line saying what each cell was for and how it ended, its code, its outputs. */
class TranscriptSerializer implements vscode.NotebookSerializer {
  constructor(private readonly pool: KernelPool) {}

  deserializeNotebook(content: Uint8Array): vscode.NotebookData {
    let ref: KernelRef | undefined;
    try {
      ref = JSON.parse(Buffer.from(content).toString('utf8')) as KernelRef;
    } catch {
      ref = undefined;
    }
    const transcript = ref && this.pool.transcripts.get(ref.conversation, ref.language);
    if (!ref || !transcript)
      return new vscode.NotebookData([
        markdown('*No cells yet: the agent has not run any here, or its conversation ended.*'),
      ]);
    const cells: vscode.NotebookCellData[] = [];
    if (transcript.droppedCells > 0)
      cells.push(
        markdown(`*${transcript.droppedCells} earlier cells are not kept (the transcript keeps the last 100).*`),
      );
    for (const entry of transcript.entries) {
      if (entry.kind === 'mark') cells.push(markdown(`*${entry.text}*`));
      else cells.push(markdown(cellHeader(entry)), codeCell(entry, transcript.language));
    }
    const data = new vscode.NotebookData(cells);
    data.metadata = { conversation: ref.conversation, language: ref.language };
    return data;
  }

  serializeNotebook(): Uint8Array {
    throw new Error('The kernel transcript is read-only: export it as .ipynb to keep a copy.');
  }
}

function markdown(text: string): vscode.NotebookCellData {
  return new vscode.NotebookCellData(vscode.NotebookCellKind.Markup, text, 'markdown');
}

function cellHeader(cell: TranscriptCell): string {
  const description = cell.description.trim() || '(no description)';
  const dropped =
    cell.imagesDropped > 0 ? ` (${cell.imagesDropped} images not kept: the transcript's image budget)` : '';
  return `**[${cell.order}] ${escapeMarkdown(description)}** — ${cellOutcome(cell)}${dropped}`;
}

function codeCell(cell: TranscriptCell, language: EvalLanguage): vscode.NotebookCellData {
  const data = new vscode.NotebookCellData(vscode.NotebookCellKind.Code, cell.code, language);
  data.outputs = partsOf(cell).map(outputOf);
  data.executionSummary = {
    executionOrder: cell.order,
    ...(cell.status === 'running' ? {} : { success: cell.status === 'ok' }),
    ...(cell.seconds === undefined
      ? {}
      : { timing: { startTime: cell.startedAt, endTime: cell.startedAt + cell.seconds * 1000 } }),
  };
  return data;
}

function outputOf(part: KernelPart): vscode.NotebookCellOutput {
  switch (part.kind) {
    case 'text':
      return new vscode.NotebookCellOutput([
        part.stream === 'stderr'
          ? vscode.NotebookCellOutputItem.stderr(part.text)
          : vscode.NotebookCellOutputItem.stdout(part.text),
      ]);
    case 'result':
      return new vscode.NotebookCellOutput([vscode.NotebookCellOutputItem.text(part.text, 'text/plain')]);
    case 'image':
      return new vscode.NotebookCellOutput([new vscode.NotebookCellOutputItem(part.data, part.mime)]);
    case 'error':
      return new vscode.NotebookCellOutput([vscode.NotebookCellOutputItem.stderr(part.text)]);
  }
}

function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_[\]<>#|]/g, '\\$&').replace(/\s+/g, ' ');
}

type KernelNode =
  | { readonly kind: 'kernel'; readonly ref: KernelRef }
  | { readonly kind: 'variable'; readonly variable: KernelVariable; readonly ref: KernelRef };

/** The Agent Kernels view: each kernel (running or not), its names as of its last cell. */
class KernelsTree implements vscode.TreeDataProvider<KernelNode> {
  private readonly changes = new vscode.EventEmitter<KernelNode | undefined>();
  readonly onDidChangeTreeData = this.changes.event;
  /** The names each kernel had after its last cell (refreshed while the view is visible). */
  readonly variables = new Map<string, KernelVariable[] | 'unavailable'>();

  constructor(private readonly pool: KernelPool) {}

  refresh(): void {
    this.changes.fire(undefined);
  }

  getChildren(node?: KernelNode): KernelNode[] {
    if (!node)
      return this.pool.transcripts.all().map((transcript) => ({
        kind: 'kernel' as const,
        ref: { conversation: transcript.conversation, language: transcript.language },
      }));
    if (node.kind !== 'kernel') return [];
    const names = this.variables.get(keyOf(node.ref));
    return Array.isArray(names)
      ? names.map((variable) => ({ kind: 'variable' as const, variable, ref: node.ref }))
      : [];
  }

  getTreeItem(node: KernelNode): vscode.TreeItem {
    if (node.kind === 'variable') {
      const { name, type, repr } = node.variable;
      const item = new vscode.TreeItem(name, vscode.TreeItemCollapsibleState.None);
      item.id = `variable:${keyOf(node.ref)}:${name}`;
      item.description = `${type} = ${repr}`;
      item.tooltip = `${name}: ${type}\n${repr}`;
      item.contextValue = 'agentKernelVariable';
      return item;
    }
    const { conversation, language } = node.ref;
    const live = this.pool
      .live()
      .find((kernel) => kernel.conversation === conversation && kernel.language === language);
    const item = new vscode.TreeItem(
      `${LANGUAGE_NAMES[language]} — ${ownerLabel(conversation)}`,
      vscode.TreeItemCollapsibleState.Expanded,
    );
    item.id = `kernel:${keyOf(node.ref)}`;
    const names = this.variables.get(keyOf(node.ref));
    item.description = live
      ? `running (pid ${live.pid})${names === 'unavailable' ? ', names not available' : ''}`
      : 'stopped';
    item.tooltip = live
      ? `${live.languageName} ${live.version ?? ''}: ${live.origin}`
      : "No kernel runs: the agent's next cell starts one.";
    item.iconPath = new vscode.ThemeIcon('notebook');
    item.contextValue = live ? 'agentKernelRunning' : 'agentKernel';
    item.command = { command: OPEN_TRANSCRIPT_COMMAND, title: 'Open Transcript', arguments: [node.ref] };
    return item;
  }
}

function keyOf(ref: KernelRef): string {
  return `${ref.language}\u0000${ref.conversation}`;
}

/** Registers the transcript notebook, the Agent Kernels view and their commands. */
export function registerKernelTranscripts(
  context: vscode.ExtensionContext,
  pool: KernelPool,
  writer: WorkspaceWriter,
): void {
  const files = new TranscriptFileSystem(pool);
  const tree = new KernelsTree(pool);
  // The view, the file system and the notebook type are registered with the first transcript (nothing can show
  // or open one before): activation stays short.
  let view: vscode.TreeView<KernelNode> | undefined;
  const surfaces = (): vscode.TreeView<KernelNode> => {
    if (view) return view;
    const created = vscode.window.createTreeView(KERNELS_VIEW, { treeDataProvider: tree });
    view = created;
    context.subscriptions.push(
      created,
      vscode.workspace.registerFileSystemProvider(TRANSCRIPT_SCHEME, files, {
        isCaseSensitive: true,
        isReadonly: true,
      }),
      vscode.workspace.registerNotebookSerializer(TRANSCRIPT_NOTEBOOK_TYPE, new TranscriptSerializer(pool), {
        transientOutputs: false,
      }),
      created.onDidChangeVisibility(() => {
        if (created.visible) for (const transcript of pool.transcripts.all()) void refreshVariables(transcript);
      }),
    );
    return created;
  };
  const pending = new Map<string, NodeJS.Timeout>();
  let controller: vscode.NotebookController | undefined;
  /** Whether the view is offered (set only when it changes: a streaming cell changes the transcript often). */
  let shown = false;

  /** Lists the kernel's names now (a cell of our own); only while someone looks at the view. */
  const refreshVariables = async (ref: KernelRef): Promise<void> => {
    if (!view?.visible) return;
    const names = await pool.variables(ref.conversation, ref.language).catch(() => undefined);
    tree.variables.set(keyOf(ref), names ?? 'unavailable');
    tree.refresh();
  };

  // From the view's row (its node), a caller's own reference, or the transcript open in the editor.
  const refOrActive = (given: unknown): KernelRef | undefined => {
    if (isRef(given)) return given;
    const node = given as { ref?: unknown } | undefined;
    if (isRef(node?.ref)) return node.ref;
    const uri = vscode.window.activeNotebookEditor?.notebook.uri;
    return uri ? refOf(uri) : undefined;
  };

  context.subscriptions.push(
    { dispose: () => controller?.dispose() },
    { dispose: () => pending.forEach((timer) => clearTimeout(timer)) },
    new vscode.Disposable(
      pool.transcripts.onDidChange((conversation, language) => {
        surfaces();
        const ref = { conversation, language };
        const key = keyOf(ref);
        const transcript = pool.transcripts.get(conversation, language);
        const any = pool.transcripts.all().length > 0;
        if (any !== shown) {
          shown = any;
          void vscode.commands.executeCommand('setContext', HAS_TRANSCRIPTS_KEY, any);
        }
        if (!pending.has(key))
          pending.set(
            key,
            setTimeout(() => {
              pending.delete(key);
              files.changed(transcriptUri(ref));
              tree.refresh();
            }, RELOAD_EVERY_MS),
          );
        const last = transcript?.entries[transcript.entries.length - 1];
        if (last?.kind === 'cell' && last.status !== 'running') void refreshVariables(ref);
      }).dispose,
    ),
    vscode.commands.registerCommand(OPEN_TRANSCRIPT_COMMAND, async (given?: unknown) => {
      const ref = refOrActive(given) ?? (await pickKernel(pool));
      if (!ref) return undefined;
      surfaces();
      controller ??= transcriptController();
      const notebook = await vscode.workspace.openNotebookDocument(transcriptUri(ref));
      controller.updateNotebookAffinity(notebook, vscode.NotebookControllerAffinity.Preferred);
      const editor = await vscode.window.showNotebookDocument(notebook, { preview: false });
      // The latest cells are what the human opened it for.
      const last = notebook.cellCount - 1;
      if (last >= 0)
        editor.revealRange(new vscode.NotebookRange(last, last + 1), vscode.NotebookEditorRevealType.AtTop);
      return notebook.uri;
    }),
    vscode.commands.registerCommand(INTERRUPT_KERNEL_COMMAND, (given?: unknown) => {
      const ref = refOrActive(given);
      if (!ref) return false;
      const interrupted = pool.interrupt(ref.conversation, ref.language);
      if (!interrupted)
        void vscode.window.showInformationMessage(`No cell of this ${LANGUAGE_NAMES[ref.language]} kernel is running.`);
      return interrupted;
    }),
    vscode.commands.registerCommand(RESTART_KERNEL_COMMAND, async (given?: unknown) => {
      const ref = refOrActive(given);
      if (!ref) return false;
      await pool.stop(ref.conversation, ref.language, 'restarted');
      tree.variables.delete(keyOf(ref));
      tree.refresh();
      return true;
    }),
    // Returns where it wrote, so a caller (and the tests) can read it; `target` skips the dialog.
    vscode.commands.registerCommand(EXPORT_TRANSCRIPT_COMMAND, async (given?: unknown, target?: vscode.Uri) => {
      const ref = refOrActive(given);
      const transcript = ref && pool.transcripts.get(ref.conversation, ref.language);
      if (!ref || !transcript) {
        void vscode.window.showInformationMessage('No kernel transcript to export: open one first.');
        return undefined;
      }
      const folder = workspaceFolderPaths()[0]?.path;
      const destination =
        target ??
        (await vscode.window.showSaveDialog({
          title: 'Export the kernel transcript as a Jupyter notebook',
          defaultUri: folder ? vscode.Uri.file(path.join(folder, `agent-${ref.language}-kernel.ipynb`)) : undefined,
          filters: { 'Jupyter notebook': ['ipynb'] },
        }));
      if (!destination) return undefined;
      await writer.writeForUser(destination.fsPath, toIpynb(transcript));
      return destination;
    }),
  );
}

/**
 * The transcript's controller: it runs nothing (the agent's cells run through eval), but without one
 * the editor would ask the human to pick a kernel for the transcript.
 */
function transcriptController(): vscode.NotebookController {
  const controller = vscode.notebooks.createNotebookController(
    'agent-kernel-transcript-viewer',
    TRANSCRIPT_NOTEBOOK_TYPE,
    "Agent's kernel (read-only)",
    () => {
      void vscode.window.showInformationMessage(
        'This transcript shows the cells the agent ran; it runs nothing itself. Use Interrupt or Restart in its toolbar.',
      );
    },
  );
  controller.supportedLanguages = ['python', 'javascript'];
  controller.description = 'The cells the agent ran, as they ran';
  return controller;
}

async function pickKernel(pool: KernelPool): Promise<KernelRef | undefined> {
  const transcripts = pool.transcripts.all();
  if (transcripts.length === 0) {
    void vscode.window.showInformationMessage('The agent has run no cells yet.');
    return undefined;
  }
  if (transcripts.length === 1) return transcripts[0];
  const picked = await vscode.window.showQuickPick(
    transcripts.map((transcript) => ({
      label: `$(notebook) ${LANGUAGE_NAMES[transcript.language]} — ${ownerLabel(transcript.conversation)}`,
      ref: { conversation: transcript.conversation, language: transcript.language },
    })),
    { title: 'Open the transcript of an agent kernel' },
  );
  return picked?.ref;
}

function isRef(value: unknown): value is KernelRef {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as { conversation?: unknown; language?: unknown };
  return typeof candidate.conversation === 'string' && EVAL_LANGUAGES.includes(candidate.language as EvalLanguage);
}
