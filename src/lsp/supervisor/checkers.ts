/**
 * Parses the output of each project checker (`tsc`, `pyright --outputjson`, `go vet`,
 * `cargo check --message-format=json`, `dart analyze --format=machine`) into findings with the
 * same fields as an lsp diagnostic. Paths come back absolute, resolved against the checker's cwd.
 */
import * as path from 'node:path';
import { Severity } from '../format';
import { CheckerFormat } from './serverTable';
import { ModelFacingError } from '../../platform/modelFacingError';

export interface CheckerFinding {
  /** Absolute path. */
  readonly file: string;
  /** 1-based. */
  readonly line: number;
  readonly severity: Severity;
  readonly message: string;
  readonly source: string;
  readonly code?: string;
}

export class CheckerOutputUnreadable extends ModelFacingError {
  constructor(
    readonly format: CheckerFormat,
    readonly detail: string,
  ) {
    super(`the ${format} output could not be read: ${detail}`);
    this.name = 'CheckerOutputUnreadable';
  }
}

function severityOf(word: string): Severity {
  const lower = word.toLowerCase();
  if (lower.startsWith('err') || lower === 'fatal') return 'error';
  if (lower.startsWith('warn')) return 'warning';
  if (lower === 'hint') return 'hint';
  return 'info';
}

/** `src/a.ts(3,7): error TS2322: Type …` with indented continuation lines. */
export function parseTsc(output: string, cwd: string): CheckerFinding[] {
  const findings: CheckerFinding[] = [];
  const head = /^(.+?)\((\d+),(\d+)\): (error|warning|message) TS(\d+): (.*)$/;
  let last: { -readonly [K in keyof CheckerFinding]: CheckerFinding[K] } | undefined;
  for (const line of output.split(/\r?\n/)) {
    const match = head.exec(line);
    if (match) {
      last = {
        file: path.resolve(cwd, match[1]),
        line: Number(match[2]),
        severity: severityOf(match[4]),
        message: match[6],
        source: 'tsc',
        code: `TS${match[5]}`,
      };
      findings.push(last);
    } else if (last && /^\s+\S/.test(line)) {
      last.message += `\n${line.trim()}`;
    } else if (line.trim() === '') {
      continue;
    } else {
      last = undefined;
    }
  }
  return findings;
}

interface PyrightJson {
  generalDiagnostics?: {
    file: string;
    severity: string;
    message: string;
    rule?: string;
    range?: { start: { line: number } };
  }[];
}

export function parsePyrightJson(output: string, cwd: string): CheckerFinding[] {
  let parsed: PyrightJson;
  try {
    parsed = JSON.parse(output) as PyrightJson;
  } catch (error) {
    throw new CheckerOutputUnreadable('pyright-json', error instanceof Error ? error.message : String(error));
  }
  if (!Array.isArray(parsed.generalDiagnostics))
    throw new CheckerOutputUnreadable('pyright-json', 'no generalDiagnostics array');
  return parsed.generalDiagnostics.map((item) => ({
    file: path.resolve(cwd, item.file),
    line: (item.range?.start.line ?? 0) + 1,
    severity: severityOf(item.severity),
    message: item.message,
    source: 'pyright',
    code: item.rule,
  }));
}

/** `./main.go:7:2: message` (vet and build errors alike); `# pkg` headers and `vet:` notes skipped. */
export function parseGoVet(output: string, cwd: string): CheckerFinding[] {
  const findings: CheckerFinding[] = [];
  const head = /^(.+?\.go):(\d+)(?::(\d+))?: (.*)$/;
  let last: { -readonly [K in keyof CheckerFinding]: CheckerFinding[K] } | undefined;
  for (const line of output.split(/\r?\n/)) {
    const match = head.exec(line.startsWith('vet: ') ? line.slice(5) : line);
    if (match) {
      last = {
        file: path.resolve(cwd, match[1]),
        line: Number(match[2]),
        severity: 'error',
        message: match[4],
        source: 'go vet',
      };
      findings.push(last);
    } else if (last && /^\t\S/.test(line)) {
      last.message += `\n${line.trim()}`;
    } else {
      last = undefined;
    }
  }
  return findings;
}

interface CargoMessage {
  reason?: string;
  message?: {
    level: string;
    message: string;
    code?: { code: string } | null;
    spans?: { file_name: string; line_start: number; is_primary: boolean }[];
  };
}

export function parseCargoJson(output: string, cwd: string): CheckerFinding[] {
  const findings: CheckerFinding[] = [];
  for (const line of output.split(/\r?\n/)) {
    if (!line.startsWith('{')) continue;
    let parsed: CargoMessage;
    try {
      parsed = JSON.parse(line) as CargoMessage;
    } catch {
      continue;
    }
    if (parsed.reason !== 'compiler-message' || !parsed.message) continue;
    const span = parsed.message.spans?.find((item) => item.is_primary);
    if (!span) continue; // e.g. "aborting due to previous error"
    findings.push({
      file: path.resolve(cwd, span.file_name),
      line: span.line_start,
      severity: severityOf(parsed.message.level),
      message: parsed.message.message,
      source: 'cargo check',
      code: parsed.message.code?.code,
    });
  }
  return findings;
}

/** `SEVERITY|TYPE|CODE|FILE|LINE|COL|LENGTH|MESSAGE` (the message may itself hold `|`, escaped `\|`). */
export function parseDartMachine(output: string, cwd: string): CheckerFinding[] {
  const findings: CheckerFinding[] = [];
  for (const line of output.split(/\r?\n/)) {
    const fields = line.split(/(?<!\\)\|/);
    if (fields.length < 8 || !/^(ERROR|WARNING|INFO)$/.test(fields[0])) continue;
    findings.push({
      file: path.resolve(cwd, fields[3]),
      line: Number(fields[4]),
      severity: severityOf(fields[0]),
      message: fields.slice(7).join('|').replace(/\\\|/g, '|'),
      source: 'dart analyze',
      code: fields[2].toLowerCase(),
    });
  }
  return findings;
}

/** Parses `stdout`/`stderr` of a checker run in `cwd`. */
export function parseCheckerOutput(
  format: CheckerFormat,
  stdout: string,
  stderr: string,
  cwd: string,
): CheckerFinding[] {
  switch (format) {
    case 'tsc':
      return parseTsc(stdout, cwd);
    case 'pyright-json':
      return parsePyrightJson(stdout, cwd);
    case 'go-vet':
      return parseGoVet(stderr + '\n' + stdout, cwd);
    case 'cargo-json':
      return parseCargoJson(stdout, cwd);
    case 'dart-machine':
      return parseDartMachine(stderr + '\n' + stdout, cwd);
  }
}
