/**
 * A file's structural index: every node of its parse tree in typed arrays, in document order
 * (preorder), so a new pattern matches without parsing again. Per node: its type (an index into
 * the grammar's type names), named/extra flags, start and end offsets and the index just past its
 * subtree (its children are the nodes from index + 1, each followed by its own subtree): 15 bytes
 * a node; tree-sitter makes 0.18 (Python) to 0.32 (Go) nodes per source character, so 3–5 bytes
 * per character. The text is not kept: whoever matches hands it over with the tree
 * (`withText`), and rows and columns come from the text when a match is reported.
 *
 * Building it walks the parser's tree with one cursor (a few calls into the wasm runtime per node:
 * about as long as parsing took), which is why it is built off the search's path (parsePool.ts).
 */
import { Language, Tree } from 'web-tree-sitter';
import { SyntaxNode, SyntaxPoint, SyntaxTree } from './syntaxTree';
import { lineOfOffset, newlineStarts } from '../edits/lineStarts';

const NAMED = 1;
const EXTRA = 2;

/** Bytes one node takes in the arrays. */
export const BYTES_PER_NODE = 2 + 1 + 4 + 4 + 4;

/** Type names and which types may be extras, per grammar (shared by every index of the grammar). */
export class GrammarTypes {
  /** Type ids seen as an extra somewhere (a comment): every node of them is asked. */
  private readonly maybeExtra = new Set<number>();
  /** Type ids whose nodes were asked at least once. */
  private readonly asked = new Set<number>();

  private readonly named: boolean[];

  constructor(language: Language) {
    this.names = language.types;
    this.named = this.names.map((_name, typeId) => language.nodeTypeIsNamed(typeId));
  }

  private readonly names: readonly string[];

  isNamed(typeId: number): boolean {
    return this.named[typeId] ?? true;
  }

  /** A type id's name; the parser's error node has an id past the grammar's own. */
  nameOf(typeId: number): string {
    return this.names[typeId] ?? 'ERROR';
  }

  /** Whether the cursor's node (of `typeId`) is an extra; asks the runtime only for types seen as extras, and once for every other type. */
  isExtra(typeId: number, ask: () => boolean): boolean {
    if (this.asked.has(typeId) && !this.maybeExtra.has(typeId)) return false;
    this.asked.add(typeId);
    const extra = ask();
    if (extra) this.maybeExtra.add(typeId);
    return extra;
  }
}

export class FlatTree implements SyntaxTree {
  /** The text the current match reads (set by `withText`). */
  private text = '';
  private lineStarts: Uint32Array | undefined;
  private parents: Int32Array | undefined;

  private constructor(
    readonly types: GrammarTypes,
    readonly count: number,
    private readonly typeIds: Uint16Array,
    private readonly flags: Uint8Array,
    private readonly starts: Uint32Array,
    private readonly ends: Uint32Array,
    /** Index just past each node's subtree. */
    private readonly subtreeEnds: Uint32Array,
    readonly length: number,
  ) {}

  /** Walks a parsed tree once; the arrays are trimmed to the node count. */
  static fromTree(tree: Tree, types: GrammarTypes): FlatTree {
    const length = tree.rootNode.endIndex;
    let capacity = Math.max(64, length >>> 2);
    let typeIds = new Uint16Array(capacity);
    let flags = new Uint8Array(capacity);
    let starts = new Uint32Array(capacity);
    let ends = new Uint32Array(capacity);
    let subtreeEnds = new Uint32Array(capacity);
    const open: number[] = [];
    let count = 0;
    const cursor = tree.walk();
    try {
      for (;;) {
        if (count === capacity) {
          capacity *= 2;
          typeIds = grown(typeIds, new Uint16Array(capacity));
          flags = grown(flags, new Uint8Array(capacity));
          starts = grown(starts, new Uint32Array(capacity));
          ends = grown(ends, new Uint32Array(capacity));
          subtreeEnds = grown(subtreeEnds, new Uint32Array(capacity));
        }
        const at = count++;
        const typeId = cursor.nodeTypeId;
        typeIds[at] = typeId;
        flags[at] =
          (types.isNamed(typeId) ? NAMED : 0) | (types.isExtra(typeId, () => cursor.currentNode.isExtra) ? EXTRA : 0);
        starts[at] = cursor.startIndex;
        ends[at] = cursor.endIndex;
        if (cursor.gotoFirstChild()) {
          open.push(at);
          continue;
        }
        subtreeEnds[at] = count;
        let done = false;
        while (!cursor.gotoNextSibling()) {
          if (!cursor.gotoParent()) {
            done = true;
            break;
          }
          subtreeEnds[open.pop() as number] = count;
        }
        if (done) break;
      }
    } finally {
      cursor.delete();
    }
    return new FlatTree(
      types,
      count,
      typeIds.slice(0, count),
      flags.slice(0, count),
      starts.slice(0, count),
      ends.slice(0, count),
      subtreeEnds.slice(0, count),
      length,
    );
  }

  /** Bytes the arrays take. */
  get bytes(): number {
    return this.count * BYTES_PER_NODE;
  }

  /** This tree, reading `text` (the file's text it was built from) until the next call. */
  withText(text: string): this {
    if (text !== this.text) {
      this.text = text;
      this.lineStarts = undefined;
    }
    return this;
  }

  *ofType(type: string): Iterable<SyntaxNode> {
    for (let at = 0; at < this.count; at++) if (this.typeOf(at) === type) yield this.node(at);
  }

  around(type: string, offsets: readonly number[]): SyntaxNode[] {
    const found: Array<{ at: number; depth: number }> = [];
    const seen = new Set<number>();
    for (const offset of offsets) {
      let at = 0;
      let depth = 0;
      for (;;) {
        if (this.typeOf(at) === type && !seen.has(at)) {
          seen.add(at);
          found.push({ at, depth });
        }
        depth++;
        const child = this.childToward(at, offset);
        if (child === undefined) break;
        at = child;
      }
    }
    found.sort((a, b) => this.starts[a.at] - this.starts[b.at] || a.depth - b.depth);
    return found.map(({ at }) => this.node(at));
  }

  *named(): Iterable<SyntaxNode> {
    for (let at = 0; at < this.count; at++) if ((this.flags[at] & (NAMED | EXTRA)) === NAMED) yield this.node(at);
  }

  extraAt(offset: number): SyntaxNode | undefined {
    let at = 0;
    for (;;) {
      if (this.starts[at] === offset && (this.flags[at] & EXTRA) !== 0) return this.node(at);
      const child = this.childToward(at, offset);
      if (child === undefined) return undefined;
      at = child;
    }
  }

  /** The first child that ends after the offset, as the parser's cursor finds it, if it starts at or before it. */
  private childToward(at: number, offset: number): number | undefined {
    let child = at + 1;
    const end = this.subtreeEnds[at];
    while (child < end && this.ends[child] <= offset) child = this.subtreeEnds[child];
    return child < end && this.starts[child] <= offset ? child : undefined;
  }

  node(at: number): FlatNode {
    return new FlatNode(this, at);
  }

  /** From a table of every node's parent, made in one pass the first time one is asked for (4 bytes a node). */
  parentOf(node: SyntaxNode): SyntaxNode | undefined {
    const target = node.id;
    if (target <= 0 || target >= this.count) return undefined;
    if (!this.parents) {
      const parents = new Int32Array(this.count);
      parents[0] = -1;
      const open: number[] = [0];
      for (let at = 1; at < this.count; at++) {
        while (this.subtreeEnds[open[open.length - 1]] <= at) open.pop();
        parents[at] = open[open.length - 1];
        open.push(at);
      }
      this.parents = parents;
    }
    return this.node(this.parents[target]);
  }

  typeOf(at: number): string {
    return this.types.nameOf(this.typeIds[at]);
  }

  flagsOf(at: number): number {
    return this.flags[at];
  }

  startOf(at: number): number {
    return this.starts[at];
  }

  endOf(at: number): number {
    return this.ends[at];
  }

  subtreeEndOf(at: number): number {
    return this.subtreeEnds[at];
  }

  slice(start: number, end: number): string {
    return this.text.slice(start, end);
  }

  pointAt(offset: number): SyntaxPoint {
    const lines = (this.lineStarts ??= Uint32Array.from(newlineStarts(this.text)));
    const row = lineOfOffset(lines, offset) - 1;
    return { row, column: offset - lines[row] };
  }
}

/** A node of a flat tree: a view made when the matcher asks for it. */
class FlatNode implements SyntaxNode {
  constructor(
    private readonly tree: FlatTree,
    readonly id: number,
  ) {}

  get type(): string {
    return this.tree.typeOf(this.id);
  }

  get text(): string {
    return this.tree.slice(this.startIndex, this.endIndex);
  }

  get isNamed(): boolean {
    return (this.tree.flagsOf(this.id) & NAMED) !== 0;
  }

  get isExtra(): boolean {
    return (this.tree.flagsOf(this.id) & EXTRA) !== 0;
  }

  get startIndex(): number {
    return this.tree.startOf(this.id);
  }

  get endIndex(): number {
    return this.tree.endOf(this.id);
  }

  get startPosition(): SyntaxPoint {
    return this.tree.pointAt(this.startIndex);
  }

  get endPosition(): SyntaxPoint {
    return this.tree.pointAt(this.endIndex);
  }

  get childCount(): number {
    let count = 0;
    for (
      let child = this.id + 1, end = this.tree.subtreeEndOf(this.id);
      child < end;
      child = this.tree.subtreeEndOf(child)
    )
      count++;
    return count;
  }

  get children(): FlatNode[] {
    const children: FlatNode[] = [];
    for (
      let child = this.id + 1, end = this.tree.subtreeEndOf(this.id);
      child < end;
      child = this.tree.subtreeEndOf(child)
    )
      children.push(this.tree.node(child));
    return children;
  }
}

function grown<T extends Uint8Array | Uint16Array | Uint32Array>(from: T, to: T): T {
  to.set(from);
  return to;
}
