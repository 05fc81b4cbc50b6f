import * as assert from 'node:assert/strict';
import { changedLines, diffPreview } from '../../src/edits/diffPreview';
import { PathLocks } from '../../src/edits/pathLocks';
import { SeenTexts } from '../../src/edits/seenTexts';
import { PreparedCalls, PREPARED_CALL_TTL_MS, PREPARED_CALLS_CAP } from '../../src/tools/preparedCalls';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe("the writer's rules: one caller per file, what each conversation saw, the change shown", () => {
  it('writes to one file never interleave; writes to other files run side by side', async () => {
    const locks = new PathLocks();
    const events: string[] = [];
    let releaseFirst!: () => void;
    const first = locks.run(['/w/b', '/w/a'], async () => {
      events.push('first starts');
      await new Promise<void>((resolve) => (releaseFirst = resolve));
      events.push('first ends');
    });
    const second = locks.run(['/w/a'], async () => void events.push('second runs'));
    const other = locks.run(['/w/c'], async () => void events.push('other runs'));
    await tick();
    assert.deepEqual(events, ['first starts', 'other runs']);
    releaseFirst();
    await Promise.all([first, second, other]);
    assert.deepEqual(events, ['first starts', 'other runs', 'first ends', 'second runs']);
    assert.equal(locks.busy, 0, 'nothing held afterwards');
    // A failing run releases its paths too.
    await assert.rejects(
      locks.run(['/w/a'], async () => Promise.reject(new Error('refused'))),
      /refused/,
    );
    assert.equal(await locks.run(['/w/a'], async () => 'next'), 'next');
  });

  it('remembers per conversation what it last saw of a file, within a bound (least recently used go first)', () => {
    const seen = new SeenTexts(10);
    seen.set('chat', '/w/a', 'aaaa');
    seen.set('worker', '/w/a', 'bbbb');
    assert.equal(seen.get('chat', '/w/a'), 'aaaa');
    assert.equal(seen.get('worker', '/w/a'), 'bbbb');
    seen.set('chat', '/w/b', 'cccc');
    assert.equal(seen.get('chat', '/w/a'), undefined, 'the oldest went past the bound');
    assert.equal(seen.size, 8);
    seen.set('chat', '/w/b', undefined);
    assert.equal(seen.get('chat', '/w/b'), undefined);
    seen.forget('worker');
    assert.equal(seen.size, 0);
  });

  it('shows a change as its lines: which ones, and a capped diff with each line clipped', () => {
    const before = 'one\ntwo\nthree\nfour\n';
    const after = 'one\nTWO\nthree\nfour\nfive\n';
    assert.equal(changedLines(before, after), '2, 5');
    assert.equal(diffPreview(before, after), '@@ line 2\n-two\n+TWO\n@@ line 5\n+five');
    assert.equal(diffPreview(before, after, 3), '@@ line 2\n-two\n+TWO\n… 2 more diff lines');
    assert.equal(diffPreview('', `${'x'.repeat(500)}\n`).length, '@@ line 1\n+'.length + 160);
  });

  it('keeps the plan shown for a call until that call runs: by tool and input, the latest only, within an age and a count', () => {
    let now = 0;
    const calls = new PreparedCalls(() => now);
    calls.put('edit', { path: 'a', old_string: 'x' }, { plan: 1 });
    // Prepared again (the human denied the first, the model asks once more): the new plan replaces it.
    calls.put('edit', { old_string: 'x', path: 'a' }, { error: new Error('not found') });
    assert.ok(
      'error' in (calls.take('edit', { path: 'a', old_string: 'x' }) ?? { plan: 0 }),
      'key order does not matter',
    );
    assert.equal(calls.take('edit', { path: 'a', old_string: 'x' }), undefined, 'a denied plan is never applied later');
    calls.put('write', { path: 'a' }, { plan: 2 });
    now += PREPARED_CALL_TTL_MS + 1;
    assert.equal(calls.take('write', { path: 'a' }), undefined, 'a plan never taken expires');
    for (let index = 0; index <= PREPARED_CALLS_CAP; index++)
      calls.put('write', { path: String(index) }, { plan: index });
    assert.equal(calls.size, PREPARED_CALLS_CAP);
    assert.equal(calls.take('write', { path: '0' }), undefined, 'the oldest went past the cap');
    assert.deepEqual(calls.take('write', { path: String(PREPARED_CALLS_CAP) }), { plan: PREPARED_CALLS_CAP });
  });
});
