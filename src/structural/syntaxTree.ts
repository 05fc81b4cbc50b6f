/**
 * What the matcher reads of a parsed file, so it matches the same way on a tree fresh from the
 * parser (`wasmTree`: web-tree-sitter's nodes, each read a call into the wasm runtime) and on a
 * file's structural index (flatTree.ts: the same nodes kept in typed arrays, read in plain JS).
 * web-tree-sitter's `Node` is a `SyntaxNode` as it is.
 */
import { Node, Tree } from 'web-tree-sitter';

export interface SyntaxPoint {
  /** 0-based; rows end at `\n`, columns count UTF-16 units (as web-tree-sitter reports them). */
  readonly row: number;
  readonly column: number;
}

export interface SyntaxNode {
  /** Unique within its tree. */
  readonly id: number;
  readonly type: string;
  readonly text: string;
  readonly isNamed: boolean;
  readonly isExtra: boolean;
  /** UTF-16 offsets into the file. */
  readonly startIndex: number;
  readonly endIndex: number;
  readonly startPosition: SyntaxPoint;
  readonly endPosition: SyntaxPoint;
  readonly childCount: number;
  readonly children: ReadonlyArray<SyntaxNode | null>;
}

/** A parsed file as the matcher walks it: which nodes may start a match. */
export interface SyntaxTree {
  /** The file's length in UTF-16 units. */
  readonly length: number;
  /** Every node of a type, in document order, outer before inner. */
  ofType(type: string): Iterable<SyntaxNode>;
  /**
   * The nodes of a type met on the way from the root down to each offset (descending into the
   * first child that ends after it while the child starts at or before it), in document order,
   * outer before inner, each once.
   */
  around(type: string, offsets: readonly number[]): SyntaxNode[];
  /** Every named node that is not an extra (a comment), in document order. */
  named(): Iterable<SyntaxNode>;
  /** The outermost extra (a comment) that starts at an offset, met descending from the root as `around` does. */
  extraAt(offset: number): SyntaxNode | undefined;
  /** A node's parent (none for the root); `node` is one this tree gave. */
  parentOf(node: SyntaxNode): SyntaxNode | undefined;
}

/** A tree from the parser, read through its cursor and its own listing by type. */
export function wasmTree(tree: Tree): SyntaxTree {
  return {
    length: tree.rootNode.endIndex,
    ofType: (type) => tree.rootNode.descendantsOfType(type) as Node[],
    around: (type, offsets) => nodesAround(tree, type, offsets),
    named: () => namedNodes(tree),
    extraAt: (offset) => extraAt(tree, offset),
    parentOf: (node) => (node as Node).parent ?? undefined,
  };
}

function extraAt(tree: Tree, offset: number): Node | undefined {
  const cursor = tree.walk();
  try {
    do {
      if (cursor.startIndex === offset) {
        const node = cursor.currentNode;
        if (node.isExtra) return node;
      }
    } while (cursor.gotoFirstChildForIndex(offset) && cursor.startIndex <= offset);
    return undefined;
  } finally {
    cursor.delete();
  }
}

function nodesAround(tree: Tree, type: string, offsets: readonly number[]): Node[] {
  const found: Array<{ node: Node; depth: number }> = [];
  const seen = new Set<number>();
  const root = tree.rootNode;
  const cursor = tree.walk();
  try {
    for (const offset of offsets) {
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
