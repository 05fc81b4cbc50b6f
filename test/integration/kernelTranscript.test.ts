/**
 * The human watching the agent's kernels: the transcript notebook (read-only, as it runs, with an
 * image), Interrupt and Restart clicked in its toolbar in the browser, the export as .ipynb, and the
 * Agent Kernels view listing the kernel's names after a cell. Debian's Python through the eval venv.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { browser, hasBrowser } from './support/browser';
import { activateExtension, invokeText, setSetting, waitUntil, workspaceRoot } from './support/tools';

const python = (code: string, description: string, extra: object = {}) =>
  invokeText('eval', { code, description, ...extra });

const KERNEL = { conversation: 'window', language: 'python' } as const;

/** The code cells of the transcript open in the editor, as the human sees them. */
function codeCells(): vscode.NotebookCell[] {
  const notebook = vscode.window.activeNotebookEditor?.notebook;
  assert.ok(notebook, 'a notebook is open');
  return notebook.getCells().filter((cell) => cell.kind === vscode.NotebookCellKind.Code);
}

function outputItems(cell: vscode.NotebookCell): vscode.NotebookCellOutputItem[] {
  return cell.outputs.flatMap((output) => output.items);
}

const decoded = (item: vscode.NotebookCellOutputItem) => Buffer.from(item.data).toString('utf8');

describe('kernel transcript and the Agent Kernels view', function () {
  this.timeout(120_000);

  before(async function () {
    if (!hasBrowser()) this.skip();
    await activateExtension();
    const venv = path.join(workspaceRoot(), 'eval', '.venv');
    if (!fs.existsSync(path.join(venv, 'bin', 'python')))
      execFileSync('/usr/bin/python3', ['-m', 'venv', '--system-site-packages', venv]);
    await setSetting('liveTools.eval.python', 'eval/.venv/bin/python');
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('liveTools.stopKernels');
    await setSetting('liveTools.eval.python', undefined);
  });

  it('shows each agent cell with its description, code and outputs (an image too), read-only; exports as .ipynb', async () => {
    await python(
      'import matplotlib\nmatplotlib.use("Agg")\nimport matplotlib.pyplot as plt\nbasket = [3, 5, 7]',
      'load the basket',
      {
        reset: true,
      },
    );
    await python('print(sum(basket))', 'add up the basket');
    await python('plt.plot(basket)\nplt.gcf()', 'plot the basket');
    const uri = await vscode.commands.executeCommand<vscode.Uri>('liveTools.openKernelTranscript', KERNEL);
    assert.equal(vscode.window.activeNotebookEditor?.notebook.uri.toString(), uri.toString());
    assert.equal(vscode.window.activeNotebookEditor?.notebook.notebookType, 'agent-kernel-transcript');

    const cells = codeCells().slice(-3);
    assert.deepEqual(
      cells.map((cell) => cell.document.getText()),
      [
        'import matplotlib\nmatplotlib.use("Agg")\nimport matplotlib.pyplot as plt\nbasket = [3, 5, 7]',
        'print(sum(basket))',
        'plt.plot(basket)\nplt.gcf()',
      ],
    );
    assert.deepEqual(
      cells.map((cell) => cell.executionSummary?.executionOrder),
      [1, 2, 3],
    );
    assert.ok(cells.every((cell) => cell.executionSummary?.success === true));
    assert.equal(decoded(outputItems(cells[1])[0]), '15\n');
    const image = outputItems(cells[2]).find((item) => item.mime === 'image/png');
    assert.ok(
      image,
      `the plot is an image output: ${outputItems(cells[2])
        .map((item) => item.mime)
        .join(', ')}`,
    );
    assert.deepEqual([...image.data.slice(0, 4)], [0x89, 0x50, 0x4e, 0x47]);
    // Each code cell follows the line with its description and how it ended.
    const notebook = cells[2].notebook;
    const header = notebook.cellAt(cells[2].index - 1).document.getText();
    assert.match(header, /^\*\*\[3\] plot the basket\*\* — ran in \d/, header);
    // What the human sees: the transcript opens at its latest cell, the plot's code and the plot itself.
    await browser({ op: 'text', selector: '.notebook-editor .code-cell-row .view-lines', text: 'plt\\.gcf\\(\\)' });
    const plots = await browser({
      op: 'count',
      selector: 'img',
      frames: ['.notebook-editor iframe.webview.ready', 'iframe#active-frame'],
    });
    assert.ok((plots.count ?? 0) >= 1, `the plot is drawn in the notebook (${plots.count} images)`);

    // Read-only: what the human types into a cell goes nowhere, so the transcript stays what the kernel ran.
    await browser({ op: 'click', selector: '.notebook-editor .code-cell-row .view-lines', text: 'plt\\.gcf\\(\\)' });
    await browser({ op: 'type', text: 'typed by hand' });
    await browser({ op: 'text', selector: '.monaco-editor-overlaymessage', text: 'Cannot edit in read-only editor' });
    // The message would cover the toolbar: gone with Escape.
    await browser({ op: 'press', key: 'Escape' });
    assert.equal(cells[2].document.getText(), 'plt.plot(basket)\nplt.gcf()');
    assert.equal(notebook.isDirty, false);

    const target = vscode.Uri.file(path.join(os.tmpdir(), `agent-transcript-${process.pid}.ipynb`));
    try {
      const written = await vscode.commands.executeCommand<vscode.Uri>(
        'liveTools.exportKernelTranscript',
        KERNEL,
        target,
      );
      assert.equal(written?.fsPath, target.fsPath);
      const exported = JSON.parse(fs.readFileSync(target.fsPath, 'utf8')) as {
        nbformat: number;
        metadata: { kernelspec: { language: string } };
        cells: Array<{
          cell_type: string;
          source: string[];
          outputs?: Array<{ data?: Record<string, string>; text?: string[] }>;
        }>;
      };
      assert.equal(exported.nbformat, 4);
      assert.equal(exported.metadata.kernelspec.language, 'python');
      const code = exported.cells.filter((cell) => cell.cell_type === 'code').slice(-3);
      assert.deepEqual(
        code.map((cell) => cell.source.join('')),
        cells.map((cell) => cell.document.getText()),
      );
      assert.deepEqual(code[1].outputs?.[0].text, ['15\n']);
      assert.match(
        code[2].outputs?.find((output) => output.data?.['image/png'])?.data?.['image/png'] ?? '',
        /^iVBORw0KGgo/,
      );
    } finally {
      fs.rmSync(target.fsPath, { force: true });
    }
  });

  it("Interrupt, clicked in the transcript's toolbar, stops the running cell and keeps the state; Restart clears it, and the agent is told", async () => {
    await python('basket = [3, 5, 7]', 'load the basket');
    await vscode.commands.executeCommand('liveTools.openKernelTranscript', KERNEL);
    const running = python('import time\nfor _ in range(600):\n    time.sleep(0.1)', 'wait a minute');
    // The running cell is in the transcript before it ends.
    await waitUntil('the running cell in the transcript', () =>
      codeCells().some(
        (cell) => cell.document.getText().includes('range(600)') && cell.executionSummary?.success === undefined,
      )
        ? true
        : undefined,
    );
    await browser({ op: 'click', selector: '.notebook-toolbar-container [aria-label^="Interrupt the Agent"]' });
    const interrupted = await running;
    assert.match(interrupted, /^The cell was interrupted \(the kernel and its state are kept\)/, interrupted);
    assert.match(interrupted, /the human interrupted the cell from the kernel's transcript/, interrupted);
    await waitUntil('the transcript to show the interrupt', () => {
      const cell = codeCells().at(-1);
      const header = cell && cell.notebook.cellAt(cell.index - 1).document.getText();
      return header && /wait a minute\*\* — interrupted by you/.test(header) ? header : undefined;
    });
    assert.match(await python('basket', 'the basket is still there'), /^\[3, 5, 7\]$/);

    await browser({ op: 'click', selector: '.notebook-toolbar-container [aria-label^="Restart Agent Kernel"]' });
    const after = await python('"basket" in globals()', 'is the basket still there');
    assert.match(after, /^\[the human restarted the Python kernel; its state was lost\]\n\[started Python /, after);
    assert.match(after, /\nFalse$/, after);
    await waitUntil('the restart in the transcript', () => {
      const notebook = vscode.window.activeNotebookEditor?.notebook;
      return notebook?.getCells().some((cell) => /You restarted the kernel/.test(cell.document.getText()))
        ? true
        : undefined;
    });
  });

  it("the Agent Kernels view lists the kernel's names with their type and a short value after a cell", async () => {
    await vscode.commands.executeCommand('liveTools.kernels.focus');
    await python('answer = 41 + 1\nname = "ada"\nimport json', 'set two names');
    const answer = await browser({
      op: 'text',
      selector: '.monaco-list-row',
      text: '^answer\\s*int = 42$',
      timeoutMs: 20_000,
    });
    assert.match(answer.text ?? '', /answer\s*int = 42/);
    const name = await browser({ op: 'text', selector: '.monaco-list-row', text: "^name\\s*str = 'ada'$" });
    assert.match(name.text ?? '', /name\s*str = 'ada'/);
    // Our own listing cell is not in the agent's transcript.
    await vscode.commands.executeCommand('liveTools.openKernelTranscript', KERNEL);
    assert.ok(codeCells().every((cell) => !cell.document.getText().includes('agent-variables')));
  });
});
