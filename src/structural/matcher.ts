/**
 * The matcher: finds every node of a parsed file that a compiled pattern matches, with its
 * metavariable captures, by ast-grep's rules (its default "smart" strictness) except where noted.
 * Kinds and leaf texts must be equal; where the pattern has a leaf, unnamed tokens of the file it
 * does not mention (a trailing comma, an optional semicolon) are skipped, except right after a
 * `$$$` run, which takes them; once the pattern's children are matched, the node's remaining
 * children are ignored; tokens written right after a `$$$` run are optional. Unlike ast-grep,
 * comments are ignored on both sides wherever they are, `$$$` runs back off to let the rest match,
 * and a name used twice must capture the same tokens whatever their layout and comments.
 * test/unit/structuralDifferential.test.ts holds both lists.
 * The cost is bounded by design: a sequence remembers the (pattern position, node index, bindings
 * the rest of the pattern reads) it failed at, so `$$$` runs never retry what failed before (the
 * cost is polynomial in the children of one node), and every step counts against a budget per file
 * whose end is a `PatternTooExpensive` error, never a hang.
 */
import { Tree } from 'web-tree-sitter';
import { PatternNode, PatternRoot, requiredTextsOf } from './patternTree';
import { StoppedInFile } from './stoppedInFile';
import { SyntaxNode, SyntaxTree, wasmTree } from './syntaxTree';
import { lowerBound } from '../edits/sortedSearch';

export interface Capture {
  readonly text: string;
  /** UTF-16 offsets into the file; start === end for an empty run. */
  readonly start: number;
  readonly end: number;
}

export interface Match {
  readonly start: number;
  /** The node's end, or past it over the terminators the pattern wrote beside the node (`@Input() $P: $T;`). */
  readonly end: number;
  /** 0-based, as tree-sitter counts. */
  readonly startRow: number;
  readonly startColumn: number;
  readonly endRow: number;
  readonly text: string;
  readonly captures: ReadonlyMap<string, Capture>;
  /**
   * From the first to the last token the pattern accounts for (UTF-16 offsets): the node's tokens
   * outside it, which the pattern did not write (a statement's `;`, a leading `async`), a rewrite keeps.
   */
  readonly coveredStart: number;
  readonly coveredEnd: number;
}

/**
 * What one file's matching may cost, in steps (a candidate node, a node compared, a position of a
 * sequence tried, a token of a repeated metavariable compared): a fixed part and a part per
 * character, up to a ceiling. Measured on 600 JavaScript files of node_modules with ten patterns,
 * broad ones included (`$A`, `$X.$Y($$$A)`, `[$$$A, $B, $$$C]`): at most 0.97 steps per character
 * (≤ 0.43 on 3–9 M character bundles). A step costs 0.25–1 µs, so a 1 M character file stops
 * within ~10 s; the ceiling (3.6 steps per character of a file at the 8 M character size cap)
 * stops any file within ~30 s, inside a parsing thread's 60 s deadline. A pattern needing more is
 * refused.
 */
export const MATCH_STEPS_BASE = 1_000_000;
export const MATCH_STEPS_PER_CHARACTER = 10;
export const MATCH_STEPS_MAX = 30_000_000;

export function matchStepBudget(textLength: number): number {
  return Math.min(MATCH_STEPS_BASE + MATCH_STEPS_PER_CHARACTER * textLength, MATCH_STEPS_MAX);
}

/** Matching one file took more steps than its budget; `file` is filled in by whoever knows it. */
export class PatternTooExpensive extends StoppedInFile {
  constructor(
    readonly budget: number,
    readonly file?: string,
  ) {
    super(
      `The pattern is too expensive on ${file ?? 'this file'}: matching stopped after ${budget.toLocaleString('en-US')} steps. ` +
        'Narrow it: fewer `$$$` runs in one list (each run tries every split of the list), literal code between runs, ' +
        'or a `path` that leaves this file out.',
    );
    this.name = 'PatternTooExpensive';
  }

  inFile(file: string): PatternTooExpensive {
    return new PatternTooExpensive(this.budget, file);
  }
}

export interface MatchOptions {
  /** Stop after this many matches. */
  readonly limit?: number;
  /** Steps the whole file may take (default: `matchStepBudget` of the text's length). */
  readonly stepBudget?: number;
  /** Filled with the steps taken (tests measure how the cost grows). */
  readonly stats?: { steps: number };
}

type Bound = { readonly node: SyntaxNode } | { readonly run: readonly SyntaxNode[]; readonly at: number };

type Environment = Array<[string, Bound]>;

const requiredTextsCache = new WeakMap<PatternNode, readonly string[]>();

/** Every match in the tree, in document order (nested matches included); throws PatternTooExpensive past the budget. */
export function findMatches(
  parsed: Tree | SyntaxTree,
  source: string,
  root: PatternRoot,
  options: MatchOptions = {},
): Match[] {
  const tree = 'rootNode' in parsed ? wasmTree(parsed) : parsed;
  const limit = options.limit ?? Number.POSITIVE_INFINITY;
  const run = new MatchRun(options.stepBudget ?? matchStepBudget(source.length));
  try {
    const matches = matchesOf(tree, source, root, run, limit);
    return root.alternative ? inOrder(matches, matchesOf(tree, source, root.alternative, run, limit), limit) : matches;
  } finally {
    if (options.stats) options.stats.steps = run.steps;
  }
}

/** One reading's matches, in document order, up to `limit`. */
function matchesOf(tree: SyntaxTree, source: string, root: PatternRoot, run: MatchRun, limit: number): Match[] {
  const matches: Match[] = [];
  const anchor = anchorOf(source, root);
  if (anchor === 'absent') return matches;
  for (const candidate of candidatesOf(tree, root, anchor)) {
    run.step();
    if (anchor && !containsAnchor(candidate, anchor)) continue;
    const env: Environment = [];
    if (run.matchNode(root, candidate, env)) {
      const covered =
        root.kind === 'node' ? { ...run.covered } : { start: candidate.startIndex, end: candidate.endIndex };
      if (root.leading) {
        const start = run.matchLeading(tree, candidate, root.leading, env);
        if (start === undefined) continue;
        covered.start = start;
      }
      // The terminators the pattern wrote after its node follow what it covered only where it covered the node's end.
      if (root.terminators && covered.end === candidate.endIndex) {
        run.step();
        covered.end = pastTerminators(tree, source, covered.end, root.terminators);
      }
      matches.push(toMatch(candidate, env, source, covered));
      if (matches.length >= limit) break;
    }
  }
  return matches;
}

/** Two readings' matches as one list in document order, a node both matched once, up to `limit`. */
function inOrder(first: Match[], second: Match[], limit: number): Match[] {
  if (second.length === 0) return first;
  const merged: Match[] = [];
  let a = 0;
  let b = 0;
  while (merged.length < limit && (a < first.length || b < second.length)) {
    const x = first[a];
    const y = second[b];
    if (y === undefined || (x !== undefined && (x.start < y.start || (x.start === y.start && x.end >= y.end)))) {
      merged.push(x);
      a++;
      if (y !== undefined && y.start === x.start && y.end === x.end) b++;
    } else {
      merged.push(y);
      b++;
    }
  }
  return merged;
}

/** Where the pattern's rarest required text occurs in the file: a match must contain one of them. */
interface Anchor {
  readonly length: number;
  /** Sorted UTF-16 offsets. */
  readonly offsets: readonly number[];
}

function anchorOf(source: string, root: PatternNode): Anchor | 'absent' | undefined {
  let texts = requiredTextsCache.get(root);
  if (!texts) requiredTextsCache.set(root, (texts = requiredTextsOf(root)));
  let rarest: Anchor | undefined;
  for (const text of texts) {
    const offsets: number[] = [];
    for (let at = source.indexOf(text); at !== -1; at = source.indexOf(text, at + 1)) {
      offsets.push(at);
      if (rarest && offsets.length >= rarest.offsets.length) break;
    }
    if (offsets.length === 0) return 'absent';
    if (!rarest || offsets.length < rarest.offsets.length) rarest = { length: text.length, offsets };
  }
  return rarest;
}

function containsAnchor(node: SyntaxNode, anchor: Anchor): boolean {
  const low = lowerBound(anchor.offsets, node.startIndex);
  return low < anchor.offsets.length && anchor.offsets[low] + anchor.length <= node.endIndex;
}

/**
 * The nodes of the pattern's type. With few anchors, only those around them, found by descending
 * from the root towards each (a path of a few dozen steps); otherwise every one, listed by one
 * call into the runtime, which walks the whole tree.
 */
function candidatesOf(tree: SyntaxTree, root: PatternNode, anchor: Anchor | undefined): Iterable<SyntaxNode> {
  if (root.kind === 'meta') return tree.named();
  if (anchor && anchor.offsets.length * DESCENT_COST < tree.length) return tree.around(root.type, anchor.offsets);
  return tree.ofType(root.type);
}

/** Characters of source per node visited by a full walk, roughly, times the steps of one descent. */
const DESCENT_COST = 256;

/**
 * Past the terminators the pattern wrote after its node (the `;` of `@Input() $P: $T;`, which the
 * grammar keeps beside the field) that the file has next, each after whitespace and comments only;
 * where one is absent the match ends before it (a TypeScript field's `;` is optional). The text is
 * read, not the tree: Kotlin keeps no node for its `;`.
 */
function pastTerminators(tree: SyntaxTree, source: string, from: number, terminators: readonly string[]): number {
  let end = from;
  let at = from;
  for (const terminator of terminators) {
    for (;;) {
      while (at < source.length && /\s/.test(source[at])) at++;
      const extra = tree.extraAt(at);
      if (!extra || extra.endIndex <= at) break;
      at = extra.endIndex;
    }
    if (!source.startsWith(terminator, at)) break;
    end = at += terminator.length;
  }
  return end;
}

/** The match of a node, which ends past it where the pattern covered terminators beside it (pastTerminators). */
function toMatch(node: SyntaxNode, env: Environment, source: string, covered: Span): Match {
  const captures = new Map<string, Capture>();
  for (const [name, bound] of env) captures.set(name, captureOf(bound, source));
  const end = Math.max(node.endIndex, covered.end);
  const pastNode = source.slice(node.endIndex, end);
  let endRow = node.endPosition.row;
  for (let at = pastNode.indexOf('\n'); at !== -1; at = pastNode.indexOf('\n', at + 1)) endRow++;
  // A match starts before its node where the pattern wrote leading siblings (annotations) that it covered.
  const start = Math.min(node.startIndex, covered.start);
  let startRow = node.startPosition.row;
  const beforeNode = source.slice(start, node.startIndex);
  for (let at = beforeNode.indexOf('\n'); at !== -1; at = beforeNode.indexOf('\n', at + 1)) startRow--;
  const startColumn =
    start === node.startIndex ? node.startPosition.column : start - (source.lastIndexOf('\n', start - 1) + 1);
  return {
    start,
    end,
    startRow,
    startColumn,
    endRow,
    text: source.slice(start, end),
    captures,
    coveredStart: covered.start,
    coveredEnd: covered.end,
  };
}

function captureOf(bound: Bound, source: string): Capture {
  if ('node' in bound) {
    const { startIndex: start, endIndex: end } = bound.node;
    return { text: source.slice(start, end), start, end };
  }
  if (bound.run.length === 0) return { text: '', start: bound.at, end: bound.at };
  const first = bound.run[0];
  const last = bound.run[bound.run.length - 1];
  return { text: source.slice(first.startIndex, last.endIndex), start: first.startIndex, end: last.endIndex };
}

/** One node's children against a pattern's: what a failure at a position is remembered by. */
interface Sequence {
  readonly patterns: readonly PatternNode[];
  readonly nodes: readonly SyntaxNode[];
  /** Where an empty run at the start of the node is. */
  readonly at: number;
  readonly shape: ListShape;
  /** Positions (and the bindings read from there) where the rest failed; made at the first failure. */
  failed?: Set<string>;
}

/** What a pattern list says once for every node it is matched against. */
interface ListShape {
  /** It holds a `$$$` run, so positions may be tried again: failures are remembered. */
  readonly remembers: boolean;
  /** Names the pattern reads from each position on. */
  readonly namesFrom: ReadonlyArray<ReadonlySet<string>>;
}

const shapeCache = new WeakMap<readonly PatternNode[], ListShape>();

/** A pattern list's shape: whether it holds a run, and for each position the names used there or later (what the rest of the match reads of the bindings). */
function shapeOf(patterns: readonly PatternNode[]): ListShape {
  let cached = shapeCache.get(patterns);
  if (cached) return cached;
  const sets: Array<Set<string>> = new Array(patterns.length + 1);
  sets[patterns.length] = new Set();
  for (let p = patterns.length - 1; p >= 0; p--) {
    const names = new Set(sets[p + 1]);
    namesIn(patterns[p], names);
    sets[p] = names;
  }
  cached = { remembers: patterns.some((pattern) => pattern.kind === 'meta' && pattern.multi), namesFrom: sets };
  shapeCache.set(patterns, cached);
  return cached;
}

function namesIn(pattern: PatternNode, into: Set<string>): void {
  if (pattern.kind === 'meta' && pattern.name !== '_') into.add(pattern.name);
  else if (pattern.kind === 'node') for (const child of pattern.children) namesIn(child, into);
}

interface Span {
  start: number;
  end: number;
}

/** One file's matching: its step count against its budget. */
class MatchRun {
  steps = 0;
  /**
   * What the last successful node match covered. Its end is set when a sequence completes, inner
   * before outer, so the root's completion, the last event of a match, reads its last child's;
   * its start is set when a sequence's first pattern child matched and the rest did too.
   */
  readonly covered: Span = { start: 0, end: 0 };

  constructor(private readonly budget: number) {}

  step(cost = 1): void {
    this.steps += cost;
    if (this.steps > this.budget) throw new PatternTooExpensive(this.budget);
  }

  matchNode(pattern: PatternNode, node: SyntaxNode, env: Environment): boolean {
    this.step();
    switch (pattern.kind) {
      case 'meta':
        if (!node.isNamed || node.isExtra) return false;
        return this.bind(pattern.name, { node }, env);
      case 'leaf':
        return node.type === pattern.type && node.text === pattern.text;
      case 'node': {
        if (node.type !== pattern.type) return false;
        const nodes = significantChildren(node);
        this.step(nodes.length);
        const sequence: Sequence = {
          patterns: pattern.children,
          nodes,
          at: node.startIndex,
          shape: shapeOf(pattern.children),
        };
        return this.matchSequence(sequence, 0, 0, env);
      }
    }
  }

  /**
   * Where a match starts whose pattern wrote `leading` siblings before its node (Dart's annotations
   * above a method): they must match the nearest named siblings before it, in order, comments
   * between skipped. Undefined when they do not (`env` then as it was).
   */
  matchLeading(
    tree: SyntaxTree,
    node: SyntaxNode,
    leading: readonly PatternNode[],
    env: Environment,
  ): number | undefined {
    const parent = tree.parentOf(node);
    if (!parent) return undefined;
    const { siblings, at: nodeAt } = this.siblingsOf(parent, node);
    let at = nodeAt - 1;
    const mark = env.length;
    for (let p = leading.length - 1; p >= 0; p--) {
      while (at >= 0 && (siblings[at]?.isExtra || !siblings[at]?.isNamed)) at--;
      const sibling = at >= 0 ? siblings[at] : null;
      this.step();
      if (!sibling || !this.matchNode(leading[p], sibling, env)) {
        env.length = mark;
        return undefined;
      }
      if (p > 0) at--;
    }
    return (siblings[at] as SyntaxNode).startIndex;
  }

  /** Each parent's children, listed once per file (a class of a thousand annotated methods asks a thousand times). */
  private readonly siblingLists = new Map<
    number,
    { readonly siblings: ReadonlyArray<SyntaxNode | null>; readonly at: ReadonlyMap<number, number> }
  >();

  private siblingsOf(parent: SyntaxNode, node: SyntaxNode): { siblings: ReadonlyArray<SyntaxNode | null>; at: number } {
    let list = this.siblingLists.get(parent.id);
    if (!list) {
      const siblings = parent.children;
      this.step(siblings.length);
      const at = new Map<number, number>();
      siblings.forEach((sibling, index) => sibling && at.set(sibling.id, index));
      list = { siblings, at };
      this.siblingLists.set(parent.id, list);
    }
    return { siblings: list.siblings, at: list.at.get(node.id) ?? -1 };
  }

  /** Whether the patterns from `p` on match the nodes from `n` on, extending `env`; a failure leaves `env` as it was. */
  private matchSequence(sequence: Sequence, p: number, n: number, env: Environment): boolean {
    this.step();
    // Once the pattern's children are matched the node's remaining children are ignored, as in
    // ast-grep: `if ($X) { $$$B }` matches an if with an else, `import $X` matches `import a, b`.
    const { patterns, shape } = sequence;
    if (p === patterns.length) {
      // The node's children from `n` on are not covered; a last child that is a node covered what its own sequence did.
      if (p === 0 || patterns[p - 1].kind !== 'node')
        this.covered.end = n > 0 ? sequence.nodes[n - 1].endIndex : sequence.at;
      return true;
    }
    if (!shape.remembers) return this.matchFrom(sequence, p, n, env);
    // The key is made only where a failure was remembered before, or is remembered now (a failure leaves `env` as it was).
    const key = sequence.failed ? failureKey(p, n, env, shape.namesFrom[p]) : undefined;
    if (key !== undefined && sequence.failed?.has(key)) return false;
    const matched = this.matchFrom(sequence, p, n, env);
    if (!matched) (sequence.failed ??= new Set()).add(key ?? failureKey(p, n, env, shape.namesFrom[p]));
    return matched;
  }

  private matchFrom(sequence: Sequence, p: number, n: number, env: Environment): boolean {
    const { patterns, nodes } = sequence;
    const pattern = patterns[p];
    const mark = env.length;
    if (pattern.kind === 'meta' && pattern.multi) {
      const runStart = n < nodes.length ? nodes[n].startIndex : n > 0 ? nodes[n - 1].endIndex : sequence.at;
      // A run that ends the pattern takes everything left.
      if (p === patterns.length - 1) {
        if (this.bind(pattern.name, { run: nodes.slice(n), at: runStart }, env)) {
          this.covered.end = nodes.length > 0 ? nodes[nodes.length - 1].endIndex : runStart;
          if (p === 0) this.covered.start = runStart;
          return true;
        }
        env.length = mark;
        return false;
      }
      // The tokens written right after a run are optional before something else (`f($$$A, last)` matches `f(last)`).
      let afterTokens = p + 1;
      while (afterTokens < patterns.length && isToken(patterns[afterTokens])) afterTokens++;
      const tokensOptional = afterTokens > p + 1 && afterTokens < patterns.length;
      for (let end = n; end <= nodes.length; end++) {
        if (
          this.bind(pattern.name, { run: nodes.slice(n, end), at: runStart }, env) &&
          (this.matchSequence(sequence, p + 1, end, env) ||
            (tokensOptional && this.matchSequence(sequence, afterTokens, end, env)))
        ) {
          if (p === 0) this.covered.start = runStart;
          return true;
        }
        env.length = mark;
      }
      return false;
    }
    // Where the pattern has a token or a leaf that is not there, a token of the file it does not mention
    // (`;`, a trailing `,`) is skipped; a metavariable or a node never skips one (`yield $X` does not
    // match `yield from x`). Right after a `$$$` run nothing is skipped: the run takes the token, as in
    // ast-grep (`f($$$A)` on `f(x,)` captures `x,`), so a rewrite writing the run keeps it.
    const afterRun = p > 0 && isRun(patterns[p - 1]);
    for (; n < nodes.length; n++) {
      if (this.matchNode(pattern, nodes[n], env)) {
        // Tokens skipped before the first pattern child are not covered; a node covered what its own sequence did.
        const start = pattern.kind === 'node' ? this.covered.start : nodes[n].startIndex;
        if (this.matchSequence(sequence, p + 1, n + 1, env)) {
          if (p === 0) this.covered.start = start;
          return true;
        }
        env.length = mark;
        return false;
      }
      env.length = mark;
      if (pattern.kind !== 'leaf' || nodes[n].isNamed || afterRun) return false;
    }
    return false;
  }

  /** Binds a name, or checks that a repeated name captures the same tokens. `_` binds nothing. */
  private bind(name: string, bound: Bound, env: Environment): boolean {
    if (name === '_') return true;
    const earlier = env.find(([bindingName]) => bindingName === name);
    if (!earlier) {
      env.push([name, bound]);
      return true;
    }
    const a = tokensOf(earlier[1]);
    const b = tokensOf(bound);
    this.step(a.length + b.length);
    return a.length === b.length && a.every((token, i) => token === b[i]);
  }
}

/** A failed position, with what the rest of the pattern reads of the bindings made so far. */
function failureKey(p: number, n: number, env: Environment, names: ReadonlySet<string>): string {
  let key = `${p}:${n}`;
  for (const [name, bound] of env) if (names.has(name)) key += `|${name}=${boundKey(bound)}`;
  return key;
}

function boundKey(bound: Bound): string {
  if ('node' in bound) return `n${bound.node.id}`;
  const { run } = bound;
  return run.length === 0 ? `e${bound.at}` : `r${run[0].id}:${run.length}`;
}

function significantChildren(node: SyntaxNode): SyntaxNode[] {
  const children: SyntaxNode[] = [];
  for (const child of node.children) {
    if (child && !child.isExtra && child.startIndex !== child.endIndex) children.push(child);
  }
  return children;
}

function isRun(pattern: PatternNode): boolean {
  return pattern.kind === 'meta' && pattern.multi;
}

function isToken(pattern: PatternNode): boolean {
  return pattern.kind === 'leaf' && !pattern.named;
}

/** The non-empty leaf texts of a bound node or run, comments left out; iterative (a file may nest thousands deep). */
function tokensOf(bound: Bound): string[] {
  const tokens: string[] = [];
  const stack: SyntaxNode[] = 'node' in bound ? [bound.node] : [...bound.run].reverse();
  while (stack.length > 0) {
    const node = stack.pop() as SyntaxNode;
    if (node.isExtra) continue;
    if (node.childCount === 0) {
      if (node.startIndex !== node.endIndex) tokens.push(node.text);
      continue;
    }
    const children = node.children;
    for (let i = children.length - 1; i >= 0; i--) {
      const child = children[i];
      if (child) stack.push(child);
    }
  }
  return tokens;
}
