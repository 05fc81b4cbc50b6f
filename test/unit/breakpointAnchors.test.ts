import * as assert from 'node:assert/strict';
import { anchorBreakpoints, linesAround } from '../../src/debug/breakpointAnchors';

const file = [
  'def total(basket):',
  '    sum_ = 0',
  '    for item in basket:',
  '        sum_ += prices[item]',
  '    return sum_',
];

describe('breakpoints anchored by their text', () => {
  it('stays when the text is on its line; goes to the nearest line holding it after an edit, and says from where', () => {
    assert.deepEqual(anchorBreakpoints(file, [{ line: 4, lineText: 'sum_ += prices' }]), { placed: [{ line: 4 }] });
    const edited = ['# one', '# two', ...file];
    assert.deepEqual(
      anchorBreakpoints(edited, [{ line: 4, lineText: '  sum_ += prices[item]  ', condition: 'sum_ > 2' }]),
      {
        placed: [{ line: 6, movedFrom: 4, condition: 'sum_ > 2' }],
      },
    );
    // A symbol is a whole identifier: `sum_` is not found inside `sum_total`.
    assert.deepEqual(anchorBreakpoints(['sum_total = 1', 'x = 2', 'sum_ = 3'], [{ line: 1, symbol: 'sum_' }]), {
      placed: [{ line: 3, movedFrom: 1 }],
    });
    // A line the file no longer has is fine when the text decides.
    assert.deepEqual(anchorBreakpoints(file, [{ line: 40, lineText: 'return sum_' }]), {
      placed: [{ line: 5, movedFrom: 40 }],
    });
    // Without a text the line is taken as given.
    assert.deepEqual(anchorBreakpoints(file, [{ line: 2 }]), { placed: [{ line: 2 }] });
  });

  it('of two lines at the same distance the later wins; a text found nowhere is returned to be refused', () => {
    assert.deepEqual(anchorBreakpoints(['x = 1', 'y = 2', 'x = 1'], [{ line: 2, lineText: 'x = 1' }]), {
      placed: [{ line: 3, movedFrom: 2 }],
    });
    const spec = { line: 3, lineText: 'total += price' };
    assert.deepEqual(anchorBreakpoints(file, [spec]), { notFound: spec });
    assert.equal(
      linesAround(file, 1),
      '1: def total(basket):\n2:     sum_ = 0\n3:     for item in basket:\n4:         sum_ += prices[item]',
    );
  });
});
