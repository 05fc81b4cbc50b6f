import * as assert from 'node:assert/strict';
import { ChangeLog, PlannedRevert } from '../../src/changes/changeLog';
import {
  changeChildren,
  changeRow,
  conversationLabel,
  droppedMessage,
  hunkLine,
  recordLabel,
  revertMessage,
  scopeOf,
} from '../../src/changes/changesView';

const display = (file: string) => file.replace(/^\/w\//, '');
const lines = (...items: string[]) => items.map((item) => `${item}\n`).join('');
const BEFORE = lines('one', 'two', 'three', 'four', 'five', 'six');
const AFTER = lines('one', 'TWO', 'three', 'four', 'five', 'SIX');

/** A conversation that edited one file (two hunks) and created another. */
function recorded(): ChangeLog {
  const log = new ChangeLog();
  log.record('vscode-chat-session://local/1', 'the chat', { id: 'call_1', label: 'edit src/a.ts', at: 0 }, [
    { path: '/w/src/a.ts', before: BEFORE, after: AFTER },
    { path: '/w/new.ts', before: undefined, after: 'x\n' },
  ]);
  return log;
}

describe('Agent Changes view model', () => {
  it('rows: the conversation with its counts, each file with its folder and changes, each hunk with its first line', () => {
    const log = recorded();
    const [conversation] = changeChildren(undefined, log.all());
    const record = log.get(conversation.conversation);
    const top = changeRow(conversation, record, display);
    assert.deepEqual(
      [top.label, top.description, top.tooltip],
      ['the chat', '2 files · 3 changes', 'the chat: 2 files · 3 changes, in 1 tool call'],
    );
    const files = changeChildren(conversation, log.all());
    const [edited, created] = files.map((node) => changeRow(node, record, display));
    assert.deepEqual([edited.label, edited.description, edited.collapsible], ['a.ts', 'src · 2 changes', 'expanded']);
    assert.deepEqual([created.label, created.description, created.collapsible], ['new.ts', 'created', 'none']);
    const hunks = changeChildren(files[0], log.all());
    assert.deepEqual(
      hunks.map((node) => [changeRow(node, record, display).label, changeRow(node, record, display).description]),
      [
        ['line 2', '~ TWO'],
        ['line 6', '~ SIX'],
      ],
    );
    assert.equal(hunkLine(record, hunks[1]), 5);
    assert.deepEqual(changeChildren(files[1], log.all()), [], 'a created file is one change, no hunks');
  });

  it('names conversations, and what Keep or Revert on a row is about', () => {
    assert.equal(conversationLabel('window'), 'This window (no chat session)');
    assert.equal(conversationLabel('mcp:7'), 'MCP session 7');
    assert.equal(conversationLabel('vscode-chat-session://local/1#worker-w2'), 'worker w2');
    assert.equal(recordLabel('window', 'MCP client "x"', undefined), 'This window (no chat session)');
    assert.equal(recordLabel('mcp:7', '', 'MCP client "claude"'), 'MCP client "claude"');
    assert.equal(recordLabel('mcp:7', '', undefined), 'MCP session 7');
    assert.deepEqual(scopeOf({ kind: 'hunk', conversation: 'c', path: '/w/a', index: 2 }), {
      kind: 'hunk',
      path: '/w/a',
      index: 2,
    });
    assert.deepEqual(scopeOf({ kind: 'conversation', conversation: 'c' }), { kind: 'all' });
  });

  it('says what the size bound dropped', () => {
    assert.equal(droppedMessage({ checkpoints: 0, conversations: 0, files: 0 }), undefined);
    assert.equal(
      droppedMessage({ checkpoints: 3, conversations: 0, files: 0 }),
      '3 older checkpoints dropped to keep the record within its size bound (every file can still be reverted whole).',
    );
    assert.equal(
      droppedMessage({ checkpoints: 1, conversations: 2, files: 0 }),
      '1 older checkpoint, 2 older conversations dropped to keep the record within its size bound.',
    );
  });

  it('a revert writes only the files it changes, commits what was written, and says where it refused', async () => {
    const log = recorded();
    const conversation = 'vscode-chat-session://local/1';
    const written: PlannedRevert[][] = [];
    // The human changed line 2 after the agent: that hunk is refused, line 6 reverted.
    const now = AFTER.replace('TWO\n', 'TWO by hand\n');
    const planned = await log.revert(
      conversation,
      { kind: 'file', path: '/w/src/a.ts' },
      {
        currentText: async (file) => (file === '/w/src/a.ts' ? now : 'x\n'),
        write: async (changes) => void written.push([...changes]),
      },
    );
    assert.ok(planned);
    assert.deepEqual(
      written.map((changes) => changes.map((change) => [change.path, change.text])),
      [[['/w/src/a.ts', now.replace('SIX\n', 'six\n')]]],
    );
    assert.deepEqual(revertMessage(planned, display), {
      text: 'Reverted 1 change in 1 file. Not reverted, because they were changed after the agent: src/a.ts:2.',
      warning: true,
    });
    assert.equal(log.get(conversation)?.files.length, 2, 'the refused hunk and the created file stay');
  });

  it('a revert the writer refuses commits nothing', async () => {
    const log = recorded();
    const conversation = 'vscode-chat-session://local/1';
    const before = log.get(conversation);
    await assert.rejects(
      log.revert(
        conversation,
        { kind: 'all' },
        {
          currentText: async (file) => (file === '/w/src/a.ts' ? AFTER : 'x\n'),
          write: async () => {
            throw new Error('src/a.ts changed since this change was planned');
          },
        },
      ),
      /changed since/,
    );
    assert.equal(log.get(conversation), before);
    assert.equal(
      await log.revert(
        'unknown',
        { kind: 'all' },
        { currentText: async () => undefined, write: async () => undefined },
      ),
      undefined,
    );
  });
});
