import * as assert from 'node:assert/strict';
import { KernelResult } from '../../src/kernels/kernelResult';
import { KernelTranscripts, MAX_CELLS, MAX_IMAGE_BYTES, partsOf, toIpynb } from '../../src/kernels/transcript';

const ended = (over: Partial<KernelResult> = {}): KernelResult => ({
  parts: [],
  status: 'ok',
  notes: [],
  cutChars: 0,
  seconds: 0.25,
  ...over,
});

describe('kernel transcripts', () => {
  it("a running cell shows its output as it arrives, then its result's; each change is announced", () => {
    const transcripts = new KernelTranscripts();
    const changes: string[] = [];
    transcripts.onDidChange((conversation, language) => changes.push(`${conversation}/${language}`));
    const cell = transcripts.began('window', 'python', { description: 'count', code: 'print(1)' });
    cell.output({ kind: 'text', stream: 'stdout', text: '1\n' });
    cell.output({ kind: 'text', stream: 'stdout', text: '2\n' });
    const [entry] = transcripts.get('window', 'python')?.entries ?? [];
    assert.equal(entry.kind === 'cell' && entry.status, 'running');
    assert.deepEqual(entry.kind === 'cell' && partsOf(entry), [{ kind: 'text', stream: 'stdout', text: '1\n2\n' }]);
    cell.end(ended({ parts: [{ kind: 'result', text: '3' }] }));
    assert.deepEqual(entry.kind === 'cell' && [entry.status, partsOf(entry)], ['ok', [{ kind: 'result', text: '3' }]]);
    // Output that arrives after the end (a late stream) changes nothing.
    cell.output({ kind: 'text', text: 'late' });
    assert.deepEqual(changes, ['window/python', 'window/python', 'window/python', 'window/python']);
    assert.equal(transcripts.get('window', 'javascript'), undefined);
  });

  it('cells count from 1 for each fresh kernel, after a line saying why; a conversation that ends takes its transcripts', () => {
    const transcripts = new KernelTranscripts();
    const run = (code: string) => transcripts.began('chat-1', 'python', { description: code, code }).end(ended());
    run('a = 1');
    run('b = 2');
    transcripts.mark('chat-1', 'python', 'You restarted the kernel.');
    transcripts.newKernel('chat-1', 'python');
    run('c = 3');
    const entries = transcripts.get('chat-1', 'python')?.entries ?? [];
    assert.deepEqual(
      entries.map((entry) => (entry.kind === 'cell' ? entry.order : entry.text)),
      [1, 2, 'You restarted the kernel.', 1],
    );
    transcripts.newKernel('chat-1', 'python');
    assert.equal(transcripts.get('chat-1', 'python')?.entries.at(-1)?.kind, 'mark');
    transcripts.began('chat-1#worker-w1', 'javascript', { description: 'x', code: 'x' });
    transcripts.began('chat-2', 'python', { description: 'x', code: 'x' });
    transcripts.forget((id) => id === 'chat-1' || id.startsWith('chat-1#'));
    assert.deepEqual(
      transcripts.all().map((transcript) => transcript.conversation),
      ['chat-2'],
    );
  });

  it('keeps the last MAX_CELLS cells and, over the image budget, gives up the oldest images first', () => {
    const transcripts = new KernelTranscripts();
    for (let n = 0; n < MAX_CELLS + 5; n++)
      transcripts.began('w', 'python', { description: `cell ${n}`, code: `${n}` }).end(ended());
    const transcript = transcripts.get('w', 'python');
    assert.equal(transcript?.entries.length, MAX_CELLS);
    assert.equal(transcript?.droppedCells, 5);
    assert.equal(transcript?.entries[0].kind === 'cell' && transcript.entries[0].code, '5');

    const images = new KernelTranscripts();
    const image = { kind: 'image' as const, mime: 'image/png' as const, data: new Uint8Array(MAX_IMAGE_BYTES / 2 + 1) };
    for (let n = 0; n < 3; n++)
      images.began('w', 'python', { description: `plot ${n}`, code: 'plt.gcf()' }).end(ended({ parts: [image] }));
    const cells = images.get('w', 'python')?.entries ?? [];
    assert.deepEqual(
      cells.map((cell) => (cell.kind === 'cell' ? [cell.parts.length, cell.imagesDropped] : [])),
      [
        [0, 1],
        [0, 1],
        [1, 0],
      ],
    );
  });

  it('exports as a Jupyter notebook: the description, the code with its order, streams, results and images', () => {
    const transcripts = new KernelTranscripts();
    transcripts.began('w', 'python', { description: 'plot it', code: 'print("a")\nplt.gcf()' }).end(
      ended({
        parts: [
          { kind: 'text', stream: 'stdout', text: 'a\nb\n' },
          { kind: 'image', mime: 'image/png', data: new Uint8Array([0x89, 0x50, 0x4e, 0x47]) },
          { kind: 'result', text: '42' },
          { kind: 'error', text: 'Traceback…' },
        ],
      }),
    );
    const notebook = JSON.parse(toIpynb(transcripts.get('w', 'python')!)) as {
      nbformat: number;
      metadata: { kernelspec: { name: string } };
      cells: Array<Record<string, unknown>>;
    };
    assert.equal(notebook.nbformat, 4);
    assert.equal(notebook.metadata.kernelspec.name, 'python3');
    assert.deepEqual(notebook.cells[0], {
      id: 'cell-1',
      cell_type: 'markdown',
      metadata: {},
      source: ['**plot it** — ran in 0.25 s'],
    });
    assert.deepEqual(notebook.cells[1], {
      id: 'cell-2',
      cell_type: 'code',
      execution_count: 1,
      metadata: {},
      source: ['print("a")\n', 'plt.gcf()'],
      outputs: [
        { output_type: 'stream', name: 'stdout', text: ['a\n', 'b\n'] },
        { output_type: 'display_data', metadata: {}, data: { 'image/png': 'iVBORw==' } },
        { output_type: 'execute_result', execution_count: null, metadata: {}, data: { 'text/plain': ['42'] } },
        { output_type: 'stream', name: 'stderr', text: ['Traceback…'] },
      ],
    });
  });
});
