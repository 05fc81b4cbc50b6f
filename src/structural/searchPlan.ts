/**
 * What every search over files does around its schedule, whoever schedules it (the editor's
 * search, search.ts; the command line's batch run, src/cli/batchSearch.ts): the files grouped by
 * grammar and the pattern compiled once per language (`planSearch`), the matches taken file by
 * file in file order up to the cap (`MatchTally`), and how often this thread lets other work in.
 */
import { FileOutcome, PatternSummary, SkipReason } from './fileMatcher';
import { LanguageRegistry } from './languages';
import { Match, PatternTooExpensive } from './matcher';
import { PatternError } from './pattern';
import { ParsingTimedOut } from './parsePool';

export interface SearchedLanguage {
  readonly language: string;
  /** The scaffold context the pattern compiled in. */
  readonly context: string;
  readonly files: number;
}

export interface SkippedLanguage {
  readonly language: string;
  readonly files: number;
  readonly reason: string;
}

/** A file that might hold matches and was not parsed, and why. */
export interface SkippedFile {
  readonly file: string;
  readonly reason: SkipReason;
  /** Its length in UTF-16 units, when too large. */
  readonly length?: number;
  /** Its size in bytes, when too large to be read at all. */
  readonly bytes?: number;
}

export interface SearchPlan {
  /** The files by grammar id, in the order first met (a requested language takes its family's files too). */
  readonly groups: ReadonlyMap<string, readonly string[]>;
  /** The pattern compiled for each language it parses in. */
  readonly compiled: ReadonlyMap<string, PatternSummary>;
  /** Languages present among the files for which the pattern did not parse (only when no language was given). */
  readonly skippedLanguages: readonly SkippedLanguage[];
}

/** The outcome of a file with no text to search (searches name it with the reason). */
/** Compiles a pattern for a language where files are matched; throws PatternError. */
export type CompileFor = (language: string, pattern: string) => Promise<PatternSummary>;

/**
 * Groups the files and compiles the pattern for each language. Where no language was given, a
 * language the pattern does not parse in is skipped, unless it parses in none: then the PatternError.
 */
export async function planSearch(
  registry: LanguageRegistry,
  request: { readonly pattern: string; readonly language?: string; readonly files: readonly string[] },
  compile: CompileFor,
): Promise<SearchPlan> {
  const groups = groupByLanguage(registry, request);
  const compiled = new Map<string, PatternSummary>();
  const skippedLanguages: SkippedLanguage[] = [];
  for (const [language, files] of groups) {
    try {
      compiled.set(language, await compile(language, request.pattern));
    } catch (error) {
      if (!(error instanceof PatternError) || request.language) throw error;
      skippedLanguages.push({ language, files: files.length, reason: error.message });
    }
  }
  if (compiled.size === 0 && skippedLanguages.length > 0) {
    throw new PatternError(
      skippedLanguages.length === 1
        ? skippedLanguages[0].reason
        : `The pattern parses in none of the languages of these files: ${skippedLanguages.map((skip) => skip.language).join(', ')}. ` +
            'Pass `language` to see why it fails in one of them.',
    );
  }
  return { groups, compiled, skippedLanguages };
}

/** The languages a plan searched, with their scaffold context and how many files each had. */
export function searchedLanguages(plan: SearchPlan): SearchedLanguage[] {
  return [...plan.compiled].map(([language, pattern]) => ({
    language,
    context: pattern.context,
    files: plan.groups.get(language)?.length ?? 0,
  }));
}

/** The files by grammar id; files no grammar serves, or not of the requested language's family, are left out. */
export function groupByLanguage(
  registry: LanguageRegistry,
  request: { readonly language?: string; readonly files: readonly string[] },
): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  if (request.language) registry.entry(request.language);
  for (const file of request.files) {
    const language = registry.entryForFile(file)?.id;
    if (!language) continue;
    if (request.language && !sameFamily(request.language, language)) continue;
    const group = groups.get(request.language ?? language) ?? [];
    group.push(file);
    groups.set(request.language ?? language, group);
  }
  return groups;
}

/** With language cpp, `.h` headers (served by c by default) are searched too, parsed as C++. */
function sameFamily(requested: string, fileLanguage: string): boolean {
  return requested === fileLanguage || (requested === 'cpp' && fileLanguage === 'c');
}

/** A search's count, taken file by file in file order: matches up to the cap, files parsed, files skipped and why. */
export class MatchTally {
  matchCount = 0;
  /** True once the cap cut a file's matches: there are more than reported. */
  truncated = false;
  filesParsed = 0;
  readonly skippedFiles: SkippedFile[] = [];

  constructor(private readonly maxResults: number) {}

  /** The matches a file's job may stop at: those still wanted and one more, which tells the cap was passed. */
  get limit(): number {
    return this.maxResults - this.matchCount + 1;
  }

  /**
   * Counts one file's outcome (`length`: its text's, as read here). Its matches as reported (cut at
   * the cap, which may leave none), or undefined when it had none.
   */
  take(file: string, outcome: FileOutcome, length: number): readonly Match[] | undefined {
    const reason = outcome.skipped;
    if (reason === 'too large')
      this.skippedFiles.push(
        outcome.bytes === undefined ? { file, reason, length } : { file, reason, bytes: outcome.bytes },
      );
    else if (reason && reason !== 'no candidate') this.skippedFiles.push({ file, reason });
    if (outcome.parsed) this.filesParsed++;
    let matches = outcome.matches;
    if (matches.length === 0) return undefined;
    if (this.matchCount + matches.length > this.maxResults) {
      matches = matches.slice(0, this.maxResults - this.matchCount);
      this.truncated = true;
    }
    this.matchCount += matches.length;
    return matches;
  }
}

/** A thread given the text does not know which file it was: its budget or deadline error is told here. */
export function inFile(error: unknown, file: string): unknown {
  return (error instanceof PatternTooExpensive || error instanceof ParsingTimedOut) && !error.file
    ? error.inFile(file)
    : error;
}

/** This thread only prefilters (a linear scan of each text); it still lets other work in every few files or characters (a few ms of work). */
const YIELD_EVERY_FILES = 20;
const YIELD_EVERY_CHARACTERS = 2 * 1024 * 1024;

/** Counts the files and characters this thread scans, and says when it is time to let other work in. */
export class ScanPace {
  private files = 0;
  private characters = 0;

  /** Before each file: true every YIELD_EVERY_FILES files or YIELD_EVERY_CHARACTERS characters, and the count starts again. */
  due(): boolean {
    if (++this.files < YIELD_EVERY_FILES && this.characters < YIELD_EVERY_CHARACTERS) return false;
    this.files = 0;
    this.characters = 0;
    return true;
  }

  scanned(characters: number): void {
    this.characters += characters;
  }
}

/** Lets the other work in (timers, thread replies, the editor's events). */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
