/**
 * The matcher: finds every node of a parsed file that a compiled pattern matches, with its
 * metavariable captures, by ast-grep's rules (its default "smart" strictness) except where noted.
 * Kinds and leaf texts must be equal; where the pattern has a leaf, unnamed tokens of the file it
 * does not mention (a trailing comma, an optional semicolon) are skipped; once the pattern's
 * children are matched, the node's remaining children are ignored; tokens written right after a
 * `$$$` run are optional. Unlike ast-grep, comments are ignored on both sides wherever they are,
 * `$$$` runs back off to let the rest match, and a name used twice must capture the same tokens
 * whatever their layout and comments. test/unit/structuralDifferential.test.ts holds both lists.
 */
import { Node, Tree } from 'web-tree-sitter';
import { PatternNode, requiredTextsOf } from './pattern';

export interface Capture {
  readonly text: string;
  /** UTF-16 offsets into the file; start === end for an empty run. */
  readonly start: number;
  readonly end: number;
}

export interface Match {
  readonly start: number;
  readonly end: number;
  /** 0-based, as tree-sitter counts. */
  readonly startRow: number;
  readonly startColumn: number;
  readonly endRow: number;
  readonly text: string;
  readonly captures: ReadonlyMap<string, Capture>;
}

type Bound = { readonly node: Node } | { readonly run: readonly Node[]; readonly at: number };

type Environment = Array<[string, Bound]>;

const requiredTextsCache = new WeakMap<PatternNode, readonly string[]>();

/** Every match in the tree, in document order (nested matches included). */
export function findMatches(tree: Tree, source: string, root: PatternNode, limit = Number.POSITIVE_INFINITY): Match[] {
  const matches: Match[] = [];
  const anchor = anchorOf(source, root);
  if (anchor === 'absent') return matches;
  for (const candidate of candidatesOf(tree, root, anchor)) {
    if (anchor && !containsAnchor(candidate, anchor)) continue;
    const env: Environment = [];
    if (matchNode(root, candidate, env)) {
      matches.push(toMatch(candidate, env, source));
      if (matches.length >= limit) break;
    }
  }
  return matches;
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

function containsAnchor(node: Node, anchor: Anchor): boolean {
  const start = node.startIndex;
  let low = 0;
  let high = anchor.offsets.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (anchor.offsets[middle] < start) low = middle + 1;
    else high = middle;
  }
  return low < anchor.offsets.length && anchor.offsets[low] + anchor.length <= node.endIndex;
}

/**
 * The nodes of the pattern's type. With few anchors, only those around them, found by descending
 * from the root towards each (a path of a few dozen steps); otherwise every one, listed by one
 * call into the runtime, which walks the whole tree.
 */
function candidatesOf(tree: Tree, root: PatternNode, anchor: Anchor | undefined): Iterable<Node> {
  if (root.kind === 'meta') return namedNodes(tree);
  if (anchor && anchor.offsets.length * DESCENT_COST < tree.rootNode.endIndex) return nodesAround(tree, root.type, anchor);
  return tree.rootNode.descendantsOfType(root.type);
}

/** Characters of source per node visited by a full walk, roughly, times the steps of one descent. */
const DESCENT_COST = 256;

/** The nodes of a type that contain an anchor, in document order, outer before inner. */
function nodesAround(tree: Tree, type: string, anchor: Anchor): Node[] {
  const found: Array<{ node: Node; depth: number }> = [];
  const seen = new Set<number>();
  const root = tree.rootNode;
  const cursor = tree.walk();
  try {
    for (const offset of anchor.offsets) {
      cursor.reset(root);
      let depth = 0;
      do {
        if (cursor.nodeType === type && !seen.has(cursor.nodeId)) {
          seen.add(cursor.nodeId);
          found.push({ node: cursor.currentNode, depth });
        }
        depth++;
      } while (cursor.gotoFirstChildForIndex(offset) && cursor.startIndex <= offset);
    }
  } finally {
    cursor.delete();
  }
  found.sort((a, b) => a.node.startIndex - b.node.startIndex || a.depth - b.depth);
  return found.map(({ node }) => node);
}

/** A pattern that is a lone metavariable: every named node. */
function* namedNodes(tree: Tree): Generator<Node> {
  const cursor = tree.walk();
  try {
    let descending = true;
    for (;;) {
      if (descending) {
        if (cursor.nodeIsNamed) {
          const node = cursor.currentNode;
          if (!node.isExtra) yield node;
        }
        if (cursor.gotoFirstChild()) continue;
      }
      if (cursor.gotoNextSibling()) {
        descending = true;
        continue;
      }
      if (!cursor.gotoParent()) return;
      descending = false;
    }
  } finally {
    cursor.delete();
  }
}

function toMatch(node: Node, env: Environment, source: string): Match {
  const captures = new Map<string, Capture>();
  for (const [name, bound] of env) captures.set(name, captureOf(bound, source));
  return {
    start: node.startIndex,
    end: node.endIndex,
    startRow: node.startPosition.row,
    startColumn: node.startPosition.column,
    endRow: node.endPosition.row,
    text: source.slice(node.startIndex, node.endIndex),
    captures,
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

function matchNode(pattern: PatternNode, node: Node, env: Environment): boolean {
  switch (pattern.kind) {
    case 'meta':
      if (!node.isNamed || node.isExtra) return false;
      return bind(pattern.name, { node }, env);
    case 'leaf':
      return node.type === pattern.type && node.text === pattern.text;
    case 'node': {
      if (node.type !== pattern.type) return false;
      return matchSequence(pattern.children, 0, significantChildren(node), 0, env, node.startIndex);
    }
  }
}

function significantChildren(node: Node): Node[] {
  const children: Node[] = [];
  for (const child of node.children) {
    if (child && !child.isExtra && child.startIndex !== child.endIndex) children.push(child);
  }
  return children;
}

function matchSequence(
  patterns: readonly PatternNode[],
  p: number,
  nodes: readonly Node[],
  n: number,
  env: Environment,
  at: number,
): boolean {
  // Once the pattern's children are matched the node's remaining children are ignored, as in
  // ast-grep: `if ($X) { $$$B }` matches an if with an else, `import $X` matches `import a, b`.
  if (p === patterns.length) return true;
  const pattern = patterns[p];
  const mark = env.length;
  if (pattern.kind === 'meta' && pattern.multi) {
    const runStart = n < nodes.length ? nodes[n].startIndex : n > 0 ? nodes[n - 1].endIndex : at;
    // A run that ends the pattern takes everything left.
    if (p === patterns.length - 1) {
      if (bind(pattern.name, { run: nodes.slice(n), at: runStart }, env)) return true;
      env.length = mark;
      return false;
    }
    // The tokens written right after a run are optional before something else (`f($$$A, last)` matches `f(last)`).
    let afterTokens = p + 1;
    while (afterTokens < patterns.length && isToken(patterns[afterTokens])) afterTokens++;
    const tokensOptional = afterTokens > p + 1 && afterTokens < patterns.length;
    for (let end = n; end <= nodes.length; end++) {
      if (
        bind(pattern.name, { run: nodes.slice(n, end), at: runStart }, env) &&
        (matchSequence(patterns, p + 1, nodes, end, env, at) || (tokensOptional && matchSequence(patterns, afterTokens, nodes, end, env, at)))
      ) {
        return true;
      }
      env.length = mark;
    }
    return false;
  }
  if (n >= nodes.length) return false;
  if (matchNode(pattern, nodes[n], env)) {
    if (matchSequence(patterns, p + 1, nodes, n + 1, env, at)) return true;
    env.length = mark;
    return false;
  }
  env.length = mark;
  // Where the pattern has a token or a leaf that is not there, a token of the file it does not mention
  // (`;`, a trailing `,`) is skipped; a metavariable or a node never skips one (`yield $X` does not
  // match `yield from x`).
  if (pattern.kind === 'leaf' && !nodes[n].isNamed) return matchSequence(patterns, p, nodes, n + 1, env, at);
  return false;
}

function isToken(pattern: PatternNode): boolean {
  return pattern.kind === 'leaf' && !pattern.named;
}

/** Binds a name, or checks that a repeated name captures the same tokens. `_` binds nothing. */
function bind(name: string, bound: Bound, env: Environment): boolean {
  if (name === '_') return true;
  const earlier = env.find(([bindingName]) => bindingName === name);
  if (!earlier) {
    env.push([name, bound]);
    return true;
  }
  return sameTokens(tokensOf(earlier[1]), tokensOf(bound));
}

function tokensOf(bound: Bound): string[] {
  const tokens: string[] = [];
  const visit = (node: Node): void => {
    if (node.isExtra) return;
    if (node.childCount === 0) {
      if (node.startIndex !== node.endIndex) tokens.push(node.text);
      return;
    }
    for (const child of node.children) if (child) visit(child);
  };
  if ('node' in bound) visit(bound.node);
  else bound.run.forEach(visit);
  return tokens;
}

function sameTokens(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((token, i) => token === b[i]);
}
