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

    // "Ã©" in windows-1252 is the two bytes of "é" in UTF-8: read as windows-1252, "a=Ã©" gains `added`.
    const editLatin = async (file: string, added: string): Promise<void> => {
      const latin = path.join(workspaceRoot(), file);
      fs.writeFileSync(latin, Buffer.from([0x61, 0x3d, 0xc3, 0xa9, 0x0a, 0x62, 0x0d, 0x0a]));
      const edited = await edit({ path: file, old_string: 'a=Ã©', new_string: `a=Ã©${added}` });
      assert.match(edited, new RegExp(`^Edited ${file.replace(/\./g, '\\.')}: 1 replacement at line 1`), edited);
      assert.deepEqual(
        [...fs.readFileSync(latin)],
        [0x61, 0x3d, 0xc3, 0xa9, added.charCodeAt(0), 0x0a, 0x62, 0x0d, 0x0a],
      );
    };
    await setSetting('files.encoding', 'windows1252');
    try {
      await editLatin('src/writeLatin.txt', '!');
    } finally {
      await setSetting('files.encoding', undefined);
    }

    // The same by a language's own value (plain text files here), which the file's path alone does not show.
    const plainText = vscode.workspace.getConfiguration(undefined, { languageId: 'plaintext' });
    await plainText.update('files.encoding', 'windows1252', vscode.ConfigurationTarget.Global, true);
    try {
      await editLatin('src/writeLatinByLanguage.txt', '?');
    } finally {
      await plainText.update('files.encoding', undefined, vscode.ConfigurationTarget.Global, true);
    }
  });

  it('a UTF-8 file with a byte order mark and mixed line breaks keeps both through an edit', async () => {
    const file = path.join(workspaceRoot(), 'src/writeBom.txt');
    const bom = [0xef, 0xbb, 0xbf];
    fs.writeFileSync(file, Buffer.concat([Buffer.from(bom), Buffer.from('one\r\ntwo\nthree\r\n')]));
    const edited = await edit({ path: 'src/writeBom.txt', old_string: 'two', new_string: 'TWO' });
    assert.match(edited, /^Edited src\/writeBom\.txt: 1 replacement at line 2, saved\./, edited);
    assert.deepEqual([...fs.readFileSync(file)], [...bom, ...Buffer.from('one\r\nTWO\nthree\r\n')]);
  });

  it('an edit of a Python file no language server serves here says at once that it was not checked, and why (never "pending")', async () => {
    // src/ has no Python root marker; debug/python has one (requirements.txt), and no pyright is in reach here.
    const outside = path.join(workspaceRoot(), 'src/writeNoServer.py');
    fs.writeFileSync(outside, 'x = 1\n');
    const inRoot = path.join(workspaceRoot(), 'debug/python/write_no_server.py');
    fs.writeFileSync(inRoot, 'y = 1\n');
    try {
      assert.equal(
        await edit({ path: 'src/writeNoServer.py', old_string: 'x = 1', new_string: 'x = 2' }),
        'Edited src/writeNoServer.py: 1 replacement at line 1, saved.\n' +
          'Diagnostics: not checked: no Python language server: no project root holds it (a folder with pyproject.toml, setup.py, requirements.txt, pyrightconfig.json).',
      );
      assert.equal(
        await edit({ path: 'debug/python/write_no_server.py', old_string: 'y = 1', new_string: 'y = 2' }),
        'Edited debug/python/write_no_server.py: 1 replacement at line 1, saved.\n' +
          'Diagnostics: not checked: no Python language server: `pyright-langserver` not found (lsp action "status" says where it looked; install it or set liveTools.lsp.binDirs).',
      );
    } finally {
      fs.rmSync(outside, { force: true });
      fs.rmSync(inRoot, { force: true });
    }
  });

  it('a Latin-1 file the editor reads as UTF-8 keeps its other bytes through an edit', async () => {
    // "# café crème\nx = 1\n" in Latin-1: é and è are not UTF-8, so the editor shows them as U+FFFD.
    const file = path.join(workspaceRoot(), 'src/writeLatin1.py');
    const latin = (text: string) => Buffer.from(text, 'latin1');
    fs.writeFileSync(file, latin('# café crème\nx = 1\n'));
    const edited = await edit({ path: 'src/writeLatin1.py', old_string: 'x = 1', new_string: 'x = 2' });
    assert.match(edited, /^Edited src\/writeLatin1\.py: 1 replacement at line 2, saved\./, edited);
    assert.deepEqual([...fs.readFileSync(file)], [...latin('# café crème\nx = 2\n')]);
    // A change that would replace those bytes is refused, naming them; nothing is written.
    const refused = await edit({ path: 'src/writeLatin1.py', old_string: 'caf\uFFFD', new_string: 'cafe' });
    assert.match(
      refused,
      /^Error: src\/writeLatin1\.py: the change at line 1 replaces bytes that are not valid utf8/,
      refused,
    );
    assert.deepEqual([...fs.readFileSync(file)], [...latin('# café crème\nx = 2\n')]);
  });

  it('an edit of a file shown in a tab shows there at once, as one step Undo takes back', async () => {
    const file = 'src/writeUndo.txt';
    const absolute = path.join(workspaceRoot(), file);
    fs.writeFileSync(absolute, 'keep\nchange me\nkeep\n');
    const document = await vscode.workspace.openTextDocument(vscode.Uri.file(absolute));
    await vscode.window.showTextDocument(document);
    try {
      assert.match(await edit({ path: file, old_string: 'change me', new_string: 'changed' }), /^Edited /);
      assert.equal(document.getText(), 'keep\nchanged\nkeep\n', 'the tab shows the new text when the tool answers');
      assert.equal(document.isDirty, false);
      await vscode.commands.executeCommand('undo');
      assert.equal(document.getText(), 'keep\nchange me\nkeep\n');
    } finally {
      await vscode.commands.executeCommand('workbench.action.files.revert');
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    }
  });

  it('a whole-file write from a copy someone else changed since is refused, showing their change; told once, it writes', async () => {
    const file = 'src/writeStale.txt';
    assert.match(
      await write({ path: file, content: 'one\ntwo\nthree\n' }),
      /^Created src\/writeStale\.txt \(3 lines\)/,
    );
    // Another program changes line 2 on disk.
    fs.writeFileSync(path.join(workspaceRoot(), file), 'one\nTWO (theirs)\nthree\n');
    const refused = await write({ path: file, content: 'one\ntwo\nthree\nfour\n' });
    assert.equal(
      refused,
      'Error: src/writeStale.txt was changed by someone else since you last wrote or saw it, and this write replaces the whole ' +
        'file from your older copy, which would undo their change; nothing was written. What changed:\n' +
        '@@ line 2\n-two\n+TWO (theirs)\n' +
        'Read the file again and write it with their change kept (or use edit for your part only).',
    );
    assert.equal(read(file), 'one\nTWO (theirs)\nthree\n');
    const written = await write({ path: file, content: 'one\nTWO (theirs)\nthree\nfour\n' });
    assert.match(written, /^Wrote src\/writeStale\.txt \(4 lines\), saved\./, written);
    assert.equal(read(file), 'one\nTWO (theirs)\nthree\nfour\n');
  });

  it("an edit says which lines others changed since this conversation's last write to the file", async () => {
    const file = 'src/writeNoted.txt';
    await write({ path: file, content: 'alpha\nbeta\ngamma\n' });
    fs.writeFileSync(path.join(workspaceRoot(), file), 'ALPHA (theirs)\nbeta\ngamma\n');
    const edited = await edit({ path: file, old_string: 'gamma', new_string: 'GAMMA' });
    assert.match(
      edited,
      /^Edited src\/writeNoted\.txt: 1 replacement at line 3, saved\.\nsrc\/writeNoted\.txt: line 1 was changed by someone else since your last write to it; your change was applied to the file as it is now\./,
      edited,
    );
    assert.equal(read(file), 'ALPHA (theirs)\nbeta\nGAMMA\n');
  });

  it("a whole-file write never replaces the user's unsaved lines in silence: refused, naming them", async () => {
    const file = 'src/writeTyped.txt';
    fs.writeFileSync(path.join(workspaceRoot(), file), 'first\nsecond\n');
    const uri = vscode.Uri.file(path.join(workspaceRoot(), file));
    const document = await vscode.workspace.openTextDocument(uri);
    const typing = new vscode.WorkspaceEdit();
    typing.insert(uri, new vscode.Position(2, 0), 'third, typed by the user\n');
    assert.ok(await vscode.workspace.applyEdit(typing));
    try {
      const refused = await write({ path: file, content: 'first\nsecond\n' });
      assert.equal(
        refused,
        "Error: src/writeTyped.txt has unsaved changes in the editor (the user's typing) that this write would replace; " +
          'nothing was written. The unsaved lines:\n@@ line 3\n+third, typed by the user\n' +
          'Read the file again (its unsaved text counts) and write it with those lines kept, use edit for your part only, ' +
          'or ask the user to save or discard them.',
      );
      assert.equal(document.getText(), 'first\nsecond\nthird, typed by the user\n');
      assert.ok(document.isDirty);
      assert.equal(read(file), 'first\nsecond\n');
    } finally {
      await vscode.window.showTextDocument(document);
      await vscode.commands.executeCommand('workbench.action.files.revert');
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    }
  });

  it('two edits of one file at the same moment: both land in order, or one is refused naming the file; nothing is lost', async () => {
    const file = 'src/writeRace.txt';
    fs.writeFileSync(path.join(workspaceRoot(), file), 'a = 1\nb = 2\n');
    const answers = await Promise.all([
      edit({ path: file, old_string: 'a = 1', new_string: 'a = 10' }),
      edit({ path: file, old_string: 'b = 2', new_string: 'b = 20' }),
    ]);
    const landed = answers.filter((answer) => /^Edited src\/writeRace\.txt/.test(answer));
    const refused = answers.filter((answer) =>
      /^Error: src\/writeRace\.txt changed since this change was planned; nothing was written\./.test(answer),
    );
    assert.equal(landed.length + refused.length, 2, answers.join('\n---\n'));
    assert.ok(landed.length >= 1, answers.join('\n---\n'));
    const expected = {
      both: 'a = 10\nb = 20\n',
      first: 'a = 10\nb = 2\n',
      second: 'a = 1\nb = 20\n',
    };
    const now = read(file);
    if (landed.length === 2) assert.equal(now, expected.both);
    else assert.equal(now, /^Edited/.test(answers[0]) ? expected.first : expected.second);
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
