/**
 * The structural indexes one parsing thread holds (flatTree.ts), by file, least recently used
 * first out past a budget in bytes. The thread that built a file's index is the one the pool
 * sends that file's next searches to (parsePool.ts), with its text: a new pattern then matches
 * without parsing.
 */
import { FlatTree } from './flatTree';

export class IndexStore {
  private readonly trees = new Map<string, FlatTree>();
  private bytes = 0;

  constructor(private readonly budget: number) {}

  /** The file's index, when it is held and was built from a text of this length. */
  get(file: string, length: number): FlatTree | undefined {
    const tree = this.trees.get(file);
    if (!tree) return undefined;
    this.trees.delete(file);
    if (tree.length !== length) {
      this.bytes -= tree.bytes;
      return undefined;
    }
    this.trees.set(file, tree);
    return tree;
  }

  /** Keeps the index, dropping the least recently used past the budget; false when it alone is over the budget. */
  put(file: string, tree: FlatTree): boolean {
    this.drop(file);
    if (tree.bytes > this.budget) return false;
    this.trees.set(file, tree);
    this.bytes += tree.bytes;
    for (const [oldest, held] of this.trees) {
      if (this.bytes <= this.budget) break;
      this.trees.delete(oldest);
      this.bytes -= held.bytes;
    }
    return true;
  }

  private drop(file: string): void {
    const tree = this.trees.get(file);
    if (!tree) return;
    this.trees.delete(file);
    this.bytes -= tree.bytes;
  }
}
