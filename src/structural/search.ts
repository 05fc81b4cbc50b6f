/**
 * Structural search over files: groups files by grammar, compiles the pattern once per
 * language, skips files that lack a text every match must contain, parses the rest, and
 * collects matches up to a cap. Trees are deleted as soon as a file is done (wasm memory is
 * not garbage collected). Used by `ast_grep`, `ast_edit`, the command line and the benchmark.
 */
import { LanguageRegistry } from './languages';
import { findMatches, Match } from './matcher';
import { CompiledPattern, compilePattern, PatternError } from './pattern';
import { TextEdit } from '../edits/textEdits';
import { checkRewrite, editsFor } from './rewrite';

export interface Cancellation {
  readonly isCancellationRequested: boolean;
}

export interface SearchRequest {
  readonly pattern: string;
  /** A grammar id; when absent each file's grammar comes from its extension. */
  readonly language?: string;
  /** Absolute paths. Files no grammar serves are skipped. */
  readonly files: readonly string[];
  /** Stop after this many matches (the answer then says "more than"). */
  readonly maxResults: number;
  readonly token?: Cancellation;
}

export interface FileMatches {
  readonly file: string;
  readonly language: string;
  readonly source: string;
  readonly matches: readonly Match[];
}

export interface SearchResult {
  readonly files: readonly FileMatches[];
  readonly matchCount: number;
  /** True when the cap stopped the search: there are more matches than reported. */
  readonly truncated: boolean;
  /** Languages the pattern was compiled for, with their scaffold context and how many files each had. */
  readonly searched: ReadonlyArray<{ readonly language: string; readonly context: string; readonly files: number }>;
  /** Languages present among the files for which the pattern did not parse (only when no language was given). */
  readonly skippedLanguages: ReadonlyArray<{ readonly language: string; readonly files: number; readonly reason: string }>;
  readonly filesParsed: number;
  /** Files not parsed because they exceed the size cap (generated bundles, mostly). */
  readonly skippedLarge: readonly string[];
}

/**
 * Files longer than this (in UTF-16 units) are not parsed when a folder is searched: they are
 * generated bundles in practice, and the wasm heap grows to fit the largest tree and never
 * shrinks (a 6 MB bundle alone takes ~200 MB). Searching one such file by path still works.
 */
export const MAX_SEARCHED_FILE_LENGTH = 1024 * 1024;

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
  readonly skippedLarge: SearchResult['skippedLarge'];
}

export class TooManyReplacements extends Error {
  constructor(readonly limit: number) {
    super(`The rewrite would make more than ${limit} replacements; narrow \`path\` or the pattern and stage it in parts.`);
    this.name = 'TooManyReplacements';
  }
}

/** Where file text comes from: open editor buffers first, then disk; undefined when unreadable. */
export type ReadText = (file: string) => Promise<string | undefined>;

export class SearchCancelled extends Error {
  constructor() {
    super('The search was cancelled.');
    this.name = 'SearchCancelled';
  }
}

export class StructuralSearch {
  constructor(
    private readonly registry: LanguageRegistry,
    private readonly readText: ReadText,
  ) {}

  async compile(language: string, pattern: string): Promise<CompiledPattern> {
    return compilePattern(await this.registry.load(language), pattern);
  }

  async search(request: SearchRequest): Promise<SearchResult> {
    const groups = this.groupByLanguage(request);
    const compiled = new Map<string, CompiledPattern>();
    const skippedLanguages: Array<{ language: string; files: number; reason: string }> = [];
    for (const [language, files] of groups) {
      try {
        compiled.set(language, await this.compile(language, request.pattern));
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

    const results: FileMatches[] = [];
    let matchCount = 0;
    let truncated = false;
    let filesParsed = 0;
    const skippedLarge: string[] = [];
    const capSize = request.files.length > 1;
    let sinceYield = 0;
    outer: for (const [language, files] of groups) {
      const pattern = compiled.get(language);
      if (!pattern) continue;
      const { parser } = await this.registry.load(language);
      for (const file of files) {
        if (request.token?.isCancellationRequested) throw new SearchCancelled();
        if (++sinceYield >= 20) {
          sinceYield = 0;
          await new Promise((resolve) => setImmediate(resolve));
        }
        const source = await this.readText(file);
        if (source === undefined || !containsAll(source, pattern.requiredTexts)) continue;
        if (capSize && source.length > MAX_SEARCHED_FILE_LENGTH) {
          skippedLarge.push(file);
          continue;
        }
        const tree = parser.parse(source);
        if (!tree) continue;
        filesParsed++;
        let matches: Match[];
        try {
          matches = findMatches(tree, source, pattern.root, request.maxResults - matchCount + 1);
        } finally {
          tree.delete();
        }
        if (matches.length === 0) continue;
        if (matchCount + matches.length > request.maxResults) {
          matches = matches.slice(0, request.maxResults - matchCount);
          truncated = true;
        }
        matchCount += matches.length;
        if (matches.length > 0) results.push({ file, language, source, matches });
        if (truncated) break outer;
      }
    }
    return {
      files: results,
      matchCount,
      truncated,
      searched: [...compiled].map(([language, pattern]) => ({
        language,
        context: pattern.context,
        files: groups.get(language)?.length ?? 0,
      })),
      skippedLanguages,
      filesParsed,
      skippedLarge,
    };
  }

  async rewrite(request: RewriteRequest): Promise<RewriteResult> {
    for (const language of this.groupByLanguage(request).keys()) {
      let compiled: CompiledPattern;
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
      const edits = editsFor(file.source, file.matches, request.rewrite);
      const replacements = edits.map((edit) => ({ edit, match: file.matches.find((match) => match.start === edit.start && match.end === edit.end) as Match }));
      const changed = replacements.filter(({ edit, match }) => edit.text !== match.text);
      replacementCount += changed.length;
      if (changed.length > 0) files.push({ file: file.file, source: file.source, replacements: changed });
    }
    if (found.truncated || replacementCount > request.maxReplacements) throw new TooManyReplacements(request.maxReplacements);
    return { files, replacementCount, searched: found.searched, skippedLanguages: found.skippedLanguages, skippedLarge: found.skippedLarge };
  }

  private groupByLanguage(request: Pick<SearchRequest, 'files' | 'language'>): Map<string, string[]> {
    const groups = new Map<string, string[]>();
    if (request.language) this.registry.entry(request.language);
    for (const file of request.files) {
      const language = this.registry.entryForFile(file)?.id;
      if (!language) continue;
      if (request.language && !sameFamily(request.language, language)) continue;
      const group = groups.get(request.language ?? language) ?? [];
      group.push(file);
      groups.set(request.language ?? language, group);
    }
    return groups;
  }
}

/** With language cpp, `.h` headers (served by c by default) are searched too, parsed as C++. */
function sameFamily(requested: string, fileLanguage: string): boolean {
  return requested === fileLanguage || (requested === 'cpp' && fileLanguage === 'c');
}

function containsAll(source: string, texts: readonly string[]): boolean {
  for (const text of texts) if (!source.includes(text)) return false;
  return true;
}
