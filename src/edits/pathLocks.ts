/**
 * Serializes work on files: `run(paths, work)` waits until no other run holds any of those paths,
 * then holds them all until `work` settles. Paths are taken in one sorted order, so two runs over
 * overlapping sets never wait for each other in a cycle. A writer's check and write never interleave
 * with another caller's.
 */
export class PathLocks {
  private readonly tails = new Map<string, Promise<void>>();

  async run<T>(paths: readonly string[], work: () => Promise<T>): Promise<T> {
    const keys = [...new Set(paths)].sort();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const waits: Promise<void>[] = [];
    for (const key of keys) {
      const previous = this.tails.get(key);
      if (previous) waits.push(previous);
      this.tails.set(key, held);
    }
    try {
      await Promise.all(waits);
      return await work();
    } finally {
      release();
      for (const key of keys) if (this.tails.get(key) === held) this.tails.delete(key);
    }
  }

  /** Paths some run holds or waits for now (for tests and the log). */
  get busy(): number {
    return this.tails.size;
  }
}
