/**
 * Matching one file's text: parse, find the pattern's matches, delete the tree. `InlineMatcher`
 * does it on this thread (one file, or no worker script at hand); `WorkerPool` spreads files over
 * worker threads, each with its own grammars, so parsing uses every core.
 */
import { LanguageRegistry } from './languages';
import { findMatches, Match } from './matcher';
import { CompiledPattern, compilePattern } from './pattern';

export interface MatchJob {
  readonly language: string;
  readonly pattern: string;
  readonly text: string;
  /** Stop after this many matches. */
  readonly limit: number;
}

export interface FileMatcher {
  match(job: MatchJob): Promise<Match[]>;
  /** How many jobs are worth keeping in flight at once. */
  readonly parallelism: number;
  dispose(): void;
}

export class InlineMatcher implements FileMatcher {
  readonly parallelism = 1;
  private readonly patterns = new Map<string, CompiledPattern>();

  constructor(private readonly registry: LanguageRegistry) {}

  async match(job: MatchJob): Promise<Match[]> {
    const loaded = await this.registry.load(job.language);
    const pattern = this.compiled(job, () => compilePattern(loaded, job.pattern));
    const tree = loaded.parser.parse(job.text);
    if (!tree) return [];
    try {
      return findMatches(tree, job.text, pattern.root, job.limit);
    } finally {
      tree.delete();
    }
  }

  dispose(): void {
    this.patterns.clear();
  }

  /** The compiled pattern, kept for the few most recent queries. */
  private compiled(job: MatchJob, compile: () => CompiledPattern): CompiledPattern {
    const key = `${job.language}\u0000${job.pattern}`;
    let pattern = this.patterns.get(key);
    if (!pattern) {
      pattern = compile();
      this.patterns.set(key, pattern);
      if (this.patterns.size > 16) this.patterns.delete(this.patterns.keys().next().value as string);
    }
    return pattern;
  }
}
