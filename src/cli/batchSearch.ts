/**
 * The command line's search: one batch run over files on disk, each file's matches handed on in
 * file order as soon as they are known and nothing kept. This thread reads each file only to skip
 * what cannot match; with parsing threads, a file that may match is read again by the thread that
 * parses it, so no text crosses threads or stays here (only matches come back, or the text of a
 * file whose matches would copy more), and far more files go ahead of the one awaited than in the
 * editor's search (src/structural/search.ts), bounded by the text their matches hold.
 */
import { FileMatcher, FileOutcome, FileText, InlineMatcher, notTextOutcome } from '../structural/fileMatcher';
import { LanguageRegistry } from '../structural/languages';
import { Match } from '../structural/matcher';
import { mayMatch } from '../structural/prefilter';
import {
  inFile,
  MatchTally,
  planSearch,
  ScanPace,
  SkippedFile,
  SkippedLanguage,
  yieldToEventLoop,
} from '../structural/searchPlan';
import { matchedLength } from '../structural/workerProtocol';
import { StoppedInFile } from '../structural/stoppedInFile';

export interface BatchRequest {
  readonly pattern: string;
  /** A grammar id; when absent each file's grammar comes from its extension. */
  readonly language?: string;
  /** Absolute paths. Files no grammar serves are skipped. */
  readonly files: readonly string[];
  /** Stop after this many matches (the count then says "more than"). */
  readonly maxResults: number;
  /** Longer files (in UTF-16 units) are not parsed, and are named in `skippedFiles`. */
  readonly maxFileLength: number;
  /** Threads send each file's text back with its matches (a rewrite needs it). */
  readonly withSources: boolean;
  /** Each file's matches, in file order, as soon as they are known (the command line prints them). */
  readonly onFile: (file: BatchFile) => void;
}

export interface BatchFile {
  readonly file: string;
  readonly language: string;
  /** The text searched; absent when threads read the file and `withSources` was false. */
  readonly source?: string;
  readonly matches: readonly Match[];
}

export interface BatchResult {
  readonly matchCount: number;
  /** True when the cap stopped the search: there are more matches than reported. */
  readonly truncated: boolean;
  readonly filesParsed: number;
  /** Files that might hold matches and were not parsed (over the size cap, binary, unreadable), in file order. */
  readonly skippedFiles: readonly SkippedFile[];
  /** Languages present among the files for which the pattern did not parse (only when no language was given). */
  readonly skippedLanguages: readonly SkippedLanguage[];
}

/** The file's text, or why it has none. */
export type ReadFileText = (file: string, maxLength: number) => Promise<FileText>;

/**
 * Where threads read the files, no text waits here, only the matches of files done ahead of the
 * one awaited: far more files go ahead than the editor's 16 per thread (the large texts all go to
 * one thread, and with 16 the others ran out of work behind them), bounded by the text those
 * matches hold.
 */
export const FILES_AHEAD_PER_THREAD_READING = 256;
export const MAX_HELD_LENGTH = 1024 * 1024;

/**
 * Matches one file may send back: ~600 bytes each on this thread, whose heap is 64 MB (73 K of a
 * broad pattern were measured to fit, 200 K of a bare `$A` ended the process). The parsing thread
 * stops there too, so neither holds more; past it the run ends in TooManyMatchesInFile.
 */
export const MAX_MATCHES_PER_FILE = 50_000;

export class TooManyMatchesInFile extends StoppedInFile {
  constructor(
    readonly limit: number,
    readonly file?: string,
  ) {
    super(
      `More than ${limit.toLocaleString('en-US')} matches in one file (${file ?? 'this file'}): ` +
        'narrow the pattern (a bare $A matches every node), or stop at fewer with --max.',
    );
    this.name = 'TooManyMatchesInFile';
  }

  inFile(file: string): TooManyMatchesInFile {
    return new TooManyMatchesInFile(this.limit, file);
  }
}

/**
 * A file longer than this goes ahead only once no other such file waits to be taken: the matches
 * of one can take tens of MB of this thread's 64 MB heap (~20 K matches of a broad pattern in a
 * 3 M character bundle), and those of several done ahead, all held at once, ended the process.
 * They are parsed one after another by the one thread for large texts anyway.
 */
export const ALONE_AHEAD_LENGTH = 1024 * 1024;

/**
 * Searches the files with `matcher`: parsing threads (a ParsePool) are handed the files that may
 * match, which they read; this thread's InlineMatcher is handed their texts, one file after
 * another. Throws PatternError, and the first error of a file.
 */
export async function batchSearch(
  registry: LanguageRegistry,
  readText: ReadFileText,
  matcher: FileMatcher,
  request: BatchRequest,
): Promise<BatchResult> {
  const threadsRead = !(matcher instanceof InlineMatcher);
  const plan = await planSearch(registry, request, (language, pattern) => matcher.describe(language, pattern));
  const tally = new MatchTally(request.maxResults);
  // Files in flight, in file order: each one's matches are taken only after those of the files before it.
  const queue: Array<{
    file: string;
    language: string;
    length: number;
    /** Its job stops past the file's cap, before the run's. */
    fileCapFirst: boolean;
    large: boolean;
    held: number;
    outcome: Promise<FileOutcome>;
  }> = [];
  const aheadFiles = matcher.parallelism === 1 ? 1 : matcher.parallelism * FILES_AHEAD_PER_THREAD_READING;
  // The text the answers of files ahead of the one awaited hold.
  let heldLength = 0;
  const takeOne = async (): Promise<boolean> => {
    const head = queue.shift() as (typeof queue)[number];
    const outcome = await head.outcome.catch((error: unknown) => {
      throw inFile(error, head.file);
    });
    heldLength -= head.held;
    if (head.fileCapFirst && outcome.matches.length > MAX_MATCHES_PER_FILE)
      throw new TooManyMatchesInFile(MAX_MATCHES_PER_FILE, head.file);
    const matches = tally.take(head.file, outcome, head.length);
    if (matches) request.onFile({ file: head.file, language: head.language, source: outcome.source, matches });
    return tally.truncated;
  };
  const pace = new ScanPace();
  try {
    outer: for (const [language, files] of plan.groups) {
      const pattern = plan.compiled.get(language);
      if (!pattern) continue;
      for (const file of files) {
        if (pace.due()) await yieldToEventLoop();
        const source = await readText(file, request.maxFileLength);
        const length = typeof source === 'string' ? source.length : 0;
        pace.scanned(length);
        if (typeof source === 'string' && !mayMatch(source, pattern)) continue;
        // Parsed, and long enough to go ahead alone.
        const large = length > ALONE_AHEAD_LENGTH && length <= request.maxFileLength;
        if (large) while (queue.some((waiting) => waiting.large)) if (await takeOne()) break outer;
        const fileCapFirst = tally.limit > MAX_MATCHES_PER_FILE + 1;
        const limit = fileCapFirst ? MAX_MATCHES_PER_FILE + 1 : tally.limit;
        let outcome: Promise<FileOutcome>;
        if (typeof source !== 'string') {
          outcome = Promise.resolve(notTextOutcome(source));
        } else if (length > request.maxFileLength) {
          outcome = Promise.resolve({ parsed: false, skipped: 'too large', matches: [] });
        } else if (threadsRead) {
          // The text was read here only to skip what cannot match: it is dropped now, the thread reads the file again.
          outcome = matcher.matchFile({
            language,
            pattern: request.pattern,
            file,
            size: length,
            limit,
            maxLength: request.maxFileLength,
            withSource: request.withSources,
          });
        } else {
          outcome = matcher
            .match({ language, pattern: request.pattern, text: source, limit })
            .then((matches) => ({ parsed: true, matches, source }));
        }
        const entry = { file, language, length, fileCapFirst, large, held: 0, outcome };
        if (threadsRead) {
          void outcome.then(
            (done) => {
              entry.held = heldBy(done);
              heldLength += entry.held;
            },
            () => undefined,
          );
        }
        queue.push(entry);
        while (queue.length > 0 && (queue.length >= aheadFiles || heldLength > MAX_HELD_LENGTH))
          if (await takeOne()) break outer;
      }
    }
    while (queue.length > 0 && !tally.truncated) await takeOne();
  } finally {
    // What is still in flight after a cap or an error is not wanted.
    for (const abandoned of queue.splice(0)) abandoned.outcome.catch(() => undefined);
  }
  return {
    matchCount: tally.matchCount,
    truncated: tally.truncated,
    filesParsed: tally.filesParsed,
    skippedFiles: tally.skippedFiles,
    skippedLanguages: plan.skippedLanguages,
  };
}

/**
 * The text a file's outcome keeps alive until it is taken: its matches' and captures' texts (at
 * least the source they were cut from, when that came along instead), and the source when asked for.
 */
function heldBy(outcome: FileOutcome): number {
  return (outcome.source?.length ?? 0) + matchedLength(outcome.matches);
}

/** The line `--json` prints for a match (the benchmark measures building it too). */
export function matchJsonLine(file: string, match: Match, replacement?: string): string {
  return JSON.stringify({
    file,
    line: match.startRow + 1,
    column: match.startColumn + 1,
    endLine: match.endRow + 1,
    start: match.start,
    end: match.end,
    text: match.text,
    captures: Object.fromEntries([...match.captures].map(([name, capture]) => [name, capture.text])),
    ...(replacement !== undefined ? { replacement } : {}),
  });
}
