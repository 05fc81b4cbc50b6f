/**
 * The structural indexes one parsing thread holds (flatTree.ts), by file, within a budget in
 * bytes: first come, kept. The thread that built a file's index is the one the pool
 * sends that file's next searches to (parsePool.ts), with its text: a new pattern then matches
 * without parsing.
 */
import { FlatTree } from './flatTree';

export class IndexStore {
  private readonly trees = new Map<string, FlatTree>();
  private held = 0;

  constructor(private readonly budget: number) {}

  /** The file's index, when it is held and was built from a text of this length. */
  get(file: string, length: number): FlatTree | undefined {
    const tree = this.trees.get(file);
    if (!tree) return undefined;
    if (tree.length === length) return tree;
    this.drop(file);
    return undefined;
  }

  /**
   * Keeps the index if it fits (in place of the file's earlier one); false when it does not. What is
   * held stays: evicting the least recently used would have a search in file order evict exactly
   * the index it needs next.
   */
  put(file: string, tree: FlatTree): boolean {
    this.drop(file);
    if (this.held + tree.bytes > this.budget) return false;
    this.trees.set(file, tree);
    this.held += tree.bytes;
    return true;
  }

  /** Bytes of the indexes held. */
  get bytes(): number {
    return this.held;
  }

  forget(file: string): void {
    this.drop(file);
  }

  private drop(file: string): void {
    const tree = this.trees.get(file);
    if (!tree) return;
    this.trees.delete(file);
    this.held -= tree.bytes;
  }
}
