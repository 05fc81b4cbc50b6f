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

/** Whether the text has what every match of the pattern contains. */
export function mayMatch(text: string, prefilter: Prefilter): boolean {
  for (const required of prefilter.requiredTexts) if (!text.includes(required)) return false;
  const grammar = RUN_GRAMMARS.get(prefilter.language);
  if (!grammar || prefilter.requiredRuns.length === 0) return true;
  let gapWords = gapWordSets.get(prefilter.gapWords);
  if (!gapWords) gapWordSets.set(prefilter.gapWords, (gapWords = new Set(prefilter.gapWords)));
  const gap: Gap = { words: gapWords, grammar };
  return prefilter.requiredRuns.every((run) => containsRun(text, run, gap));
}

/** What may lie between two texts of a run besides whitespace and punctuation. */
interface Gap {
  readonly words: ReadonlySet<string>;
  readonly grammar: RunGrammar;
}

function containsRun(text: string, run: readonly string[], gap: Gap): boolean {
  for (let at = text.indexOf(run[0]); at !== -1; at = text.indexOf(run[0], at + 1)) {
    if (runFollows(text, at + run[0].length, run, 1, gap)) return true;
  }
  return false;
}

/**
 * Whether `run[index..]` follows from `from`, across a gap. Every way through the gap is tried
 * (a `/*` may open a comment or be two tokens), each position once.
 */
function runFollows(text: string, from: number, run: readonly string[], index: number, gap: Gap): boolean {
  if (index === run.length) return true;
  const seen = new Set<number>();
  const pending = [from];
  while (pending.length > 0) {
    const at = pending.pop() as number;
    if (at >= text.length || seen.has(at)) continue;
    seen.add(at);
    if (text.startsWith(run[index], at) && runFollows(text, at + run[index].length, run, index + 1, gap)) return true;
    const code = text.charCodeAt(at);
    if (isWordCharacter(code)) {
      let end = at + 1;
      while (end < text.length && isWordCharacter(text.charCodeAt(end))) end++;
      // A keyword the matcher may skip; any other word (a name, a number) ends the gap.
      if (gap.words.has(text.slice(at, end))) pending.push(end);
      continue;
    }
    // Whitespace, punctuation (parts of unnamed tokens) and any other character.
    pending.push(at + 1);
    if (gap.grammar.lineComments.some((open) => text.startsWith(open, at))) pending.push(...lineEnds(text, at));
    for (const [open, close] of gap.grammar.blockComments) {
      if (!text.startsWith(open, at)) continue;
      const closing = text.indexOf(close, at + open.length);
      pending.push(closing === -1 ? text.length : closing + close.length);
    }
  }
  return false;
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

/**
 * Where a line comment starting at `at` may end: at the first line terminator of any kind
 * (JavaScript has four), and at the first line feed (where one that runs to a line feed ends).
 */
function lineEnds(text: string, at: number): number[] {
  const lineFeed = text.indexOf('\n', at);
  for (let i = at; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 10 || code === 13 || code === 0x2028 || code === 0x2029)
      return lineFeed === -1 || lineFeed === i ? [i] : [i, lineFeed];
  }
  return [text.length];
}
