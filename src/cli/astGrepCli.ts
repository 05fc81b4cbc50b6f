/**
 * `live-ast-grep`: the structural engine on the command line, for users and the benchmark.
 *   live-ast-grep --lang ts --pattern 'foo($A)' [--rewrite 'bar($A)'] [--json] [--max N] PATH...
 * Prints matches (or, with --rewrite, the files' rewritten text as a unified list of
 * replacements; nothing is written), errors on stderr. Exit code 0 with matches, 1 without, 2 on
 * error.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { listFiles } from '../structural/fileWalker';
import { GRAMMARS } from '../structural/grammarManifest';
import { LanguageRegistry } from '../structural/languages';
import { checkRewrite, editsFor } from '../structural/rewrite';
import { StructuralSearch } from '../structural/search';

const ALIASES: Readonly<Record<string, string>> = {
  ts: 'typescript', js: 'javascript', jsx: 'javascript', py: 'python', rs: 'rust', 'c++': 'cpp', cs: 'c_sharp',
  csharp: 'c_sharp', kt: 'kotlin', rb: 'ruby', sh: 'bash', yml: 'yaml', golang: 'go',
};

interface CliOptions {
  language?: string;
  pattern?: string;
  rewrite?: string;
  json: boolean;
  max: number;
  paths: string[];
}

function parseArguments(argv: readonly string[]): CliOptions {
  const options: CliOptions = { json: false, max: Number.POSITIVE_INFINITY, paths: [] };
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
      if (!Number.isInteger(options.max) || options.max < 1) throw new Error('--max needs a whole number of matches, 1 or more.');
    }
    else if (argument === '--json') options.json = true;
    else if (argument === '--help' || argument === '-h') throw new Error('help');
    else if (argument.startsWith('-')) throw new Error(`Unknown option ${argument}.`);
    else options.paths.push(argument);
  }
  return options;
}

const USAGE = "usage: live-ast-grep [--lang LANG] --pattern PATTERN [--rewrite TEMPLATE] [--json] [--max N] PATH...";

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
  // One search per process: nothing to gain from keeping file texts.
  const search = new StructuralSearch(registry, readText);
  try {
    const files: string[] = [];
    for (const start of options.paths.length ? options.paths : ['.']) {
      const absolute = path.resolve(start);
      files.push(...(await listFiles(absolute, { root: absolute, excludeGlobs: [], useGitignore: true, accept: (file) => registry.entryForFile(file) !== undefined })));
    }
    if (options.rewrite !== undefined && language) checkRewrite(await search.compile(language, options.pattern as string), options.rewrite);
    const result = await search.search({ pattern: options.pattern as string, language, files, maxResults: options.max });
    for (const file of result.files) {
      const shown = path.relative(process.cwd(), file.file) || file.file;
      const replacements = options.rewrite !== undefined ? editsFor(file.source, file.matches, options.rewrite) : [];
      for (const match of file.matches) {
        const replacement = replacements.find((edit) => edit.start === match.start && edit.end === match.end);
        if (options.json) {
          out(JSON.stringify({
            file: shown,
            line: match.startRow + 1,
            column: match.startColumn + 1,
            endLine: match.endRow + 1,
            start: match.start,
            end: match.end,
            text: match.text,
            captures: Object.fromEntries([...match.captures].map(([name, capture]) => [name, capture.text])),
            ...(replacement ? { replacement: replacement.text } : {}),
          }));
        } else {
          out(`${shown}:${match.startRow + 1}: ${match.text.split('\n')[0]}${replacement ? `\n  → ${replacement.text.split('\n').join('\n    ')}` : ''}`);
        }
      }
    }
    if (!options.json) out(`${result.matchCount}${result.truncated ? '+' : ''} matches in ${result.files.length} files (${result.filesParsed} parsed of ${files.length}).`);
    return result.matchCount > 0 ? 0 : 1;
  } catch (failed) {
    error(`error: ${(failed as Error).message}`);
    return 2;
  }
}

/** The file's text; undefined when unreadable or binary (a NUL character). */
async function readText(file: string): Promise<string | undefined> {
  try {
    const text = await fs.readFile(file, 'utf8');
    return text.includes('\u0000') ? undefined : text;
  } catch {
    return undefined;
  }
}

if (require.main === module) {
  const write = (stream: NodeJS.WriteStream) => (text: string) => void stream.write(`${text}\n`);
  void main(process.argv.slice(2), path.join(__dirname, 'grammars'), write(process.stdout), write(process.stderr)).then((code) => {
    process.exitCode = code;
  });
}
