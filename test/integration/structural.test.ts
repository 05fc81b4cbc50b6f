import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { browser, hasBrowser } from './support/browser';
import {
  activateExtension,
  invokeText,
  lineOf,
  logLines,
  resolvedByUser,
  setSetting,
  waitUntil,
  waitUntilAsync,
  workspaceRoot,
} from './support/tools';

function writeWorkspaceFile(relative: string, text: string): void {
  const absolute = path.join(workspaceRoot(), relative);
  fs.mkdirSync(path.dirname(absolute), { recursive: true });
  fs.writeFileSync(absolute, text);
}

describe('ast_grep in the editor', function () {
  this.timeout(60_000);

  before(async () => {
    await activateExtension();
  });

  it('Dart: the call, not the function signature; a repeated metavariable must be the same code', async () => {
    const text = await invokeText('ast_grep', {
      pattern: 'if ($X != null) $X.dispose();',
      path: 'structural/widgets.dart',
    });
    const line = lineOf('structural/widgets.dart', 'if (controller != null) controller.dispose();');
    assert.equal(
      text,
      [
        '1 match of `if ($X != null) $X.dispose();` in 1 file (dart, pattern parsed as statement):',
        `structural/widgets.dart:${line}: if (controller != null) controller.dispose();  · $X = controller`,
      ].join('\n'),
    );
    const calls = await invokeText('ast_grep', { pattern: 'dispose($V)', path: 'structural', language: 'dart' });
    assert.match(calls, /^1 match of `dispose\(\$V\)` in 1 file \(dart, pattern parsed as statement;\):/);
    assert.match(
      calls,
      new RegExp(
        `structural/widgets.dart:${lineOf('structural/widgets.dart', 'dispose(controller);')}: dispose\\(controller\\)  · \\$V = controller`,
      ),
    );
  });

  it('Dart as Flutter writes it, the pattern without its `;`: the guard that disposes what it tested, not the one that disposes something else', async () => {
    const file = 'flutter_app/lib/counter_page.dart';
    const text = await invokeText('ast_grep', { pattern: 'if ($X != null) $X.dispose()', language: 'dart' });
    const lines = text.split('\n');
    assert.match(lines[0], /^\d+ match(es)? of `if \(\$X != null\) \$X\.dispose\(\)` in \d+ files? \(dart, /, text);
    assert.ok(
      lines.includes(
        `${file}:${lineOf(file, 'if (_input != null)')}: if (_input != null) _input.dispose();  · $X = _input`,
      ),
      text,
    );
    assert.doesNotMatch(text, /_pulse\.dispose/);
  });

  it('Dart: a function pattern finds the build method of a State class, with and without the annotation above it', async () => {
    const file = 'flutter_app/lib/counter_page.dart';
    const line = lineOf(file, 'Widget build(BuildContext context) {');
    const plain = await invokeText('ast_grep', {
      pattern: 'Widget build(BuildContext context) { $$$B }',
      language: 'dart',
    });
    assert.match(plain, /^1 match of `Widget build\(BuildContext context\) \{ \$\$\$B \}` in 1 file \(dart, /, plain);
    assert.ok(plain.includes(`${file}:${line}: Widget build(BuildContext context) {`), plain);
    const annotated = await invokeText('ast_grep', {
      pattern: '@override\nWidget build(BuildContext context) { $$$B }',
      path: file,
    });
    assert.ok(annotated.includes(`${file}:${line - 1}: @override`), annotated);
  });

  it('a folder without a language searches every language the pattern parses in, and says which', async () => {
    const text = await invokeText('ast_grep', { pattern: 'print($A)', path: 'structural' });
    const lines = text.split('\n');
    assert.match(lines[0], /^2 matches of `print\(\$A\)` in 2 files \(/);
    assert.ok(
      lines.includes(
        `structural/config.lua:${lineOf('structural/config.lua', 'print(name)')}: print(name)  · $A = name`,
      ),
      text,
    );
    assert.ok(
      lines.includes(
        `structural/report.py:${lineOf('structural/report.py', 'print(len')}: print(len(values))  · $A = len(values)`,
      ),
      text,
    );
    // Neither the string "print(values)" nor the two-argument print is a match.
    assert.equal(lines.filter((line) => line.includes('report.py')).length, 1, text);
  });

  it('respects .gitignore and search.exclude, and reads unsaved editor text', async () => {
    writeWorkspaceFile('structural/.gitignore', 'generated/\n');
    writeWorkspaceFile('structural/generated/skip.py', 'print(ignored)\n');
    writeWorkspaceFile('structural/vendor/skip.py', 'print(excluded)\n');
    await setSetting('search.exclude', { '**/vendor': true });
    try {
      const document = await vscode.workspace.openTextDocument(path.join(workspaceRoot(), 'structural/report.py'));
      const editor = await vscode.window.showTextDocument(document);
      await editor.edit((edit) => edit.insert(new vscode.Position(document.lineCount, 0), 'print(unsaved)\n'));
      const text = await invokeText('ast_grep', { pattern: 'print($A)', path: 'structural', language: 'python' });
      assert.match(text, /print\(unsaved\)/);
      assert.doesNotMatch(text, /ignored|excluded/);
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    } finally {
      await setSetting('search.exclude', undefined);
      fs.rmSync(path.join(workspaceRoot(), 'structural/generated'), { recursive: true, force: true });
      fs.rmSync(path.join(workspaceRoot(), 'structural/vendor'), { recursive: true, force: true });
      fs.rmSync(path.join(workspaceRoot(), 'structural/.gitignore'), { force: true });
    }
  });

  it('stops at max_results and says there are more', async () => {
    const text = await invokeText('ast_grep', { pattern: '$X.dispose()', path: 'structural', max_results: 2 });
    const lines = text.split('\n');
    assert.match(
      lines[0],
      /^More than 2 matches of `\$X\.dispose\(\)`, the first 2 found \(files in path order, one language after another; the search stopped there: narrow `path` or the pattern, or raise `max_results`\)/,
    );
    assert.equal(lines.length, 3, text);
  });

  it('an unparseable pattern is an error naming the contexts tried', async () => {
    const text = await invokeText('ast_grep', { pattern: 'foo(', path: 'structural/cleanup.ts' });
    assert.match(text, /^Error: The pattern does not parse as typescript in any context tried \(statement, .*\)/);
  });

  it('a language outside the shipped grammars is refused by the schema', async () => {
    const text = await invokeText('ast_grep', { pattern: 'x', language: 'cobol' });
    assert.match(text, /^Error: "language" must be one of bash, c, /);
  });

  it('no match explains how matching works', async () => {
    const text = await invokeText('ast_grep', {
      pattern: 'nothingLikeThis($A)',
      path: 'structural',
      language: 'typescript',
    });
    assert.match(
      text,
      /^No matches of `nothingLikeThis\(\$A\)` in 1 file \(typescript, pattern parsed as statement\)\./,
    );
  });
});

const STAGED_SCHEME = 'live-tools-staged';
const DISPOSER =
  'export function close(a: { dispose(): void }, b: { dispose(): void }): void {\n  a.dispose();\n  if (b) {\n    b.dispose();\n  }\n}\n';
const DISPOSER_USER =
  "import { close } from './disposer';\n\nexport const done = (x: { dispose(): void }) => x.dispose();\n";

let projectCount = 0;

/** A fresh two-file project under rewrite/p<n>/ that no other test touches. */
function rewriteProject(): { dir: string; disposer: string; user: string } {
  const dir = `rewrite/p${++projectCount}`;
  writeWorkspaceFile(`${dir}/disposer.ts`, DISPOSER);
  writeWorkspaceFile(`${dir}/user.ts`, DISPOSER_USER);
  return { dir, disposer: `${dir}/disposer.ts`, user: `${dir}/user.ts` };
}

const read = (file: string) => fs.readFileSync(path.join(workspaceRoot(), file), 'utf8');

function stagedIdOf(text: string): string {
  const id = /staged as (edit_\d+):/.exec(text)?.[1];
  assert.ok(id, text);
  return id;
}

function reviewOpen(id: string): boolean {
  return vscode.window.tabGroups.all
    .flatMap((group) => group.tabs)
    .some((tab) => {
      const input = tab.input as { modified?: vscode.Uri; textDiffs?: { modified: vscode.Uri }[] } | undefined;
      const modified = input?.textDiffs?.map((diff) => diff.modified) ?? (input?.modified ? [input.modified] : []);
      return modified.some((uri) => uri.scheme === STAGED_SCHEME && uri.query === `edit=${id}`);
    });
}

describe('ast_edit and resolve in the editor', function () {
  this.timeout(90_000);

  before(async () => {
    await activateExtension();
  });

  it('stages a rewrite across files, writes nothing, opens the review; resolve accept writes exactly the proposal', async () => {
    const project = rewriteProject();
    const text = await invokeText('ast_edit', { pattern: '$X.dispose()', rewrite: 'dispose($X)', path: project.dir });
    const id = stagedIdOf(text);
    const lines = text.split('\n');
    assert.equal(
      lines[0],
      `(proposed) 3 replacements in 2 files — rewrite \`$X.dispose()\` → \`dispose($X)\`. Nothing is written yet; staged as ${id}:`,
    );
    assert.ok(lines.includes('Replacements:'), text);
    assert.ok(lines.includes(`${project.disposer}:2: a.dispose() → dispose(a)`), text);
    assert.ok(lines.includes(`${project.disposer}:4: b.dispose() → dispose(b)`), text);
    assert.ok(lines.includes(`${project.user}:3: x.dispose() → dispose(x)`), text);
    assert.equal(read(project.disposer), DISPOSER);
    assert.equal(read(project.user), DISPOSER_USER);
    await waitUntil('the review of the staged rewrite', () => (reviewOpen(id) ? true : undefined));

    const accepted = await invokeText('resolve', { edit_id: id, action: 'accept' });
    assert.match(
      accepted,
      new RegExp(`^Accepted ${id} \\(rewrite .*\\): wrote 3 replacements in 2 files; all saved\\.`),
    );
    assert.equal(read(project.disposer), DISPOSER.replace(/(\w)\.dispose\(\)/g, 'dispose($1)'));
    assert.equal(read(project.user), DISPOSER_USER.replace('x.dispose()', 'dispose(x)'));
    assert.equal(
      await invokeText('resolve', { edit_id: id, action: 'discard' }),
      `Error: ${id} was already accepted by the agent; its changes are written.`,
    );
  });

  it('a multi-line rewrite follows the indentation of each match', async () => {
    const project = rewriteProject();
    const text = await invokeText('ast_edit', {
      pattern: '$X.dispose()',
      rewrite: 'log("closing");\n$X.dispose()',
      path: project.disposer,
    });
    const id = stagedIdOf(text);
    await invokeText('resolve', { edit_id: id, action: 'accept' });
    assert.equal(
      read(project.disposer),
      'export function close(a: { dispose(): void }, b: { dispose(): void }): void {\n  log("closing");\n  a.dispose();\n  if (b) {\n    log("closing");\n    b.dispose();\n  }\n}\n',
    );
  });

  it('a file changed after staging makes accept refuse the whole change; nothing is written', async () => {
    const project = rewriteProject();
    const id = stagedIdOf(
      await invokeText('ast_edit', { pattern: '$X.dispose()', rewrite: 'dispose($X)', path: project.dir }),
    );
    fs.writeFileSync(path.join(workspaceRoot(), project.user), `${DISPOSER_USER}// edited by someone\n`);
    const refused = await invokeText('resolve', { edit_id: id, action: 'accept' });
    assert.match(refused, new RegExp(`^Error: ${id} .*${project.user.replace(/\//g, '\\/')} \\(changed\\)`));
    assert.equal(read(project.disposer), DISPOSER);
    assert.equal(read(project.user), `${DISPOSER_USER}// edited by someone\n`);
    await invokeText('resolve', { edit_id: id, action: 'discard' });
  });

  it('Accept clicked in the review writes the rewrite; resolve then says the user accepted it', async function () {
    if (!hasBrowser()) this.skip();
    const project = rewriteProject();
    const id = stagedIdOf(
      await invokeText('ast_edit', { pattern: '$X.dispose()', rewrite: 'dispose($X)', path: project.dir }),
    );
    await waitUntil('the review tab', () => (reviewOpen(id) ? true : undefined));
    await browser({
      op: 'click',
      selector: '.editor-group-container.active .editor-actions a.action-label[aria-label^="Accept Staged Edit"]',
    });
    await waitUntil('the files to be written', () => (read(project.user).includes('dispose(x)') ? true : undefined));
    assert.equal(read(project.disposer), DISPOSER.replace(/(\w)\.dispose\(\)/g, 'dispose($1)'));
    assert.equal(await resolvedByUser(id), `Error: ${id} was already accepted by the user; its changes are written.`);
  });

  it('nothing to rewrite stages nothing; an unbound metavariable in the rewrite is an error', async () => {
    const project = rewriteProject();
    assert.match(
      await invokeText('ast_edit', { pattern: 'neverCalled($A)', rewrite: 'other($A)', path: project.dir }),
      /^Nothing to rewrite: no match of `neverCalled\(\$A\)` changes under the rewrite in 2 files \(typescript, pattern parsed as statement\)\. Nothing was staged\.$/,
    );
    assert.equal(
      await invokeText('ast_edit', { pattern: '$X.dispose()', rewrite: 'dispose($Y)', path: project.dir }),
      'Error: The rewrite uses $Y, which the pattern does not bind. The pattern binds $X.',
    );
  });
});

/**
 * Nothing a pattern does can freeze the window: every search parses and matches on a parsing
 * thread (one file too), so while an expensive one runs — or after it is cancelled — the extension
 * host keeps answering. A probe round-trips a command through the workbench every 100 ms and
 * records the slowest answer (before, this pattern ran on the extension host's own thread and the
 * window froze until it ended, which took minutes).
 */
describe('ast_grep never freezes the window', function () {
  this.timeout(120_000);
  const FOUR_RUNS = 'f($$$A0, $$$A1, $$$A2, $$$A3, a1, a0)';
  const HEAVY = 'structural/heavy/args.js';

  before(async () => {
    await activateExtension();
    const call = `f(${Array.from({ length: 40 }, (_, i) => `a${i}`).join(', ')});\n`;
    // ~1.2 M characters: matching stops at its step budget after ~2 s, well past the 800 ms a cancellation waits.
    writeWorkspaceFile(HEAVY, `${call.repeat(6000)}g(x, a1, a0);\n`);
  });

  after(() => fs.rmSync(path.join(workspaceRoot(), 'structural/heavy'), { recursive: true, force: true }));

  /**
   * Round trips of a command through the workbench, every 100 ms, until stopped: how many, the
   * slowest (ms), and what each slow one was (a round trip, or this thread's own timer running late).
   */
  function probeWindow(): { stop(): Promise<{ rounds: number; slowestMs: number; slow: string }> } {
    let running = true;
    let rounds = 0;
    let slowestMs = 0;
    const slow: string[] = [];
    const origin = performance.now();
    const note = (what: string, ms: number): void => {
      slowestMs = Math.max(slowestMs, ms);
      if (ms > 250) slow.push(`${what} ${ms.toFixed(0)} ms at +${(performance.now() - origin).toFixed(0)} ms`);
    };
    const loop = (async () => {
      while (running) {
        const started = performance.now();
        await vscode.commands.executeCommand('setContext', 'liveTools.test.probe', rounds);
        note('round trip', performance.now() - started);
        rounds++;
        // The wait itself counts too: a blocked thread would also hold back this timer.
        const slept = performance.now();
        await new Promise((resolve) => setTimeout(resolve, 100));
        note('timer late', performance.now() - slept - 100);
      }
    })();
    return {
      async stop() {
        running = false;
        await loop;
        return { rounds, slowestMs, slow: slow.join('; ') };
      },
    };
  }

  it('an expensive pattern on one file runs on a parsing thread: the window answers within 1 s meanwhile, and the answer says it was too expensive there', async () => {
    const probe = probeWindow();
    const started = Date.now();
    const answer = await invokeText('ast_grep', { pattern: FOUR_RUNS, path: HEAVY });
    const seconds = (Date.now() - started) / 1000;
    const { rounds, slowestMs, slow } = await probe.stop();
    assert.match(
      answer,
      /^Error: The pattern is too expensive on structural\/heavy\/args\.js: matching stopped after [\d,]+ steps\. Narrow it: fewer `\$\$\$` runs/,
    );
    assert.ok(rounds >= 5, `the search took ${seconds} s and the probe ran ${rounds} times`);
    assert.ok(
      slowestMs < 1000,
      `the window took ${slowestMs.toFixed(0)} ms to answer while the search ran (${slow}; the search took ${seconds} s)`,
    );
  });

  it('cancelled, the search stops at once (its thread is terminated) and the window answers within 1 s during and after', async () => {
    const probe = probeWindow();
    const source = new vscode.CancellationTokenSource();
    const pending = invokeText('ast_grep', { pattern: FOUR_RUNS, path: HEAVY }, source.token).then(
      (text) => `answered: ${text}`,
      // The cancellation crosses the workbench: it arrives as an error named "Canceled", not as a CancellationError instance.
      (error: unknown) =>
        error instanceof vscode.CancellationError || (error instanceof Error && error.name === 'Canceled')
          ? 'cancelled'
          : `failed: ${String(error)}`,
    );
    await new Promise((resolve) => setTimeout(resolve, 800));
    const cancelledAt = Date.now();
    source.cancel();
    assert.equal(await pending, 'cancelled');
    const settleMs = Date.now() - cancelledAt;
    // The threads are fresh and free: a small search answers at once.
    const next = await invokeText('ast_grep', { pattern: 'g($$$A)', path: HEAVY });
    const { slowestMs, slow } = await probe.stop();
    assert.ok(settleMs < 1000, `the cancelled search settled ${settleMs} ms after the cancellation`);
    assert.match(next, /^1 match of `g\(\$\$\$A\)` in 1 file/);
    assert.ok(slowestMs < 1000, `the window took ${slowestMs.toFixed(0)} ms to answer (${slow})`);
    source.dispose();
  });

  it('a folder search names the file over the real size cap (with its size and how to raise the cap) and the binary one; named alone too; a raised cap searches it', async () => {
    const folder = 'structural/heavy/big';
    // Over the 8 M character cap, yet a small tree (one long name) once the raised cap has it parsed.
    const bundle = `g(big);\n${'x'.repeat(8 * 1024 * 1024)}\n`;
    writeWorkspaceFile(`${folder}/bundle.js`, bundle);
    writeWorkspaceFile(`${folder}/clip.js`, 'g(clip);\u0000\n');
    writeWorkspaceFile(`${folder}/small.js`, 'g(small);\n');
    const length = bundle.length.toLocaleString('en-US');
    const capLine =
      `Not searched: 1 file over the size cap of 8 M characters: ${folder}/bundle.js (${length} characters). ` +
      `The human can raise the cap to ${length} or more with the user setting liveTools.structural.maxFileCharacters to search it.`;
    const answer = await invokeText('ast_grep', { pattern: 'g($A)', path: folder });
    assert.deepEqual(answer.split('\n'), [
      '1 match of `g($A)` in 1 file (javascript, pattern parsed as statement):',
      `${folder}/small.js:1: g(small)  · $A = small`,
      capLine,
      `Not searched: 1 binary file (it holds a NUL character): ${folder}/clip.js.`,
    ]);
    const alone = await invokeText('ast_grep', { pattern: 'g($A)', path: `${folder}/bundle.js` });
    assert.match(alone, /^No matches of `g\(\$A\)` in 1 file/);
    assert.equal(alone.split('\n').at(-1), capLine);
    await setSetting('liveTools.structural.maxFileCharacters', bundle.length);
    try {
      assert.match(
        await invokeText('ast_grep', { pattern: 'g($A)', path: `${folder}/bundle.js` }),
        /^1 match of `g\(\$A\)` in 1 file/,
      );
    } finally {
      await setSetting('liveTools.structural.maxFileCharacters', undefined);
    }
  });
});

describe('ast_grep and the trigram index', function () {
  this.timeout(60_000);

  it('after a search the index is built on its thread; the next search does not read files without the pattern’s words, and still sees a change on disk and unsaved text', async () => {
    const { logUri } = await activateExtension();
    const folder = 'trigrams';
    for (let at = 0; at < 40; at++)
      writeWorkspaceFile(
        `${folder}/part${at}.ts`,
        `export function part${at}(value: number): number {\n  return value + ${at};\n}\n`,
      );
    writeWorkspaceFile(
      `${folder}/calls.ts`,
      'import { markerCall } from "./marker";\nmarkerCall(1);\nmarkerCall(2);\n',
    );
    const search = () => invokeText('ast_grep', { pattern: 'markerCall($A)', path: folder });
    const searched = () => logLines(logUri, '[structural.search] "markerCall($A)"');
    const first = await search();
    assert.match(first, /^2 matches of `markerCall\(\$A\)` in 1 file/);
    await waitUntil(
      'the index to be built',
      () => logLines(logUri, '[structural.index] indexed').length > 0 || undefined,
      20_000,
    );
    // Files written within the last two seconds are indexed only once older: wait for them to be.
    await new Promise((resolve) => setTimeout(resolve, 2100));
    await search();
    await waitUntil(
      'the index to hold the new files',
      () => logLines(logUri, '[structural.index] indexed').length > 1 || undefined,
      20_000,
    );
    const before = searched().length;
    assert.equal(await search(), first);
    const line = searched()[before];
    assert.match(line, /files=41 ruledOut=40 parsed=/, line);
    // Another program writes one of the files it ruled out: it is read again.
    writeWorkspaceFile(`${folder}/part3.ts`, 'markerCall(3);\n');
    // The human types in another, unsaved.
    const document = await vscode.workspace.openTextDocument(path.join(workspaceRoot(), folder, 'part4.ts'));
    const editor = await vscode.window.showTextDocument(document);
    try {
      await editor.edit((edit) => edit.insert(new vscode.Position(0, 0), 'markerCall(4);\n'));
      const after = await search();
      assert.match(after, /^4 matches of `markerCall\(\$A\)` in 3 files/, after);
      assert.match(after, new RegExp(`${folder}/part3.ts:1: markerCall\\(3\\)`));
      assert.match(after, new RegExp(`${folder}/part4.ts:1: markerCall\\(4\\)`));
    } finally {
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    }
  });
});

describe('ast_grep and file events', function () {
  this.timeout(60_000);

  it('a file changed on disk is indexed again from the editor’s file events: the next search does not read it to tell', async () => {
    const { logUri } = await activateExtension();
    const folder = 'trigramEvents';
    for (let at = 0; at < 8; at++) writeWorkspaceFile(`${folder}/e${at}.ts`, `eventMarker(${at});\n`);
    const search = (pattern: string) => invokeText('ast_grep', { pattern, path: folder });
    const lastSearch = (pattern: string) => logLines(logUri, `[structural.search] ${JSON.stringify(pattern)}`).pop();
    // Files written within the last two seconds are indexed only once older.
    await new Promise((resolve) => setTimeout(resolve, 2100));
    assert.match(await search('eventMarker($A)'), /^8 matches of `eventMarker\(\$A\)` in 8 files/);
    // Indexed once a search of a word none of them has reads none of them.
    await waitUntilAsync(
      'the index to hold the files',
      async () => {
        await search('otherCall($A)');
        return /files=8 ruledOut=8 /.test(lastSearch('otherCall($A)') ?? '') || undefined;
      },
      20_000,
    );
    // Another program takes the call out of three files; no search asks meanwhile: the editor's file
    // events (batched for 0.5 s) reach the index thread, which builds them again past the 2 s racy window.
    for (let at = 0; at < 3; at++) writeWorkspaceFile(`${folder}/e${at}.ts`, `otherCall(${at});\n`);
    await new Promise((resolve) => setTimeout(resolve, 5000));
    assert.match(await search('eventMarker($A)'), /^5 matches of `eventMarker\(\$A\)` in 5 files/);
    const line = lastSearch('eventMarker($A)') ?? '';
    assert.match(line, /files=8 ruledOut=3 parsed=/, line);
  });
});

describe('ast_grep within its memory budget', function () {
  this.timeout(60_000);

  it('Show Structural Search Memory reports what the threads measured and the caches hold, within the user’s budget', async () => {
    await activateExtension();
    await invokeText('ast_grep', { pattern: 'if ($X != null) $X.dispose()', language: 'dart' });
    const report = (await vscode.commands.executeCommand<string>('liveTools.showStructuralMemory')) ?? '';
    const total =
      /^Structural search memory: ([\d.]+) MiB of 256\.0 MiB \(setting liveTools\.structural\.memoryBudgetMB\)\./.exec(
        report,
      );
    assert.ok(total && Number(total[1]) <= 256, report);
    // A parsing thread measures its wasm memory: the runtime starts it at 32 MiB.
    const wasm = [...report.matchAll(/wasm ([\d.]+) MiB/g)].map((found) => Number(found[1]));
    assert.ok(wasm.length > 0 && wasm.every((mib) => mib >= 32), report);
    assert.match(report, /^- source cache: [\d.]+ MiB, \d+ files/m);
    await setSetting('liveTools.structural.memoryBudgetMB', 160);
    try {
      await waitUntilAsync(
        'the budget to follow the setting',
        async () =>
          /MiB of 160\.0 MiB/.test(
            (await vscode.commands.executeCommand<string>('liveTools.showStructuralMemory')) ?? '',
          ) || undefined,
        10_000,
      );
    } finally {
      await setSetting('liveTools.structural.memoryBudgetMB', undefined);
      // The command shows its first line as a notification with a button, which stays: later tests read the center.
      await vscode.commands.executeCommand('notifications.clearAll');
    }
  });
});
