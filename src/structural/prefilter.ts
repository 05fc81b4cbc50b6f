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
import { childrenOf, PatternNode } from './pattern';

/**
 * Where the runs are checked: the languages whose only extras are whitespace and `//`, `/* … *\/`
 * comments (`<!--` and `-->` line comments too), and whose unnamed tokens are all spelled as their
 * types (checked by parsing ~800 files of node_modules).
 */
const RUN_LANGUAGES: ReadonlySet<string> = new Set(['javascript', 'typescript', 'tsx']);

export interface Prefilter {
  readonly requiredTexts: readonly string[];
  /** Runs of leaf texts that appear in this order, separated only as above. */
  readonly requiredRuns: ReadonlyArray<readonly string[]>;
  /** The words of the grammar's unnamed tokens (keywords), which may lie between a run's texts. */
  readonly gapWords: readonly string[];
}

/**
 * Nodes whose last child in a pattern is the last in every match too (the matcher ignores a node's
 * children after those the pattern names, so a run ends after any other node): `a.b`'s property.
 */
const CLOSED_NODES: ReadonlySet<string> = new Set(['member_expression']);

/**
 * The runs of a pattern: its leaves in order, into a child node (which a match has right where the
 * pattern has it, nothing named between) and on past one only if it is closed (above); broken by
 * a metavariable and by the tokens after a `$$$` run (which a match may leave out). Each from the
 * first text with a letter or digit (the search starts at each place the run's first text occurs:
 * a `(` is everywhere), of two texts or more.
 */
export function requiredRunsOf(languageId: string, root: PatternNode): string[][] {
  if (!RUN_LANGUAGES.has(languageId)) return [];
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
        if (!CLOSED_NODES.has(child.type)) end();
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
  if (prefilter.requiredRuns.length === 0) return true;
  let gapWords = gapWordSets.get(prefilter.gapWords);
  if (!gapWords) gapWordSets.set(prefilter.gapWords, (gapWords = new Set(prefilter.gapWords)));
  return prefilter.requiredRuns.every((run) => containsRun(text, run, gapWords));
}

function containsRun(text: string, run: readonly string[], gapWords: ReadonlySet<string>): boolean {
  for (let at = text.indexOf(run[0]); at !== -1; at = text.indexOf(run[0], at + 1)) {
    if (runFollows(text, at + run[0].length, run, 1, gapWords)) return true;
  }
  return false;
}

/**
 * Whether `run[index..]` follows from `from`, across a gap. Every way through the gap is tried
 * (a `/*` may open a comment or be two tokens), each position once.
 */
function runFollows(text: string, from: number, run: readonly string[], index: number, gapWords: ReadonlySet<string>): boolean {
  if (index === run.length) return true;
  const seen = new Set<number>();
  const pending = [from];
  while (pending.length > 0) {
    const at = pending.pop() as number;
    if (at >= text.length || seen.has(at)) continue;
    seen.add(at);
    if (text.startsWith(run[index], at) && runFollows(text, at + run[index].length, run, index + 1, gapWords)) return true;
    const code = text.charCodeAt(at);
    if (isWordCharacter(code)) {
      let end = at + 1;
      while (end < text.length && isWordCharacter(text.charCodeAt(end))) end++;
      // A keyword the matcher may skip; any other word (a name, a number) ends the gap.
      if (gapWords.has(text.slice(at, end))) pending.push(end);
      continue;
    }
    // Whitespace, punctuation (parts of unnamed tokens) and any other character.
    pending.push(at + 1);
    if (text.startsWith('//', at) || text.startsWith('<!--', at) || text.startsWith('-->', at)) pending.push(lineEnd(text, at));
    else if (text.startsWith('/*', at)) {
      const close = text.indexOf('*/', at + 2);
      pending.push(close === -1 ? text.length : close + 2);
    }
  }
  return false;
}

function isWordCharacter(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95 || code === 36;
}

/** Where a line comment starting at `at` ends: its line terminator (JavaScript has four). */
function lineEnd(text: string, at: number): number {
  for (let i = at; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 10 || code === 13 || code === 0x2028 || code === 0x2029) return i;
  }
  return text.length;
}
