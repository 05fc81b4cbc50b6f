/** The lsp tool's input and declaration: read-only questions to the editor's language servers. */
import { ToolDeclaration } from '../../platform/toolDeclaration';
import { ToolName } from '../../platform/toolNames';
import { LSP_DOCUMENT_SYMBOLS_CAP, LSP_REFERENCES_CAP, LSP_WORKSPACE_SYMBOLS_CAP } from '../../lsp/lspCaps';
import { CHANGED_FILES_CAP } from '../../writes/diskChangeLog';
import { fileProperty, lineProperty, occurrenceProperty, symbolProperty } from '../schemaParts';

export const LSP_ACTIONS = [
  'diagnostics',
  'definition',
  'type_definition',
  'implementation',
  'references',
  'hover',
  'symbols',
  'code_actions',
  'callers',
  'callees',
  'supertypes',
  'subtypes',
  'status',
  'reload',
] as const;

export type LspAction = (typeof LSP_ACTIONS)[number];

export interface LspInput {
  action: LspAction;
  file?: string;
  line?: number;
  symbol?: string;
  occurrence?: number;
  query?: string;
  files?: string[];
  changed_on_disk?: boolean;
  baseline?: boolean;
}

export const lspDeclaration: ToolDeclaration = {
  name: ToolName.lsp,
  tier: 'read',
  resource: 'lsp',
  displayName: 'Language Server',
  icon: '$(symbol-class)',
  userDescription:
    "Ask the editor's language servers: diagnostics, definitions, references, hover, symbols, code actions, call and type hierarchy.",
  modelDescription: [
    "Ask the editor's live language servers about code — the same answers as Go to Definition, Find All References, " +
      'hover and the Problems panel, computed on the current (even unsaved) text of the files.',
    'Address a position by `line` (1-based) and `symbol` (the identifier exactly as written on that line; never a column). ' +
      'If the symbol occurs more than once on the line, add `occurrence` (1-based) or write `name#2`.',
    'Actions:',
    '- diagnostics (file): errors and warnings of one file, with whether the check really ran. file "*" runs the project\'s own checker for every project root (tsc, pyright, go vet, cargo check, dart analyze; can take a while).',
    `- diagnostics (files, or changed_on_disk: true): after you edited files with other tools (your own Edit/Write, a shell), what changed since you last saw their diagnostics — new problems with their line, how many were fixed, files importing them that broke, what is still pending; the text on disk now is checked. changed_on_disk takes the files changed on disk since your last such call (at most ${CHANGED_FILES_CAP} checked). Before editing, files with baseline: true notes what they have now (a file you never looked at is otherwise listed whole).`,
    '- definition, type_definition, implementation, references, hover (file, line, symbol).',
    '- callers, callees (file, line, symbol): the call hierarchy of a function or method.',
    `- supertypes, subtypes (file, line, symbol): the direct base types or derived types of a class or interface (capped like callers), where the language server has a type hierarchy.`,
    `- symbols: with file, the outline of that file (cap ${LSP_DOCUMENT_SYMBOLS_CAP}); with query, a workspace-wide symbol search (cap ${LSP_WORKSPACE_SYMBOLS_CAP}).`,
    '- code_actions (file, line, optional symbol): the quick fixes and refactorings offered there.',
    "- status: for each project root, which language servers serve it (the editor's extension, or a server this extension started, with its pid) and, when none does, why.",
    "- reload (optional file): restart the language servers (of that file's language), and say what was done.",
    `Results give workspace-relative paths, 1-based lines and each line's text so you can address it again. ` +
      `Lists are capped (references, callers and callees at ${LSP_REFERENCES_CAP}) and say how many were left out.`,
    'Prefer this to text search for finding where a symbol is defined or used: it understands scopes, imports and overloads.',
  ].join('\n'),
  inputSchema: {
    type: 'object',
    properties: {
      action: { type: 'string', enum: LSP_ACTIONS, description: 'What to ask.' },
      file: {
        ...fileProperty,
        description: `${fileProperty.description} Needed by every action except symbols with query, status and reload (where it picks the language to restart).`,
      },
      line: lineProperty,
      symbol: symbolProperty,
      occurrence: occurrenceProperty,
      query: {
        type: 'string',
        minLength: 1,
        description: 'For symbols: the name to search for across the workspace, or to filter the outline of `file`.',
      },
      files: {
        type: 'array',
        items: fileProperty,
        minItems: 1,
        maxItems: CHANGED_FILES_CAP,
        description:
          "For diagnostics: files edited elsewhere (by your own tools, on disk); answers what changed in their diagnostics (and their importers') since you last saw them.",
      },
      changed_on_disk: {
        type: 'boolean',
        description: 'For diagnostics: check the files changed on disk since your last call with changed_on_disk.',
      },
      baseline: {
        type: 'boolean',
        description:
          'For diagnostics with files, before you edit them: only note what they have now, so the next call reports what your edit changed.',
      },
    },
    required: ['action'],
    additionalProperties: false,
  },
};
