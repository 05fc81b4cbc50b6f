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
export function createLspTool(lsp: LspService, approver: Approver, memory: vscode.Memento): LiveTool<LspInput> {
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
          if (input.file === '*')
            return projectCheck(lsp.supervisor, lsp.log, checkerGate(approver, memory, caller), token);
          const { path, items, freshness } = await lsp.fileDiagnostics(input.file as string, token);
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
