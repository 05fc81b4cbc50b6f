/**
 * `go test -json`'s event stream (test2json: one JSON object a line, Action run/pause/cont/output/
 * pass/fail/skip per Test, subtests as `TestX/sub`) read as it comes into the cases answers and Test
 * Explorer use. Bounded: lines past `MAX_LINE_CHARACTERS` are skipped, events past `MAX_EVENTS` and
 * characters past `MAX_STREAM_CHARACTERS` are counted only, each test's output is cut at
 * `MAX_TEXT_CHARACTERS`, the cases at `MAX_CASES`. A build failure (Go 1.19 writes `FAIL pkg [build
 * failed]` on stdout and the compiler's lines on stderr; newer Go writes `build-output` events) is kept
 * as such, with the compiler's lines.
 */
import { CaseOutcome, JunitCase, JunitReport, MAX_CASES, MAX_TEXT_CHARACTERS } from './junitReport';
import { jsonObject, StreamLines } from './streamLines';

export const MAX_LINE_CHARACTERS = 1_000_000;
export const MAX_EVENTS = 1_000_000;
export const MAX_STREAM_CHARACTERS = 256 * 1024 * 1024;
/** Tests followed (their output kept); past it a test is only counted. */
const MAX_TRACKED_TESTS = 2 * MAX_CASES;
/** The compiler's lines kept for a build failure. */
export const MAX_BUILD_LINES = 60;
const MAX_BUILD_LINE_CHARACTERS = 500;

/** Where a top-level test function is defined: its file relative to the run's root, and its line. */
export type GoTestLocator = (packagePath: string, testFunction: string) => { file: string; line: number } | undefined;

export interface GoRunResult {
  readonly report: JunitReport;
  /** Packages that did not build, and the compiler's lines (stderr, `build-output` events). */
  readonly buildFailure?: { readonly packages: readonly string[]; readonly lines: readonly string[] };
  /** Events or characters past the caps (counted, not read). */
  readonly leftOut?: string;
}

interface TrackedTest {
  readonly packagePath: string;
  readonly name: string;
  readonly output: string[];
  outputLength: number;
  outcome?: CaseOutcome;
  seconds: number;
  hasChildren: boolean;
  childFailed: boolean;
}

/** Framing lines go test writes around a test's own output. */
const FRAMING = /^\s*(?:=== (?:RUN|PAUSE|CONT|NAME)\s|--- (?:PASS|FAIL|SKIP): )/;
const BUILD_FAILED = /^FAIL\s+(\S+)\s+\[(?:build|setup) failed\]/;

export class GoTestStream {
  private readonly lines = new StreamLines(MAX_LINE_CHARACTERS, MAX_STREAM_CHARACTERS);
  private readonly stderrLines = new StreamLines(MAX_LINE_CHARACTERS, MAX_STREAM_CHARACTERS);
  private readonly tests = new Map<string, TrackedTest>();
  private readonly order: TrackedTest[] = [];
  private readonly untracked: Record<CaseOutcome, number> = { passed: 0, failed: 0, error: 0, skipped: 0 };
  private readonly buildPackages = new Set<string>();
  private readonly buildLines: string[] = [];
  private events = 0;

  /** Reads a chunk of stdout; answers the text a person would have seen (the tests' output, other lines as they are). */
  stdout(chunk: string): string {
    const shown: string[] = [];
    this.lines.push(chunk, (line) => this.line(line, shown));
    return shown.join('');
  }

  /** Reads a chunk of stderr (where Go 1.19 writes the compiler's errors). */
  stderr(chunk: string): void {
    this.stderrLines.push(chunk, (line) => this.keepBuildLine(line));
  }

  /** The test that has started and not ended, the latest one without subtests. */
  running(): { name: string; packagePath: string } | undefined {
    for (let index = this.order.length - 1; index >= 0; index--) {
      const test = this.order[index];
      if (test.outcome === undefined && !test.hasChildren) return { name: test.name, packagePath: test.packagePath };
    }
    return undefined;
  }

  /** The cases, once the run ended; `locate` finds a test function's file for a case whose output names none. */
  finish(locate: GoTestLocator): GoRunResult {
    const shown: string[] = [];
    this.lines.end((line) => this.line(line, shown));
    this.stderrLines.end((line) => this.keepBuildLine(line));
    const counts = { ...this.untracked };
    const cases: JunitCase[] = [];
    let casesLeftOut = 0;
    for (const test of this.order) {
      // A parent's outcome is its subtests': it is a case of its own only when it failed with none failing.
      if (test.hasChildren && (test.outcome !== 'failed' || test.childFailed)) continue;
      const outcome = test.outcome ?? 'error';
      counts[outcome]++;
      if (cases.length >= MAX_CASES) {
        casesLeftOut++;
        continue;
      }
      const output = test.output.join('').replace(/\s+$/, '');
      const found = locate(test.packagePath, test.name.split('/')[0]);
      cases.push({
        name: test.name,
        classname: test.packagePath,
        suites: [],
        ...(found ? { file: found.file, line: found.line } : {}),
        seconds: test.seconds,
        outcome,
        ...(test.outcome === undefined
          ? { message: 'It did not end: the test binary stopped while it ran (a panic elsewhere, os.Exit, a crash).' }
          : {}),
        ...(output ? { output } : {}),
      });
    }
    const leftOut = [
      this.events > MAX_EVENTS ? `${this.events - MAX_EVENTS} events past the first ${MAX_EVENTS}` : '',
      this.lines.charactersPastCap ? `${this.lines.charactersPastCap} characters past ${MAX_STREAM_CHARACTERS}` : '',
      this.lines.longLines ? `${this.lines.longLines} lines over ${MAX_LINE_CHARACTERS} characters` : '',
    ].filter(Boolean);
    return {
      report: { cases, casesLeftOut: casesLeftOut + this.untrackedTotal(), counts },
      ...(this.buildPackages.size
        ? { buildFailure: { packages: [...this.buildPackages], lines: this.buildLines } }
        : {}),
      ...(leftOut.length ? { leftOut: leftOut.join(', ') } : {}),
    };
  }

  private untrackedTotal(): number {
    return this.untracked.passed + this.untracked.failed + this.untracked.error + this.untracked.skipped;
  }

  private line(line: string, shown: string[]): void {
    const event = jsonObject(line);
    if (!event) {
      const failed = BUILD_FAILED.exec(line);
      if (failed) this.buildPackages.add(failed[1]);
      shown.push(line + '\n');
      return;
    }
    if (++this.events > MAX_EVENTS) return;
    const action = typeof event.Action === 'string' ? event.Action : '';
    const packagePath = String(event.Package ?? event.ImportPath ?? '');
    const output = typeof event.Output === 'string' ? event.Output : undefined;
    if (action === 'build-output') {
      if (output !== undefined) this.keepBuildLine(output.replace(/\n$/, ''));
      return;
    }
    if (action === 'build-fail') {
      this.buildPackages.add(packagePath);
      return;
    }
    const name = typeof event.Test === 'string' ? event.Test : undefined;
    if (output !== undefined) shown.push(output);
    if (!name) {
      if (output !== undefined) {
        const failed = BUILD_FAILED.exec(output);
        if (failed) this.buildPackages.add(failed[1]);
      }
      return;
    }
    const test = this.test(packagePath, name, action === 'run');
    if (!test) {
      if (action === 'pass' || action === 'fail' || action === 'skip') this.untracked[outcomeOf(action)]++;
      return;
    }
    if (action === 'output' && output !== undefined && !FRAMING.test(output)) this.keepOutput(test, output);
    else if (action === 'pass' || action === 'fail' || action === 'skip') {
      test.outcome = outcomeOf(action);
      test.seconds = typeof event.Elapsed === 'number' ? event.Elapsed : 0;
      if (action === 'fail') this.markParentsFailed(packagePath, name);
    }
  }

  /** The tracked test (made on its `run` event, while there is room). */
  private test(packagePath: string, name: string, starting: boolean): TrackedTest | undefined {
    const key = `${packagePath}\u0000${name}`;
    const known = this.tests.get(key);
    if (known || !starting || this.tests.size >= MAX_TRACKED_TESTS) return known;
    const test: TrackedTest = {
      packagePath,
      name,
      output: [],
      outputLength: 0,
      seconds: 0,
      hasChildren: false,
      childFailed: false,
    };
    this.tests.set(key, test);
    this.order.push(test);
    const slash = name.lastIndexOf('/');
    if (slash > 0) {
      const parent = this.tests.get(`${packagePath}\u0000${name.slice(0, slash)}`);
      if (parent) parent.hasChildren = true;
    }
    return test;
  }

  private markParentsFailed(packagePath: string, name: string): void {
    for (let slash = name.lastIndexOf('/'); slash > 0; slash = name.lastIndexOf('/', slash - 1)) {
      const parent = this.tests.get(`${packagePath}\u0000${name.slice(0, slash)}`);
      if (parent) parent.childFailed = true;
    }
  }

  private keepOutput(test: TrackedTest, output: string): void {
    if (test.outputLength >= MAX_TEXT_CHARACTERS) return;
    const piece = output.slice(0, MAX_TEXT_CHARACTERS - test.outputLength);
    test.output.push(piece);
    test.outputLength += piece.length;
  }

  private keepBuildLine(line: string): void {
    if (this.buildLines.length < MAX_BUILD_LINES && line.trim())
      this.buildLines.push(
        line.length > MAX_BUILD_LINE_CHARACTERS ? line.slice(0, MAX_BUILD_LINE_CHARACTERS) + '…' : line,
      );
  }
}

function outcomeOf(action: string): CaseOutcome {
  return action === 'pass' ? 'passed' : action === 'skip' ? 'skipped' : 'failed';
}
