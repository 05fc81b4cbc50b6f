/**
 * The replacer: turns matches and a rewrite template into edits. Metavariables in the template
 * are replaced by what they captured (`$$$X` with its original separators); a multi-line
 * replacement follows the indentation of the matched site, and a multi-line capture is
 * re-indented to where it lands. Nested matches give way to the outermost one. A replacement
 * stands for what the pattern covered: the matched node's tokens before or after it, which the
 * pattern did not write (a statement's `;`, an `async`), stay unless the template writes them too.
 */
import { TextEdit } from '../edits/textEdits';
import { Match } from './matcher';
import { CompiledPattern, PatternError } from './pattern';

const TEMPLATE_METAVARIABLE = /\$\$\$([A-Z_][A-Z0-9_]*)|\$([A-Z_][A-Z0-9_]*)/g;

/** Refuses a template that uses a name the pattern does not bind, before anything runs. */
export function checkRewrite(pattern: Pick<CompiledPattern, 'metavariables'>, template: string): void {
  for (const found of template.matchAll(TEMPLATE_METAVARIABLE)) {
    const name = found[1] ?? found[2];
    if (name === '_')
      throw new PatternError('The rewrite uses $_ (or $$$_), which never binds anything; name it in the pattern.');
    if (!pattern.metavariables.has(name)) {
      const bound = [...pattern.metavariables.keys()].map((known) => `$${known}`);
      throw new PatternError(
        `The rewrite uses $${name}, which the pattern does not bind. ` +
          (bound.length ? `The pattern binds ${bound.join(', ')}.` : 'The pattern binds no metavariables.'),
      );
    }
  }
}

export function editsFor(source: string, matches: readonly Match[], template: string): TextEdit[] {
  const outermost: Match[] = [];
  for (const match of [...matches].sort((a, b) => a.start - b.start || b.end - a.end)) {
    const previous = outermost[outermost.length - 1];
    if (previous && match.start < previous.end) continue;
    outermost.push(match);
  }
  return outermost.map((match) => ({
    start: match.start,
    end: match.end,
    text: keptAround(source, match, replacementFor(source, match, template)),
  }));
}

/** The replacement with the uncovered text of the match around it, unless the replacement already begins or ends with it. */
function keptAround(source: string, match: Match, replacement: string): string {
  const before = source.slice(match.start, match.coveredStart);
  const after = source.slice(match.coveredEnd, match.end);
  const written = replacement.trim();
  return (
    (writes(written, before.trim(), 'start') ? '' : before) +
    replacement +
    (writes(written, after.trim(), 'end') ? '' : after)
  );
}

/** Whether `text` begins (ends) with `token`, not as part of a longer word (`async` is not the start of `asyncLoad`). */
function writes(text: string, token: string, side: 'start' | 'end'): boolean {
  if (token === '') return true;
  const next = side === 'start' ? text.charAt(token.length) : text.charAt(text.length - token.length - 1);
  const edge = side === 'start' ? token.charAt(token.length - 1) : token.charAt(0);
  return (
    (side === 'start' ? text.startsWith(token) : text.endsWith(token)) &&
    !(WORD_CHARACTER.test(edge) && WORD_CHARACTER.test(next))
  );
}

const WORD_CHARACTER = /[\p{L}\p{N}_$]/u;

export function replacementFor(source: string, match: Match, template: string): string {
  const siteIndent = indentAt(source, match.start);
  const lines = template.replace(/\r?\n$/, '').split('\n');
  return lines
    .map((line, index) => {
      const lineIndent = index === 0 ? siteIndent : siteIndent + (/^[ \t]*/.exec(line)?.[0] ?? '');
      const substituted = line.replace(
        TEMPLATE_METAVARIABLE,
        (_whole, runName: string | undefined, name: string | undefined) => {
          const capture = match.captures.get((runName ?? name) as string);
          if (!capture) return '';
          return reindent(capture.text, indentAt(source, capture.start), lineIndent);
        },
      );
      return index === 0 || substituted.length === 0 ? substituted : siteIndent + substituted;
    })
    .join('\n');
}

/** Leading whitespace of the line containing `offset`. */
function indentAt(source: string, offset: number): string {
  const lineStart = source.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(source.slice(lineStart, offset))?.[0] ?? '';
}

function reindent(text: string, from: string, to: string): string {
  if (!text.includes('\n') || from === to) return text;
  return text
    .split('\n')
    .map((line, index) => (index > 0 && line.startsWith(from) ? to + line.slice(from.length) : line))
    .join('\n');
}
