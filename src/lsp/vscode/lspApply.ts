/**
 * lsp_apply's plans: a change the language server computes (a code action's edit, the formatter's
 * edits, organize imports, TypeScript's import updates for a moved file), captured as text edits of
 * files before anything is written, so it can be shown, checked against the workspace boundary,
 * staged for review or applied in one undoable edit.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { withAbortSignal } from '../../async/abortSignal';
import { TextEdit } from '../../edits/textEdits';
import { isInside } from '../../workspace/containment';
import { containingFolder } from '../../workspace/paths';
import { fileOperationEntries } from '../../workspace/vscode/workspaceEdits';
import { pathOf, workspaceFolderPaths } from '../../workspace/vscode/workspaceFolders';
import { currentText } from '../../workspace/vscode/fileTexts';
import { ActionNotCapturable, ApplyRefused, UnknownCodeAction } from '../applyErrors';
import { ApplyKind } from '../applyAnswers';
import { uncapturedEffect } from '../codeActionCommands';
import { editsForFileRename } from '../fileRename/fileRenameRequest';
import { checkLine } from '../symbolLocation';
import { LspService } from './lspService';
import { outsideWorkspace } from './rename';
import { documentLines } from './target';
import { TYPESCRIPT_LANGUAGES } from './typeScriptProjects';

/** One file of a plan: its text now (undefined: the plan creates it) and the edits on that text. */
export interface PlanFile {
  readonly path: string;
  readonly before: string | undefined;
  readonly edits: readonly TextEdit[];
}

export interface ApplyPlan {
  readonly kind: ApplyKind;
  /** What the change is, for the human and the model: `Quick fix "Add import from "./format"" in src/a.ts`. */
  readonly title: string;
  readonly files: readonly PlanFile[];
  /** Absolute paths: the file moves after its edits are applied. */
  readonly move?: { readonly from: string; readonly to: string };
  /** What the model should know besides the edits (importers not updated, and why). */
  readonly notes: readonly string[];
}

/** Files the TypeScript program is made of when the moved file has no tsconfig/jsconfig. */
const INFERRED_PROJECT_FILES_CAP = 5000;
const SCRIPT_GLOB = '**/*.{ts,tsx,mts,cts,js,jsx,mjs,cjs}';

function throwIfCancelled(token: vscode.CancellationToken): void {
  if (token.isCancellationRequested) throw new vscode.CancellationError();
}

/** The editor's indentation for a document: its visible editor's options, else the settings for its language. */
function formattingOptions(document: vscode.TextDocument): vscode.FormattingOptions {
  const editor = vscode.window.visibleTextEditors.find((item) => item.document === document);
  const config = vscode.workspace.getConfiguration('editor', document);
  const tabSize =
    typeof editor?.options.tabSize === 'number' ? editor.options.tabSize : config.get<number>('tabSize', 4);
  const insertSpaces =
    typeof editor?.options.insertSpaces === 'boolean'
      ? editor.options.insertSpaces
      : config.get<boolean>('insertSpaces', true);
  return { tabSize, insertSpaces };
}

/** The editor's edits of one document as offsets into its current text, in order. */
function offsetEdits(document: vscode.TextDocument, edits: readonly vscode.TextEdit[]): TextEdit[] {
  return edits
    .map((edit, order) => ({
      start: document.offsetAt(edit.range.start),
      end: document.offsetAt(edit.range.end),
      text: edit.newText,
      order,
    }))
    .sort((a, b) => a.start - b.start || a.end - b.end || a.order - b.order)
    .map(({ start, end, text }) => ({ start, end, text }));
}

/** The nearest tsconfig.json or jsconfig.json from the file's folder up to its workspace folder. */
function projectConfigOf(file: string): string | undefined {
  const folder = containingFolder(workspaceFolderPaths(), file);
  let directory = path.dirname(file);
  for (;;) {
    for (const name of ['tsconfig.json', 'jsconfig.json']) {
      const candidate = path.join(directory, name);
      if (fs.existsSync(candidate)) return candidate;
    }
    const parent = path.dirname(directory);
    if (!folder || parent === directory || !isInside(folder.path, parent)) return undefined;
    directory = parent;
  }
}

export class LspApply {
  constructor(
    private readonly lsp: LspService,
    /** dist/fileRenameWorker.js */
    private readonly fileRenameWorker: string,
    private readonly timeoutSeconds: () => number,
  ) {}

  /** A WorkspaceEdit the server proposed, as plan files; refused whole when it reaches outside the workspace. */
  private async filesOf(edit: vscode.WorkspaceEdit, what: string): Promise<PlanFile[]> {
    const operations = fileOperationEntries(edit);
    const created = new Set<string>();
    for (const operation of operations) {
      if (operation.to && !operation.from) created.add(operation.to.toString());
      else
        throw new ApplyRefused(
          `${what} would also ${operation.from && operation.to ? 'rename' : 'delete'} ${pathOf((operation.from ?? operation.to) as vscode.Uri)}, which lsp_apply does not do in a code action (use rename_file to move a file)`,
        );
    }
    const uris = [...edit.entries().map(([uri]) => uri), ...operations.flatMap((operation) => operation.to ?? [])];
    const outside = outsideWorkspace(uris);
    if (outside.length > 0) throw new ApplyRefused(`${what} would change files outside the workspace`, outside);
    const files: PlanFile[] = [];
    for (const [uri, edits] of edit.entries()) {
      if (created.has(uri.toString())) {
        // A created file's edits are insertions into an empty text, in order: one insertion.
        files.push({
          path: uri.fsPath,
          before: undefined,
          edits: [{ start: 0, end: 0, text: edits.map((item) => item.newText).join('') }],
        });
        continue;
      }
      const document = await vscode.workspace.openTextDocument(uri);
      files.push({ path: uri.fsPath, before: document.getText(), edits: offsetEdits(document, edits) });
    }
    for (const uri of operations.flatMap((operation) => operation.to ?? [])) {
      if (!files.some((file) => file.path === uri.fsPath))
        files.push({ path: uri.fsPath, before: undefined, edits: [] });
    }
    return files.filter((file) => file.before === undefined || file.edits.length > 0);
  }

  async codeAction(
    file: string,
    line: number,
    symbol: string | undefined,
    occurrence: number | undefined,
    title: string,
    token: vscode.CancellationToken,
  ): Promise<ApplyPlan> {
    const site = await this.lsp.codeActionSite(file, line, symbol, occurrence, token);
    const offered = await this.lsp.codeActionsAt(site, token);
    const index = offered.findIndex((action) => action.title === title);
    if (index < 0)
      throw new UnknownCodeAction(
        title,
        site.where,
        offered.map((action) => action.title),
      );
    // Asked again with the edits of the first index + 1 actions resolved (refactorings compute theirs lazily).
    const resolved = await this.lsp.features(token).codeActions(site.uri, site.range, undefined, index + 1);
    const action = resolved.find((candidate) => candidate.title === title);
    if (!action)
      throw new UnknownCodeAction(
        title,
        site.where,
        resolved.map((candidate) => candidate.title),
      );
    if (typeof action.command === 'string') {
      throw new ActionNotCapturable(
        title,
        action.command,
        'which is all the action consists of (no edit to show first)',
      );
    }
    const codeAction = action as vscode.CodeAction;
    if (codeAction.disabled)
      throw new ApplyRefused(`"${title}" is disabled at ${site.where}: ${codeAction.disabled.reason}`);
    if (codeAction.command) {
      const why = uncapturedEffect(codeAction.command);
      if (why) throw new ActionNotCapturable(title, codeAction.command.command, why);
    }
    const kind = codeAction.kind?.value.startsWith('quickfix') ? 'Quick fix' : 'Code action';
    const what = `${kind} "${title}" at ${site.where}`;
    if (!codeAction.edit) throw new ApplyRefused(`${what} carries no edit`);
    const files = await this.filesOf(codeAction.edit, what);
    return { kind: 'code_action', title: what, files, notes: [] };
  }

  async format(
    file: string,
    line: number | undefined,
    endLine: number | undefined,
    token: vscode.CancellationToken,
  ): Promise<ApplyPlan> {
    const { uri, document, path: shown } = await this.lsp.document(file, token);
    let range: vscode.Range | undefined;
    let where = shown;
    if (line !== undefined) {
      const last = endLine ?? line;
      checkLine(documentLines(document), line);
      checkLine(documentLines(document), last);
      if (last < line) throw new ApplyRefused(`end_line ${last} is before line ${line}`);
      range = new vscode.Range(line - 1, 0, last - 1, document.lineAt(last - 1).range.end.character);
      where = last === line ? `${shown}:${line}` : `${shown}:${line}-${last}`;
    }
    const edits = await this.lsp.features(token).format(uri, formattingOptions(document), range);
    throwIfCancelled(token);
    const changed = offsetEdits(document, edits ?? []).filter(
      (edit) => document.getText().slice(edit.start, edit.end) !== edit.text,
    );
    return {
      kind: 'format',
      title: `Format ${where}`,
      files: changed.length > 0 ? [{ path: uri.fsPath, before: document.getText(), edits: changed }] : [],
      // Measured in 1.139: the command answers undefined both for "no edit" and for "no formatter".
      notes:
        edits === undefined
          ? [`(No formatter proposed an edit; if none is installed for ${document.languageId} files, nothing can.)`]
          : [],
    };
  }

  async organizeImports(file: string, token: vscode.CancellationToken): Promise<ApplyPlan> {
    const { uri, document, path: shown } = await this.lsp.document(file, token);
    const whole = new vscode.Range(0, 0, document.lineCount, 0);
    const kind = vscode.CodeActionKind.SourceOrganizeImports;
    const actions = await this.lsp.features(token).codeActions(uri, whole, kind.value, 1);
    const action = actions.find(
      (candidate): candidate is vscode.CodeAction =>
        typeof candidate.command !== 'string' && (candidate as vscode.CodeAction).kind?.contains(kind) === true,
    );
    const what = `Organize imports in ${shown}`;
    if (!action)
      throw new ApplyRefused(
        `no language server offers to organize the imports of ${document.languageId} files here (${shown})`,
      );
    if (action.command) {
      const why = uncapturedEffect(action.command);
      if (why) throw new ActionNotCapturable(action.title, action.command.command, why);
    }
    const files = action.edit ? await this.filesOf(action.edit, what) : [];
    return { kind: 'organize_imports', title: what, files, notes: [] };
  }

  /**
   * Moves `from` to `to` (absolute; `to` must not exist). For TypeScript and JavaScript the
   * importers' specifiers and the moved file's own relative imports are updated as the editor's
   * "update imports on file move" computes them, unless the user turned that off.
   */
  async renameFile(from: string, to: string, token: vscode.CancellationToken): Promise<ApplyPlan> {
    const { document, path: shownFrom } = await this.lsp.document(from, token);
    const oldPath = document.uri.fsPath;
    const shownTo = pathOf(vscode.Uri.file(to));
    const title = `Move ${shownFrom} to ${shownTo}`;
    const outside = outsideWorkspace([document.uri, vscode.Uri.file(to)]);
    if (outside.length > 0) throw new ApplyRefused(`${title} would leave the workspace`, outside);
    if (fs.existsSync(to)) throw new ApplyRefused(`${shownTo} already exists; give a new_path that does not`);
    const move = { from: oldPath, to };
    if (!TYPESCRIPT_LANGUAGES.has(document.languageId)) {
      return {
        kind: 'rename_file',
        title,
        files: [],
        move,
        notes: [
          `Importers were not updated: this editor updates imports on a move for TypeScript and JavaScript only, not ${document.languageId}. Look for the old module name with ast_grep and edit the importers.`,
        ],
      };
    }
    const section = document.languageId.startsWith('javascript') ? 'javascript' : 'typescript';
    const setting = vscode.workspace
      .getConfiguration(section, document)
      .get<string>('updateImportsOnFileMove.enabled', 'prompt');
    if (setting === 'never') {
      return {
        kind: 'rename_file',
        title,
        files: [],
        move,
        notes: [`Importers were not updated: the user set ${section}.updateImportsOnFileMove.enabled to "never".`],
      };
    }
    const files = await this.typeScriptImportUpdates(oldPath, to, token);
    const outsideEdits = outsideWorkspace(files.map((file) => vscode.Uri.file(file.path)));
    if (outsideEdits.length > 0)
      throw new ApplyRefused(`${title} would change files outside the workspace`, outsideEdits);
    return { kind: 'rename_file', title, files, move, notes: [] };
  }

  private async typeScriptImportUpdates(
    oldPath: string,
    newPath: string,
    token: vscode.CancellationToken,
  ): Promise<PlanFile[]> {
    const typescript = path.join(
      vscode.env.appRoot,
      'extensions',
      'node_modules',
      'typescript',
      'lib',
      'typescript.js',
    );
    if (!fs.existsSync(typescript)) {
      throw new ApplyRefused(
        `the editor's TypeScript (${typescript}) was not found, so the importers of the file could not be updated; the file was not moved`,
      );
    }
    const configPath = projectConfigOf(oldPath);
    const rootFiles = configPath
      ? []
      : (await vscode.workspace.findFiles(SCRIPT_GLOB, '**/node_modules/**', INFERRED_PROJECT_FILES_CAP, token)).map(
          (uri) => uri.fsPath,
        );
    const overrides: Record<string, string> = {};
    for (const open of vscode.workspace.textDocuments) {
      if (open.isDirty && open.uri.scheme === 'file' && TYPESCRIPT_LANGUAGES.has(open.languageId))
        overrides[open.uri.fsPath] = open.getText();
    }
    throwIfCancelled(token);
    let result;
    try {
      result = await withAbortSignal(token, (signal) =>
        editsForFileRename(
          this.fileRenameWorker,
          { typescript, oldPath, newPath, configPath, rootFiles, overrides },
          this.timeoutSeconds() * 1000,
          signal,
        ),
      );
    } catch (error) {
      throwIfCancelled(token);
      throw new ApplyRefused(error instanceof Error ? error.message : String(error));
    }
    const files: PlanFile[] = [];
    for (const changed of result.files) {
      // The edits are offsets into the text TypeScript read: it must still be the file's text.
      if ((await currentText(changed.path)) !== changed.text) {
        throw new ApplyRefused(
          `${pathOf(vscode.Uri.file(changed.path))} changed while its import updates were computed; try again`,
        );
      }
      files.push({ path: changed.path, before: changed.text, edits: changed.edits });
    }
    return files;
  }
}
