import * as vscode from 'vscode';
import {
  callsAnswer,
  codeActionsAnswer,
  diagnosticsAnswer,
  documentSymbolsAnswer,
  hoverAnswer,
  locationsAnswer,
  typesAnswer,
  withIndexingNote,
  withProjectsNote,
  workspaceSymbolsAnswer,
} from '../../lsp/answers';
import { LspService } from '../../lsp/vscode/lspService';
import { Target } from '../../lsp/vscode/target';
import { projectCheck } from '../../lsp/vscode/projectCheck';
import { LspAction, lspDeclaration, LspInput } from './declaration';
import { InputError } from '../../platform/inputValidation';
import { LiveTool } from '../liveTool';
import { Approver } from '../../platform/vscode/approver';
import { checkerGate } from './checkerApproval';
import { WriteService } from '../../writes/vscode/writeService';

type PositionArgument = 'file' | 'line' | 'symbol';

/** What each action needs; a navigation action without `symbol` is an error, never a first-column guess. */
const needs: Record<LspAction, readonly PositionArgument[]> = {
  diagnostics: ['file'],
  definition: ['file', 'line', 'symbol'],
  type_definition: ['file', 'line', 'symbol'],
  implementation: ['file', 'line', 'symbol'],
  references: ['file', 'line', 'symbol'],
  hover: ['file', 'line', 'symbol'],
  callers: ['file', 'line', 'symbol'],
  callees: ['file', 'line', 'symbol'],
  supertypes: ['file', 'line', 'symbol'],
  subtypes: ['file', 'line', 'symbol'],
  code_actions: ['file', 'line'],
  symbols: [],
  status: [],
  reload: [],
};

function requireArguments(input: LspInput): void {
  if (input.action === 'diagnostics') {
    const given = [input.file, input.files, input.changed_on_disk].filter((value) => value !== undefined).length;
    if (given === 1) return;
    throw new InputError(
      [
        given === 0
          ? 'diagnostics needs file, files or changed_on_disk.'
          : 'diagnostics takes one of file, files and changed_on_disk.',
      ],
      'file: every problem of one file; files or changed_on_disk: what changed since you last looked.',
    );
  }
  if (input.files !== undefined || input.changed_on_disk !== undefined || input.baseline !== undefined)
    throw new InputError(['files, changed_on_disk and baseline belong to diagnostics.']);
  const missing = needs[input.action].filter((key) => input[key] === undefined);
  if (missing.length === 0) return;
  const hint = missing.includes('symbol')
    ? 'Give symbol as the identifier exactly as written on that line (positions are line + symbol, never a column).'
    : undefined;
  throw new InputError(
    [`${input.action} needs ${needs[input.action].join(', ')}; missing ${missing.join(', ')}.`],
    hint,
  );
}

/** `approver` and `memory` (workspace state): who lets a project checker run, and where that is remembered. */
export function createLspTool(
  lsp: LspService,
  writes: WriteService,
  approver: Approver,
  memory: vscode.Memento,
): LiveTool<LspInput> {
  const target = (input: LspInput, token: vscode.CancellationToken): Promise<Target> =>
    lsp.target(input.file as string, input.line as number, input.symbol as string, input.occurrence, token);

  return {
    declaration: lspDeclaration,

    invocationMessage(input) {
      const subject = input.symbol ? `"${input.symbol}"` : (input.file ?? input.query ?? '');
      return `lsp ${input.action} ${subject}`.trim();
    },

    async invoke(input, { token, caller }) {
      requireArguments(input);
      switch (input.action) {
        case 'diagnostics': {
          if (input.baseline !== undefined && input.files === undefined)
            throw new InputError(['baseline goes with files: the files you are about to edit.']);
          if (input.changed_on_disk === false)
            throw new InputError(['changed_on_disk: false asks for nothing; give file or files instead.']);
          if (input.changed_on_disk) return writes.changedSinceLastCall(caller.conversation, token);
          if (input.files)
            return writes.sinceLastSeen(
              input.files,
              caller.conversation,
              input.baseline ? 'baseline' : 'compare',
              token,
            );
          if (input.file === '*')
            return projectCheck(lsp.supervisor, lsp.log, checkerGate(approver, memory, caller), token);
          const { path, items, freshness } = await lsp.fileDiagnostics(input.file as string, token);
          // Shown whole: the next "since your last look" compares with this.
          if (freshness.kind === 'verified') writes.registry.look(caller.conversation, path, items);
          return diagnosticsAnswer(path, items, freshness);
        }
        case 'definition':
        case 'type_definition':
        case 'implementation':
        case 'references': {
          const at = await target(input, token);
          return withIndexingNote(
            locationsAnswer(input.action, at.location.symbol, await lsp.locations(input.action, at, token)),
            at.indexed,
          );
        }
        case 'hover': {
          const at = await target(input, token);
          return withIndexingNote(hoverAnswer(at.location.symbol, await lsp.hover(at, token)), at.indexed);
        }
        case 'callers':
        case 'callees': {
          const at = await target(input, token);
          return withIndexingNote(
            callsAnswer(input.action, at.location.symbol, await lsp.calls(input.action, at, token)),
            at.indexed,
          );
        }
        case 'supertypes':
        case 'subtypes': {
          const at = await target(input, token);
          const entries = await lsp.typeHierarchy(input.action, at, token);
          return withIndexingNote(
            typesAnswer(input.action, at.location.symbol, at.document.languageId, entries),
            at.indexed,
          );
        }
        case 'symbols': {
          if (input.file !== undefined) {
            const { path, entries } = await lsp.documentSymbols(input.file, token);
            return documentSymbolsAnswer(path, entries, input.query);
          }
          if (!input.query) {
            throw new InputError(['symbols needs file (the outline of one file) or query (a workspace-wide search).']);
          }
          const { entries, projects } = await lsp.workspaceSymbols(input.query, token);
          return withProjectsNote(workspaceSymbolsAnswer(input.query, entries), projects);
        }
        case 'code_actions': {
          const { where, entries, diagnosticsCurrent, shownInTab } = await lsp.codeActions(
            input.file as string,
            input.line as number,
            input.symbol,
            input.occurrence,
            token,
          );
          return codeActionsAnswer(where, entries, diagnosticsCurrent, shownInTab);
        }
        case 'status':
          return lsp.supervisor.statusAnswer();
        case 'reload': {
          const document = input.file ? (await lsp.document(input.file, token)).document : undefined;
          // With a file: what serves that file (its language, and our server of its project root only).
          const answer = await lsp.supervisor.reload(document?.languageId, document?.uri.fsPath);
          lsp.forgetProjectLoads();
          return answer;
        }
      }
    },
  };
}
