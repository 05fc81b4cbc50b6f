import * as assert from 'node:assert/strict';
import {
  AmbiguousSymbol,
  findOccurrences,
  InvalidSymbol,
  LineOutOfRange,
  locateSymbol,
  markOccurrence,
  OccurrenceOutOfRange,
  SymbolNotOnLine,
} from '../../src/lsp/symbolLocation';

function source(text: string) {
  const lines = text.split('\n');
  return { lineCount: lines.length, lineText: (index: number) => lines[index] };
}

const file = source(
  [
    'import { greet } from "./greeter";', // 1
    'const greeter = makeGreeter();', // 2
    'greet(greeter, greeter.name);', // 3
    'const foobar = foo + 1;', // 4
    'this.#count = count#1;', // 5
    '', // 6
    'call(greet);', // 7
  ].join('\n'),
);

describe('locateSymbol: line + symbol → position', () => {
  const cases: {
    name: string;
    line: number;
    symbol: string;
    occurrence?: number;
    character: number;
    length: number;
  }[] = [
    { name: 'a unique identifier', line: 1, symbol: 'greet', character: 9, length: 5 },
    {
      name: 'whole identifiers win over substrings (greeter ≠ greet)',
      line: 3,
      symbol: 'greet',
      character: 0,
      length: 5,
    },
    {
      name: 'an occurrence index picks one of several',
      line: 3,
      symbol: 'greeter',
      occurrence: 2,
      character: 15,
      length: 7,
    },
    { name: 'the name#N shorthand', line: 3, symbol: 'greeter#1', character: 6, length: 7 },
    { name: 'foo is not found inside foobar', line: 4, symbol: 'foo', character: 15, length: 3 },
    { name: 'a literal # in code is taken literally', line: 5, symbol: 'count#1', character: 14, length: 7 },
    { name: 'a private field with #', line: 5, symbol: '#count', character: 5, length: 6 },
    { name: 'a substring when no whole identifier matches', line: 2, symbol: 'Greet', character: 20, length: 5 },
  ];
  for (const testCase of cases) {
    it(testCase.name, () => {
      const location = locateSymbol(file, testCase.line, testCase.symbol, testCase.occurrence);
      assert.equal(location.line, testCase.line);
      assert.equal(location.character, testCase.character);
      assert.equal(location.length, testCase.length);
    });
  }

  it('refuses a symbol that occurs more than once, listing the occurrences', () => {
    assert.throws(
      () => locateSymbol(file, 3, 'greeter'),
      (error: unknown) =>
        error instanceof AmbiguousSymbol && error.occurrences.join(',') === '6,15' && error.line === 3,
    );
  });

  it('refuses a symbol that is not on the line, naming nearby lines that have it', () => {
    assert.throws(
      () => locateSymbol(file, 6, 'greet'),
      (error: unknown) =>
        error instanceof SymbolNotOnLine && error.lineText === '' && error.nearbyLines.join(',') === '7,3,2,1',
    );
  });

  it('refuses a line outside the file', () => {
    assert.throws(
      () => locateSymbol(file, 99, 'x'),
      (error: unknown) => error instanceof LineOutOfRange && error.lineCount === 7,
    );
    assert.throws(() => locateSymbol(file, 0, 'x'), LineOutOfRange);
  });

  it('refuses an occurrence beyond the count', () => {
    assert.throws(
      () => locateSymbol(file, 3, 'greeter', 3),
      (error: unknown) => error instanceof OccurrenceOutOfRange && error.count === 2,
    );
  });

  it('refuses an empty symbol and contradicting occurrence indexes', () => {
    assert.throws(() => locateSymbol(file, 1, '  '), InvalidSymbol);
    assert.throws(() => locateSymbol(file, 3, 'greeter#1', 2), InvalidSymbol);
  });
});

describe('findOccurrences', () => {
  it('treats $ and _ as identifier characters', () => {
    assert.deepEqual(findOccurrences('$el + el + el_x', 'el'), [6]);
  });
  it('matches symbols that start with punctuation', () => {
    assert.deepEqual(findOccurrences('a?.b?.c', '?.'), [1, 4]);
  });
});

describe('markOccurrence', () => {
  it('marks the occurrence and trims indentation', () => {
    assert.equal(markOccurrence('    greet(greeter, greeter)', 19, 7), 'greet(greeter, «greeter»)');
  });
  it('cuts long lines around the occurrence', () => {
    const line = `${'a'.repeat(200)} target ${'b'.repeat(200)}`;
    const marked = markOccurrence(line, 201, 6, 60);
    assert.ok(marked.includes('«target»'), marked);
    assert.ok(marked.startsWith('…') && marked.endsWith('…'), marked);
    assert.ok(marked.length <= 64, `${marked.length}`);
  });
});
