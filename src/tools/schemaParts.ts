/**
 * Schema pieces and description lines several tool declarations share, so the same input reads
 * the same in every tool (a file, a line, a symbol; a structural pattern; diagnostics on write).
 */
import { JsonSchema } from '../platform/toolDeclaration';
import { STRUCTURAL_LANGUAGES } from '../structural/grammarManifest';

/** Bounds a model can reach with one number; far past any real file, so only nonsense is refused. */
export const MAX_LINE = 10_000_000;
/** Patterns and rewrites are code fragments: far below this. */
export const MAX_PATTERN_LENGTH = 100_000;
/**
 * The longest wait a call may ask for (debug's and vibe_wait's `timeout_seconds`): an hour, past the
 * debug session's default time to live (30 min) and a worker's default budget (30 min).
 */
export const MAX_WAIT_SECONDS = 3600;

export const fileProperty: JsonSchema = {
  type: 'string',
  minLength: 1,
  description: 'Path of the file, relative to the workspace folder (an absolute path inside the workspace also works).',
};
export const lineProperty: JsonSchema = {
  type: 'integer',
  minimum: 1,
  maximum: MAX_LINE,
  description: '1-based line number of the symbol.',
};
export const symbolProperty: JsonSchema = {
  type: 'string',
  minLength: 1,
  description:
    'The identifier exactly as written on that line (a substring of the line, never a column). ' +
    'If it occurs more than once on the line, add `occurrence` or write `name#2`.',
};
export const occurrenceProperty: JsonSchema = {
  type: 'integer',
  minimum: 1,
  maximum: MAX_LINE,
  description: 'Which occurrence of `symbol` on the line, 1-based, when it occurs more than once.',
};

export const patternDescriptionLines = [
  'The pattern is code in the target language, parsed by the same grammar as the files, so layout, line breaks and ' +
    'comments do not matter and it never matches inside strings or comments. Metavariables: `$NAME` matches any one ' +
    'node, `$$$NAME` a run of zero or more nodes (arguments, statements), `$_` and `$$$` match without binding. ' +
    'A name used twice must match the same code: `if ($X != null) $X.dispose()` finds guards that dispose what they tested. ' +
    'Names are upper case (`$x` is literal, e.g. a PHP variable).',
];

export const pathProperty: JsonSchema = {
  type: 'string',
  minLength: 1,
  description:
    'A file or folder, relative to the workspace folder. Default: the whole workspace. .gitignore, files.exclude and search.exclude are respected.',
};

export const languageProperty: JsonSchema = {
  type: 'string',
  enum: STRUCTURAL_LANGUAGES,
  description: 'Grammar to parse the pattern and the files with. Inferred from the file extension when omitted.',
};

export const diagnosticsOnWriteLines = [
  'After writing, the file is saved and checked by its language server (as if saved in the editor); the answer lists ' +
    'only the problems this write newly introduced — in the file and in files that import it — and how many it fixed. ' +
    'A problem already reported in this conversation is not reported again, even if it moved. "pending" means the ' +
    'server did not answer in time: ask lsp diagnostics later rather than assuming the file is clean.',
  'Edits go through the editor (one undo step; unsaved changes of the user are kept). Paths outside the workspace are refused.',
];
