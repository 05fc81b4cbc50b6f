/**
 * A JUnit XML report (pytest's `--junitxml`, Node's `--test-reporter=junit`) read into test cases, in
 * one pass: each `<` is found once with `indexOf`, nothing is scanned twice, and every kept text is cut
 * at `MAX_TEXT_CHARACTERS`, the cases at `MAX_CASES` (the rest counted). Not a general XML parser: the
 * elements these reports use, attributes in double or single quotes, entities, comments and CDATA.
 */

export const MAX_CASES = 5_000;
export const MAX_TEXT_CHARACTERS = 20_000;
/** A report larger than this is not read (checked on the file's size first). */
export const MAX_REPORT_BYTES = 32 * 1024 * 1024;
/** Suite names kept around a case (deeper suites are counted, not named). */
const MAX_SUITE_DEPTH = 20;

export type CaseOutcome = 'passed' | 'failed' | 'error' | 'skipped';

export interface JunitCase {
  readonly name: string;
  readonly classname: string;
  /** Names of the `<testsuite>`s around it, outermost first (Node's describe blocks and parent tests). */
  readonly suites: readonly string[];
  readonly file?: string;
  readonly line?: number;
  readonly seconds: number;
  readonly outcome: CaseOutcome;
  /** The failure's, error's or skip's `message` attribute. */
  readonly message?: string;
  /** The failure's or error's text (the traceback, the stack). */
  readonly details?: string;
  readonly output?: string;
  /** Expected and actual as the runner's report gives them apart (mocha's and jest's JSON; JUnit has no place for them). */
  readonly expected?: string;
  readonly actual?: string;
}

export interface JunitReport {
  readonly cases: readonly JunitCase[];
  /** Cases past `MAX_CASES`, counted only. */
  readonly casesLeftOut: number;
  readonly counts: Readonly<Record<CaseOutcome, number>>;
}

interface OpenCase {
  name: string;
  classname: string;
  suites: string[];
  file?: string;
  line?: number;
  seconds: number;
  outcome: CaseOutcome;
  message?: string;
  details: string[];
  output: string[];
}

/** The cases of a report's text. */
export function parseJunit(xml: string): JunitReport {
  const cases: JunitCase[] = [];
  const counts: Record<CaseOutcome, number> = { passed: 0, failed: 0, error: 0, skipped: 0 };
  let casesLeftOut = 0;
  const suites: string[] = [];
  let depth = 0;
  let current: OpenCase | undefined;
  /** Where the text of an element we keep goes (failure, error, system-out, system-err), or undefined. */
  let sink: string[] | undefined;
  let sinkLength = 0;
  const keep = (text: string): void => {
    if (!sink || sinkLength >= MAX_TEXT_CHARACTERS || text.length === 0) return;
    const piece = text.slice(0, MAX_TEXT_CHARACTERS - sinkLength);
    sink.push(piece);
    sinkLength += piece.length;
  };
  /** Raw report text into the sink: only as much is decoded as can be kept (an entity is at most 10 characters). */
  const keepRaw = (raw: string): void => {
    if (!sink || sinkLength >= MAX_TEXT_CHARACTERS) return;
    keep(decodeEntities(raw.slice(0, (MAX_TEXT_CHARACTERS - sinkLength) * 10)));
  };
  const close = (open: OpenCase): void => {
    counts[open.outcome]++;
    if (cases.length >= MAX_CASES) {
      casesLeftOut++;
      return;
    }
    const details = open.details.join('');
    const output = withoutSectionHeaders(open.output.join(''));
    cases.push({
      name: open.name,
      classname: open.classname,
      suites: open.suites,
      ...(open.file !== undefined ? { file: open.file } : {}),
      ...(open.line !== undefined ? { line: open.line } : {}),
      seconds: open.seconds,
      outcome: open.outcome,
      ...(open.message !== undefined ? { message: open.message } : {}),
      ...(details ? { details } : {}),
      ...(output ? { output } : {}),
    });
  };

  let at = 0;
  while (at < xml.length) {
    const lt = xml.indexOf('<', at);
    if (lt === -1) {
      keepRaw(xml.slice(at));
      break;
    }
    if (lt > at) keepRaw(xml.slice(at, lt));
    if (xml.startsWith('<!--', lt)) {
      const end = xml.indexOf('-->', lt + 4);
      at = end === -1 ? xml.length : end + 3;
      continue;
    }
    if (xml.startsWith('<![CDATA[', lt)) {
      const end = xml.indexOf(']]>', lt + 9);
      keep(xml.slice(lt + 9, end === -1 ? xml.length : end));
      at = end === -1 ? xml.length : end + 3;
      continue;
    }
    const gt = tagEnd(xml, lt + 1);
    if (gt === -1) break;
    at = gt + 1;
    const tag = xml.slice(lt + 1, gt);
    if (tag.startsWith('?') || tag.startsWith('!')) continue;
    if (tag.startsWith('/')) {
      const name = tag.slice(1).trim();
      if (name === 'testsuite') {
        if (depth <= MAX_SUITE_DEPTH) suites.pop();
        depth = Math.max(0, depth - 1);
      } else if (name === 'testcase' && current) {
        close(current);
        current = undefined;
      } else if (['failure', 'error', 'skipped', 'system-out', 'system-err'].includes(name)) sink = undefined;
      continue;
    }
    const selfClosing = tag.endsWith('/');
    const body = selfClosing ? tag.slice(0, -1) : tag;
    const space = body.search(/[\s]/);
    const name = space === -1 ? body : body.slice(0, space);
    const attributes = space === -1 ? {} : readAttributes(body.slice(space));
    switch (name) {
      case 'testsuite':
        if (!selfClosing && ++depth <= MAX_SUITE_DEPTH) suites.push(attributes.name ?? '');
        break;
      case 'testcase': {
        if (current) close(current); // an unclosed case before it
        const line = Number(attributes.line);
        current = {
          name: attributes.name ?? '',
          classname: attributes.classname ?? '',
          suites: suites.filter((suite) => suite !== '' && suite !== 'pytest'),
          ...(attributes.file !== undefined ? { file: attributes.file } : {}),
          ...(attributes.line !== undefined && Number.isInteger(line) ? { line } : {}),
          seconds: Number(attributes.time) || 0,
          outcome: 'passed',
          details: [],
          output: [],
        };
        if (selfClosing) {
          close(current);
          current = undefined;
        }
        break;
      }
      case 'failure':
      case 'error':
      case 'skipped':
        if (!current) break;
        // A failure outranks an error (pytest reports a teardown error beside a failure), both outrank a skip.
        if (name === 'failure' || (name === 'error' && current.outcome !== 'failed') || current.outcome === 'passed') {
          current.outcome = name === 'failure' ? 'failed' : name === 'error' ? 'error' : 'skipped';
          current.message = attributes.message;
        }
        if (!selfClosing && name !== 'skipped') {
          sink = current.details;
          sinkLength = current.details.reduce((sum, part) => sum + part.length, 0);
        }
        break;
      case 'system-out':
      case 'system-err':
        if (current && !selfClosing) {
          sink = current.output;
          sinkLength = current.output.reduce((sum, part) => sum + part.length, 0);
        }
        break;
    }
  }
  if (current) close(current);
  return { cases, casesLeftOut, counts };
}

/** The `>` that ends a tag starting at `from`, outside quoted attribute values; -1 when none. Each character once. */
function tagEnd(xml: string, from: number): number {
  let quote = '';
  for (let at = from; at < xml.length; at++) {
    const char = xml[at];
    if (quote) {
      if (char === quote) quote = '';
    } else if (char === '"' || char === "'") quote = char;
    else if (char === '>') return at;
  }
  return -1;
}

/** `name="value"` pairs of a tag, in one forward pass (a pattern over a long run of name characters would backtrack). */
function readAttributes(text: string): Record<string, string> {
  const attributes: Record<string, string> = {};
  let at = 0;
  while (at < text.length) {
    const nameStart = at;
    while (at < text.length && /[\w:.-]/.test(text[at])) at++;
    const name = text.slice(nameStart, at);
    while (at < text.length && /\s/.test(text[at])) at++;
    if (!name || text[at] !== '=') {
      at = Math.max(at, nameStart + 1);
      continue;
    }
    at++;
    while (at < text.length && /\s/.test(text[at])) at++;
    const quote = text[at];
    if (quote !== '"' && quote !== "'") continue;
    const close = text.indexOf(quote, at + 1);
    const value = text.slice(at + 1, close === -1 ? text.length : close);
    attributes[name] = decodeEntities(value.slice(0, MAX_TEXT_CHARACTERS));
    at = close === -1 ? text.length : close + 1;
  }
  return attributes;
}

const NAMED_ENTITIES: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-fA-F]{1,6}|#[0-9]{1,7}|[a-z]{2,4});/g, (entity, body: string) => {
    if (body.startsWith('#')) {
      const code = body[1] === 'x' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return code <= 0x10ffff ? String.fromCodePoint(code) : entity;
    }
    return NAMED_ENTITIES[body] ?? entity;
  });
}

/** pytest's `----- Captured Out -----` headers (and what is only blank around them) left out of a case's output. */
function withoutSectionHeaders(text: string): string {
  return text
    .split('\n')
    .filter((line) => !/^-{3,} Captured (?:Log|Out|Err) -{3,}$/.test(line.trim()))
    .join('\n')
    .trim();
}
