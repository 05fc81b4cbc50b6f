/**
 * What a model reads back from `ast_grep` and `ast_edit`: workspace-relative paths, 1-based
 * lines, trimmed match text, captures, the total or "more than N" when the cap stopped it.
 */
import { Capture, Match } from './matcher';
import { RewriteResult, SearchResult } from './search';
import { SkippedFile } from './searchPlan';
import { oneLine, plural } from '../platform/wording';

export const MATCH_TEXT_CAP = 200;
export const CAPTURE_TEXT_CAP = 80;

export type DisplayPath = (file: string) => string;

/** How answers name files, and how the size cap is raised where they are read (a setting, a flag). */
export interface AnswerContext {
  readonly display: DisplayPath;
  /** How to search `count` files over the cap, the longest `largest` characters long. */
  readonly sizeCapHint: (largest: number, count: number) => string;
}

/** Files named per reason a search skipped them; the rest are counted ("and N more"). */
export const SKIPPED_LIST_CAP = 10;

export function searchAnswer(pattern: string, result: SearchResult, context: AnswerContext, cap: number): string {
  const { display } = context;
  const languages = languagesLine(result);
  const fileCount = result.files.length;
  if (result.matchCount === 0) {
    const scanned = result.searched.reduce((sum, searched) => sum + searched.files, 0);
    if (scanned === 0)
      return `No files to search: no file here is written in a language with a shipped grammar${languages ? ` (${languages})` : ''}.`;
    return [
      `No matches of \`${pattern}\` in ${plural(scanned, 'file')} (${languages}).`,
      'Matching is structural: the pattern must be a whole node (call, statement, declaration) and literal names must be exact. ' +
        'Use $X for any one node and $$$X for any run of nodes (e.g. arguments), then narrow down.',
      ...skippedLines(result, context),
    ].join('\n');
  }
  const heading = result.truncated
    ? `More than ${cap} matches of \`${pattern}\`, the first ${cap} found (files in path order, one language after another; the search stopped there: narrow \`path\` or the pattern, or raise \`max_results\`), ${languages}:`
    : `${plural(result.matchCount, 'match', 'matches')} of \`${pattern}\` in ${plural(fileCount, 'file')} (${languages}):`;
  const lines = [heading];
  for (const file of result.files) {
    const shown = display(file.file);
    for (const match of file.matches)
      lines.push(`${shown}:${match.startRow + 1}: ${matchText(match)}${capturesText(match.captures)}`);
  }
  lines.push(...skippedLines(result, context));
  return lines.join('\n');
}

function languagesLine(result: Pick<SearchResult, 'searched'>): string {
  return result.searched.map((searched) => `${searched.language}, pattern parsed as ${searched.context}`).join('; ');
}

/** What a search did not search, and why: languages the pattern does not parse in, then files by reason (with how to include them). */
export function skippedLines(
  result: Pick<SearchResult, 'skippedLanguages' | 'skippedFiles' | 'maxFileLength'>,
  context: AnswerContext,
): string[] {
  const lines = result.skippedLanguages.map(
    (skipped) =>
      `Not searched: ${plural(skipped.files, `${skipped.language} file`)} — the pattern does not parse as ${skipped.language}.`,
  );
  const large = result.skippedFiles.filter((skipped) => skipped.reason === 'too large');
  if (large.length > 0) {
    // A file too large to be read has its bytes, no fewer than its characters: a cap that high searches it.
    const size = (skipped: SkippedFile) => skipped.length ?? skipped.bytes ?? 0;
    const largest = large.reduce((most, skipped) => Math.max(most, size(skipped)), 0);
    const names = large.map(
      (skipped) =>
        `${context.display(skipped.file)} (${size(skipped).toLocaleString('en-US')} ${skipped.length === undefined ? 'bytes' : 'characters'})`,
    );
    lines.push(
      `${notSearched(`${plural(large.length, 'file')} over the size cap of ${characters(result.maxFileLength)}`, undefined, names)} ` +
        context.sizeCapHint(largest, large.length),
    );
  }
  const binary = result.skippedFiles.filter((skipped) => skipped.reason === 'binary');
  if (binary.length > 0)
    lines.push(
      notSearched(
        plural(binary.length, 'binary file'),
        `${binary.length === 1 ? 'it holds' : 'they hold'} a NUL character`,
        binary.map((skipped) => context.display(skipped.file)),
      ),
    );
  const unreadable = result.skippedFiles.filter((skipped) => skipped.reason === 'unreadable');
  if (unreadable.length > 0)
    lines.push(
      notSearched(
        `${plural(unreadable.length, 'file')} that could not be read`,
        'missing, or no permission',
        unreadable.map((skipped) => context.display(skipped.file)),
      ),
    );
  return lines;
}

/** "Not searched: <what> (<why>): a, b." — past the cap "(<why>; the first 10 named): a, …, j and 3 more." */
function notSearched(what: string, why: string | undefined, names: readonly string[]): string {
  const over = names.length - SKIPPED_LIST_CAP;
  const notes = [why, over > 0 ? `the first ${SKIPPED_LIST_CAP} named` : undefined].filter(Boolean);
  const listed = names.slice(0, SKIPPED_LIST_CAP).join(', ') + (over > 0 ? ` and ${over} more` : '');
  return `Not searched: ${what}${notes.length > 0 ? ` (${notes.join('; ')})` : ''}: ${listed}.`;
}

/** The match on one line: whitespace collapsed, cut at the cap with the number of lines it spans. */
export function matchText(match: Match): string {
  const lines = match.endRow - match.startRow + 1;
  const text = oneLine(match.text, MATCH_TEXT_CAP);
  return lines > 1 ? `${text} (${lines} lines)` : text;
}

function capturesText(captures: ReadonlyMap<string, Capture>): string {
  if (captures.size === 0) return '';
  const parts = [...captures].map(
    ([name, capture]) => `$${name} = ${oneLine(capture.text, CAPTURE_TEXT_CAP) || '(empty)'}`,
  );
  return `  · ${parts.join(', ')}`;
}

function characters(count: number): string {
  return count % (1024 * 1024) === 0
    ? `${count / (1024 * 1024)} M characters`
    : `${count.toLocaleString('en-US')} characters`;
}

export const REWRITE_LIST_CAP = 50;

/** Each replacement of a staged rewrite (old → new on its line), capped; the staging answer gives the counts and the edit id. */
export function replacementsList(result: RewriteResult, context: AnswerContext): string {
  const { display } = context;
  const lines = [
    `Replacements${result.replacementCount > REWRITE_LIST_CAP ? ` (first ${REWRITE_LIST_CAP} of ${result.replacementCount})` : ''}:`,
  ];
  let listed = 0;
  for (const file of result.files) {
    for (const { match, edit } of file.replacements) {
      if (listed++ >= REWRITE_LIST_CAP) break;
      lines.push(
        `${display(file.file)}:${match.startRow + 1}: ${oneLine(match.text, 100)} → ${oneLine(edit.text, 100)}`,
      );
    }
  }
  lines.push(...skippedLines(result, context));
  return lines.join('\n');
}

export function noRewriteAnswer(pattern: string, result: RewriteResult, context: AnswerContext): string {
  const scanned = result.searched.reduce((sum, searched) => sum + searched.files, 0);
  return [
    `Nothing to rewrite: no match of \`${pattern}\` changes under the rewrite in ${plural(scanned, 'file')} (${languagesLine(result)}). Nothing was staged.`,
    ...skippedLines(result, context),
  ].join('\n');
}
