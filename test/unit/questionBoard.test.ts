/** The question board: numbering, what an answer must contain, settling once, expiry, history. */
import * as assert from 'node:assert/strict';
import { HISTORY_CAP, outcomeText, QuestionBoard, QuestionSpec } from '../../src/questions/questionBoard';

const spec = (overrides: Partial<QuestionSpec> = {}): QuestionSpec => ({
  question: 'Which one?',
  options: [{ label: 'a' }, { label: 'b' }, { label: 'c' }],
  allowFreeText: false,
  multiSelect: false,
  ...overrides,
});

describe('question board', () => {
  let board: QuestionBoard;
  let changes: number;

  beforeEach(() => {
    changes = 0;
    board = new QuestionBoard(() => changes++);
  });

  afterEach(() => board.dispose());

  it('numbers cards in order and queues them', () => {
    const first = board.ask(spec(), 60_000);
    const second = board.ask(spec(), 60_000);
    assert.deepEqual([first.card.number, second.card.number], [1, 2]);
    assert.deepEqual(
      board.pending.map((card) => card.number),
      [1, 2],
    );
    assert.equal(changes, 2);
  });

  it('refuses answers the card does not allow, keeping it up', async () => {
    const { card, outcome } = board.ask(spec(), 60_000);
    assert.equal(board.answer(card.number, { picked: [] }), 'pick an option first');
    assert.equal(board.answer(card.number, { picked: [3] }), 'an option that is not on the card was picked');
    assert.equal(board.answer(card.number, { picked: [0, 1] }), 'only one option can be picked');
    assert.equal(
      board.answer(card.number, { picked: [], text: 'typed' }),
      'pick an option first',
      'text is ignored where free text is not allowed',
    );
    assert.equal(board.pending.length, 1);
    assert.equal(board.answer(card.number, { picked: [1] }), undefined);
    assert.deepEqual(await outcome, { kind: 'answered', labels: ['b'], text: undefined });
    assert.equal(board.answer(card.number, { picked: [0] }), 'card #1 is no longer waiting');
  });

  it('free text is always allowed without options; several picks come back in the card order', async () => {
    const typed = board.ask(spec({ options: [] }), 60_000);
    assert.equal(board.answer(typed.card.number, { picked: [], text: '  ' }), 'type an answer first');
    board.answer(typed.card.number, { picked: [], text: ' port 8080 ' });
    assert.equal(outcomeText(typed.card, await typed.outcome), 'The user answered question #1: wrote: "port 8080".');
    const multi = board.ask(spec({ multiSelect: true, allowFreeText: true }), 60_000);
    board.answer(multi.card.number, { picked: [2, 0, 2], text: 'and d' });
    assert.equal(
      outcomeText(multi.card, await multi.outcome),
      'The user answered question #2: chose "a", "c" and wrote: "and d".',
    );
  });

  it('settles once: a skip is not an error, an expiry is, and both say to proceed without asking again', async () => {
    const skipped = board.ask(spec(), 60_000);
    board.skip(skipped.card.number);
    board.answer(skipped.card.number, { picked: [0] });
    const skipText = outcomeText(skipped.card, await skipped.outcome);
    assert.match(
      skipText,
      /^The user skipped question #1 without answering\. Proceed on an assumption you state in your reply, and do not ask this again\.$/,
    );
    const expiring = board.ask(spec(), 30);
    const expired = await expiring.outcome;
    assert.deepEqual(expired, { kind: 'expired', afterMs: 30 });
    assert.match(
      outcomeText(expiring.card, expired),
      /^Error: question #2 expired: no answer within 0 s\. Proceed on an assumption/,
    );
    assert.deepEqual(board.pending, []);
  });

  it('keeps a short history, newest first, without cards nobody saw', async () => {
    for (let index = 0; index < HISTORY_CAP + 3; index++) board.skip(board.ask(spec(), 60_000).card.number);
    const unseen = board.ask(spec(), 60_000);
    board.unattached(unseen.card.number, 'no window');
    assert.equal(board.history.length, HISTORY_CAP);
    assert.equal(board.history[0].card.number, HISTORY_CAP + 3);
    assert.match(
      outcomeText(unseen.card, await unseen.outcome),
      /^Error: no human is attached to answer question #14: no window\./,
    );
  });

  it('dispose withdraws every waiting card', async () => {
    const { outcome } = board.ask(spec(), 60_000);
    board.dispose();
    assert.deepEqual(await outcome, { kind: 'cancelled' });
  });
});
