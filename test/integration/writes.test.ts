import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { activateExtension, invokeText, setSetting, workspaceRoot } from './support/tools';

const write = (input: object) => invokeText('write', input);
const edit = (input: object) => invokeText('edit', input);
const applyPatch = (patch: string) => invokeText('patch', { patch });
const read = (file: string) => fs.readFileSync(path.join(workspaceRoot(), file), 'utf8');

describe('write, edit, patch: diagnostics on write (TypeScript)', function () {
  this.timeout(180_000);

  before(async () => {
    await activateExtension();
    // Load the TypeScript project once.
    assert.match(await invokeText('lsp', { action: 'diagnostics', file: 'src/main.ts' }), /^OK/);
  });

  it('write creates a file, saved, with no new problems', async () => {
    const text = await write({
      path: 'src/writeLib.ts',
      content: 'export function double(n: number): number {\n  return n * 2;\n}\n',
    });
    assert.equal(text, 'Created src/writeLib.ts (3 lines), saved.\nDiagnostics: no new problems.');
    assert.equal(read('src/writeLib.ts'), 'export function double(n: number): number {\n  return n * 2;\n}\n');
    const user = await write({
      path: 'src/writeUser.ts',
      content: "import { double } from './writeLib';\n\nexport const four: number = double(2);\n",
    });
    assert.equal(user, 'Created src/writeUser.ts (3 lines), saved.\nDiagnostics: no new problems.');
  });

  it('introduce an error → reported once, with line, code and text', async () => {
    const text = await edit({ path: 'src/writeLib.ts', old_string: 'return n * 2;', new_string: "return 'twice';" });
    assert.equal(
      text,
      'Edited src/writeLib.ts: 1 replacement at line 2, saved.\n' +
        'Diagnostics: 1 new problem (also checked 1 importing file).\n' +
        "src/writeLib.ts:2: error ts 2322: Type 'string' is not assignable to type 'number'.\n" +
        "    return 'twice';",
    );
    const document = vscode.workspace.textDocuments.find((candidate) => candidate.uri.fsPath.endsWith('writeLib.ts'));
    assert.equal(document?.isDirty, false);
  });

  it('move it four lines down → not reported again', async () => {
    const text = await edit({
      path: 'src/writeLib.ts',
      old_string: 'export function double',
      new_string: '// one\n// two\n// three\n// four\nexport function double',
    });
    assert.equal(
      text,
      'Edited src/writeLib.ts: 1 replacement at line 1, saved.\nDiagnostics: no new problems (also checked 1 importing file).',
    );
  });

  it('fix it → counted as fixed', async () => {
    const text = await edit({ path: 'src/writeLib.ts', old_string: "return 'twice';", new_string: 'return n * 2;' });
    assert.equal(
      text,
      'Edited src/writeLib.ts: 1 replacement at line 6, saved.\nDiagnostics: no new problems (also checked 1 importing file). This write fixed 1 problem.',
    );
  });

  it('break an importer → reported in that file', async () => {
    const text = await edit({
      path: 'src/writeLib.ts',
      old_string: 'double(n: number)',
      new_string: 'double(n: number, m: number)',
    });
    const lines = text.split('\n');
    assert.equal(lines[1], 'Diagnostics: 1 new problem (also checked 1 importing file).');
    assert.equal(lines[2], 'This write broke 1 file that imports it: src/writeUser.ts.');
    assert.match(lines[3], /^src\/writeUser\.ts:3: error ts 2554: Expected 2 arguments, but got 1\.$/);
  });

  it('patch fixes the importer (counted) and adds and deletes files', async () => {
    const text = await applyPatch(
      [
        '*** Begin Patch',
        '*** Update File: src/writeUser.ts',
        "@@ import { double } from './writeLib';",
        '-export const four: number = double(2);',
        '+export const four: number = double(2, 0);',
        '*** Add File: src/writeExtra.ts',
        "+export const extra = 'x';",
        '*** End Patch',
      ].join('\n'),
    );
    assert.equal(
      text,
      'Patch applied to 2 files:\nM src/writeUser.ts (1 hunk)\nA src/writeExtra.ts\nDiagnostics: no new problems. This write fixed 1 problem.',
    );
    assert.equal(
      read('src/writeUser.ts'),
      "import { double } from './writeLib';\n\nexport const four: number = double(2, 0);\n",
    );
    const removed = await applyPatch('*** Begin Patch\n*** Delete File: src/writeExtra.ts\n*** End Patch');
    assert.match(removed, /^Patch applied to 1 file:\nD src\/writeExtra\.ts\n/);
    assert.equal(fs.existsSync(path.join(workspaceRoot(), 'src/writeExtra.ts')), false);
  });

  it('a hunk that does not apply writes nothing and shows the hunk', async () => {
    const before = read('src/writeUser.ts');
    const text = await applyPatch(
      '*** Begin Patch\n*** Update File: src/writeUser.ts\n-export const five = 5;\n+export const six = 6;\n*** End Patch',
    );
    assert.match(
      text,
      /^Error: hunk 1 of src\/writeUser\.ts does not apply: .*Nothing was written.*The hunk:\n@@\n-export const five = 5;\n\+export const six = 6;$/s,
    );
    assert.equal(read('src/writeUser.ts'), before);
  });

  it('edit errors say why: occurrences by line, or the closest near-match', async () => {
    const many = await edit({ path: 'src/writeLib.ts', old_string: '// ', new_string: '//' });
    assert.equal(
      many,
      'Error: old_string occurs 4 times in src/writeLib.ts (lines 1, 2, 3, 4); nothing was written. Include more surrounding lines to make it unique, or set replace_all to change every occurrence.',
    );
    const missing = await edit({ path: 'src/writeLib.ts', old_string: 'return n*2;', new_string: 'return n;' });
    assert.match(
      missing,
      /^Error: old_string was not found in src\/writeLib\.ts; nothing was written\. Closest: line 6: "return n \* 2;"/,
    );
  });

  it("line breaks are the file's: an LF old_string edits a CRLF file, a patch keeps each line's own break", async () => {
    const crlf = 'export const a = 1;\r\nexport function f(): number {\r\n  return a;\r\n}\r\n';
    fs.writeFileSync(path.join(workspaceRoot(), 'src/writeCrlf.ts'), crlf);
    const text = await edit({
      path: 'src/writeCrlf.ts',
      old_string: 'export function f(): number {\n  return a;\n}',
      new_string: 'export function f(): number {\n  return a + 1;\n}',
    });
    assert.match(text, /^Edited src\/writeCrlf\.ts: 1 replacement at line 2, saved\./, text);
    assert.equal(read('src/writeCrlf.ts'), crlf.replace('return a;', 'return a + 1;'));

    const mixed = 'export const b = 1;\nexport const c = 2;\r\nexport const d = 3;\n';
    fs.writeFileSync(path.join(workspaceRoot(), 'src/writeMixed.ts'), mixed);
    const patched = await applyPatch(
      '*** Begin Patch\n*** Update File: src/writeMixed.ts\n export const b = 1;\n-export const c = 2;\n+export const c = 20;\n export const d = 3;\n*** End Patch',
    );
    assert.match(patched, /^Patch applied to 1 file:/, patched);
    assert.equal(read('src/writeMixed.ts'), 'export const b = 1;\nexport const c = 20;\r\nexport const d = 3;\n');
    // A staged rewrite accepted on that file keeps them too.
    const staged = await invokeText('ast_edit', {
      pattern: 'export const d = $V',
      rewrite: 'export const d = 30;',
      path: 'src/writeMixed.ts',
    });
    const id = /edit_\d+/.exec(staged)?.[0];
    assert.ok(id, staged);
    assert.match(await invokeText('resolve', { edit_id: id, action: 'accept' }), /^Accepted/);
    assert.equal(read('src/writeMixed.ts'), 'export const b = 1;\nexport const c = 20;\r\nexport const d = 30;\n');
  });

  it('a file the editor reads in another encoding is edited as the editor reads it, and keeps its encoding', async () => {
    // UTF-16 by its byte order mark; windows-1252 by the setting (its bytes are also valid UTF-8: only the setting tells).
    const utf16 = path.join(workspaceRoot(), 'src/writeUtf16.txt');
    fs.writeFileSync(
      utf16,
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("name = 'café'\nmixed\r\n", 'utf16le')]),
    );
    const edited = await edit({ path: 'src/writeUtf16.txt', old_string: "'café'", new_string: "'thé'" });
    assert.match(edited, /^Edited src\/writeUtf16\.txt: 1 replacement at line 1/, edited);
    const bytes = fs.readFileSync(utf16);
    assert.deepEqual([...bytes.subarray(0, 2)], [0xff, 0xfe]);
    assert.equal(bytes.subarray(2).toString('utf16le'), "name = 'thé'\nmixed\r\n");

    await setSetting('files.encoding', 'windows1252');
    try {
      const latin = path.join(workspaceRoot(), 'src/writeLatin.txt');
      // "Ã©" in windows-1252 is the two bytes of "é" in UTF-8.
      fs.writeFileSync(latin, Buffer.from([0x61, 0x3d, 0xc3, 0xa9, 0x0a, 0x62, 0x0d, 0x0a]));
      const latinEdit = await edit({ path: 'src/writeLatin.txt', old_string: 'a=Ã©', new_string: 'a=Ã©!' });
      assert.match(latinEdit, /^Edited src\/writeLatin\.txt: 1 replacement at line 1/, latinEdit);
      assert.deepEqual([...fs.readFileSync(latin)], [0x61, 0x3d, 0xc3, 0xa9, 0x21, 0x0a, 0x62, 0x0d, 0x0a]);
    } finally {
      await setSetting('files.encoding', undefined);
    }

    // The same by a language's own value (plain text files here), which the file's path alone does not show.
    const plainText = vscode.workspace.getConfiguration(undefined, { languageId: 'plaintext' });
    await plainText.update('files.encoding', 'windows1252', vscode.ConfigurationTarget.Global, true);
    try {
      const latin = path.join(workspaceRoot(), 'src/writeLatinByLanguage.txt');
      fs.writeFileSync(latin, Buffer.from([0x61, 0x3d, 0xc3, 0xa9, 0x0a, 0x62, 0x0d, 0x0a]));
      const byLanguage = await edit({ path: 'src/writeLatinByLanguage.txt', old_string: 'a=Ã©', new_string: 'a=Ã©?' });
      assert.match(byLanguage, /^Edited src\/writeLatinByLanguage\.txt: 1 replacement at line 1/, byLanguage);
      assert.deepEqual([...fs.readFileSync(latin)], [0x61, 0x3d, 0xc3, 0xa9, 0x3f, 0x0a, 0x62, 0x0d, 0x0a]);
    } finally {
      await plainText.update('files.encoding', undefined, vscode.ConfigurationTarget.Global, true);
    }
  });

  it('a patch that adds a file and moves another onto it is refused while planning; nothing is written', async () => {
    const before = read('src/writeLib.ts');
    const text = await applyPatch(
      '*** Begin Patch\n*** Add File: src/writeTwice.ts\n+x\n*** Update File: src/writeLib.ts\n*** Move to: src/writeTwice.ts\n*** End Patch',
    );
    assert.match(text, /^Error: src\/writeTwice\.ts: the patch names this file twice/, text);
    assert.equal(fs.existsSync(path.join(workspaceRoot(), 'src/writeTwice.ts')), false);
    assert.equal(read('src/writeLib.ts'), before);
  });

  it('refuses paths outside the workspace', async () => {
    const text = await write({ path: '../outside.ts', content: 'x' });
    assert.match(text, /^Error: .*outside\.ts is outside the workspace/);
  });

  it('an unsaved change of the user is kept: edited in the buffer, not saved', async () => {
    const uri = vscode.Uri.file(path.join(workspaceRoot(), 'src/writeUser.ts'));
    const document = await vscode.workspace.openTextDocument(uri);
    const userEdit = new vscode.WorkspaceEdit();
    userEdit.insert(uri, new vscode.Position(0, 0), '// the user typing\n');
    assert.ok(await vscode.workspace.applyEdit(userEdit));
    assert.ok(document.isDirty, 'the user edit left the buffer unsaved');
    const text = await edit({ path: 'src/writeUser.ts', old_string: 'double(2, 0)', new_string: 'double(2, 2)' });
    assert.match(
      text,
      /^Edited src\/writeUser\.ts: 1 replacement at line 4, left unsaved because the user has unsaved changes there\./,
    );
    assert.ok(document.isDirty);
    assert.match(document.getText(), /^\/\/ the user typing\n[\s\S]*double\(2, 2\)/);
    await vscode.commands.executeCommand('workbench.action.files.revert', uri);
  });
});
