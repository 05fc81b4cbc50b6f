/**
 * The one declaration of every tool: name, tier, the live resource it needs, its input type
 * and schema, and the words a model reads. The manifest (`contributes.languageModelTools`),
 * the Plan agent and our own tool loops are all produced from this list.
 */
import { JsonSchema, ToolDeclaration } from '../platform/toolDeclaration';
import { ToolName } from '../platform/toolNames';

// ---------------------------------------------------------------------------------------
// Input types. Each tool `x_y` has an interface `XYInput`; a unit test checks that its
// required and optional keys are exactly the schema's.

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
}

export interface LspRenameInput {
  file: string;
  line: number;
  symbol: string;
  occurrence?: number;
  new_name: string;
  stage?: boolean;
}

export const RESOLVE_ACTIONS = ['accept', 'discard'] as const;

export type ResolveAction = (typeof RESOLVE_ACTIONS)[number];

export interface ResolveInput {
  edit_id: string;
  action: ResolveAction;
}

export interface AstGrepInput {
  pattern: string;
  path?: string;
  language?: string;
  max_results?: number;
}

export interface AstEditInput {
  pattern: string;
  rewrite: string;
  path?: string;
  language?: string;
}

export interface WriteInput {
  path: string;
  content: string;
}

export interface EditInput {
  path: string;
  old_string: string;
  new_string: string;
  replace_all?: boolean;
}

export interface PatchInput {
  patch: string;
}

export const DEBUG_OPS = [
  'adapters', 'status', 'breakpoints', 'launch', 'attach', 'continue', 'pause', 'step_over', 'step_in', 'step_out',
  'threads', 'stack', 'scopes', 'variables', 'evaluate', 'output', 'terminate',
] as const;

export type DebugOp = (typeof DEBUG_OPS)[number];

export const DEBUG_ADAPTERS = ['debugpy', 'lldb', 'delve', 'dart', 'js'] as const;

export const EVAL_LANGUAGES = ['python', 'javascript'] as const;

export interface EvalInput {
  code: string;
  description: string;
  language?: (typeof EVAL_LANGUAGES)[number];
  reset?: boolean;
}

export interface AskUserOption {
  label: string;
  description?: string;
}

export interface AskUserInput {
  question: string;
  context?: string;
  options?: AskUserOption[];
  allow_free_text?: boolean;
  multi_select?: boolean;
}

export const WORKER_TIERS = ['fast', 'good'] as const;
export const WORKER_ACCESS = ['read', 'write', 'exec'] as const;

export interface VibeSpawnInput {
  brief: string;
  label: string;
  tier?: (typeof WORKER_TIERS)[number];
  access?: (typeof WORKER_ACCESS)[number];
}

export interface VibeSpawnReadonlyInput {
  brief: string;
  label: string;
  tier?: (typeof WORKER_TIERS)[number];
}

export interface VibeSendInput {
  worker_id: string;
  message: string;
}

export interface VibeWaitInput {
  worker_id: string;
  timeout_seconds?: number;
}

export interface VibeKillInput {
  worker_id: string;
}

export interface VibeListInput {}

export const VIBE_WAIT_DEFAULT_SECONDS = 300;

export interface DebugInput {
  op: DebugOp;
  file?: string;
  /** Plain 1-based numbers, or objects with a condition or log message; the engine takes both. */
  lines?: Array<number | { line: number; condition?: string; log_message?: string }>;
  exceptions?: string[];
  program?: string;
  args?: string[];
  adapter?: (typeof DEBUG_ADAPTERS)[number];
  cwd?: string;
  env?: Record<string, string>;
  configuration?: string;
  port?: number;
  pid?: number;
  thread_id?: number;
  frame_id?: number;
  reference?: number;
  expression?: string;
  timeout_seconds?: number;
}

// ---------------------------------------------------------------------------------------
// Shared schema pieces.

/** Bounds a model can reach with one number; far past any real file, so only nonsense is refused. */
const MAX_LINE = 10_000_000;
/** Patterns and rewrites are code fragments: far below this. */
const MAX_PATTERN_LENGTH = 100_000;
/** A worker's label is shown on one line of the approval card and the Workers view. */
export const WORKER_LABEL_MAX = 60;
/**
 * The longest wait a call may ask for (debug's and vibe_wait's `timeout_seconds`): an hour, past the
 * debug session's default time to live (30 min) and a worker's default budget (30 min).
 */
export const MAX_WAIT_SECONDS = 3600;

const fileProperty: JsonSchema = {
  type: 'string',
  minLength: 1,
  description: 'Path of the file, relative to the workspace folder (an absolute path inside the workspace also works).',
};
const lineProperty: JsonSchema = {
  type: 'integer',
  minimum: 1,
  maximum: MAX_LINE,
  description: '1-based line number of the symbol.',
};
const symbolProperty: JsonSchema = {
  type: 'string',
  minLength: 1,
  description:
    'The identifier exactly as written on that line (a substring of the line, never a column). ' +
    'If it occurs more than once on the line, add `occurrence` or write `name#2`.',
};
const occurrenceProperty: JsonSchema = {
  type: 'integer',
  minimum: 1,
  maximum: MAX_LINE,
  description: 'Which occurrence of `symbol` on the line, 1-based, when it occurs more than once.',
};

export const LSP_REFERENCES_CAP = 50;
export const LSP_CALLS_CAP = 50;
export const LSP_WORKSPACE_SYMBOLS_CAP = 100;
export const LSP_DOCUMENT_SYMBOLS_CAP = 200;

export const AST_GREP_DEFAULT_RESULTS = 50;
export const AST_GREP_MAX_RESULTS = 1000;
/** Options on one question card (1–9 have keys): a bound, far above what a human reads on one card. */
export const ASK_USER_MAX_OPTIONS = 50;
/** ast_edit stages at most this many replacements at once; a larger rewrite is refused with a narrower-path hint. */
export const AST_EDIT_MAX_REPLACEMENTS = 2000;

/** The shipped grammar ids; grammars/grammars.json has one entry for each (a unit test checks). */
export const STRUCTURAL_LANGUAGES = [
  'bash', 'c', 'c_sharp', 'cpp', 'css', 'dart', 'go', 'html', 'java', 'javascript', 'json',
  'kotlin', 'lua', 'php', 'python', 'ruby', 'rust', 'swift', 'tsx', 'typescript', 'yaml',
] as const;

const patternDescriptionLines = [
  'The pattern is code in the target language, parsed by the same grammar as the files, so layout, line breaks and ' +
    'comments do not matter and it never matches inside strings or comments. Metavariables: `$NAME` matches any one ' +
    'node, `$$$NAME` a run of zero or more nodes (arguments, statements), `$_` and `$$$` match without binding. ' +
    'A name used twice must match the same code: `if ($X != null) $X.dispose()` finds guards that dispose what they tested. ' +
    'Names are upper case (`$x` is literal, e.g. a PHP variable).',
];

const pathProperty: JsonSchema = {
  type: 'string',
  minLength: 1,
  description:
    'A file or folder, relative to the workspace folder. Default: the whole workspace. .gitignore, files.exclude and search.exclude are respected.',
};

const languageProperty: JsonSchema = {
  type: 'string',
  enum: STRUCTURAL_LANGUAGES,
  description: 'Grammar to parse the pattern and the files with. Inferred from the file extension when omitted.',
};

/** Importers whose diagnostics a write also checks (files that import the written file). */
export const WRITE_IMPORTERS_CAP = 20;
/** New diagnostics listed in a write's answer; the rest are counted. */
export const WRITE_DIAGNOSTICS_CAP = 30;

const writePathProperty: JsonSchema = {
  type: 'string',
  minLength: 1,
  description: 'Path of the file, relative to the workspace folder (an absolute path inside the workspace also works).',
};

const diagnosticsOnWriteLines = [
  'After writing, the file is saved and checked by its language server (as if saved in the editor); the answer lists ' +
    'only the problems this write newly introduced — in the file and in files that import it — and how many it fixed. ' +
    'A problem already reported in this conversation is not reported again, even if it moved. "pending" means the ' +
    'server did not answer in time: ask lsp diagnostics later rather than assuming the file is clean.',
  'Edits go through the editor (one undo step; unsaved changes of the user are kept). Paths outside the workspace are refused.',
];

/** The brief, label and model tier both spawn tools take. */
const WORKER_BRIEF_PROPERTIES: Record<'brief' | 'label' | 'tier', JsonSchema> = {
  brief: { type: 'string', minLength: 1, description: 'The whole task, self-contained: goal, files, constraints, what to report back.' },
  label: { type: 'string', minLength: 1, maxLength: WORKER_LABEL_MAX, description: 'A few words naming the worker for the human.' },
  tier: { type: 'string', enum: WORKER_TIERS, description: 'fast (default) or good.' },
};

export const TOOL_CATALOG: readonly ToolDeclaration[] = [
  {
    name: ToolName.lsp,
    tier: 'read',
    resource: 'lsp',
    displayName: 'Language Server',
    icon: '$(symbol-class)',
    userDescription:
      "Ask the editor's language servers: diagnostics, definitions, references, hover, symbols, code actions, call hierarchy.",
    modelDescription: [
      "Ask the editor's live language servers about code — the same answers as Go to Definition, Find All References, " +
        'hover and the Problems panel, computed on the current (even unsaved) text of the files.',
      'Address a position by `line` (1-based) and `symbol` (the identifier exactly as written on that line; never a column). ' +
        'If the symbol occurs more than once on the line, add `occurrence` (1-based) or write `name#2`.',
      'Actions:',
      '- diagnostics (file): errors and warnings of one file, with whether the check really ran. file "*" runs the project\'s own checker for every project root (tsc, pyright, go vet, cargo check, dart analyze; can take a while).',
      '- definition, type_definition, implementation, references, hover (file, line, symbol).',
      '- callers, callees (file, line, symbol): the call hierarchy of a function or method.',
      `- symbols: with file, the outline of that file (cap ${LSP_DOCUMENT_SYMBOLS_CAP}); with query, a workspace-wide symbol search (cap ${LSP_WORKSPACE_SYMBOLS_CAP}).`,
      '- code_actions (file, line, optional symbol): the quick fixes and refactorings offered there.',
      '- status: for each project root, which language servers serve it (the editor\'s extension, or a server this extension started, with its pid) and, when none does, why.',
      '- reload (optional file): restart the language servers (of that file\'s language), and say what was done.',
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
      },
      required: ['action'],
      additionalProperties: false,
    },
  },
  {
    name: ToolName.lspRename,
    tier: 'write',
    resource: 'lsp',
    displayName: 'Rename Symbol',
    icon: '$(symbol-key)',
    userDescription: 'Rename a symbol across the workspace with the language server, then save the changed files.',
    modelDescription: [
      'Rename a symbol across the whole workspace with the language server (like F2): every reference, import and ' +
        're-export is updated in one undoable edit, and the changed files are saved.',
      'Address the symbol by `file`, `line` (1-based) and `symbol` as written on that line (add `occurrence` or write ' +
        '`name#2` when it occurs more than once on the line).',
      'Refused as a whole when the rename would change files outside the workspace. Returns the changed files with ' +
        'the number of edits in each.',
      'With `stage: true` nothing is written: the rename is staged for review (the user sees a diff) and the result ' +
        'gives an edit_id to accept or discard with resolve. A rename that would also rename, create or delete files cannot be staged.',
      'Use this instead of search-and-replace to rename identifiers.',
    ].join('\n'),
    inputSchema: {
      type: 'object',
      properties: {
        file: fileProperty,
        line: lineProperty,
        symbol: symbolProperty,
        occurrence: occurrenceProperty,
        new_name: { type: 'string', minLength: 1, description: 'The new name, exactly as it should appear in code.' },
        stage: {
          type: 'boolean',
          description:
            'true: write nothing; stage the rename for review and return an edit_id for resolve. ' +
            'Default false: apply it and save the files at once.',
        },
      },
      required: ['file', 'line', 'symbol', 'new_name'],
      additionalProperties: false,
    },
  },
  {
    name: ToolName.astGrep,
    tier: 'read',
    resource: 'structural',
    displayName: 'Structural Search',
    icon: '$(search)',
    userDescription: 'Search code by structure (tree-sitter patterns with $X metavariables), like ast-grep.',
    modelDescription: [
      'Search code by its syntax tree rather than its text: find every call, statement or declaration shaped like a pattern.',
      ...patternDescriptionLines,
      `Returns each match as path:line: text with its captures, and the total (or "more than N" when stopped at max_results, default ${AST_GREP_DEFAULT_RESULTS}).`,
      'Languages: ' + STRUCTURAL_LANGUAGES.join(', ') + '. Use this for code shapes; use lsp references for uses of one symbol.',
    ].join('\n'),
    inputSchema: {
      type: 'object',
      properties: {
        pattern: { type: 'string', minLength: 1, maxLength: MAX_PATTERN_LENGTH, description: 'Code fragment with metavariables, e.g. `foo($A, $$$REST)`.' },
        path: pathProperty,
        language: languageProperty,
        max_results: { type: 'integer', minimum: 1, maximum: AST_GREP_MAX_RESULTS, description: `Stop after this many matches. Default ${AST_GREP_DEFAULT_RESULTS}.` },
      },
      required: ['pattern'],
      additionalProperties: false,
    },
  },
  {
    name: ToolName.astEdit,
    tier: 'write',
    resource: 'structural',
    displayName: 'Structural Rewrite',
    icon: '$(replace-all)',
    userDescription: 'Rewrite code by structure (pattern → template). The change is staged for review, not written.',
    modelDescription: [
      'Rewrite every match of a structural pattern with a template, across files. Nothing is written: the change is ' +
        'staged, the human sees it in a diff view, and you get an edit_id to pass to `resolve` (accept or discard).',
      ...patternDescriptionLines,
      'In `rewrite`, metavariables are replaced by what they matched (`$$$X` keeps its original separators); a multi-line ' +
        'rewrite follows the indentation of the matched code. Nested matches give way to the outermost.',
      `At most ${AST_EDIT_MAX_REPLACEMENTS} replacements per call. Returns "(proposed) N replacements in M files" with each replacement's line.`,
    ].join('\n'),
    inputSchema: {
      type: 'object',
      properties: {
        pattern: { type: 'string', minLength: 1, maxLength: MAX_PATTERN_LENGTH, description: 'Code fragment with metavariables, e.g. `$X.dispose()`.' },
        rewrite: { type: 'string', maxLength: MAX_PATTERN_LENGTH, description: 'Replacement code using the pattern\'s metavariables, e.g. `dispose($X)`.' },
        path: pathProperty,
        language: languageProperty,
      },
      required: ['pattern', 'rewrite'],
      additionalProperties: false,
    },
  },
  {
    name: ToolName.resolve,
    tier: 'write',
    resource: 'staging',
    displayName: 'Resolve Staged Edit',
    icon: '$(check-all)',
    userDescription: 'Accept (write and save) or discard a change that a tool staged for review.',
    modelDescription: [
      'Accept or discard a change staged for review by another tool (ast_edit, lsp_rename with stage: true). A staged ' +
        'change writes nothing until it is accepted; the user sees it as a diff and can accept or discard it there too.',
      '- accept: checks every file of the change against the text captured when it was staged (unsaved edits count). ' +
        'If any file changed or was deleted since, the whole change is refused and nothing is written: re-run the tool ' +
        'that staged it to get a fresh edit_id. Otherwise all files are written in one undoable edit and saved.',
      '- discard: drops the change; nothing is written.',
      'Each change is resolved once: if the user already accepted or discarded it, the answer says so ' +
        '(e.g. "edit_3 was already accepted by the user").',
    ].join('\n'),
    inputSchema: {
      type: 'object',
      properties: {
        edit_id: { type: 'string', minLength: 1, description: 'The id the staging tool returned, e.g. "edit_1".' },
        action: { type: 'string', enum: RESOLVE_ACTIONS, description: 'accept: write the change; discard: drop it.' },
      },
      required: ['edit_id', 'action'],
      additionalProperties: false,
    },
  },
  {
    name: ToolName.write,
    tier: 'write',
    resource: 'workspace',
    displayName: 'Write File',
    icon: '$(new-file)',
    userDescription: 'Create or overwrite a file with the given content; reports the problems the write introduced.',
    modelDescription: [
      'Create a file, or replace the whole content of an existing one. Prefer edit or patch to change part of a file.',
      ...diagnosticsOnWriteLines,
    ].join('\n'),
    inputSchema: {
      type: 'object',
      properties: {
        path: writePathProperty,
        content: { type: 'string', description: 'The complete new content of the file.' },
      },
      required: ['path', 'content'],
      additionalProperties: false,
    },
  },
  {
    name: ToolName.edit,
    tier: 'write',
    resource: 'workspace',
    displayName: 'Edit File',
    icon: '$(edit)',
    userDescription: 'Replace an exact piece of text in a file; reports the problems the edit introduced.',
    modelDescription: [
      'Replace `old_string` by `new_string` in one file. `old_string` must occur exactly once (include enough surrounding ' +
        'lines to make it unique) unless `replace_all` is true. It is matched exactly, whitespace included, against the ' +
        "editor's current text of the file (unsaved changes count).",
      'When it is missing the error shows the closest near-match (e.g. the same text with other indentation); when it occurs ' +
        'several times, the line of each occurrence.',
      ...diagnosticsOnWriteLines,
    ].join('\n'),
    inputSchema: {
      type: 'object',
      properties: {
        path: writePathProperty,
        old_string: { type: 'string', minLength: 1, description: 'The exact text to replace.' },
        new_string: { type: 'string', description: 'The text to put in its place.' },
        replace_all: { type: 'boolean', description: 'Replace every occurrence instead of exactly one. Default false.' },
      },
      required: ['path', 'old_string', 'new_string'],
      additionalProperties: false,
    },
  },
  {
    name: ToolName.patch,
    tier: 'write',
    resource: 'workspace',
    displayName: 'Apply Patch',
    icon: '$(diff)',
    userDescription: 'Apply a multi-file patch (add, update, move, delete); reports the problems it introduced.',
    modelDescription: [
      'Apply a patch in this format (paths relative to the workspace folder):',
      '*** Begin Patch',
      '*** Add File: path/new.ts',
      '+every line of the new file, prefixed with +',
      '*** Update File: path/old.ts',
      '*** Move to: path/renamed.ts   (optional)',
      '@@ a line to find first, e.g. class Foo   (optional)',
      ' context line (prefixed with a space)',
      '-removed line',
      '+added line',
      '*** End of File   (optional: the hunk ends at the end of the file)',
      '*** Delete File: path/unused.ts',
      '*** End Patch',
      'Hunks of a file apply in order, each after the previous; about 3 lines of context before and after each change. ' +
        'Context is matched exactly, then ignoring trailing whitespace, then ignoring indentation. A hunk that does not ' +
        'match fails the whole patch (nothing is written) and the error shows that hunk and the closest line.',
      ...diagnosticsOnWriteLines,
    ].join('\n'),
    inputSchema: {
      type: 'object',
      properties: {
        patch: { type: 'string', minLength: 1, description: 'The whole patch, from "*** Begin Patch" to "*** End Patch".' },
      },
      required: ['patch'],
      additionalProperties: false,
    },
  },
  {
    name: ToolName.debug,
    tier: 'exec',
    resource: 'debug',
    displayName: 'Debug',
    icon: '$(debug-alt)',
    userDescription: 'Drive a debugger: breakpoints, launch, step, stack, variables, evaluate, output.',
    modelDescription: [
      'Drive a real debugger through the editor (the human sees the session in the Debug view). One session per ' +
        'conversation; calls run one at a time. Typical flow: `breakpoints` (file + lines) → `launch` (program) → it ' +
        'answers where the program stopped (file:line and the line text) → `stack` / `scopes` / `variables` / `evaluate` → ' +
        '`step_over` / `step_in` / `step_out` / `continue` (each returns the next stop, or the exit) → `terminate`.',
      'Ops: adapters (which debuggers can start here, and why not), status, breakpoints (file, lines: [4, 9] or [{line, ' +
        'condition?, log_message?}], an empty list clears the file; or exceptions: e.g. ["raised"] / ["uncaught"]), launch (program, ' +
        'args, optional adapter, cwd, env, or configuration = a launch.json name), attach (port, or pid), continue, pause, ' +
        'step_over, step_in, step_out, threads, stack (thread_id?, 30 frames), scopes (frame_id), variables (reference; 50 ' +
        'children, values cut at 400 characters), evaluate (expression, frame_id?), output (stdout/stderr since the last ' +
        'call), terminate.',
      'The adapter follows the program: .py debugpy (the project\'s .venv/venv Python first), .go delve, .js/.ts the ' +
        "editor's JavaScript debugger, a native executable lldb (build it with -g first), .dart dart. A session ends by " +
        'itself after 30 minutes.',
    ].join('\n'),
    inputSchema: {
      type: 'object',
      properties: {
        op: { type: 'string', enum: DEBUG_OPS, description: 'What to do.' },
        file: { type: 'string', description: 'breakpoints: the source file, relative to the workspace folder.' },
        lines: {
          type: 'array',
          description: 'breakpoints: the lines of `file` to stop at (1-based), e.g. [4, 9], or objects for a condition or log message, e.g. [{"line": 4, "condition": "i > 2"}]; an empty list clears the file.',
          items: {
            anyOf: [
              { type: 'integer', minimum: 1, maximum: MAX_LINE, description: '1-based line.' },
              {
                type: 'object',
                properties: {
                  line: { type: 'integer', minimum: 1, maximum: MAX_LINE, description: '1-based line.' },
                  condition: { type: 'string', description: 'Stop only when this expression is true.' },
                  log_message: { type: 'string', description: 'Log this (with {expressions}) instead of stopping.' },
                },
                required: ['line'],
                additionalProperties: false,
              },
            ],
          },
        },
        exceptions: { type: 'array', items: { type: 'string' }, description: 'breakpoints: exception filters of the adapter (debugpy: raised, uncaught, userUnhandled; js: all, uncaught); set before launch they apply from the start; empty clears.' },
        program: { type: 'string', description: 'launch: the program (source file or executable), relative to the workspace folder.' },
        args: { type: 'array', items: { type: 'string' }, description: "launch: the program's arguments." },
        adapter: { type: 'string', enum: DEBUG_ADAPTERS, description: "launch/attach: the debugger, when the program's extension does not say." },
        cwd: { type: 'string', description: "launch: working directory (default: the program's folder); attach: the project folder (debugpy runs from its .venv)." },
        env: { type: 'object', additionalProperties: { type: 'string' }, description: 'launch: extra environment variables, as {"NAME": "value"} (values are strings).' },
        configuration: { type: 'string', description: 'launch: the name of a configuration in .vscode/launch.json, instead of program.' },
        port: { type: 'integer', minimum: 1, description: 'attach: the debug port to connect to.' },
        pid: { type: 'integer', minimum: 1, description: 'attach: the process id, where the adapter supports it (lldb, delve).' },
        thread_id: { type: 'integer', description: 'The thread (default: the one that stopped).' },
        frame_id: { type: 'integer', description: 'scopes/evaluate: the frame (#N in `stack`; default: the top frame).' },
        reference: { type: 'integer', description: 'variables: a reference from `scopes` or from a variable with children.' },
        expression: { type: 'string', description: "evaluate: an expression in the program's language." },
        timeout_seconds: {
          type: 'integer',
          minimum: 1,
          maximum: MAX_WAIT_SECONDS,
          description: `launch/continue/steps/pause: how long to wait for the program to stop (default 60 for launch, 20 otherwise; at most ${MAX_WAIT_SECONDS}, and never past the session's time to live).`,
        },
      },
      required: ['op'],
      additionalProperties: false,
    },
  },
  {
    name: ToolName.eval,
    tier: 'exec',
    resource: 'kernels',
    displayName: 'Run code',
    icon: '$(notebook)',
    userDescription: 'Run a cell of Python or JavaScript in a kernel whose state persists.',
    modelDescription: [
      'Run a cell of Python (default) or JavaScript in a persistent kernel, one per language per conversation: ' +
        'variables, imports and loaded data survive between calls. The last expression is returned as a notebook ' +
        'would; stdout/stderr come in order; an error comes back as a short traceback of your own lines.',
      'Python: display(obj) shows a value; a pandas DataFrame comes back as a table (rows capped), a matplotlib ' +
        'figure as an image. %pip install (the kernel\'s own interpreter; the next import sees the new version), %cd, ' +
        '!cmd, %%bash and %%timeit work. The project\'s .venv/venv Python runs it. JavaScript (Node): top-level ' +
        'await, and let/const can be declared again in a later cell.',
      'tool(name, input) inside a cell (await tool(...) in JavaScript) calls another of these tools and returns its ' +
        'text. A cell is interrupted after 5 minutes (time it waits on a tool() call does not count). Output is capped ' +
        '(at most 10 images, 5 MB, per cell). ' +
        'reset: true starts the kernel fresh.',
    ].join('\n'),
    inputSchema: {
      type: 'object',
      properties: {
        code: { type: 'string', minLength: 1, description: 'The cell to run.' },
        description: { type: 'string', minLength: 1, maxLength: 200, description: 'What the cell does, in 5–10 words: the label the human sees.' },
        language: { type: 'string', enum: EVAL_LANGUAGES, description: 'python (default) or javascript.' },
        reset: { type: 'boolean', description: "Drop this language's kernel and start a clean one first." },
      },
      required: ['code', 'description'],
      additionalProperties: false,
    },
  },
  {
    name: ToolName.askUser,
    tier: 'read',
    resource: 'questions',
    displayName: 'Ask the user',
    icon: '$(question)',
    userDescription: 'Ask you a question in the Agent Questions panel and wait for your answer.',
    modelDescription: [
      'Ask the human a question on a card in the editor\'s Agent Questions panel, and wait for the answer. The only way to ask ' +
        'the human something mid-task; use it when a decision is theirs (a preference, a risk, missing information), not for ' +
        'what you can find out yourself.',
      'Give options (each a short label, optionally a description) for a pick; multi_select lets several be picked; ' +
        'allow_free_text lets the human type an answer (with no options it is always allowed). context says why you ask and what ' +
        'depends on the answer.',
      'The result names the chosen label(s) and any typed text. A skip is an answer: proceed on a stated assumption and do not ' +
        'ask again. An expiry (no answer in time) is an error with the same instruction. With no human attached the call fails at once.',
    ].join('\n'),
    inputSchema: {
      type: 'object',
      properties: {
        question: { type: 'string', minLength: 1, description: 'The question, one or two sentences.' },
        context: { type: 'string', description: 'Why you ask and what depends on the answer.' },
        options: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              label: { type: 'string', minLength: 1, description: 'A few words; the result names it back.' },
              description: { type: 'string', description: 'One line on what this choice means.' },
            },
            required: ['label'],
            additionalProperties: false,
          },
          maxItems: ASK_USER_MAX_OPTIONS,
          description: 'Choices to pick from, each an object {label, description?}; the human picks 1–9 by number key.',
        },
        allow_free_text: { type: 'boolean', description: 'Let the human type an answer (besides or instead of picking).' },
        multi_select: { type: 'boolean', description: 'Several options may be picked.' },
      },
      required: ['question'],
      additionalProperties: false,
    },
  },
  {
    name: ToolName.vibeSpawn,
    // What it may grant: a worker with exec access runs programs. With access read it needs (and asks) nothing more.
    tier: 'exec',
    resource: 'vibe',
    displayName: 'Spawn a worker',
    icon: '$(rocket)',
    userDescription: 'Start a background worker agent on a brief, with the access you allow.',
    modelDescription: [
      'Start a background worker: an agent loop of its own on a language model, with the editor\'s tools, working on `brief` ' +
        'while you go on. Returns at once with a worker id; vibe_wait gets its result, vibe_send steers it, vibe_kill stops it.',
      'tier: fast (default) for mechanical work with a clear spec; good for design, judgement, or reviewing a fast worker\'s output. ' +
        'access: read (default: sees no tool that changes anything), write (file edits), exec (also runs programs). Granting write or ' +
        'exec is asked of the human first, and each write/exec tool call of the worker waits for the human\'s approval too. ' +
        'Write the brief so it stands alone: the worker sees nothing else.',
    ].join('\n'),
    inputSchema: {
      type: 'object',
      properties: {
        ...WORKER_BRIEF_PROPERTIES,
        access: { type: 'string', enum: WORKER_ACCESS, description: 'The most the worker may do: read (default), write or exec.' },
      },
      required: ['brief', 'label'],
      additionalProperties: false,
    },
  },
  {
    name: ToolName.vibeSpawnReadonly,
    tier: 'read',
    resource: 'vibe',
    displayName: 'Spawn a read-only worker',
    icon: '$(rocket)',
    userDescription: 'Start a background worker agent that can only read (research, review).',
    modelDescription: [
      'Start a background worker that can only read: an agent loop of its own on a language model, with the editor\'s read ' +
        'tools (language servers, structural search, questions to the human), working on `brief` while you go on. For research, ' +
        'review and planning. Returns at once with a worker id; vibe_wait gets its result, vibe_send steers it, vibe_kill stops it.',
      'tier: fast (default) for mechanical work with a clear spec; good for design and judgement. Write the brief so it stands alone: ' +
        'the worker sees nothing else.',
    ].join('\n'),
    inputSchema: {
      type: 'object',
      properties: {
        ...WORKER_BRIEF_PROPERTIES,
      },
      required: ['brief', 'label'],
      additionalProperties: false,
    },
  },
  {
    name: ToolName.vibeSend,
    tier: 'read',
    resource: 'vibe',
    displayName: 'Message a worker',
    icon: '$(comment)',
    userDescription: 'Add to a worker\'s brief.',
    modelDescription: 'Add a message to a worker\'s brief. A running worker reads it at its next tool boundary (its transcript notes the delivery); a finished worker continues from where it ended with the message. Steering a worker that may write or run programs is asked of the human first.',
    inputSchema: {
      type: 'object',
      properties: { worker_id: { type: 'string', minLength: 1, description: 'The id vibe_spawn returned (w1, w2…).' }, message: { type: 'string', minLength: 1, description: 'What to add or change.' } },
      required: ['worker_id', 'message'],
      additionalProperties: false,
    },
  },
  {
    name: ToolName.vibeWait,
    tier: 'read',
    resource: 'vibe',
    displayName: 'Wait for a worker',
    icon: '$(watch)',
    userDescription: 'Wait for a worker to finish and read its result.',
    modelDescription: `Wait until a worker finishes (or timeout_seconds pass, default ${VIBE_WAIT_DEFAULT_SECONDS}) and return its result. A timeout does not stop the worker.`,
    inputSchema: {
      type: 'object',
      properties: { worker_id: { type: 'string', minLength: 1, description: 'The id vibe_spawn returned (w1, w2…).' }, timeout_seconds: { type: 'number', minimum: 0, maximum: MAX_WAIT_SECONDS, description: `How long to wait, default ${VIBE_WAIT_DEFAULT_SECONDS}, at most ${MAX_WAIT_SECONDS}.` } },
      required: ['worker_id'],
      additionalProperties: false,
    },
  },
  {
    name: ToolName.vibeKill,
    tier: 'read',
    resource: 'vibe',
    displayName: 'Stop a worker',
    icon: '$(debug-stop)',
    userDescription: 'Stop a background worker.',
    modelDescription: 'Stop a worker. What it already changed stays; its transcript stays in the Workers view.',
    inputSchema: {
      type: 'object',
      properties: { worker_id: { type: 'string', minLength: 1, description: 'The id vibe_spawn returned (w1, w2…).' } },
      required: ['worker_id'],
      additionalProperties: false,
    },
  },
  {
    name: ToolName.vibeList,
    tier: 'read',
    resource: 'vibe',
    displayName: 'List workers',
    icon: '$(list-unordered)',
    userDescription: 'List the background workers.',
    modelDescription: 'List the workers of this conversation: id, label, tier and model, access, status, elapsed time, and its last result.',
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
  },
];

export function declarationOf(name: ToolName): ToolDeclaration {
  const declaration = TOOL_CATALOG.find((tool) => tool.name === name);
  if (!declaration) throw new Error(`No catalog entry for tool ${name}.`);
  return declaration;
}
