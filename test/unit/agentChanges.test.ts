import * as assert from 'node:assert/strict';
import { seededRandom } from '../support/seededRandom';
import {
  agentHunks,
  FileRecord,
  keepHunk,
  recordWrite,
  revertFile,
  revertHunk,
  revertToCall,
} from '../../src/changes/agentChanges';
import { ChangeLog } from '../../src/changes/changeLog';
import { mergeRegions } from '../../src/edits/lineMerge';
import { diffLines, MAX_DIFF_DISTANCE, splitLines } from '../../src/edits/textDiff';

const lines = (...items: string[]) => items.map((item) => `${item}\n`).join('');

describe('line diff and three-way regions', () => {
  it('splits lines keeping their breaks, so joining gives the text back', () => {
    for (const text of ['', 'a', 'a\n', 'a\r\nb', '\n\n', 'x\ny\n\nz'])
      assert.equal(splitLines(text).join(''), text, JSON.stringify(text));
    assert.deepEqual(splitLines('a\r\nb'), ['a\r\n', 'b']);
  });

  it('finds the changed chunks, and one coarse chunk past the distance bound', () => {
    assert.deepEqual(diffLines(['a', 'b', 'c'], ['a', 'x', 'c', 'd']), [
      { oldStart: 1, oldEnd: 2, newStart: 1, newEnd: 2 },
      { oldStart: 3, oldEnd: 3, newStart: 3, newEnd: 4 },
    ]);
    const size = MAX_DIFF_DISTANCE + 10;
    const before = Array.from({ length: size }, (_, index) => `${index % 2 ? 'o' : 'p'}${index}`);
    const after = Array.from({ length: size }, (_, index) => `${index % 2 ? 'n' : 'p'}${index}`);
    const coarse = diffLines(before, after);
    assert.equal(coarse.length, 1, 'one chunk past the bound');
    assert.deepEqual(coarse[0], { oldStart: 1, oldEnd: size, newStart: 1, newEnd: size });
  });

  it('regions that touch are changed by both', () => {
    const regions = mergeRegions(['a', 'b', 'c', 'd'], ['a', 'B', 'c', 'd'], ['a', 'b', 'C', 'd']);
    assert.deepEqual(
      regions.map((region) => region.changedBy),
      ['both'],
    );
    const apart = mergeRegions(['a', 'b', 'c', 'd', 'e'], ['A', 'b', 'c', 'd', 'e'], ['a', 'b', 'c', 'd', 'E']);
    assert.deepEqual(
      apart.map((region) => region.changedBy),
      ['ours', 'theirs'],
    );
  });
});

describe('agent changes: revert and keep by hunk, file and checkpoint', () => {
  const base = lines('one', 'two', 'three', 'four', 'five', 'six', 'seven');
  const agent = lines('one', 'TWO', 'three', 'four', 'five', 'SIX', 'seven', 'eight');
  const record = (): FileRecord => recordWrite(undefined, 'call_1', { path: '/w/a.ts', before: base, after: agent });

  it('lists the agent hunks and reverts one, leaving the others', () => {
    assert.equal(agentHunks(record()).length, 3);
    const result = revertHunk(record(), agent, 1);
    assert.equal(result.text, lines('one', 'TWO', 'three', 'four', 'five', 'six', 'seven', 'eight'));
    assert.deepEqual(result.refused, []);
    assert.equal(agentHunks(result.record!).length, 2);
  });

  it('a line changed by hand after the agent is refused and shown; the rest is reverted and the manual edit stays', () => {
    const current = lines('one', 'TWO!', 'three', 'four', 'hand', 'five', 'SIX', 'seven', 'eight');
    const result = revertFile(record(), current);
    assert.equal(result.text, lines('one', 'TWO!', 'three', 'four', 'hand', 'five', 'six', 'seven'));
    assert.deepEqual(result.refused, [{ line: 2, endLine: 2 }]);
    // What is left is the refused hunk, still the agent's.
    assert.equal(agentHunks(result.record!).length, 1);
    assert.deepEqual(revertHunk(result.record!, result.text, 0).refused, [{ line: 2, endLine: 2 }]);
  });

  it('a hunk the human already reverted by hand is not a conflict: Revert clears it', () => {
    const byHand = agent.replace('TWO\n', 'two\n');
    const result = revertHunk(record(), byHand, 0);
    assert.deepEqual(result.refused, []);
    assert.equal(result.text, byHand);
    assert.equal(agentHunks(result.record!).length, 2);
  });

  it('a kept hunk cannot be reverted afterwards, by hunk, file or checkpoint', () => {
    const kept = keepHunk(record(), 0)!;
    assert.equal(agentHunks(kept).length, 2);
    assert.equal(revertFile(kept, agent).text, lines('one', 'TWO', 'three', 'four', 'five', 'six', 'seven'));
    assert.equal(
      revertToCall(kept, agent, ['call_1'], 'call_1').text,
      lines('one', 'TWO', 'three', 'four', 'five', 'six', 'seven'),
    );
    assert.equal(keepHunk(keepHunk(kept, 0)!, 0), undefined, 'every hunk kept: nothing left');
  });

  it('checkpoints restore the text before a call; manual edits between calls are kept', () => {
    let file = record();
    // A manual edit between the agent's writes, then a second call.
    const manual = agent.replace('four\n', 'four (by hand)\n');
    const second = manual.replace('seven\n', 'SEVEN\n');
    file = recordWrite(file, 'call_2', { path: '/w/a.ts', before: manual, after: second });
    const toSecond = revertToCall(file, second, ['call_1', 'call_2'], 'call_2');
    assert.equal(toSecond.text, manual);
    const toFirst = revertToCall(file, second, ['call_1', 'call_2'], 'call_1');
    assert.equal(toFirst.text, base.replace('four\n', 'four (by hand)\n'));
    assert.equal(toFirst.record, undefined, 'nothing of the agent is left');
  });

  it('a created file is deleted by a revert, a deleted one restored; touched after the agent, refused', () => {
    const created = recordWrite(undefined, 'c', { path: '/w/new.ts', before: undefined, after: 'x\n' });
    assert.equal(revertFile(created, 'x\n').text, undefined);
    assert.equal(revertFile(created, 'x\ny\n').text, 'x\ny\n');
    assert.equal(revertFile(created, 'x\ny\n').refused.length, 1);
    const deleted = recordWrite(undefined, 'd', { path: '/w/old.ts', before: 'old\n', after: undefined });
    assert.equal(revertFile(deleted, undefined).text, 'old\n');
  });

  it('the log is bounded: the oldest conversations go first, and it says how many', () => {
    // Each conversation holds its text before (twice: base and the step) and after.
    const log = new ChangeLog(130);
    const call = (id: string) => ({ id, label: 'edit', at: 0 });
    log.record('c1', 'first', call('1'), [{ path: '/w/a', before: 'a'.repeat(20), after: 'b'.repeat(20) }]);
    log.record('c2', 'second', call('2'), [{ path: '/w/b', before: 'c'.repeat(20), after: 'd'.repeat(20) }]);
    assert.deepEqual(
      log.all().map((record) => record.conversation),
      ['c1', 'c2'],
    );
    log.record('c3', 'third', call('3'), [{ path: '/w/c', before: 'e'.repeat(30), after: 'f'.repeat(30) }]);
    assert.deepEqual(
      log.all().map((record) => record.conversation),
      ['c3'],
    );
    assert.deepEqual(log.dropped, { checkpoints: 0, conversations: 2, files: 0 });
    const reloaded = new ChangeLog(130, JSON.parse(JSON.stringify(log.serialized())));
    assert.deepEqual(reloaded.all(), log.all());
    assert.deepEqual(reloaded.dropped, log.dropped);
    assert.equal(reloaded.size, log.size);
  });

  it('past the bound the oldest checkpoints go first; every file stays revertible whole, and the newest checkpoint stays', () => {
    const text = (round: number) =>
      Array.from({ length: 10 }, (_, line) => `line ${line} v${line === round % 10 ? round : 0}\n`).join('');
    const log = new ChangeLog(1_000);
    let current = text(0);
    for (let round = 1; round <= 12; round++) {
      const after = text(round);
      log.record('c', 'chat', { id: `call_${round}`, label: 'edit', at: round }, [
        { path: '/w/a', before: current, after },
      ]);
      current = after;
    }
    const record = log.get('c');
    assert.ok(record, 'the conversation is kept');
    assert.ok(log.size <= 1_000, `${log.size} characters held`);
    assert.ok(
      log.dropped.checkpoints > 0 && log.dropped.conversations === 0 && log.dropped.files === 0,
      JSON.stringify(log.dropped),
    );
    assert.equal(record.calls[0].id, `call_${log.dropped.checkpoints + 1}`, 'the oldest calls went');
    assert.equal(record.calls[record.calls.length - 1].id, 'call_12');
    const [file] = record.files;
    assert.equal(revertFile(file, current).text, text(0), 'the whole file still reverts to before the first change');
    assert.equal(
      revertToCall(
        file,
        current,
        record.calls.map((call) => call.id),
        'call_12',
      ).text,
      text(11),
      'the newest checkpoint still restores',
    );
  });

  it('a file whose latest change alone is over the bound stays, with that change', () => {
    const log = new ChangeLog(50);
    log.record('c', 'chat', { id: 'call_1', label: 'write', at: 0 }, [
      { path: '/w/small', before: 'a\n', after: 'b\n' },
    ]);
    log.record('c', 'chat', { id: 'call_2', label: 'write', at: 1 }, [
      { path: '/w/big', before: 'x'.repeat(40), after: 'y'.repeat(40) },
    ]);
    assert.deepEqual(
      log.get('c')?.files.map((file) => file.path),
      ['/w/big'],
    );
    assert.deepEqual(log.dropped, { checkpoints: 1, conversations: 0, files: 1 });
    assert.equal(revertFile(log.get('c')!.files[0], 'y'.repeat(40)).text, 'x'.repeat(40));
  });

  it('recording a write leaves the earlier steps as they are: its cost does not grow with the history', () => {
    let file = record();
    let current = agent;
    for (let round = 0; round < 50; round++) {
      // A manual edit between the agent's writes (the case that carried every step before).
      const manual = current.replace(/^four.*\n/m, `four (by hand ${round})\n`);
      const after = manual.replace(/^seven.*\n/m, `seven ${round}\n`);
      const next = recordWrite(file, `call_${round + 2}`, { path: '/w/a.ts', before: manual, after });
      assert.ok(
        file.steps.every((step, index) => next.steps[index] === step),
        `round ${round}: a step was rewritten`,
      );
      file = next;
      current = after;
    }
    assert.equal(file.steps.length, 51);
    // Restoring a checkpoint applies the manual edits made after it.
    const calls = file.steps.map((step) => step.call);
    const restored = revertToCall(file, current, calls, 'call_1');
    assert.deepEqual(restored.refused, []);
    assert.equal(restored.text, base.replace('four\n', 'four (by hand 49)\n'));
  });

  it('a record saved by the previous version loads (its steps already carried)', () => {
    const log = new ChangeLog(undefined, {
      version: 1,
      conversations: [
        {
          conversation: 'c',
          label: 'chat',
          calls: [{ id: 'call_1', label: 'edit', at: 0 }],
          files: [{ path: '/w/a', base: 'a\n', agent: 'b\n', steps: [{ call: 'call_1', before: 'a\n' }] }],
        },
      ],
      dropped: 3,
    } as never);
    assert.deepEqual(log.dropped, { checkpoints: 0, conversations: 3, files: 0 });
    assert.equal(revertToCall(log.get('c')!.files[0], 'b\n', ['call_1'], 'call_1').text, 'a\n');
  });
});

describe('randomized trial of agent writes × manual edits × keeps × reverts', () => {
  const SEED = 20261204;
  const TRIALS = 1000;

  it(`${TRIALS} trials from seed ${SEED}: reverts restore exactly, never touch a manual line, never bring back a kept hunk`, () => {
    const random = seededRandom(SEED);
    const int = (below: number) => Math.floor(random() * below);
    let fresh = 0;
    const unique = (prefix: string) => `${prefix}${fresh++}\n`;
    /** The agent's edit of a text: a few lines replaced, inserted or removed, each new line unique. */
    const agentEdit = (text: string): string => {
      const out = splitLines(text);
      for (let count = 1 + int(4); count > 0; count--) {
        const at = int(out.length + 1);
        const kind = int(3);
        if (kind === 0 && at < out.length) out[at] = unique('A');
        else if (kind === 1) out.splice(at, 0, unique('A'));
        else if (at < out.length) out.splice(at, 1);
      }
      return out.join('');
    };
    const manualEdit = (text: string): { text: string; line: string } => {
      const out = splitLines(text);
      const line = unique('M');
      out.splice(int(out.length + 1), 0, line);
      return { text: out.join(''), line };
    };

    let exact = 0;
    let refusals = 0;
    let keeps = 0;
    let checkpoints = 0;
    for (let trial = 0; trial < TRIALS; trial++) {
      const original = Array.from({ length: 5 + int(20) }, () => unique('b')).join('');
      const calls = Array.from({ length: 1 + int(3) }, (_, index) => `call_${index}`);
      const beforeCall: string[] = [];
      const manualLines: string[] = [];
      let current = original;
      let file: FileRecord | undefined;
      for (const call of calls) {
        if (file && random() < 0.4) {
          const manual = manualEdit(current);
          current = manual.text;
          manualLines.push(manual.line);
        }
        beforeCall.push(current);
        const after = agentEdit(current);
        file = recordWrite(file, call, { path: '/w/f', before: current, after });
        current = after;
      }
      if (!file) continue;
      const label = `trial ${trial}`;
      const choice = random();
      if (choice < 0.3 && manualLines.length === 0) {
        // Keep some hunks (from the last, so indexes stay), then revert the file: exactly base with the kept hunks.
        const hunks = agentHunks(file);
        const baseLines = splitLines(file.base ?? '');
        const agentLines = splitLines(file.agent ?? '');
        const keep = hunks.filter(() => random() < 0.5);
        let kept: FileRecord | undefined = file;
        for (const hunk of [...keep].reverse()) kept = kept && keepHunk(kept, hunk.index);
        const expected: string[] = [];
        let at = 0;
        for (const hunk of hunks) {
          expected.push(...baseLines.slice(at, hunk.baseStart));
          expected.push(
            ...(keep.includes(hunk)
              ? agentLines.slice(hunk.agentStart, hunk.agentEnd)
              : baseLines.slice(hunk.baseStart, hunk.baseEnd)),
          );
          at = hunk.baseEnd;
        }
        expected.push(...baseLines.slice(at));
        const result = kept ? revertFile(kept, current) : { text: current, refused: [] };
        assert.equal(result.text, expected.join(''), `${label}: kept ${keep.length} of ${hunks.length}`);
        assert.deepEqual(result.refused, [], label);
        keeps++;
      } else if (choice < 0.6 && manualLines.length === 0) {
        // Back to before a call, nothing touched by hand: exactly that text.
        const index = int(calls.length);
        const result = revertToCall(file, current, calls, calls[index]);
        assert.equal(result.text, beforeCall[index], `${label}: before ${calls[index]}`);
        assert.deepEqual(result.refused, [], label);
        checkpoints++;
      } else {
        // Manual lines after the agent too: a revert of everything keeps each of them, and any line of
        // the agent's left in the result lies in a refused region, or was folded into the base because a
        // manual edit between the agent's calls touched it (then it is no longer the agent's).
        if (random() < 0.7) {
          const manual = manualEdit(current);
          current = manual.text;
          manualLines.push(manual.line);
        }
        const result = revertFile(file, current);
        const out = splitLines(result.text ?? '');
        for (const line of manualLines)
          if (splitLines(current).includes(line))
            assert.ok(out.includes(line), `${label}: the manual line ${line.trim()} was reverted`);
        const folded = new Set(splitLines(file.base ?? ''));
        out.forEach((line, index) => {
          if (!line.startsWith('A') || folded.has(line)) return;
          assert.ok(
            result.refused.some((region) => region.line <= index + 1 && index + 1 <= region.endLine),
            `${label}: the agent's ${line.trim()} at line ${index + 1} was neither reverted nor refused ${JSON.stringify({ base: file?.base, agent: file?.agent, current, out: result.text, refused: result.refused, steps: file?.steps })}`,
          );
        });
        if (result.refused.length > 0) refusals++;
        else exact++;
        // Whatever was refused stays revertable later and is refused again while the lines are as they are.
        if (result.record && result.refused.length > 0)
          assert.ok(revertFile(result.record, result.text).refused.length > 0, `${label}: refused again`);
      }
    }
    assert.ok(
      keeps > 100 && checkpoints > 100 && exact > 100 && refusals > 50,
      `keeps ${keeps}, checkpoints ${checkpoints}, clean reverts ${exact}, with refusals ${refusals}`,
    );
  });
});
