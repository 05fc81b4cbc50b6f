/**
 * The editor's structural search over files (searchPlan.ts groups them by grammar and compiles
 * the pattern once per language): reads each file's text (open buffers first), skips files that
 * lack a text every match must contain, names those it cannot search (over the size cap, binary,
 * unreadable), has the rest parsed and matched (on the parsing threads whenever a pool is given,
 * one file too: this thread then parses and matches nothing; several files in flight, results
 * taken in file order), and collects matches up to a cap. Cancelling the search terminates threads busy with it. A file whose text is unchanged
 * since the same pattern last searched it is answered from a small match cache. Used by
 * `ast_grep`, `ast_edit` and the benchmark; the command line schedules its batch run itself
 * (src/cli/batchSearch.ts).
 */
import {
  FileMatcher,
  FileOutcome,
  FileText,
  InlineMatcher,
  MatchJob,
  mostBytesUnderCap,
  notTextOutcome,
  PatternSummary,
} from './fileMatcher';
import { LanguageRegistry } from './languages';
import { Match } from './matcher';
import { MatchCache, PatternMatches } from './matchCache';
import { PatternError } from './pattern';
import { mayMatch } from './prefilter';
import { FileFilter } from './trigramFilter';
import { requiredTrigrams } from './trigrams';
import {
  groupByLanguage,
  inFile,
  MatchTally,
  planSearch,
  ScanPace,
  SearchedLanguage,
  searchedLanguages,
  SkippedFile,
  SkippedLanguage,
  yieldToEventLoop,
} from './searchPlan';
import { CancellationSource, withAbortSignal } from '../async/abortSignal';
import { TextEdit } from '../edits/textEdits';
import { checkRewrite, editsFor } from './rewrite';
import { ModelFacingError } from '../platform/modelFacingError';

/** Where the token can tell when it is cancelled (the editor's can), a cancelled search terminates the threads busy with it at once. */
export type Cancellation = CancellationSource;

export interface SearchRequest {
  readonly pattern: string;
  /** A grammar id; when absent each file's grammar comes from its extension. */
  readonly language?: string;
  /** Absolute paths. Files no grammar serves are skipped. */
  readonly files: readonly string[];
  /** Stop after this many matches (the answer then says "more than"). */
  readonly maxResults: number;
  readonly token?: Cancellation;
  /** Longer files (in UTF-16 units) are not parsed, and are named in `skippedFiles` (default MAX_SEARCHED_FILE_LENGTH). */
  readonly maxFileLength?: number;
}

export interface FileMatches {
  readonly file: string;
  readonly language: string;
  /** The text searched. */
  readonly source: string;
  readonly matches: readonly Match[];
}

export interface SearchResult {
  readonly files: readonly FileMatches[];
  readonly matchCount: number;
  /** True when the cap stopped the search: there are more matches than reported. */
  readonly truncated: boolean;
  /** Languages the pattern was compiled for, with their scaffold context and how many files each had. */
  readonly searched: readonly SearchedLanguage[];
  /** Languages present among the files for which the pattern did not parse (only when no language was given). */
  readonly skippedLanguages: readonly SkippedLanguage[];
  readonly filesParsed: number;
  /** Files that might hold matches and were not parsed (over the size cap, binary, unreadable), in file order. */
  readonly skippedFiles: readonly SkippedFile[];
  /** The size cap this search applied. */
  readonly maxFileLength: number;
}

/**
 * Files longer than this (in UTF-16 units) are not parsed unless the user raises the cap; every
 * answer names them. Parsing happens on the parsing threads, where only the one thread for large
 * texts grows: a tree takes ~25–40 bytes per character of its wasm heap (up to ~330 MB at the cap;
 * 3–9 M character bundles measured 1–4 s to parse, 2–5 s to match a broad pattern), handed back
 * once it answers when the text passed RETIRE_AFTER_LENGTH; its matching works within a 128 MB old
 * generation, the step budget's ceiling and the 60 s deadline. A file named alone is held to it too.
 */
export const MAX_SEARCHED_FILE_LENGTH = 8 * 1024 * 1024;

export interface RewriteRequest extends Omit<SearchRequest, 'maxResults'> {
  readonly rewrite: string;
  /** Refuse (TooManyReplacements) rather than stage more than this many replacements. */
  readonly maxReplacements: number;
}

export interface FileRewrite {
  readonly file: string;
  readonly source: string;
  /** The matches rewritten (nested ones give way to the outermost), in document order, with their edits. */
  readonly replacements: ReadonlyArray<{ readonly match: Match; readonly edit: TextEdit }>;
}

export interface RewriteResult {
  readonly files: readonly FileRewrite[];
  readonly replacementCount: number;
  readonly searched: SearchResult['searched'];
  readonly skippedLanguages: SearchResult['skippedLanguages'];
  readonly skippedFiles: SearchResult['skippedFiles'];
  readonly maxFileLength: number;
}

export class TooManyReplacements extends ModelFacingError {
  constructor(readonly limit: number) {
    super(
      `The rewrite would make more than ${limit} replacements; narrow \`path\` or the pattern and stage it in parts.`,
    );
    this.name = 'TooManyReplacements';
  }
}

/** Where file text comes from: open editor buffers first, then disk; or why a file has none. */
/** A file's text, or why it has none; one surely longer than `maxLength` is not read (`surelyOverCap`). */
export type ReadText = (file: string, maxLength: number) => Promise<FileText>;

export class SearchCancelled extends ModelFacingError {
  constructor() {
    super('The search was cancelled.');
    this.name = 'SearchCancelled';
  }
}

export interface StructuralSearchOptions {
  /** Where files are matched (one file too); this thread when absent. */
  readonly pool?: FileMatcher;
  /** Rules out files that surely lack the pattern's trigrams before they are read (the extension's trigram index). */
  readonly index?: FileFilter;
  /** Keep the matches of the last few patterns per file text (the extension; not a one-shot command line). */
  readonly cacheMatches?: boolean;
}

/** Files handed to the threads ahead of the one whose matches are awaited, per thread, and their text in all. */
const FILES_AHEAD_PER_THREAD = 16;
/**
 * Files read at once ahead of the one being taken: a read is a round trip through libuv's threads
 * (a stat, then the text when it changed), and one at a time left a warm search of 700 cached files
 * idle most of its 50-100 ms.
 */
const READS_AHEAD = 16;
const MAX_QUEUED_LENGTH = 4 * 1024 * 1024;

export class StructuralSearch {
  private readonly inline: InlineMatcher;
  /** The matches of the last few patterns (with `cacheMatches`), within their share of the engine's budget. */
  readonly matchCache = new MatchCache();

  constructor(
    private readonly registry: LanguageRegistry,
    private readonly readText: ReadText,
    private readonly options: StructuralSearchOptions = {},
  ) {
    this.inline = new InlineMatcher(registry);
  }

  /** Drops the cached matches (the benchmark's "new query" measure; tests). */
  forgetMatches(): void {
    this.matchCache.clear();
  }

  /** The pattern compiled for a language where files are matched (on a thread when a pool is given); throws PatternError. */
  compile(language: string, pattern: string, signal?: AbortSignal): Promise<PatternSummary> {
    return this.matcher().describe(language, pattern, signal);
  }

  async search(request: SearchRequest): Promise<SearchResult> {
    // A cancelled search takes its jobs back: waiting ones leave the queue, busy threads are terminated.
    return withAbortSignal(request.token, async (signal) => {
      try {
        return await this.searchWith(request, signal);
      } catch (error) {
        if (signal.aborted || request.token?.isCancellationRequested) throw new SearchCancelled();
        throw error;
      }
    });
  }

  private async searchWith(request: SearchRequest, signal: AbortSignal): Promise<SearchResult> {
    const plan = await planSearch(this.registry, request, (language, pattern) =>
      this.compile(language, pattern, signal),
    );
    const tally = new MatchTally(request.maxResults);
    const results: FileMatches[] = [];
    const maxLength = request.maxFileLength ?? MAX_SEARCHED_FILE_LENGTH;
    const matcher = this.matcher();
    // Files in flight, in file order: each one's matches are taken only after those of the files before it.
    const queue: Array<{ file: string; language: string; length: number; outcome: Promise<FileOutcome> }> = [];
    // Enough files ahead that a large one at the head does not leave the other threads idle; bounded in text held.
    const aheadFiles = matcher.parallelism === 1 ? 1 : matcher.parallelism * FILES_AHEAD_PER_THREAD;
    let queuedLength = 0;
    const takeOne = async (): Promise<boolean> => {
      const head = queue.shift() as (typeof queue)[number];
      queuedLength -= head.length;
      const outcome = await head.outcome.catch((error: unknown) => {
        throw inFile(error, head.file);
      });
      if (request.token?.isCancellationRequested) throw new SearchCancelled();
      const matches = tally.take(head.file, outcome, head.length);
      // A file with matches was matched from the text read here, which its outcome carries.
      if (matches)
        results.push({ file: head.file, language: head.language, source: outcome.source as string, matches });
      return tally.truncated;
    };
    const pace = new ScanPace();
    try {
      outer: for (const [language, group] of plan.groups) {
        const pattern = plan.compiled.get(language);
        if (!pattern) continue;
        const cache = this.cacheFor(language, request.pattern);
        const files = await this.candidates(group, pattern, maxLength, signal);
        const reads = new ReadAhead(files, (file) => this.readText(file, maxLength));
        for (const file of files) {
          if (request.token?.isCancellationRequested) throw new SearchCancelled();
          if (pace.due()) await yieldToEventLoop();
          const source = await reads.next();
          const length = typeof source === 'string' ? source.length : 0;
          pace.scanned(length);
          if (typeof source === 'string' && !mayMatch(source, pattern)) {
            // The next pattern may need it: have it indexed while nothing else runs.
            matcher.indexInBackground?.(file, language, source);
            continue;
          }
          const outcome: Promise<FileOutcome> =
            typeof source !== 'string'
              ? Promise.resolve(notTextOutcome(source))
              : length > maxLength
                ? Promise.resolve({ parsed: false, skipped: 'too large', matches: [] })
                : this.matchText(
                    matcher,
                    cache,
                    { file, language, pattern: request.pattern, text: source, limit: tally.limit },
                    file,
                    signal,
                  );
          queue.push({ file, language, length, outcome });
          queuedLength += length;
          while (queue.length > 0 && (queue.length >= aheadFiles || queuedLength > MAX_QUEUED_LENGTH))
            if (await takeOne()) break outer;
        }
      }
      while (queue.length > 0 && !tally.truncated) await takeOne();
    } finally {
      // What is still in flight after a cap, a cancellation or an error is not wanted.
      for (const abandoned of queue.splice(0)) abandoned.outcome.catch(() => undefined);
      this.options.index?.searchEnded();
    }
    return {
      files: results,
      matchCount: tally.matchCount,
      truncated: tally.truncated,
      searched: searchedLanguages(plan),
      skippedLanguages: plan.skippedLanguages,
      filesParsed: tally.filesParsed,
      skippedFiles: tally.skippedFiles,
      maxFileLength: maxLength,
    };
  }

  async rewrite(request: RewriteRequest): Promise<RewriteResult> {
    for (const language of groupByLanguage(this.registry, request).keys()) {
      let compiled: PatternSummary;
      try {
        compiled = await this.compile(language, request.pattern);
      } catch (error) {
        if (error instanceof PatternError && !request.language) continue;
        throw error;
      }
      checkRewrite(compiled, request.rewrite);
    }
    // Nested matches are dropped from the edits, so count matches with headroom and the edits exactly.
    const found = await this.search({ ...request, maxResults: request.maxReplacements * 4 });
    const files: FileRewrite[] = [];
    let replacementCount = 0;
    for (const file of found.files) {
      const source = file.source;
      const edits = editsFor(source, file.matches, request.rewrite);
      const replacements = edits.map((edit) => ({
        edit,
        match: file.matches.find((match) => match.start === edit.start && match.end === edit.end) as Match,
      }));
      const changed = replacements.filter(({ edit, match }) => edit.text !== match.text);
      replacementCount += changed.length;
      if (changed.length > 0) files.push({ file: file.file, source, replacements: changed });
    }
    if (found.truncated || replacementCount > request.maxReplacements)
      throw new TooManyReplacements(request.maxReplacements);
    return {
      files,
      replacementCount,
      searched: found.searched,
      skippedLanguages: found.skippedLanguages,
      skippedFiles: found.skippedFiles,
      maxFileLength: found.maxFileLength,
    };
  }

  /** The files of a language that may hold a match: all but those the index rules out (they are not read). */
  private async candidates(
    files: readonly string[],
    pattern: PatternSummary,
    maxLength: number,
    signal: AbortSignal,
  ): Promise<readonly string[]> {
    const index = this.options.index;
    if (!index) return files;
    const required = requiredTrigrams(pattern.requiredTexts);
    if (required.length === 0) return files;
    // A file surely over the cap is named as skipped, never ruled out.
    const ruledOut = await index.ruledOut(files, required, mostBytesUnderCap(maxLength), signal);
    return ruledOut.size === 0 ? files : files.filter((file) => !ruledOut.has(file));
  }

  /** Where files are matched: the pool when there is one, whatever the number of files. */
  private matcher(): FileMatcher {
    return this.options.pool ?? this.inline;
  }

  /** One text's matches: from the match cache while the text is unchanged, else parsed (and then cached when complete). */
  private matchText(
    matcher: FileMatcher,
    cache: PatternMatches | undefined,
    job: MatchJob,
    file: string,
    signal: AbortSignal,
  ): Promise<FileOutcome> {
    const source = job.text;
    const cached = cache?.get(file, source);
    if (cached) return Promise.resolve({ parsed: false, matches: cached, source });
    const matches = matcher.match(job, signal);
    // Complete answers only: a file cut at the limit may have more matches.
    if (cache)
      void matches.then(
        (found) => found.length < job.limit && cache.set(file, source, found),
        () => undefined,
      );
    return matches.then((found) => ({ parsed: true, matches: found, source }));
  }

  /** The cached matches of this pattern, the least recently used pattern giving way. */
  private cacheFor(language: string, pattern: string): PatternMatches | undefined {
    return this.options.cacheMatches ? this.matchCache.forPattern(language, pattern) : undefined;
  }
}

/** Reads a list of files in order, up to READS_AHEAD of them in flight at once. */
class ReadAhead {
  private readonly pending: Array<Promise<FileText>> = [];
  private started = 0;

  constructor(
    private readonly files: readonly string[],
    private readonly read: (file: string) => Promise<FileText>,
  ) {}

  /** The next file's text; the first call starts the reads ahead, each call one more. */
  next(): Promise<FileText> {
    while (this.pending.length < READS_AHEAD && this.started < this.files.length) {
      const read = this.read(this.files[this.started++]);
      // A read left behind by a search that stopped early must not surface as an unhandled rejection.
      read.catch(() => undefined);
      this.pending.push(read);
    }
    return this.pending.shift() ?? Promise.reject(new Error('read past the end of the file list'));
  }
}
