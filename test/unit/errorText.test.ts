import * as assert from 'node:assert/strict';
import * as os from 'node:os';
import * as path from 'node:path';
import { DeadlineExceeded } from '../../src/async/deadline';
import { InvalidEdit, OverlappingEdits } from '../../src/edits/textEdits';
import { Kernel, KernelDisposed } from '../../src/kernels/kernel';
import { NoInterpreter } from '../../src/kernels/kernelPool';
import { KernelStartError } from '../../src/kernels/kernelProcess';
import { pythonLaunch } from '../../src/kernels/pythonKernel';
import { InputError } from '../../src/platform/inputValidation';
import { ErrorContext, ModelFacingError } from '../../src/platform/modelFacingError';
import { JsoncSyntaxError } from '../../src/platform/jsonc';
import { ProcessNotStarted } from '../../src/process/childProcess';
import { BreakpointTextNotFound, DebugCancelled, DebugRefusal } from '../../src/debug/debugErrors';
import { RenameRefused } from '../../src/lsp/renameErrors';
import { ActionNotCapturable, ApplyRefused, UnknownCodeAction } from '../../src/lsp/applyErrors';
import {
  AmbiguousSymbol,
  InvalidSymbol,
  LineOutOfRange,
  OccurrenceOutOfRange,
  SymbolNotOnLine,
} from '../../src/lsp/symbolLocation';
import { PatternTooExpensive } from '../../src/structural/matcher';
import { ParsingTimedOut } from '../../src/structural/parsePool';
import { PatternError } from '../../src/structural/pattern';
import {
  AcceptRefused,
  AlreadyResolved,
  FileOperationsNotStaged,
  InvalidStagedChange,
  ResolutionInProgress,
  StagedInOtherConversation,
  StaleStagedEdit,
  UnknownStagedEdit,
} from '../../src/staging/stagingErrors';
import { errorText } from '../../src/tools/errorText';
import { InvalidPath, LinkLeavesWorkspace } from '../../src/workspace/containment';
import {
  AmbiguousFile,
  FileNotFound,
  NoWorkspaceFolder,
  OutsideWorkspace,
  UnreadableFile,
} from '../../src/workspace/paths';
import { HunkNotFound } from '../../src/writes/applyPatch';
import { NothingToEdit, OldStringNotFound, OldStringNotUnique } from '../../src/writes/editMatch';
import { NotYourWorker, UnknownWorker, WorkerNotStarted } from '../../src/vibe/vibeWorkers';
import { PatchSyntaxError } from '../../src/writes/patchParser';
import { StaleCopy, UnsavedChanges, WriteRefused } from '../../src/edits/writerErrors';
import { LostBytes, NotPlannedText, UnwritableText } from '../../src/edits/byteSplice';
import { isGlue, sourceFiles } from './support/sourceTree';

const relative = (absolutePath: string): string => absolutePath.replace(/^\/w\//, '');
const hunk = {
  header: 'class Foo',
  lines: [
    { kind: 'context', text: 'a' },
    { kind: 'remove', text: 'b' },
    { kind: 'add', text: 'c' },
  ],
  endOfFile: false,
  patchLine: 3,
} as const;

/** One row per worded case: the error, the context the tool runner passes, and exactly what the model reads. */
const table: readonly { readonly error: unknown; readonly context?: ErrorContext; readonly text: string }[] = [
  // platform
  { error: new InputError(['file is required.']), text: 'Error: file is required.' },
  {
    error: new InputError(['file is required.', 'line must be a number.'], 'Send {"file": "src/a.ts", "line": 3}.'),
    text: 'Error: file is required. line must be a number. Send {"file": "src/a.ts", "line": 3}.',
  },
  // async
  {
    error: new DeadlineExceeded('the TypeScript server', 30),
    text: 'Error: timed out after 30 s waiting for the TypeScript server. The language server may still be starting or indexing; try again, or check lsp status.',
  },
  // workspace
  {
    error: new NoWorkspaceFolder(),
    text: 'Error: no folder is open in this window, and paths are resolved against the workspace folder. Ask the user to open the project folder.',
  },
  {
    error: new FileNotFound('a.ts', ['/w/a.ts']),
    text: 'Error: file not found: a.ts (looked for /w/a.ts). Use lsp symbols with a query, or list the folder, to find the right path.',
  },
  {
    error: new FileNotFound('a.ts', ['/w/a.ts', '/v/a.ts']),
    context: { file: 'a.ts', similarFiles: ['src/a.ts', 'lib/a.ts'] },
    text: 'Error: file not found: a.ts (looked for /w/a.ts, /v/a.ts). Files with that name: src/a.ts, lib/a.ts.',
  },
  {
    error: new AmbiguousFile('a.ts', ['w/a.ts', 'v/a.ts']),
    text: 'Error: a.ts exists in several workspace folders; name one of: w/a.ts, v/a.ts.',
  },
  {
    error: new OutsideWorkspace('/etc/passwd'),
    text: 'Error: /etc/passwd is outside the workspace; only files inside the workspace folder can be used.',
  },
  {
    error: new LinkLeavesWorkspace('/w/link/a.ts', '/w/link', '/etc'),
    context: { displayPath: relative },
    text:
      'Error: link/a.ts is refused: the symbolic link link points to /etc, outside the workspace. Nothing was read or written. ' +
      'Only files whose real location is inside the workspace folder can be used.',
  },
  {
    error: new LinkLeavesWorkspace('/w/link/a.ts', '/w/link', '/etc'),
    text:
      'Error: /w/link/a.ts is refused: the symbolic link /w/link points to /etc, outside the workspace. Nothing was read or written. ' +
      'Only files whose real location is inside the workspace folder can be used.',
  },
  {
    error: new InvalidPath('a\0b', 'it contains a NUL character'),
    text: 'Error: Invalid path "a\\u0000b": it contains a NUL character. Nothing was read or written.',
  },
  // staging
  {
    error: new UnknownStagedEdit('edit_9', []),
    text: 'Error: there is no staged edit "edit_9" in this window (ids look like "edit_1"). No staged edit is pending.',
  },
  {
    error: new UnknownStagedEdit('edit_9', [{ id: 'edit_2', summary: 'rename "a" → "b"' }]),
    text: 'Error: there is no staged edit "edit_9" in this window (ids look like "edit_1"). Pending staged edits: edit_2 (rename "a" → "b").',
  },
  {
    error: new AlreadyResolved('edit_3', { action: 'accept', by: 'user', at: 0 }),
    text: 'Error: edit_3 was already accepted by the user; its changes are written.',
  },
  {
    error: new AlreadyResolved('edit_3', { action: 'discard', by: 'user', at: 0 }),
    text: 'Error: edit_3 was already discarded by the user; nothing was written. The user chose not to apply it; ask before proposing it again.',
  },
  {
    error: new AlreadyResolved('edit_3', { action: 'discard', by: 'agent', at: 0 }),
    text: 'Error: edit_3 was already discarded by the agent; nothing was written.',
  },
  {
    error: new StaleStagedEdit('edit_4', 'ast_edit', [{ path: '/w/src/a.ts', kind: 'changed' }]),
    context: { displayPath: relative },
    text:
      'Error: edit_4 was not accepted: a file changed since it was staged — src/a.ts (changed). ' +
      'Nothing was written; edit_4 stays pending. Re-run ast_edit on the current text to stage a fresh edit, then discard edit_4.',
  },
  {
    error: new StaleStagedEdit('edit_4', 'lsp_rename', [
      { path: '/w/src/a.ts', kind: 'changed' },
      { path: '/w/src/b.ts', kind: 'missing' },
    ]),
    text:
      'Error: edit_4 was not accepted: 2 files changed since it was staged — /w/src/a.ts (changed), /w/src/b.ts (no longer exists). ' +
      'Nothing was written; edit_4 stays pending. Re-run lsp_rename on the current text to stage a fresh edit, then discard edit_4.',
  },
  {
    error: new StagedInOtherConversation('edit_5', 'chat 2'),
    text: 'Error: edit_5 was staged in another conversation (chat 2); nothing was written. Only that conversation, or the human in its review, can accept or discard it.',
  },
  {
    error: new ResolutionInProgress('edit_6'),
    text: 'Error: edit_6 is being accepted or discarded right now (the user may have just clicked in the diff view); call resolve again in a moment to see the outcome.',
  },
  {
    error: new AcceptRefused('edit_7', 'the editor refused to apply the edit (a file may have changed meanwhile)'),
    text: 'Error: edit_7 was not accepted: the editor refused to apply the edit (a file may have changed meanwhile). Nothing was written; edit_7 stays pending.',
  },
  {
    error: new FileOperationsNotStaged(['rename src/a.ts to src/b.ts', 'delete src/c.ts']),
    text: 'Error: this change cannot be staged: it would also rename src/a.ts to src/b.ts, delete src/c.ts, and only text edits can be staged. Nothing was changed. Run it without stage to apply it directly.',
  },
  {
    error: new InvalidStagedChange('the change has no edits, so there is nothing to stage.'),
    text: 'Error: could not stage the change: the change has no edits, so there is nothing to stage. Nothing was staged or written.',
  },
  // edits
  {
    error: new InvalidEdit({ start: 5, end: 2, text: 'x' }, 'it ends before it starts'),
    text: 'Error: could not stage the change: Edit 5–2 is invalid: it ends before it starts. Nothing was staged or written.',
  },
  {
    error: new OverlappingEdits({ start: 0, end: 4, text: 'x' }, { start: 2, end: 6, text: 'y' }),
    text: 'Error: could not stage the change: Edits 0–4 and 2–6 overlap. Nothing was staged or written.',
  },
  // writes
  {
    error: new OldStringNotFound(),
    text: 'Error: old_string was not found; nothing was written. Nothing similar is in the file. Read the file and copy old_string exactly, whitespace included.',
  },
  {
    error: new OldStringNotFound({
      line: 7,
      text: `    return ${'x'.repeat(200)};  `,
      how: 'differs only in whitespace',
    }),
    context: { file: 'src/a.ts' },
    text:
      'Error: old_string was not found in src/a.ts; nothing was written. ' +
      `Closest: line 7: "return ${'x'.repeat(152)}…" (differs only in whitespace). Read the file and copy old_string exactly, whitespace included.`,
  },
  {
    error: new OldStringNotUnique([3, 9]),
    context: { file: 'src/a.ts' },
    text: 'Error: old_string occurs 2 times in src/a.ts (lines 3, 9); nothing was written. Include more surrounding lines to make it unique, or set replace_all to change every occurrence.',
  },
  {
    error: new NothingToEdit('old_string is empty; to create or overwrite a whole file use write'),
    text: 'Error: old_string is empty; to create or overwrite a whole file use write; nothing was written.',
  },
  {
    error: new PatchSyntaxError(4, 'expected "*** End Patch"', 'oops'),
    text:
      'Error: the patch is not in the expected format: patch line 4: expected "*** End Patch" ("oops"). Nothing was written. ' +
      'Expected "*** Begin Patch", then "*** Add File: p" / "*** Update File: p" / "*** Delete File: p" sections, then "*** End Patch".',
  },
  {
    error: new HunkNotFound('src/a.ts', 1, hunk, 'header'),
    text: 'Error: hunk 2 of src/a.ts does not apply: its @@ line "class Foo" is not in the file after the previous hunk. Nothing was written (no file of the patch). The hunk:\n@@ class Foo\n a\n-b\n+c',
  },
  {
    error: new HunkNotFound('src/a.ts', 0, { ...hunk, header: undefined }, 'lines', { line: 12, text: '  b2' }),
    text: 'Error: hunk 1 of src/a.ts does not apply: its context and removed lines are not in the file (after the previous hunk). Closest line 12: "b2". Nothing was written (no file of the patch). The hunk:\n@@\n a\n-b\n+c',
  },
  {
    error: new WriteRefused(
      'src/a.ts',
      'the file changed while the write was prepared; nothing was written, try again',
    ),
    text: 'Error: src/a.ts: the file changed while the write was prepared; nothing was written, try again.',
  },
  // the one writer
  {
    error: new NotPlannedText('src/a.ts'),
    text: 'Error: src/a.ts changed since this change was planned; nothing was written. Read it again and redo the change.',
  },
  {
    error: new LostBytes('src/a.py', 3, 'utf8'),
    text: 'Error: src/a.py: the change at line 3 replaces bytes that are not valid utf8 (shown as \uFFFD), which would be lost; nothing was written. Leave those characters out of the change, or ask the user to reopen the file with its real encoding.',
  },
  {
    error: new UnwritableText('src/a.py', '€', 'iso88591'),
    text: 'Error: src/a.py is iso88591, which cannot hold "€" (U+20AC); nothing was written. Write the text without it (an escape the language allows, say).',
  },
  {
    error: new StaleCopy('src/a.ts', '@@ line 2\n-b\n+B'),
    text: 'Error: src/a.ts was changed by someone else since you last wrote or saw it, and this write replaces the whole file from your older copy, which would undo their change; nothing was written. What changed:\n@@ line 2\n-b\n+B\nRead the file again and write it with their change kept (or use edit for your part only).',
  },
  {
    error: new UnsavedChanges('src/a.ts', '@@ line 3\n+typed'),
    text: "Error: src/a.ts has unsaved changes in the editor (the user's typing) that this write would replace; nothing was written. The unsaved lines:\n@@ line 3\n+typed\nRead the file again (its unsaved text counts) and write it with those lines kept, use edit for your part only, or ask the user to save or discard them.",
  },
  {
    error: new UnreadableFile(
      'logs/big.log',
      'is 60000000 bytes, over the 52428800-byte cap of what the tools read whole',
    ),
    text: 'Error: logs/big.log is 60000000 bytes, over the 52428800-byte cap of what the tools read whole; nothing was read or written.',
  },
  // kernels (what the eval tool answered itself before)
  {
    error: new NoInterpreter(
      'no Python found: /w has no .venv/bin/python or venv/bin/python, liveTools.eval.python is not set, and there is no python3 on PATH.',
    ),
    text: 'Error: no Python found: /w has no .venv/bin/python or venv/bin/python, liveTools.eval.python is not set, and there is no python3 on PATH.',
  },
  {
    error: new KernelStartError('/usr/bin/python3', 'spawn /usr/bin/python3 ENOENT', 'Python'),
    text: 'Error: the Python kernel could not start (/usr/bin/python3): spawn /usr/bin/python3 ENOENT. Fix the interpreter (setting liveTools.eval.python) and call again.',
  },
  {
    error: new KernelStartError('node', 'it exited with code 4 before it was ready:\nhost cannot start', 'JavaScript'),
    text: 'Error: the JavaScript kernel could not start (node): it exited with code 4 before it was ready:\nhost cannot start. Fix the interpreter (setting liveTools.eval.python) and call again.',
  },
  // vibe (what the vibe tools answered themselves before)
  {
    error: new UnknownWorker('w9', ['w1', 'w2']),
    text: 'Error: No worker "w9"; workers: w1, w2. vibe_list shows them.',
  },
  { error: new UnknownWorker('w9', []), text: 'Error: No worker "w9"; none was spawned. vibe_list shows them.' },
  {
    error: new NotYourWorker('w3', 'chat 2'),
    text: 'Error: w3 was started in another conversation (chat 2); only that conversation can use it (the human can stop it in the Workers view). vibe_list shows yours.',
  },
  {
    error: new WorkerNotStarted(
      'no language model is available in this editor: sign in to a model provider, then spawn again',
    ),
    text: 'Error: the worker was not started: no language model is available in this editor: sign in to a model provider, then spawn again.',
  },
  {
    error: new WorkerNotStarted('first line\nsecond line'),
    text: 'Error: the worker was not started: first line\nsecond line.',
  },
  // Worded where thrown: the first line of the message.
  // lsp
  {
    error: new LineOutOfRange(40, 12),
    context: { file: 'src/a.ts' },
    text: 'Error: line 40 is outside the file of src/a.ts, which has 12 lines (lines are 1-based).',
  },
  {
    error: new SymbolNotOnLine('greet', 3, 'const x = 1;', [5]),
    context: { file: 'src/a.ts' },
    text: 'Error: "greet" is not on line 3 of src/a.ts. Line 3 is: "const x = 1;". "greet" is found on line 5; call again with that line.',
  },
  {
    error: new SymbolNotOnLine('greet', 3, 'const x = 1;', []),
    text: 'Error: "greet" is not on line 3. Line 3 is: "const x = 1;". It is not on the nearby lines either; check the line number, or find the symbol with lsp symbols.',
  },
  {
    error: new AmbiguousSymbol('a', 2, 'a = a + 1', [0, 4]),
    context: { file: 'm.py' },
    text: 'Error: "a" occurs 2 times on line 2 of m.py; say which with occurrence (1-based) or "a#N":\n  1: «a» = a + 1\n  2: a = «a» + 1',
  },
  {
    error: new OccurrenceOutOfRange('a', 2, 3, 2),
    text: 'Error: occurrence 3 of "a" was asked for, but line 2 has only 2.',
  },
  {
    error: new InvalidSymbol('symbol must not be empty\n(one identifier)'),
    text: 'Error: symbol must not be empty\n(one identifier)',
  },
  {
    error: new RenameRefused('it would change files outside the workspace.', ['/etc/x.ts']),
    text: 'Error: rename refused: it would change files outside the workspace. Nothing was changed. Files outside the workspace: /etc/x.ts.',
  },
  {
    error: new ApplyRefused('Move src/a.ts to ../b.ts would leave the workspace', ['/w/../b.ts']),
    text: 'Error: Move src/a.ts to ../b.ts would leave the workspace; nothing was changed. Files outside the workspace: /w/../b.ts.',
  },
  {
    error: new UnknownCodeAction('Add import', 'src/a.ts:1 ("f")', [
      'Add import from "./f"',
      'Add all missing imports',
    ]),
    text: 'Error: no code action titled "Add import" at src/a.ts:1 ("f"); nothing was changed. Offered there (give one title exactly):\n1. Add import from "./f"\n2. Add all missing imports',
  },
  {
    error: new UnknownCodeAction('Add import', 'src/a.ts:1', []),
    text: 'Error: no code action titled "Add import" at src/a.ts:1: none is offered there now; nothing was changed.',
  },
  {
    error: new ActionNotCapturable('Fill S', 'gopls.fill_struct', 'whose effect cannot be shown first'),
    text: 'Error: "Fill S" was not applied: it runs the editor command `gopls.fill_struct`, whose effect cannot be shown first. Nothing was changed. Make the change with edit, or ask the user to apply it from the Quick Fix menu.',
  },
  {
    error: new BreakpointTextNotFound(
      'No line of a.py holds line_text "x" (given with line 2); nothing was changed.\n1: a\n2: b',
    ),
    text: 'Error: No line of a.py holds line_text "x" (given with line 2); nothing was changed.\n1: a\n2: b',
  },
  // structural
  {
    error: new PatternTooExpensive(1_000_000, '/w/src/big.ts'),
    context: { displayPath: relative },
    text:
      'Error: The pattern is too expensive on src/big.ts: matching stopped after 1,000,000 steps. Narrow it: fewer `$$$` runs in one list ' +
      '(each run tries every split of the list), literal code between runs, or a `path` that leaves this file out. The search stopped there: no matches are reported.',
  },
  {
    error: new ParsingTimedOut(60, '/w/src/big.ts'),
    context: { displayPath: relative },
    text:
      'Error: Parsing and matching src/big.ts took more than 60 s; it was stopped. Narrow the pattern (fewer `$$$` runs, more literal code) ' +
      'or leave this file out with `path`. The search stopped there: no matches are reported.',
  },
  {
    error: new PatternError('The pattern does not parse as go.\nmore'),
    text: 'Error: The pattern does not parse as go.',
  },
  // debug
  {
    error: new DebugRefusal('No debug session: launch or attach first.'),
    text: 'Error: No debug session: launch or attach first.',
  },
  {
    error: new DebugCancelled('continue'),
    text: 'Error: op "continue" was cancelled; the session goes on (op "status" says where it is).',
  },
  { error: new KernelDisposed('Python'), text: 'Error: the Python kernel was disposed' },
  { error: new JsoncSyntaxError('unexpected token', 3, 7), text: 'Error: unexpected token (line 3, column 7)' },
  { error: new ProcessNotStarted('ast-grep', 'spawn ENOENT'), text: 'Error: could not start ast-grep: spawn ENOENT' },
  // Anything else: the first line, never a stack.
  { error: new Error('it broke\n    at somewhere (a.js:1:1)'), text: 'Error: it broke' },
  { error: 'plain string', text: 'Error: plain string' },
];

describe('error text', () => {
  for (const [index, { error, context, text }] of table.entries()) {
    const name = error instanceof Error ? error.name : typeof error;
    it(`${index + 1}. ${name}${context ? ` (${Object.keys(context).join(', ')})` : ''}`, () => {
      assert.equal(errorText(error, context), text);
    });
  }

  it('a kernel that cannot start is named by its language', async () => {
    const kernel = new Kernel({ launch: pythonLaunch('/nonexistent/python3'), cwd: os.tmpdir() });
    try {
      await assert.rejects(kernel.execute('1'), (error: unknown) => {
        assert.match(
          errorText(error),
          /^Error: the Python kernel could not start \(\/nonexistent\/python3\): .*ENOENT.*\. Fix the interpreter \(setting liveTools\.eval\.python\) and call again\.$/,
        );
        return true;
      });
    } finally {
      await kernel.dispose();
    }
  });
});

/** Entry scripts that run when loaded (their classes are not exported). */
const ENTRY_SCRIPTS = new Set([path.join('kernels', 'javascript', 'jsKernelHost.ts')]);

/** Every exported class of the engines whose prototype chain includes Error, as `file: Name`. */
function engineErrorClasses(): Map<string, Function> {
  const classes = new Map<string, Function>();
  const modules = sourceFiles().filter((file) => !isGlue(file) && !ENTRY_SCRIPTS.has(file));
  assert.ok(modules.length > 50, `found only ${modules.length} engine modules`);
  for (const file of modules) {
    const name = file.split(path.sep).join('/').replace(/\.ts$/, '');
    // esbuild bundles every src/**/*.ts this template can name; each is loaded only here.
    const exports = require(`../../src/${name}.ts`) as Record<string, unknown>;
    for (const [exported, value] of Object.entries(exports)) {
      if (typeof value === 'function' && value.prototype instanceof Error && value !== ModelFacingError)
        classes.set(`${name}.ts: ${exported}`, value);
    }
  }
  return classes;
}

describe('error convention', () => {
  let classes = new Map<string, Function>();
  before(() => (classes = engineErrorClasses()));

  it("finds the engines' error classes", () => {
    assert.ok(classes.size >= 40, `found only ${classes.size}: ${[...classes.keys()].join(', ')}`);
  });

  it('every exported error class of the engines extends ModelFacingError (its model text beside it)', () => {
    const plain = [...classes]
      .filter(([, value]) => !(value.prototype instanceof ModelFacingError))
      .map(([key]) => key);
    assert.deepEqual(
      plain,
      [],
      'extend ModelFacingError (src/platform/modelFacingError.ts), overriding modelText where the message alone does not say what to do',
    );
  });
});
