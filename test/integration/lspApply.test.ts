/**
 * lsp_apply through `lm.invokeTool`, against the editor's TypeScript server and our supervised gopls:
 * a quick fix, formatting (a file and a line range), organize imports, a file moved with its importers
 * updated; and the refusals a model can act on (unknown title, outside the workspace, a target that exists).
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { browser, hasBrowser } from './support/browser';
import {
  activateExtension,
  invokeText,
  resolvedByUser,
  waitUntil,
  waitUntilAsync,
  workspaceRoot,
} from './support/tools';

const apply = (input: object) => invokeText('lsp_apply', input);

function write(file: string, text: string): void {
  fs.mkdirSync(path.dirname(path.join(workspaceRoot(), file)), { recursive: true });
  fs.writeFileSync(path.join(workspaceRoot(), file), text);
}

const read = (file: string) => fs.readFileSync(path.join(workspaceRoot(), file), 'utf8');
const exists = (file: string) => fs.existsSync(path.join(workspaceRoot(), file));

describe('lsp_apply: the language server applies its own changes', function () {
  this.timeout(120_000);

  // Projects of their own (a TypeScript project, a Go module), so these files change no other suite's answers
  // (references in src/, which servers run for langs/).
  before(async () => {
    await activateExtension();
    write(
      'applyTs/tsconfig.json',
      JSON.stringify({ compilerOptions: { target: 'ES2020', module: 'commonjs', strict: true, noEmit: true } }),
    );
    write('applyTs/count.ts', 'export function countOf(count: number): string {\n  return `${count} items`;\n}\n');
    write('applyTs/other.ts', 'export const unused = 1;\n');
    write('applyGo/go.mod', 'module applygo\n\ngo 1.19\n');
  });

  afterEach(() => vscode.commands.executeCommand('workbench.action.closeAllEditors'));

  after(() => {
    for (const dir of ['applyTs', 'applyGo'])
      fs.rmSync(path.join(workspaceRoot(), dir), { recursive: true, force: true });
  });

  describe('TypeScript (the editor’s server)', () => {
    it('code_action: the missing-import quick fix, as lsp code_actions lists it, is written and saved', async () => {
      write('applyTs/fix.ts', 'export const told = countOf(2);\n');
      const listed = await invokeText('lsp', {
        action: 'code_actions',
        file: 'applyTs/fix.ts',
        line: 1,
        symbol: 'countOf',
      });
      assert.match(listed, /Add import from "\.\/count"/);
      const text = await apply({
        action: 'code_action',
        file: 'applyTs/fix.ts',
        line: 1,
        symbol: 'countOf',
        title: 'Add import from "./count"',
      });
      assert.match(
        text,
        /^Quick fix "Add import from "\.\/count"" at applyTs\/fix\.ts:1 \("countOf"\): applied 1 edit in 1 file; saved\.\n- applyTs\/fix\.ts \(1 edit\)\n/,
      );
      assert.match(text, /\nDiagnostics: no new problems\. This write fixed 1 problem\.$/);
      assert.match(
        read('applyTs/fix.ts'),
        /^import \{ countOf \} from ["']\.\/count["'];\n\nexport const told = countOf\(2\);\n$/,
      );
    });

    it('code_action: an unknown title lists the offered ones, and nothing changes', async () => {
      write('applyTs/unknown.ts', 'export const told = countOf(2);\n');
      const text = await apply({
        action: 'code_action',
        file: 'applyTs/unknown.ts',
        line: 1,
        symbol: 'countOf',
        title: 'Add import',
      });
      assert.match(
        text,
        /^Error: no code action titled "Add import" at applyTs\/unknown\.ts:1 \("countOf"\); nothing was changed\. Offered there \(give one title exactly\):\n1\. /,
      );
      assert.match(text, /\n\d\. Add import from "\.\/count"/);
      assert.equal(read('applyTs/unknown.ts'), 'export const told = countOf(2);\n');
    });

    it('code_action with stage: true writes nothing until resolve accepts it', async () => {
      write('applyTs/staged.ts', 'export const told = countOf(5);\n');
      const text = await apply({
        action: 'code_action',
        file: 'applyTs/staged.ts',
        line: 1,
        symbol: 'countOf',
        title: 'Add import from "./count"',
        stage: true,
      });
      const id = /edit_\d+/.exec(text)?.[0];
      assert.ok(id, text);
      assert.equal(read('applyTs/staged.ts'), 'export const told = countOf(5);\n');
      assert.match(await invokeText('resolve', { edit_id: id, action: 'accept' }), /^Accepted/);
      // (TypeScript picks the quote style from the project when the file has no import to follow.)
      assert.match(
        read('applyTs/staged.ts'),
        /^import \{ countOf \} from ["']\.\/count["'];\n\nexport const told = countOf\(5\);\n$/,
      );
    });

    it('format: a badly indented file, and only the lines of a range', async () => {
      const messy = 'export function  one(a:number,b:number){\nreturn a+b;\n      }\n';
      write('applyTs/messy.ts', messy + messy.replace('one', 'two'));
      const ranged = await apply({ action: 'format', file: 'applyTs/messy.ts', line: 1, end_line: 3 });
      assert.match(ranged, /^Format applyTs\/messy\.ts:1-3: applied \d+ edits? in 1 file; saved\./);
      const tidy = 'export function one(a: number, b: number) {\n    return a + b;\n}\n';
      assert.equal(read('applyTs/messy.ts'), tidy + messy.replace('one', 'two'));
      const whole = await apply({ action: 'format', file: 'applyTs/messy.ts' });
      assert.match(whole, /^Format applyTs\/messy\.ts: applied \d+ edits? in 1 file; saved\./);
      assert.equal(read('applyTs/messy.ts'), tidy + tidy.replace('one', 'two'));
      assert.equal(
        await apply({ action: 'format', file: 'applyTs/messy.ts' }),
        'Format applyTs/messy.ts: nothing to change; nothing was written.\n(No formatter proposed an edit; if none is installed for typescript files, nothing can.)',
      );
    });

    it('organize_imports: the unused import goes', async () => {
      write(
        'applyTs/imports.ts',
        "import { unused } from './other';\nimport { countOf } from './count';\n\nexport const n = countOf(2);\n",
      );
      const text = await apply({ action: 'organize_imports', file: 'applyTs/imports.ts' });
      assert.match(text, /^Organize imports in applyTs\/imports\.ts: applied \d+ edits? in 1 file; saved\./);
      assert.equal(read('applyTs/imports.ts'), "import { countOf } from './count';\n\nexport const n = countOf(2);\n");
    });

    it('rename_file: the module moves, both importers and its own import are updated and saved', async () => {
      write('applyTs/mover/util.ts', "import { countOf } from '../count';\n\nexport const counted = countOf(1);\n");
      write('applyTs/useA.ts', "import { counted } from './mover/util';\n\nexport const a = counted;\n");
      write('applyTs/deep/useB.ts', "import { counted } from '../mover/util';\n\nexport const b = counted;\n");
      const text = await apply({
        action: 'rename_file',
        file: 'applyTs/mover/util.ts',
        new_path: 'applyTs/renamed.ts',
      });
      assert.match(
        text,
        /^Move applyTs\/mover\/util\.ts to applyTs\/renamed\.ts: applied move applyTs\/mover\/util\.ts → applyTs\/renamed\.ts and 3 edits in 3 files; saved\./,
      );
      assert.ok(!exists('applyTs/mover/util.ts'));
      assert.equal(
        read('applyTs/renamed.ts'),
        "import { countOf } from './count';\n\nexport const counted = countOf(1);\n",
      );
      assert.equal(read('applyTs/useA.ts'), "import { counted } from './renamed';\n\nexport const a = counted;\n");
      assert.equal(
        read('applyTs/deep/useB.ts'),
        "import { counted } from '../renamed';\n\nexport const b = counted;\n",
      );
      for (const file of ['applyTs/renamed.ts', 'applyTs/useA.ts', 'applyTs/deep/useB.ts']) {
        const document = vscode.workspace.textDocuments.find(
          (item) => item.uri.fsPath === path.join(workspaceRoot(), file),
        );
        assert.ok(!document?.isDirty, `${file} is left unsaved`);
      }
      // The TypeScript extension's own import update after the move finds nothing left to change.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      assert.equal(read('applyTs/useA.ts'), "import { counted } from './renamed';\n\nexport const a = counted;\n");
    });

    it('rename_file with stage: true: nothing moves until the human clicks Accept in the review', async function () {
      if (!hasBrowser()) this.skip();
      write('applyTs/staged/util.ts', "import { countOf } from '../count';\n\nexport const tally = countOf(4);\n");
      write('applyTs/staged/first.ts', "import { tally } from './util';\n\nexport const first = tally;\n");
      write('applyTs/second.ts', "import { tally } from './staged/util';\n\nexport const second = tally;\n");
      const text = await apply({
        action: 'rename_file',
        file: 'applyTs/staged/util.ts',
        new_path: 'applyTs/tally.ts',
        stage: true,
      });
      const id = /edit_\d+/.exec(text)?.[0];
      assert.ok(id, text);
      assert.match(
        text,
        /^\(proposed\) 3 replacements in 3 files — Move applyTs\/staged\/util\.ts to applyTs\/tally\.ts\./,
      );
      assert.ok(exists('applyTs/staged/util.ts') && !exists('applyTs/tally.ts'));
      await browser({
        op: 'click',
        selector: '.editor-group-container.active .editor-actions a.action-label[aria-label^="Accept Staged Edit"]',
      });
      await waitUntil('the file to move', () => (exists('applyTs/tally.ts') ? true : undefined));
      await waitUntil('the importers to be saved', () =>
        read('applyTs/second.ts').includes("'./tally'") && read('applyTs/staged/first.ts').includes("'../tally'")
          ? true
          : undefined,
      );
      assert.ok(!exists('applyTs/staged/util.ts'));
      assert.equal(
        read('applyTs/tally.ts'),
        "import { countOf } from './count';\n\nexport const tally = countOf(4);\n",
      );
      assert.equal(read('applyTs/second.ts'), "import { tally } from './tally';\n\nexport const second = tally;\n");
      assert.equal(
        read('applyTs/staged/first.ts'),
        "import { tally } from '../tally';\n\nexport const first = tally;\n",
      );
      assert.equal(await resolvedByUser(id), `Error: ${id} was already accepted by the user; its changes are written.`);
    });

    it('rename_file: refused whole when the target exists, or is outside the workspace through a link', async () => {
      write('applyTs/stay.ts', 'export const stay = 1;\n');
      write('applyTs/taken.ts', 'export const taken = 1;\n');
      assert.equal(
        await apply({ action: 'rename_file', file: 'applyTs/stay.ts', new_path: 'applyTs/taken.ts' }),
        'Error: applyTs/taken.ts already exists; give a new_path that does not; nothing was changed.',
      );
      const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'lsp-apply-outside-'));
      fs.symlinkSync(outside, path.join(workspaceRoot(), 'applyTs/link'));
      try {
        const text = await apply({
          action: 'rename_file',
          file: 'applyTs/stay.ts',
          new_path: 'applyTs/link/moved.ts',
        });
        assert.match(text, /^Error: .*outside the workspace/);
        assert.ok(exists('applyTs/stay.ts'));
        assert.deepEqual(fs.readdirSync(outside), []);
      } finally {
        fs.rmSync(outside, { recursive: true, force: true });
      }
    });
  });

  describe('Go (our supervised gopls)', () => {
    it('format and organize_imports through gopls', async () => {
      write('applyGo/applyfmt.go', 'package main\n\nfunc   shout(s string)string{\nreturn s+"!"\n}\n');
      const formatted = await apply({ action: 'format', file: 'applyGo/applyfmt.go' });
      assert.match(formatted, /^Format applyGo\/applyfmt\.go: applied \d+ edits? in 1 file; saved\./);
      assert.equal(read('applyGo/applyfmt.go'), 'package main\n\nfunc shout(s string) string {\n\treturn s + "!"\n}\n');

      write(
        'applyGo/applyimports.go',
        'package main\n\nimport (\n\t"os"\n\t"strings"\n)\n\nfunc upper(s string) string {\n\treturn strings.ToUpper(s)\n}\n',
      );
      // gopls answers from the file it has loaded: until then, "nothing to change".
      const organized = await waitUntilAsync(
        'gopls to organize the imports',
        async () => {
          const answer = await apply({ action: 'organize_imports', file: 'applyGo/applyimports.go' });
          return /nothing to change/.test(answer) ? undefined : answer;
        },
        20_000,
      );
      assert.match(organized, /^Organize imports in applyGo\/applyimports\.go: applied \d+ edits? in 1 file; saved\./);
      const after = read('applyGo/applyimports.go');
      assert.ok(!after.includes('"os"'), after);
      assert.ok(after.includes('"strings"'), after);
    });
  });
});
