import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { activateExtension, invokeText, workspaceRoot } from './support/tools';
import { suiteTempDir } from '../support/tempDir';

const SECRET = 'export const secret = 1;\n';

/** Every file under a folder with its text: what "the filesystem outside is untouched" compares. */
function snapshot(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile())
      files[path.relative(dir, path.join(entry.parentPath, entry.name))] = fs.readFileSync(
        path.join(entry.parentPath, entry.name),
        'utf8',
      );
  }
  return files;
}

/**
 * A folder outside the workspace reached through a linked folder (`boundary/linkdir`) and a
 * linked file (`boundary/linked.ts`): every tool that reads or writes a path must refuse both,
 * naming the link, and leave the outside exactly as it was.
 */
describe('the workspace boundary is the real path: links out of the workspace are refused by every tool', function () {
  this.timeout(120_000);
  const outside = suiteTempDir('live-tools-outside-');
  let untouched: Record<string, string>;
  const inside = (file: string) => path.join(workspaceRoot(), file);

  const refused = async (tool: string, input: object, link: string): Promise<void> => {
    const text = await invokeText(tool, input);
    assert.match(
      text,
      new RegExp(
        `^Error: .*the symbolic link ${link.replace(/[.]/g, '\\.')} points to ${outside().replace(/[.]/g, '\\.')}`,
      ),
      `${tool}: ${text}`,
    );
    assert.deepEqual(snapshot(outside()), untouched, `${tool} changed the folder outside the workspace`);
  };

  before(async () => {
    await activateExtension();
    fs.writeFileSync(path.join(outside(), 'secret.ts'), SECRET);
    fs.mkdirSync(inside('boundary/real'), { recursive: true });
    fs.writeFileSync(inside('boundary/real/own.ts'), 'export const own = 2;\n');
    fs.symlinkSync(outside(), inside('boundary/linkdir'));
    fs.symlinkSync(path.join(outside(), 'secret.ts'), inside('boundary/linked.ts'));
    untouched = snapshot(outside());
  });

  after(() => {
    fs.rmSync(inside('boundary'), { recursive: true, force: true });
  });

  it('write and edit, through a linked folder and a linked file', async () => {
    await refused('write', { path: 'boundary/linkdir/new.ts', content: 'x\n' }, 'boundary/linkdir');
    await refused('write', { path: 'boundary/linkdir/secret.ts', content: 'x\n' }, 'boundary/linkdir');
    await refused('write', { path: 'boundary/linked.ts', content: 'x\n' }, 'boundary/linked.ts');
    await refused(
      'edit',
      { path: 'boundary/linked.ts', old_string: 'secret', new_string: 'public' },
      'boundary/linked.ts',
    );
    await refused(
      'edit',
      { path: 'boundary/linkdir/secret.ts', old_string: 'secret', new_string: 'public' },
      'boundary/linkdir',
    );
  });

  it('patch: add, update, move to, delete', async () => {
    const patch = (body: string) => ({ patch: `*** Begin Patch\n${body}\n*** End Patch` });
    await refused('patch', patch('*** Add File: boundary/linkdir/added.ts\n+x'), 'boundary/linkdir');
    await refused(
      'patch',
      patch('*** Update File: boundary/linked.ts\n@@\n-export const secret = 1;\n+export const secret = 2;'),
      'boundary/linked.ts',
    );
    await refused('patch', patch('*** Delete File: boundary/linkdir/secret.ts'), 'boundary/linkdir');
    await refused('patch', patch('*** Delete File: boundary/linked.ts'), 'boundary/linked.ts');
    await refused(
      'patch',
      patch(
        '*** Update File: boundary/real/own.ts\n*** Move to: boundary/linkdir/own.ts\n@@\n-export const own = 2;\n+export const own = 3;',
      ),
      'boundary/linkdir',
    );
    assert.equal(
      fs.readFileSync(inside('boundary/real/own.ts'), 'utf8'),
      'export const own = 2;\n',
      'the file a refused move named was changed',
    );
  });

  it('reads: lsp, lsp_rename, ast_grep, ast_edit, debug', async () => {
    await refused('lsp', { action: 'diagnostics', file: 'boundary/linked.ts' }, 'boundary/linked.ts');
    await refused(
      'lsp',
      { action: 'hover', file: 'boundary/linkdir/secret.ts', line: 1, symbol: 'secret' },
      'boundary/linkdir',
    );
    await refused(
      'lsp_rename',
      { file: 'boundary/linked.ts', line: 1, symbol: 'secret', new_name: 'exposed' },
      'boundary/linked.ts',
    );
    await refused('ast_grep', { pattern: 'export const $N = $V', path: 'boundary/linkdir' }, 'boundary/linkdir');
    await refused('ast_grep', { pattern: 'export const $N = $V', path: 'boundary/linked.ts' }, 'boundary/linked.ts');
    await refused(
      'ast_edit',
      { pattern: 'export const $N = $V', rewrite: 'export let $N = $V', path: 'boundary/linkdir' },
      'boundary/linkdir',
    );
    await refused(
      'debug',
      { op: 'breakpoints', file: 'boundary/linked.ts', lines: [{ line: 1 }] },
      'boundary/linked.ts',
    );
    await refused('debug', { op: 'launch', program: 'boundary/linkdir/secret.ts' }, 'boundary/linkdir');
  });

  it('accepting a staged edit checks again right before writing: a folder swapped for a link since staging is refused', async () => {
    fs.mkdirSync(inside('boundary/swap'), { recursive: true });
    fs.writeFileSync(inside('boundary/swap/secret.ts'), SECRET);
    const staged = await invokeText('ast_edit', {
      pattern: 'export const secret = $V',
      rewrite: 'export const secret = 42',
      path: 'boundary/swap',
    });
    const id = /edit_\d+/.exec(staged)?.[0];
    assert.ok(id, staged);
    // The same text outside, so the drift check passes and only the boundary can refuse.
    fs.renameSync(inside('boundary/swap'), inside('boundary/swap-was'));
    fs.symlinkSync(outside(), inside('boundary/swap'));
    await refused('resolve', { edit_id: id, action: 'accept' }, 'boundary/swap');
    assert.match(await invokeText('resolve', { edit_id: id, action: 'discard' }), new RegExp(`${id}`));
    for (const document of vscode.workspace.textDocuments) {
      assert.ok(
        !(document.isDirty && document.uri.fsPath.startsWith(outside())),
        `${document.uri.fsPath} was edited in the editor`,
      );
    }
  });
});
