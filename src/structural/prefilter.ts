/**
 * What a file must contain for a pattern to match it, checked before it is parsed (parsing is
 * most of a search's cost, and most files of a folder cannot match):
 * - every text the pattern's leaves require verbatim (`requiredTexts`, all languages);
 * - for the languages below, every run of leaves the pattern writes side by side (`console . log (`
 *   in a pattern of a logging call; see requiredRunsOf), in that order, with nothing between them
 *   but what the matcher lets lie there: whitespace, comments, and tokens the grammar leaves
 *   unnamed (the matcher skips those: `export function $F() {}` matches `export async function
 *   f() {}`). A match that spans a syntax error between two such leaves (error recovery leaves
 *   the junk beside them) is not found.
 * Measured on the benchmark's node_modules: the logging pattern is then parsed in 86 of the 126
 * files that have its texts.
 */
import { Language } from 'web-tree-sitter';
import { childrenOf, PatternNode } from './patternTree';
import { containsText, TextSearch } from '../edits/textSearch';
import { lowerBound } from '../edits/sortedSearch';

/** What the runs of a language need to know of its grammar. */
interface RunGrammar {
  /** Openers of comments that end at the line's end. */
  readonly lineComments: readonly string[];
  readonly blockComments: ReadonlyArray<readonly [open: string, close: string]>;
  /**
   * Nodes whose last child in a pattern is the last in every match too (the matcher ignores a
   * node's children after those the pattern names, so a run ends after any other node): `a.b`.
   */
  readonly closedNodes: ReadonlySet<string>;
}

const JAVASCRIPT: RunGrammar = {
  lineComments: ['//', '<!--', '-->'],
  blockComments: [['/*', '*/']],
  closedNodes: new Set(['member_expression']),
};

/**
 * Where the runs are checked: the languages whose extras (what may lie anywhere) are only
 * whitespace and the comments given here, and whose unnamed tokens are all spelled as their types
 * (what the matcher skips), checked by parsing real code: ~800 files of node_modules for
 * javascript/typescript/tsx (TypeScript's `unique symbol` may be spaced otherwise: its words are
 * keywords anyway), the 8,403 .py files of Debian's Python for python (a `\` line continuation is
 * punctuation). Not Rust, Swift or Kotlin: their block comments nest.
 */
const RUN_GRAMMARS: ReadonlyMap<string, RunGrammar> = new Map([
  ['javascript', JAVASCRIPT],
  ['typescript', JAVASCRIPT],
  ['tsx', JAVASCRIPT],
  ['python', { lineComments: ['#'], blockComments: [], closedNodes: new Set(['attribute']) }],
]);

export interface Prefilter {
  readonly language: string;
  readonly requiredTexts: readonly string[];
  /** Runs of leaf texts that appear in this order, separated only as above. */
  readonly requiredRuns: ReadonlyArray<readonly string[]>;
  /** The words of the grammar's unnamed tokens (keywords), which may lie between a run's texts. */
  readonly gapWords: readonly string[];
}

/**
 * The runs of a pattern: its leaves in order, into a child node (which a match has right where the
 * pattern has it, nothing named between) and on past one only if it is closed (`closedNodes`); broken by
 * a metavariable and by the tokens after a `$$$` run (which a match may leave out). Each from the
 * first text with a letter or digit (the search starts at each place the run's first text occurs:
 * a `(` is everywhere), of two texts or more.
 */
export function requiredRunsOf(languageId: string, root: PatternNode): string[][] {
  const grammar = RUN_GRAMMARS.get(languageId);
  if (!grammar) return [];
  const runs: string[][] = [];
  let run: string[] = [];
  const end = (): void => {
    const first = run.findIndex((text) => /[\p{L}\p{N}_$]/u.test(text));
    if (first !== -1 && run.length - first > 1) runs.push(run.slice(first));
    run = [];
  };
  const visit = (node: PatternNode): void => {
    if (node.kind !== 'node') return;
    for (const { child, optional } of childrenOf(node)) {
      if (child.kind === 'leaf' && !optional) run.push(child.text);
      else if (child.kind === 'node') {
        visit(child);
        if (!grammar.closedNodes.has(child.type)) end();
      } else end();
    }
  };
  visit(root);
  end();
  return runs;
}

/** The words of a grammar's unnamed tokens. */
export function gapWordsOf(language: Language): string[] {
  const words = new Set<string>();
  for (let id = 0; id < language.nodeTypeCount; id++) {
    const type = language.nodeTypeForId(id);
    if (!type || language.nodeTypeIsNamed(id)) continue;
    for (const word of type.match(/[A-Za-z0-9_$]+/g) ?? []) words.add(word);
  }
  return [...words].sort();
}

/** The keyword sets, one per pattern summary (a search checks every file it reads against one). */
const gapWordSets = new WeakMap<readonly string[], ReadonlySet<string>>();

/** Whether the text has what every match of the pattern contains (`stats`: the run search's steps, for tests). */
export function mayMatch(text: string, prefilter: Prefilter, stats?: { steps: number }): boolean {
  for (const required of prefilter.requiredTexts) if (!containsText(text, required)) return false;
  const grammar = RUN_GRAMMARS.get(prefilter.language);
  if (!grammar || prefilter.requiredRuns.length === 0) return true;
  let gapWords = gapWordSets.get(prefilter.gapWords);
  if (!gapWords) gapWordSets.set(prefilter.gapWords, (gapWords = new Set(prefilter.gapWords)));
  // One budget for all the runs of the pattern (a model may write a hundred): past it the file is parsed.
  const search: RunSearch = { places: new TextPlaces(text, gapWords, grammar), steps: 0 };
  const found = prefilter.requiredRuns.every((run) => containsRun(text, run, search));
  if (stats) stats.steps = search.steps;
  return found;
}

/** The search of a pattern's runs in one text: the text's places (what may lie between two texts of a run), the steps taken. */
interface RunSearch {
  readonly places: TextPlaces;
  steps: number;
}

/**
 * The steps the search of all of a pattern's runs may take in one text before it gives up and lets
 * the file be parsed (a file of keywords only, `typeof typeof …`, is a gap everywhere): a few
 * milliseconds on this thread. A step is a place visited; finding the next start of a run, comparing
 * a long text and marking a new text's places cost steps in proportion.
 */
export const RUN_SEARCH_STEPS = 1_000_000;

/**
 * Whether the run occurs: a search over the places (which text of the run is next, where), each
 * visited once for the whole text, from every place the run's first text ends. Linear in the text
 * times the run's length, and cut at RUN_SEARCH_STEPS (then it may occur: the file is parsed).
 */
function containsRun(text: string, run: readonly string[], search: RunSearch): boolean {
  const { places } = search;
  // One bit per place and text of the run, made when that text is first reached (its cost counted).
  const seen: Array<Uint32Array | undefined> = [];
  const stride = text.length + 1;
  const pending: number[] = [];
  const visit = (index: number, at: number): void => {
    if (at >= text.length) return;
    let bits = seen[index];
    if (!bits) {
      search.steps += stride >> 5;
      bits = seen[index] = new Uint32Array((stride >> 5) + 1);
    }
    const mask = 1 << (at & 31);
    if (bits[at >> 5] & mask) return;
    bits[at >> 5] |= mask;
    pending.push(index * stride + at);
  };
  const first = new TextSearch(run[0]);
  const startCost = 1 + (run[0].length >> 4);
  for (let start = first.indexIn(text); start !== -1; start = first.indexIn(text, start + 1)) {
    if (run.length === 1) return true;
    if ((search.steps += startCost) > RUN_SEARCH_STEPS) return true;
    visit(1, start + run[0].length);
    while (pending.length > 0) {
      if (++search.steps > RUN_SEARCH_STEPS) return true;
      const key = pending.pop() as number;
      const index = Math.floor(key / stride);
      const at = key - index * stride;
      const next = run[index];
      if (text.startsWith(next, at)) {
        if (index + 1 === run.length) return true;
        search.steps += next.length >> 4;
        visit(index + 1, at + next.length);
      }
      if (isWordCharacter(text.charCodeAt(at))) {
        // A keyword the matcher may skip; any other word (a name, a number) ends the gap.
        const keywordEnd = places.keywordEnd(at);
        if (keywordEnd !== undefined) visit(index, keywordEnd);
        continue;
      }
      // Whitespace, punctuation (parts of unnamed tokens) and any other character; a comment may open here.
      visit(index, at + 1);
      for (const end of places.commentEnds(at)) visit(index, end);
    }
  }
  return false;
}

/**
 * What the run search asks of a text: whether a keyword starts at a place (a word no longer than the
 * longest keyword is read), and where a comment opened at a place may end (the line terminators and
 * closers found in one pass each, then searched by halving).
 */
class TextPlaces {
  private terminators: number[] | undefined;
  private lineFeeds: number[] | undefined;
  private readonly closers = new Map<string, number[]>();
  private readonly longestKeyword: number;

  constructor(
    private readonly text: string,
    private readonly words: ReadonlySet<string>,
    private readonly grammar: RunGrammar,
  ) {
    let longest = 0;
    for (const word of words) longest = Math.max(longest, word.length);
    this.longestKeyword = longest;
  }

  /** Where the keyword starting at `at` ends, if the word there is one. */
  keywordEnd(at: number): number | undefined {
    const { text } = this;
    const limit = Math.min(text.length, at + this.longestKeyword + 1);
    let end = at;
    while (end < limit && isWordCharacter(text.charCodeAt(end))) end++;
    if (end - at > this.longestKeyword) return undefined;
    return this.words.has(text.slice(at, end)) ? end : undefined;
  }

  /** Where a comment opening at `at` may end (none opens there: none). */
  commentEnds(at: number): number[] {
    const { text, grammar } = this;
    const ends: number[] = [];
    if (grammar.lineComments.some((open) => text.startsWith(open, at))) ends.push(...this.lineEnds(at));
    for (const [open, close] of grammar.blockComments) {
      if (!text.startsWith(open, at)) continue;
      const closing = firstAtOrAfter(this.closersOf(close), at + open.length);
      ends.push(closing === undefined ? text.length : closing + close.length);
    }
    return ends;
  }

  /**
   * Where a line comment starting at `at` may end: at the first line terminator of any kind
   * (JavaScript has four), and at the first line feed (where one that runs to a line feed ends).
   */
  private lineEnds(at: number): number[] {
    const { text } = this;
    if (!this.terminators || !this.lineFeeds) {
      this.terminators = [];
      this.lineFeeds = [];
      for (let i = 0; i < text.length; i++) {
        const code = text.charCodeAt(i);
        if (code === 10 || code === 13 || code === 0x2028 || code === 0x2029) this.terminators.push(i);
        if (code === 10) this.lineFeeds.push(i);
      }
    }
    const terminator = firstAtOrAfter(this.terminators, at);
    if (terminator === undefined) return [text.length];
    const lineFeed = firstAtOrAfter(this.lineFeeds, at);
    return lineFeed === undefined || lineFeed === terminator ? [terminator] : [terminator, lineFeed];
  }

  private closersOf(close: string): number[] {
    let found = this.closers.get(close);
    if (!found) {
      found = [];
      for (let at = this.text.indexOf(close); at !== -1; at = this.text.indexOf(close, at + close.length))
        found.push(at);
      this.closers.set(close, found);
    }
    return found;
  }
}

/** The first of the ascending `positions` at or after `at`. */
function firstAtOrAfter(positions: readonly number[], at: number): number | undefined {
  return positions[lowerBound(positions, at)];
}

function isWordCharacter(code: number): boolean {
  return (
    (code >= 48 && code <= 57) ||
    (code >= 65 && code <= 90) ||
    (code >= 97 && code <= 122) ||
    code === 95 ||
    code === 36
  );
}
