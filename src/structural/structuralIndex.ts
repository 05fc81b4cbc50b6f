/**
 * The structural indexes one parsing thread holds (flatTree.ts), by file, within a budget in
 * bytes: first come, kept. The thread that built a file's index is the one the pool
 * sends that file's next searches to (parsePool.ts), with its text: a new pattern then matches
 * without parsing.
 */
import { FlatTree } from './flatTree';

export class IndexStore {
  private readonly trees = new Map<string, { readonly tree: FlatTree; readonly build: number }>();
  private held = 0;

  constructor(private readonly budget: number) {}

  /** The file's index, when this build of it is held and was built from a text of this length. */
  get(file: string, length: number, build: number): FlatTree | undefined {
    const held = this.trees.get(file);
    if (!held || held.build !== build) return undefined;
    if (held.tree.length === length) return held.tree;
    this.drop(file);
    return undefined;
  }

  /**
   * Keeps the index if it fits (in place of the file's earlier one); false when it does not. What is
   * held stays: evicting the least recently used would have a search in file order evict exactly
   * the index it needs next.
   */
  put(file: string, tree: FlatTree, build: number): boolean {
    this.drop(file);
    if (this.held + tree.bytes > this.budget) return false;
    this.trees.set(file, { tree, build });
    this.held += tree.bytes;
    return true;
  }

  /** Bytes of the indexes held. */
  get bytes(): number {
    return this.held;
  }

  /** Drops the file's index if it is that build (a newer one stays). */
  forget(file: string, build: number): void {
    if (this.trees.get(file)?.build === build) this.drop(file);
  }

  private drop(file: string): void {
    const held = this.trees.get(file);
    if (!held) return;
    this.trees.delete(file);
    this.held -= held.tree.bytes;
  }
}
