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
import { activateExtension, invokeText, waitUntilAsync, workspaceRoot } from './support/tools';

const apply = (input: object) => invokeText('lsp_apply', input);

function write(file: string, text: string): void {
  fs.mkdirSync(path.dirname(path.join(workspaceRoot(), file)), { recursive: true });
  fs.writeFileSync(path.join(workspaceRoot(), file), text);
}

const read = (file: string) => fs.readFileSync(path.join(workspaceRoot(), file), 'utf8');
const exists = (file: string) => fs.existsSync(path.join(workspaceRoot(), file));

describe('lsp_apply: the language server applies its own changes', function () {
  this.timeout(120_000);

  before(activateExtension);

  afterEach(() => vscode.commands.executeCommand('workbench.action.closeAllEditors'));

  after(() => {
    fs.rmSync(path.join(workspaceRoot(), 'src/apply'), { recursive: true, force: true });
    for (const file of ['applyfmt.go', 'applyimports.go'])
      fs.rmSync(path.join(workspaceRoot(), 'langs/go', file), { force: true });
  });

  describe('TypeScript (the editor’s server)', () => {
    it('code_action: the missing-import quick fix, as lsp code_actions lists it, is written and saved', async () => {
      write('src/apply/fix.ts', 'export const told = formatCount(2);\n');
      const listed = await invokeText('lsp', {
        action: 'code_actions',
        file: 'src/apply/fix.ts',
        line: 1,
        symbol: 'formatCount',
      });
      assert.match(listed, /Add import from "\.\.\/format"/);
      const text = await apply({
        action: 'code_action',
        file: 'src/apply/fix.ts',
        line: 1,
        symbol: 'formatCount',
        title: 'Add import from "../format"',
      });
      assert.match(
        text,
        /^Quick fix "Add import from "\.\.\/format"" at src\/apply\/fix\.ts:1 \("formatCount"\): applied 1 edit in 1 file; saved\.\n- src\/apply\/fix\.ts \(1 edit\)\n/,
      );
      assert.match(text, /\nDiagnostics: no new problems\. This write fixed 1 problem\.$/);
      assert.match(
        read('src/apply/fix.ts'),
        /^import \{ formatCount \} from ["']\.\.\/format["'];\n\nexport const told = formatCount\(2\);\n$/,
      );
    });

    it('code_action: an unknown title lists the offered ones, and nothing changes', async () => {
      write('src/apply/unknown.ts', 'export const told = formatCount(2);\n');
      const text = await apply({
        action: 'code_action',
        file: 'src/apply/unknown.ts',
        line: 1,
        symbol: 'formatCount',
        title: 'Add import',
      });
      assert.match(
        text,
        /^Error: no code action titled "Add import" at src\/apply\/unknown\.ts:1 \("formatCount"\); nothing was changed\. Offered there \(give one title exactly\):\n1\. /,
      );
      assert.match(text, /\n\d\. Add import from "\.\.\/format"/);
      assert.equal(read('src/apply/unknown.ts'), 'export const told = formatCount(2);\n');
    });

    it('code_action with stage: true writes nothing until resolve accepts it', async () => {
      write('src/apply/staged.ts', 'export const told = formatCount(5);\n');
      const text = await apply({
        action: 'code_action',
        file: 'src/apply/staged.ts',
        line: 1,
        symbol: 'formatCount',
        title: 'Add import from "../format"',
        stage: true,
      });
      const id = /edit_\d+/.exec(text)?.[0];
      assert.ok(id, text);
      assert.equal(read('src/apply/staged.ts'), 'export const told = formatCount(5);\n');
      assert.match(await invokeText('resolve', { edit_id: id, action: 'accept' }), /^Accepted/);
      // (TypeScript picks the quote style from the project when the file has no import to follow.)
      assert.match(
        read('src/apply/staged.ts'),
        /^import \{ formatCount \} from ["']\.\.\/format["'];\n\nexport const told = formatCount\(5\);\n$/,
      );
    });

    it('format: a badly indented file, and only the lines of a range', async () => {
      const messy = 'export function  one(a:number,b:number){\nreturn a+b;\n      }\n';
      write('src/apply/messy.ts', messy + messy.replace('one', 'two'));
      const ranged = await apply({ action: 'format', file: 'src/apply/messy.ts', line: 1, end_line: 3 });
      assert.match(ranged, /^Format src\/apply\/messy\.ts:1-3: applied \d+ edits? in 1 file; saved\./);
      const tidy = 'export function one(a: number, b: number) {\n    return a + b;\n}\n';
      assert.equal(read('src/apply/messy.ts'), tidy + messy.replace('one', 'two'));
      const whole = await apply({ action: 'format', file: 'src/apply/messy.ts' });
      assert.match(whole, /^Format src\/apply\/messy\.ts: applied \d+ edits? in 1 file; saved\./);
      assert.equal(read('src/apply/messy.ts'), tidy + tidy.replace('one', 'two'));
      assert.equal(
        await apply({ action: 'format', file: 'src/apply/messy.ts' }),
        'Format src/apply/messy.ts: nothing to change; nothing was written.\n(No formatter proposed an edit; if none is installed for typescript files, nothing can.)',
      );
    });

    it('organize_imports: the unused import goes', async () => {
      write(
        'src/apply/imports.ts',
        "import { spelled } from '../needsImport';\nimport { formatCount } from '../format';\n\nexport const n = formatCount(2);\n",
      );
      const text = await apply({ action: 'organize_imports', file: 'src/apply/imports.ts' });
      assert.match(text, /^Organize imports in src\/apply\/imports\.ts: applied \d+ edits? in 1 file; saved\./);
      assert.equal(
        read('src/apply/imports.ts'),
        "import { formatCount } from '../format';\n\nexport const n = formatCount(2);\n",
      );
    });

    it('rename_file: the module moves, both importers and its own import are updated and saved', async () => {
      write(
        'src/apply/mover/util.ts',
        "import { formatCount } from '../../format';\n\nexport const counted = formatCount(1);\n",
      );
      write('src/apply/useA.ts', "import { counted } from './mover/util';\n\nexport const a = counted;\n");
      write('src/apply/deep/useB.ts', "import { counted } from '../mover/util';\n\nexport const b = counted;\n");
      const text = await apply({
        action: 'rename_file',
        file: 'src/apply/mover/util.ts',
        new_path: 'src/apply/renamed.ts',
      });
      assert.match(
        text,
        /^Move src\/apply\/mover\/util\.ts to src\/apply\/renamed\.ts: applied move src\/apply\/mover\/util\.ts → src\/apply\/renamed\.ts and 3 edits in 3 files; saved\./,
      );
      assert.ok(!exists('src/apply/mover/util.ts'));
      assert.equal(
        read('src/apply/renamed.ts'),
        "import { formatCount } from '../format';\n\nexport const counted = formatCount(1);\n",
      );
      assert.equal(read('src/apply/useA.ts'), "import { counted } from './renamed';\n\nexport const a = counted;\n");
      assert.equal(
        read('src/apply/deep/useB.ts'),
        "import { counted } from '../renamed';\n\nexport const b = counted;\n",
      );
      for (const file of ['src/apply/renamed.ts', 'src/apply/useA.ts', 'src/apply/deep/useB.ts']) {
        const document = vscode.workspace.textDocuments.find(
          (item) => item.uri.fsPath === path.join(workspaceRoot(), file),
        );
        assert.ok(!document?.isDirty, `${file} is left unsaved`);
      }
      // The TypeScript extension's own import update after the move finds nothing left to change.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      assert.equal(read('src/apply/useA.ts'), "import { counted } from './renamed';\n\nexport const a = counted;\n");
    });

    it('rename_file: refused whole when the target exists, or is outside the workspace through a link', async () => {
      write('src/apply/stay.ts', 'export const stay = 1;\n');
      write('src/apply/taken.ts', 'export const taken = 1;\n');
      assert.equal(
        await apply({ action: 'rename_file', file: 'src/apply/stay.ts', new_path: 'src/apply/taken.ts' }),
        'Error: src/apply/taken.ts already exists; give a new_path that does not; nothing was changed.',
      );
      const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'lsp-apply-outside-'));
      fs.symlinkSync(outside, path.join(workspaceRoot(), 'src/apply/link'));
      try {
        const text = await apply({
          action: 'rename_file',
          file: 'src/apply/stay.ts',
          new_path: 'src/apply/link/moved.ts',
        });
        assert.match(text, /^Error: .*outside the workspace/);
        assert.ok(exists('src/apply/stay.ts'));
        assert.deepEqual(fs.readdirSync(outside), []);
      } finally {
        fs.rmSync(outside, { recursive: true, force: true });
      }
    });
  });

  describe('Go (our supervised gopls)', () => {
    it('format and organize_imports through gopls', async () => {
      write('langs/go/applyfmt.go', 'package main\n\nfunc   shout(s string)string{\nreturn s+"!"\n}\n');
      const formatted = await apply({ action: 'format', file: 'langs/go/applyfmt.go' });
      assert.match(formatted, /^Format langs\/go\/applyfmt\.go: applied \d+ edits? in 1 file; saved\./);
      assert.equal(
        read('langs/go/applyfmt.go'),
        'package main\n\nfunc shout(s string) string {\n\treturn s + "!"\n}\n',
      );

      write(
        'langs/go/applyimports.go',
        'package main\n\nimport (\n\t"os"\n\t"strings"\n)\n\nfunc upper(s string) string {\n\treturn strings.ToUpper(s)\n}\n',
      );
      // gopls answers from the file it has loaded: until then, "nothing to change".
      const organized = await waitUntilAsync(
        'gopls to organize the imports',
        async () => {
          const answer = await apply({ action: 'organize_imports', file: 'langs/go/applyimports.go' });
          return /nothing to change/.test(answer) ? undefined : answer;
        },
        20_000,
      );
      assert.match(
        organized,
        /^Organize imports in langs\/go\/applyimports\.go: applied \d+ edits? in 1 file; saved\./,
      );
      const after = read('langs/go/applyimports.go');
      assert.ok(!after.includes('"os"'), after);
      assert.ok(after.includes('"strings"'), after);
    });
  });
});
