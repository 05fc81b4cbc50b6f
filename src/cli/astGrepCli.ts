/**
 * `live-ast-grep`: the structural engine on the command line, for users and the benchmark.
 *   live-ast-grep --lang ts --pattern 'foo($A)' [--rewrite 'bar($A)'] [--json] [--max N] [--max-file-chars N] PATH...
 * Prints matches (or, with --rewrite, the files' rewritten text as a unified list of
 * replacements; nothing is written); on stderr, what was not searched and why (with --json, one
 * JSON record per skipped file or language: stdout holds match objects only, as ast-grep's
 * --json=stream does) and errors. Exit code 0 with matches, 1 without, 2 on error.
 */
import { existsSync, statSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as v8 from 'node:v8';
import { FileText, InlineMatcher, readTextFile } from '../structural/fileMatcher';
import { listFiles } from '../workspace/fileWalker';
import { GRAMMARS } from '../structural/grammarManifest';
import { LanguageRegistry } from '../structural/languages';
import { checkRewrite, editsFor } from '../structural/rewrite';
import { MAX_SEARCHED_FILE_LENGTH } from '../structural/search';
import { LARGE_TEXT_LENGTH, ParsePool } from '../structural/parsePool';
import { skippedLines } from '../structural/answers';
import { StoppedInFile } from '../structural/stoppedInFile';
import { BatchFile, BatchResult, batchSearch, matchJsonLine } from './batchSearch';

const ALIASES: Readonly<Record<string, string>> = {
  ts: 'typescript',
  js: 'javascript',
  jsx: 'javascript',
  py: 'python',
  rs: 'rust',
  'c++': 'cpp',
  cs: 'c_sharp',
  csharp: 'c_sharp',
  kt: 'kotlin',
  rb: 'ruby',
  sh: 'bash',
  yml: 'yaml',
  golang: 'go',
};

interface CliOptions {
  language?: string;
  pattern?: string;
  rewrite?: string;
  json: boolean;
  max: number;
  threads: number;
  maxFileLength: number;
  paths: string[];
}

function parseArguments(argv: readonly string[]): CliOptions {
  const options: CliOptions = {
    json: false,
    max: Number.POSITIVE_INFINITY,
    threads: defaultThreads(),
    maxFileLength: MAX_SEARCHED_FILE_LENGTH,
    paths: [],
  };
  for (let i = 0; i < argv.length; i++) {
    const argument = argv[i];
    const value = (): string => {
      const next = argv[++i];
      if (next === undefined) throw new Error(`${argument} needs a value.`);
      return next;
    };
    if (argument === '--lang' || argument === '-l') options.language = value();
    else if (argument === '--pattern' || argument === '-p') options.pattern = value();
    else if (argument === '--rewrite' || argument === '-r') options.rewrite = value();
    else if (argument === '--max') {
      options.max = Number(value());
      if (!Number.isInteger(options.max) || options.max < 1)
        throw new Error('--max needs a whole number of matches, 1 or more.');
    } else if (argument === '--threads' || argument === '-j') {
      options.threads = Number(value());
      if (!Number.isInteger(options.threads) || options.threads < 0)
        throw new Error('--threads needs a whole number, 0 (parse on the main thread) or more.');
    } else if (argument === '--max-file-chars') {
      options.maxFileLength = Number(value());
      if (!Number.isInteger(options.maxFileLength) || options.maxFileLength < 1)
        throw new Error('--max-file-chars needs a whole number of characters, 1 or more.');
    } else if (argument === '--json') options.json = true;
    else if (argument === '--help' || argument === '-h') throw new Error('help');
    else if (argument.startsWith('-')) throw new Error(`Unknown option ${argument}.`);
    else options.paths.push(argument);
  }
  return options;
}

const USAGE =
  'usage: live-ast-grep [--lang LANG] --pattern PATTERN [--rewrite TEMPLATE] [--json] [--max N] [--threads N] [--max-file-chars N] PATH...';

/** One parsing thread per core, up to four (each holds its own grammars and wasm heap). */
function defaultThreads(): number {
  return Math.min(os.availableParallelism(), 4);
}

/** One run: `out` gets the results, `error` the usage and error messages; resolves to the exit code. */
export async function main(
  argv: readonly string[],
  grammarDir: string,
  out: (text: string) => void,
  error: (text: string) => void = out,
): Promise<number> {
  let options: CliOptions;
  try {
    options = parseArguments(argv);
    if (!options.pattern) throw new Error('--pattern is required.');
  } catch (refused) {
    const message = (refused as Error).message;
    if (message === 'help') out(USAGE);
    else error(`${message}\n${USAGE}`);
    return message === 'help' ? 0 : 2;
  }
  const registry = new LanguageRegistry({
    grammars: GRAMMARS,
    locateWasm: (entry) => path.join(grammarDir, `${entry.id}.wasm`),
    runtimeWasm: path.join(grammarDir, '..', 'web-tree-sitter.wasm'),
  });
  const language = options.language ? (ALIASES[options.language] ?? options.language) : undefined;
  const workerScript = path.join(grammarDir, '..', 'parseWorker.js');
  let pool: ParsePool | undefined;
  try {
    // A file named is searched as it is (a folder's listing skips what .gitignore ignores); told apart here, not by a round trip each.
    const named = (options.paths.length ? options.paths : ['.'])
      .map((start) => path.resolve(start))
      .map((absolute) => {
        const stat = statSync(absolute);
        return { absolute, isFile: stat.isFile(), size: stat.size };
      });
    // One file parses on this thread (a command line has nothing else to keep responsive): no thread is started for it.
    // Unless it is large: a thread's limits and deadline bound it, where this thread's heap would end the process.
    const oneFile = named.length === 1 && named[0].isFile && named[0].size <= LARGE_TEXT_LENGTH;
    pool =
      options.threads > 0 && !oneFile && existsSync(workerScript)
        ? new ParsePool({ script: workerScript, size: options.threads })
        : undefined;
    // One search per process: nothing kept between files (batchSearch.ts); with threads, they read the files.
    const matcher = pool ?? new InlineMatcher(registry);
    // The threads load the grammar while folders are listed (the search asks again and is answered at once; its error is the one reported).
    if (language && pool) pool.describe(language, options.pattern as string).catch(() => undefined);
    const files: string[] = [];
    for (const { absolute, isFile } of named) {
      if (isFile) files.push(absolute);
      else
        files.push(
          ...(await listFiles(absolute, {
            root: absolute,
            excludeGlobs: [],
            useGitignore: true,
            accept: (file) => registry.entryForFile(file) !== undefined,
          })),
        );
    }
    if (options.rewrite !== undefined && language)
      checkRewrite(await matcher.describe(language, options.pattern as string), options.rewrite);
    const print = (file: BatchFile): void => {
      const shownFile = shown(file.file);
      const replacements =
        options.rewrite !== undefined && file.source !== undefined
          ? editsFor(file.source, file.matches, options.rewrite)
          : [];
      for (const match of file.matches) {
        const replacement = replacements.find((edit) => edit.start === match.start && edit.end === match.end);
        if (options.json) {
          out(matchJsonLine(shownFile, match, replacement?.text));
        } else {
          out(
            `${shownFile}:${match.startRow + 1}: ${match.text.split('\n')[0]}${replacement ? `\n  → ${replacement.text.split('\n').join('\n    ')}` : ''}`,
          );
        }
      }
    };
    let filesWithMatches = 0;
    const result = await batchSearch(registry, readText, matcher, {
      pattern: options.pattern as string,
      language,
      files,
      maxResults: options.max,
      withSources: options.rewrite !== undefined,
      maxFileLength: options.maxFileLength,
      onFile: (file) => {
        filesWithMatches++;
        print(file);
      },
    });
    const notSearched =
      result.skippedFiles.length + result.skippedLanguages.reduce((sum, skipped) => sum + skipped.files, 0);
    if (!options.json)
      out(
        `${result.matchCount}${result.truncated ? '+' : ''} matches in ${filesWithMatches} files (${result.filesParsed} parsed of ${files.length}${notSearched > 0 ? `; ${notSearched} not searched` : ''}).`,
      );
    for (const line of options.json
      ? skippedRecords(result, options.maxFileLength)
      : skippedText(result, options.maxFileLength))
      error(line);
    return result.matchCount > 0 ? 0 : 1;
  } catch (failed) {
    // An error that stopped at one file names it as matches do.
    const stopped = failed instanceof StoppedInFile && failed.file ? failed.inFile(shown(failed.file)) : failed;
    error(`error: ${(stopped as Error).message}`);
    return 2;
  } finally {
    pool?.dispose();
  }
}

/** As the command line names a file: relative to the working directory. */
function shown(file: string): string {
  return path.relative(process.cwd(), file) || file;
}

/** What was not searched, as the tool's answer words it, with the flag that includes files over the cap. */
function skippedText(result: BatchResult, maxFileLength: number): string[] {
  return skippedLines(
    { ...result, maxFileLength },
    {
      display: shown,
      sizeCapHint: (largest, count) => `Pass --max-file-chars ${largest} to search ${count === 1 ? 'it' : 'them'}.`,
    },
  );
}

/**
 * What was not searched, one JSON record per line for stderr: every skipped language and file (a
 * program counts them; the text caps its list), told from a match by its key.
 */
function skippedRecords(result: BatchResult, maxFileLength: number): string[] {
  return [
    ...result.skippedLanguages.map(({ language, files, reason }) =>
      JSON.stringify({ skippedLanguage: language, files, reason }),
    ),
    ...result.skippedFiles.map(({ file, reason, length, bytes }) =>
      JSON.stringify(
        reason === 'too large'
          ? {
              skipped: shown(file),
              reason,
              // A file not read has its bytes (no fewer than its characters) instead.
              ...(length === undefined ? { bytes } : { characters: length }),
              maxFileChars: maxFileLength,
              include: `--max-file-chars ${length ?? bytes}`,
            }
          : { skipped: shown(file), reason },
      ),
    ),
  ];
}

/** Read synchronously: a batch run has nothing else to do meanwhile (an asynchronous read costs four round trips to the thread pool per file). */
async function readText(file: string, maxLength: number): Promise<FileText> {
  return readTextFile(file, maxLength);
}

if (require.main === module) {
  // Its V8 heap flags are on the shebang line esbuild.mjs writes: set here, they come too late for this thread.
  // A V8 flag also overrides every parsing thread's own resourceLimits; unset once this thread's heap is made, the pool's limits apply to them.
  v8.setFlagsFromString('--max-old-space-size=0');
  const write = (stream: NodeJS.WriteStream) => (text: string) => void stream.write(`${text}\n`);
  void main(process.argv.slice(2), path.join(__dirname, 'grammars'), write(process.stdout), write(process.stderr)).then(
    (code) => {
      process.exitCode = code;
    },
  );
}
