/**
 * cargo test in two steps, each read as it comes: `cargo test --no-run --message-format=json` (the
 * test executables it built, or the compiler's errors as it rendered them), then each executable's
 * libtest JSON (`--format json -Z unstable-options`: suite/test events, a failure's captured output in
 * its `stdout`). Bounded like goTestJson.ts: long lines skipped, events and characters capped, each
 * output cut at `MAX_TEXT_CHARACTERS`, cases at `MAX_CASES`.
 */
import * as path from 'node:path';
import { CaseOutcome, JunitCase, JunitReport, MAX_CASES, MAX_TEXT_CHARACTERS } from './junitReport';
import { MAX_EVENTS, MAX_LINE_CHARACTERS, MAX_STREAM_CHARACTERS } from './goTestJson';
import { jsonObject, StreamLines } from './streamLines';

/** Compiler messages kept for a failed build, and their characters in all. */
const MAX_COMPILER_MESSAGES = 20;
const MAX_COMPILER_CHARACTERS = 20_000;
/** Test executables run (a package has one per target). */
export const MAX_EXECUTABLES = 200;

export interface TestExecutable {
  readonly executable: string;
  /** The target's source file (src/lib.rs, tests/api.rs), absolute. */
  readonly sourceFile: string;
  /** The package's folder (its Cargo.toml's), where cargo test runs the executable. */
  readonly packageDir: string;
  /** `lib`, `bin`, `test` … and the target's name. */
  readonly target: string;
}

export interface CargoBuild {
  readonly executables: readonly TestExecutable[];
  readonly success: boolean;
  /** The compiler's errors, as rustc rendered them. */
  readonly errors: readonly string[];
}

/** `cargo test --no-run --message-format=json` on stdout. */
export class CargoBuildStream {
  private readonly lines = new StreamLines(MAX_LINE_CHARACTERS, MAX_STREAM_CHARACTERS);
  private readonly executables: TestExecutable[] = [];
  private readonly errors: string[] = [];
  private errorCharacters = 0;
  private success = false;

  /** Reads a chunk; answers the text to show for it (the compiler's rendered messages). */
  stdout(chunk: string): string {
    const shown: string[] = [];
    this.lines.push(chunk, (line) => this.line(line, shown));
    return shown.join('');
  }

  finish(): CargoBuild {
    this.lines.end((line) => this.line(line, []));
    return { executables: this.executables, success: this.success, errors: this.errors };
  }

  private line(line: string, shown: string[]): void {
    const message = jsonObject(line);
    if (!message) return;
    if (message.reason === 'build-finished') this.success = message.success === true;
    else if (message.reason === 'compiler-artifact') {
      const profile = message.profile as { test?: unknown } | undefined;
      const target = message.target as { kind?: unknown; name?: unknown; src_path?: unknown } | undefined;
      const executable = message.executable;
      if (profile?.test !== true || typeof executable !== 'string' || this.executables.length >= MAX_EXECUTABLES)
        return;
      const kind = Array.isArray(target?.kind) ? String(target.kind[0]) : 'test';
      this.executables.push({
        executable,
        sourceFile: typeof target?.src_path === 'string' ? target.src_path : '',
        packageDir: path.dirname(String(message.manifest_path ?? '')),
        target: `${kind} ${String(target?.name ?? '')}`,
      });
    } else if (message.reason === 'compiler-message') {
      const diagnostic = message.message as { level?: unknown; rendered?: unknown } | undefined;
      if (typeof diagnostic?.rendered !== 'string') return;
      shown.push(diagnostic.rendered);
      const rendered = diagnostic.rendered.replace(/\s+$/, '');
      // cargo builds the library twice (as a library and as its tests): the same error comes twice.
      if (diagnostic.level !== 'error' || this.errors.includes(rendered)) return;
      if (this.errors.length >= MAX_COMPILER_MESSAGES || this.errorCharacters >= MAX_COMPILER_CHARACTERS) return;
      const kept = rendered.slice(0, MAX_COMPILER_CHARACTERS - this.errorCharacters);
      this.errors.push(kept);
      this.errorCharacters += kept.length;
    }
  }
}

/** The line that starts a test's panic in its captured output. */
const PANIC_LINE = /^thread '[^'\n]*' (?:\(\d+\) )?panicked at /m;

/** libtest's JSON events from the test executables, one after the other, into one report. */
export class LibtestStream {
  private lines = new StreamLines(MAX_LINE_CHARACTERS, MAX_STREAM_CHARACTERS);
  private readonly cases: JunitCase[] = [];
  private readonly counts: Record<CaseOutcome, number> = { passed: 0, failed: 0, error: 0, skipped: 0 };
  private casesLeftOut = 0;
  private events = 0;
  private readonly started: string[] = [];
  private current?: { classname: string; file: string };
  /** Failures the executable running now reported. */
  private failedHere = 0;

  /** The next executable's output starts: its cases are named after its target and file (relative to the run's root). */
  begin(target: string, file: string): void {
    this.lines = new StreamLines(MAX_LINE_CHARACTERS, MAX_STREAM_CHARACTERS);
    this.current = { classname: target, file };
    this.started.length = 0;
    this.failedHere = 0;
  }

  /** Reads a chunk of the executable's stdout; answers the text to show (failures' output, lines not JSON). */
  stdout(chunk: string): string {
    const shown: string[] = [];
    this.lines.push(chunk, (line) => this.line(line, shown));
    return shown.join('');
  }

  /** The tests started and not ended in the executable running now, in the order they started. */
  running(): readonly string[] {
    return this.started;
  }

  end(): void {
    this.lines.end((line) => this.line(line, []));
  }

  /**
   * The executable ended by itself: a test it started and never ended crashed it (abort, stack overflow,
   * process::exit), and a failed exit no failing test explains is an error too — never a clean run.
   */
  exited(exitCode: number | null): void {
    this.end();
    const how = exitCode === null ? 'was killed by a signal' : `exited with code ${exitCode}`;
    // A result line over the cap (a test that printed megabytes) is not read: said, not taken for a crash.
    const why = this.lines.longLines
      ? `its result was not read (${this.lines.longLines} lines of libtest's over ${MAX_LINE_CHARACTERS} characters skipped); the executable ${how}`
      : `the test executable ${how} while this test ran (it crashed the process)`;
    for (const name of this.started) this.add(name, 'error', { message: why });
    if (this.started.length === 0 && exitCode !== 0 && this.failedHere === 0)
      this.add(this.current?.classname ?? 'test executable', 'error', {
        message: `the test executable ${how}, and none of its tests failed: see its output`,
      });
    this.started.length = 0;
  }

  report(): JunitReport {
    return { cases: this.cases, casesLeftOut: this.casesLeftOut, counts: { ...this.counts } };
  }

  /** A case of the executable running now, counted; kept while the cap allows. */
  private add(name: string, outcome: CaseOutcome, facts: Partial<JunitCase>): void {
    this.counts[outcome]++;
    if (this.cases.length >= MAX_CASES) {
      this.casesLeftOut++;
      return;
    }
    this.cases.push({
      name,
      classname: this.current?.classname ?? '',
      suites: [],
      ...(this.current?.file ? { file: this.current.file } : {}),
      seconds: 0,
      outcome,
      ...facts,
    });
  }

  private line(line: string, shown: string[]): void {
    const event = jsonObject(line);
    if (!event) {
      shown.push(line + '\n');
      return;
    }
    if (++this.events > MAX_EVENTS || event.type !== 'test' || typeof event.name !== 'string') return;
    const name = event.name;
    if (event.event === 'started') {
      if (this.started.length < MAX_CASES) this.started.push(name);
      return;
    }
    const outcome: CaseOutcome | undefined =
      event.event === 'ok'
        ? 'passed'
        : event.event === 'failed' || event.event === 'timeout'
          ? 'failed'
          : event.event === 'ignored'
            ? 'skipped'
            : undefined;
    if (!outcome) return;
    const at = this.started.indexOf(name);
    if (at !== -1) this.started.splice(at, 1);
    if (outcome === 'failed') this.failedHere++;
    const captured = typeof event.stdout === 'string' ? event.stdout.slice(0, MAX_TEXT_CHARACTERS) : '';
    if (captured) shown.push(captured.replace(/\s+$/, '') + '\n');
    // What the test printed, apart from its panic (message, place, backtrace): the panic ends the test.
    const panicAt = captured.search(PANIC_LINE);
    const output = (panicAt === -1 ? captured : captured.slice(0, panicAt)).replace(/\s+$/, '');
    const details = panicAt === -1 ? '' : captured.slice(panicAt).replace(/\s+$/, '');
    const message = typeof event.message === 'string' ? event.message.slice(0, MAX_TEXT_CHARACTERS) : undefined;
    this.add(name, outcome, {
      seconds: typeof event.exec_time === 'number' ? event.exec_time : 0,
      ...(message ? { message } : {}),
      ...(details ? { details } : {}),
      ...(output ? { output } : {}),
    });
  }
}
