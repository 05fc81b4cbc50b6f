/**
 * Coverage reports read into each file's statements and their hit counts, in one pass over the text
 * (each line found once with `indexOf`): lcov tracefiles (coverage.py's `coverage lcov`, Node's
 * `--test-reporter=lcov`, c8 and istanbul) give lines; Go's `-coverprofile` gives statement blocks.
 * Files are capped at `MAX_COVERAGE_FILES` and statements at `MAX_STATEMENTS`, the rest counted.
 */
import * as path from 'node:path';

export const MAX_COVERAGE_FILES = 10_000;
export const MAX_STATEMENTS = 1_000_000;
/** A report larger than this is not read (checked on the file's size first): it is parsed on the extension host, ~1 s at this size. */
export const MAX_COVERAGE_REPORT_BYTES = 16 * 1024 * 1024;

export type CoverageFormat = 'lcov' | 'go';

/** A line (lcov) or a block of statements (Go), 1-based; columns only where the report gives them. */
export interface CoverageStatement {
  readonly line: number;
  readonly hits: number;
  /** Statements it stands for: 1 for an lcov line, Go's statement count for a block. */
  readonly weight: number;
  readonly column?: number;
  readonly endLine?: number;
  readonly endColumn?: number;
}

export interface CoveredFile {
  /** The file as the report names it (relative to the runner's folder, absolute, or a Go import path). */
  readonly file: string;
  readonly statements: readonly CoverageStatement[];
}

export interface CoverageReport {
  /** What a statement is: an lcov line, or one of Go's statements. */
  readonly unit: 'lines' | 'statements';
  readonly files: readonly CoveredFile[];
  readonly filesLeftOut: number;
  readonly statementsLeftOut: number;
}

/** Collects statements per file, merging a statement seen twice (hits summed; Go's `set` mode: either). */
class Collector {
  private readonly byFile = new Map<string, { statements: CoverageStatement[]; index: Map<string, number> }>();
  filesLeftOut = 0;
  statementsLeftOut = 0;
  private statementCount = 0;
  /** The files left out so far, each counted once (at most MAX_COVERAGE_FILES names kept). */
  private readonly leftOut = new Set<string>();

  constructor(private readonly setMode = false) {}

  add(file: string, key: string, statement: CoverageStatement): void {
    let entry = this.byFile.get(file);
    if (!entry) {
      if (this.byFile.size >= MAX_COVERAGE_FILES) {
        this.leaveOut(file);
        return;
      }
      entry = { statements: [], index: new Map() };
      this.byFile.set(file, entry);
    }
    const seen = entry.index.get(key);
    if (seen !== undefined) {
      const before = entry.statements[seen];
      const hits = this.setMode ? Math.max(before.hits, statement.hits) : before.hits + statement.hits;
      entry.statements[seen] = { ...before, hits };
      return;
    }
    if (this.statementCount >= MAX_STATEMENTS) {
      this.statementsLeftOut++;
      return;
    }
    this.statementCount++;
    entry.index.set(key, entry.statements.length);
    entry.statements.push(statement);
  }

  /** Opens a file that may have no statements (an lcov record with none still names a measured file). */
  touch(file: string): void {
    if (!this.byFile.has(file)) {
      if (this.byFile.size >= MAX_COVERAGE_FILES) this.leaveOut(file);
      else this.byFile.set(file, { statements: [], index: new Map() });
    }
  }

  /** Counts a file past the cap once, however often the report names it (merged profiles repeat names). */
  private leaveOut(file: string): void {
    if (this.leftOut.has(file)) return;
    this.filesLeftOut++;
    // Past this many names the count may count a name twice: bounded memory over an exact count.
    if (this.leftOut.size < MAX_COVERAGE_FILES) this.leftOut.add(file);
  }

  report(unit: CoverageReport['unit']): CoverageReport {
    const files = [...this.byFile].map(([file, { statements }]) => ({
      file,
      statements: [...statements].sort((a, b) => a.line - b.line || (a.column ?? 0) - (b.column ?? 0)),
    }));
    return { unit, files, filesLeftOut: this.filesLeftOut, statementsLeftOut: this.statementsLeftOut };
  }
}

/** Each line of a text in turn, without splitting it into an array first. */
function forEachLine(text: string, visit: (line: string) => void): void {
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    visit(text.slice(start, end > start && text[end - 1] === '\r' ? end - 1 : end));
    start = end + 1;
  }
}

/** A count as the report writes it: digits only, safe as a number. */
function count(text: string): number | undefined {
  if (!/^\d{1,15}$/.test(text)) return undefined;
  return Number(text);
}

/** An lcov tracefile: `SF:` opens a file, `DA:line,hits[,checksum]` its lines, `end_of_record` closes it. */
export function parseLcov(text: string): CoverageReport {
  const collector = new Collector();
  let file: string | undefined;
  forEachLine(text, (line) => {
    if (line.startsWith('SF:')) {
      file = line.slice(3);
      collector.touch(file);
    } else if (line === 'end_of_record') file = undefined;
    else if (file !== undefined && line.startsWith('DA:')) {
      const fields = line.slice(3).split(',', 3);
      const lineNumber = count(fields[0]);
      const hits = count(fields[1] ?? '');
      if (lineNumber && hits !== undefined)
        collector.add(file, String(lineNumber), { line: lineNumber, hits, weight: 1 });
    }
  });
  return collector.report('lines');
}

/**
 * Go's cover profile: `mode: set|count|atomic`, then one block a line,
 * `name.go:startLine.startCol,endLine.endCol statements count` (columns 1-based, in bytes).
 */
export function parseGoCoverProfile(text: string): CoverageReport {
  const setMode = /^mode: set\s*$/m.test(text.slice(0, 200));
  const collector = new Collector(setMode);
  forEachLine(text, (line) => {
    if (line.startsWith('mode:')) return;
    const lastSpace = line.lastIndexOf(' ');
    const middleSpace = lastSpace > 0 ? line.lastIndexOf(' ', lastSpace - 1) : -1;
    const colon = middleSpace > 0 ? line.lastIndexOf(':', middleSpace - 1) : -1;
    if (colon <= 0) return;
    const hits = count(line.slice(lastSpace + 1));
    const weight = count(line.slice(middleSpace + 1, lastSpace));
    const range = /^(\d{1,9})\.(\d{1,9}),(\d{1,9})\.(\d{1,9})$/.exec(line.slice(colon + 1, middleSpace));
    if (hits === undefined || weight === undefined || !range) return;
    const [startLine, column, endLine, endColumn] = range.slice(1).map(Number);
    if (!startLine || !endLine) return;
    collector.add(line.slice(0, colon), range[0], { line: startLine, column, endLine, endColumn, hits, weight });
  });
  return collector.report('statements');
}

/** The module path a go.mod declares (`module example.com/shop`), if any. */
export function goModulePath(goMod: string): string | undefined {
  let found: string | undefined;
  forEachLine(goMod, (line) => {
    if (found !== undefined) return;
    const match = /^\s*module\s+("?)([^\s"]+)\1\s*(?:\/\/.*)?$/.exec(line);
    if (match) found = match[2];
  });
  return found;
}

/**
 * The file on disk a Go profile names: `<module path>/<dir>/<file>.go` lies under the module's root
 * (the folder of its go.mod); an absolute name is kept; a file of another module is not ours (undefined).
 */
export function goFileFor(name: string, moduleRoot: string, modulePath: string): string | undefined {
  if (path.isAbsolute(name)) return name;
  if (!name.startsWith(`${modulePath}/`)) return undefined;
  const rest = name.slice(modulePath.length + 1);
  const file = path.resolve(moduleRoot, rest);
  return file.startsWith(moduleRoot + path.sep) ? file : undefined;
}

/** A report's text read as its format gives it. */
export function parseCoverage(format: CoverageFormat, text: string): CoverageReport {
  return format === 'go' ? parseGoCoverProfile(text) : parseLcov(text);
}
