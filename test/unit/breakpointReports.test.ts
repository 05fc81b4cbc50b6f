/**
 * What the adapter said of each breakpoint, as DAP messages arrive: answers in request order, a
 * later `breakpoint` event binding or moving one, a family's sessions merged (js-debug's parent
 * never binds what its child does), and the notes' caps.
 */
import * as assert from 'node:assert/strict';
import { BreakpointReports } from '../../src/debug/breakpointReports';
import { movedNote, unboundNote, UNBOUND_SHOWN } from '../../src/debug/answers';

const FILE = '/w/app.js';

describe('breakpoint reports', () => {
  it('an answer in request order, then an event that binds one where the adapter chose; bound once stays "ever bound"', () => {
    const reports = new BreakpointReports();
    reports.requested('s', 7, FILE, [3, 9]);
    reports.answered('s', 7, true, [
      { id: 1, verified: false, message: 'Unbound breakpoint' },
      { id: 2, verified: true, line: 10 },
    ]);
    assert.deepEqual(reports.of(FILE)?.get(3), {
      verified: false,
      everVerified: false,
      line: undefined,
      message: 'Unbound breakpoint',
    });
    assert.deepEqual(reports.of(FILE)?.get(9), { verified: true, everVerified: true, line: 10, message: undefined });
    reports.changed('s', 'changed', { id: 1, verified: true, line: 4 });
    assert.deepEqual(reports.of(FILE)?.get(3), { verified: true, everVerified: true, line: 4, message: undefined });
    reports.changed('s', 'changed', { id: 1, verified: false, message: 'script gone' });
    assert.deepEqual(reports.of(FILE)?.get(3), {
      verified: false,
      everVerified: true,
      line: 4,
      message: 'script gone',
    });
    assert.equal(reports.of('/w/other.js'), undefined);
  });

  it('an answer of none is an answer (the human removed them); a child that ended binds nothing now, though it once bound; unanswered requests are capped', async () => {
    const reports = new BreakpointReports();
    reports.requested('s', 1, FILE, [3]);
    reports.answered('s', 1, true, [{ id: 1, verified: true }]);
    reports.requested('s', 2, FILE, []);
    reports.answered('s', 2, true, []);
    assert.deepEqual(reports.of(FILE), new Map());
    reports.requested('parent', 3, FILE, [5]);
    reports.answered('parent', 3, true, [{ verified: false, message: 'Unbound breakpoint' }]);
    reports.requested('child', 4, FILE, [5]);
    reports.answered('child', 4, true, [{ verified: true }]);
    assert.equal(reports.of(FILE)?.get(5)?.verified, true);
    reports.sessionEnded('child');
    assert.deepEqual(reports.of(FILE)?.get(5), {
      verified: false,
      everVerified: true,
      line: undefined,
      message: 'Unbound breakpoint',
    });
    // An adapter that never answers cannot grow what is kept: the oldest requests are dropped.
    for (let seq = 10; seq < 5000; seq++) reports.requested('mute', seq, FILE, [1]);
    reports.answered('mute', 10, true, [{ verified: true }]);
    assert.equal(reports.of(FILE)?.get(1), undefined);
    reports.answered('mute', 4999, true, [{ verified: true }]);
    assert.equal(reports.of(FILE)?.get(1)?.verified, true);
    // One session alone: no extra wait for another's answer.
    const single = new BreakpointReports();
    single.requested('s', 1, FILE, [3]);
    const started = Date.now();
    const waiting = single.answerAfter(FILE, 0, 3000, [3]);
    single.answered('s', 1, true, [{ verified: false, message: 'no code' }]);
    assert.equal((await waiting)?.get(3)?.verified, false);
    assert.ok(Date.now() - started < 300, `${Date.now() - started} ms`);
  });

  it('a family: bound in the child is bound, whatever the parent says; a refused request leaves the lines unbound', () => {
    const reports = new BreakpointReports();
    reports.requested('parent', 1, FILE, [3]);
    reports.requested('child', 1, FILE, [3]);
    reports.answered('child', 1, true, [{ id: 5, verified: true, line: 3 }]);
    reports.answered('parent', 1, true, [{ id: 1, verified: false, message: 'Unbound breakpoint' }]);
    assert.equal(reports.of(FILE)?.get(3)?.verified, true);
    reports.requested('s', 2, '/w/b.py', [1]);
    reports.answered('s', 2, false, undefined);
    assert.deepEqual(reports.of('/w/b.py')?.get(1), {
      verified: false,
      everVerified: false,
      line: undefined,
      message: 'the adapter refused',
    });
  });

  it('answerAfter: the first answer after the mark for the lines set (not a step of the editor replacing them), or undefined when none comes in time', async () => {
    const reports = new BreakpointReports();
    reports.requested('s', 1, FILE, [3, 8]);
    reports.answered('s', 1, true, [
      { verified: true, line: 3 },
      { verified: true, line: 8 },
    ]);
    const mark = reports.answerCount;
    assert.equal(await reports.answerAfter(FILE, mark, 50, [3, 8]), undefined, 'an old answer is not the new one');
    const waiting = reports.answerAfter(FILE, mark, 5_000, [3, 8]);
    // As measured with debugpy: one request per breakpoint removed, then the new set.
    reports.requested('s', 2, FILE, [8]);
    reports.requested('s', 3, FILE, []);
    reports.requested('s', 4, FILE, [3, 8]);
    setImmediate(() => {
      reports.answered('s', 2, true, [{ verified: true, line: 8 }]);
      reports.answered('s', 3, true, []);
      setImmediate(() =>
        reports.answered('s', 4, true, [
          { verified: true, line: 3 },
          { verified: true, line: 9 },
        ]),
      );
    });
    assert.deepEqual((await waiting)?.get(8)?.line, 9);
  });

  it('notes: at most UNBOUND_SHOWN named, the rest counted; an adapter message on one clipped line', () => {
    const places = Array.from({ length: UNBOUND_SHOWN + 2 }, (_, index) => ({
      file: 'app.py',
      line: index + 1,
      message: index === 0 ? `first\n${'m'.repeat(300)}` : undefined,
    }));
    const note = unboundNote(places, true);
    assert.match(note, /^7 breakpoints never bound: app\.py:1 \(first m+…\), app\.py:2 \(no reason given\), /);
    assert.match(note, /app\.py:5 \(no reason given\), and 2 more\.$/);
    assert.ok(note.length < 300, note);
    assert.equal(unboundNote([], false), '');
    assert.equal(
      movedNote([{ file: 'app.py', line: 3, movedTo: 1 }]),
      '1 breakpoint moved by the adapter: app.py:3 → line 1.',
    );
  });
});
