/**
 * The pattern compiler. A pattern is code in the target language with metavariables (`$NAME`
 * one node, `$$$NAME` a run of siblings, `$_` / `$$$` anonymous). Metavariables become plain
 * identifiers, the fragment is parsed in the first scaffold of the language's ladder that
 * accepts it without error (a `$$$` run standing where the grammar wants something else, as the
 * cases of a switch, is let through) and with every character in a token, and the fragment's own
 * node is compiled into a `PatternNode` tree (patternTree.ts).
 */
import { Node } from 'web-tree-sitter';
import { FRAGMENT_MARKER, LoadedLanguage } from './languages';
import { PatternNode, requiredTextsOf } from './patternTree';
import { gapWordsOf, requiredRunsOf } from './prefilter';
import { ModelFacingError } from '../platform/modelFacingError';

export interface CompiledPattern {
  readonly source: string;
  readonly language: string;
  /** The scaffold context that accepted the fragment. */
  readonly context: string;
  readonly root: PatternNode;
  /** Names bound by the pattern (anonymous ones excluded), with whether each is a run. */
  readonly metavariables: ReadonlyMap<string, { readonly multi: boolean }>;
  /** Texts every match contains verbatim: a file lacking any of them cannot match. */
  readonly requiredTexts: readonly string[];
  /** Runs of leaf texts every match contains in order, and the grammar's keywords that may lie between (prefilter.ts). */
  readonly requiredRuns: ReadonlyArray<readonly string[]>;
  readonly gapWords: readonly string[];
}

export class PatternError extends ModelFacingError {
  constructor(message: string) {
    super(message);
    this.name = 'PatternError';
  }
}

/** Names are upper case, digits and `_`, as in ast-grep: `$x` stays literal (a PHP or shell variable). */
const METAVARIABLE = /\$\$\$([A-Z_][A-Z0-9_]*)?|\$([A-Z_][A-Z0-9_]*)/g;
const ANONYMOUS = '_';

interface Placeholder {
  readonly name: string;
  readonly multi: boolean;
}

/** `$X` → `mvs_X`, `$$$XS` → `mvm_XS`, `$$$` → `mvm__`: identifiers in every shipped grammar. */
export function placeholderOf(name: string, multi: boolean): string {
  return `${multi ? 'mvm' : 'mvs'}_${name}`;
}

export function substituteMetavariables(
  pattern: string,
  quoted = false,
): { text: string; placeholders: Map<string, Placeholder> } {
  const placeholders = new Map<string, Placeholder>();
  const text = pattern.replace(
    METAVARIABLE,
    (whole: string, runName: string | undefined, singleName: string | undefined, offset: number) => {
      const multi = singleName === undefined;
      const name = (multi ? runName : singleName) || ANONYMOUS;
      const placeholder = placeholderOf(name, multi);
      placeholders.set(placeholder, { name, multi });
      if (!quoted) return placeholder;
      placeholders.set(`"${placeholder}"`, { name, multi });
      const insideQuotes = pattern[offset - 1] === '"' && pattern[offset + whole.length] === '"';
      return insideQuotes ? placeholder : `"${placeholder}"`;
    },
  );
  return { text, placeholders };
}

export function compilePattern(loaded: LoadedLanguage, pattern: string): CompiledPattern {
  const fragment = pattern.trim();
  if (!fragment) throw new PatternError('The pattern is empty. Write a code fragment such as `foo($A)`.');
  const { text, placeholders } = substituteMetavariables(fragment, loaded.entry.quotedMetavariables === true);
  const checkMultiUse = new Map<string, boolean>();
  for (const { name, multi } of placeholders.values()) {
    if (name === ANONYMOUS) continue;
    if (checkMultiUse.has(name) && checkMultiUse.get(name) !== multi) {
      throw new PatternError(`$${name} is used both as $${name} and $$$${name}; a name is either one node or a run.`);
    }
    checkMultiUse.set(name, multi);
  }
  const tried: string[] = [];
  let manyNodes: string | undefined;
  for (const scaffold of loaded.entry.ladder) {
    tried.push(scaffold.context);
    const found = parseInScaffold(loaded, scaffold.template, text, placeholders);
    if (found === 'error') continue;
    if (found === 'not one node') {
      manyNodes ??= scaffold.context;
      continue;
    }
    try {
      const root = compileNode(found.node, placeholders);
      return {
        source: pattern,
        language: loaded.entry.id,
        context: scaffold.context,
        root,
        metavariables: new Map([...checkMultiUse].map(([name, multi]) => [name, { multi }])),
        requiredTexts: requiredTextsOf(root),
        requiredRuns: requiredRunsOf(loaded.entry.id, root),
        gapWords: gapWordsOf(loaded.language),
      };
    } finally {
      found.tree.delete();
    }
  }
  if (manyNodes) {
    throw new PatternError(
      `The pattern parses as ${loaded.entry.id} (as a ${manyNodes}) but not as one node; ` +
        'search for one statement, expression or declaration at a time.',
    );
  }
  throw new PatternError(
    `The pattern does not parse as ${loaded.entry.id} in any context tried (${tried.join(', ')}). ` +
      'Check it is complete, valid code in that language (balanced brackets, a whole expression or statement).',
  );
}

type ScaffoldParse = 'error' | 'not one node' | { node: Node; tree: { delete(): void } };

function parseInScaffold(
  loaded: LoadedLanguage,
  template: string,
  fragment: string,
  placeholders: ReadonlyMap<string, Placeholder>,
): ScaffoldParse {
  const at = template.indexOf(FRAGMENT_MARKER);
  const lineStart = template.lastIndexOf('\n', at - 1) + 1;
  const indent = /^[ \t]*/.exec(template.slice(lineStart, at))?.[0] ?? '';
  const placed = fragment.replace(/\n/g, `\n${indent}`);
  const source = template.slice(0, at) + placed + template.slice(at + FRAGMENT_MARKER.length);
  const tree = loaded.parser.parse(source);
  if (!tree) return 'error';
  try {
    checkSize(tree.rootNode);
  } catch (error) {
    tree.delete();
    throw error;
  }
  if (
    (tree.rootNode.hasError && !onlyMetavariableErrors(tree.rootNode, placeholders)) ||
    !everyCharacterParsed(tree.rootNode, source)
  ) {
    tree.delete();
    return 'error';
  }
  let node = nodeSpanning(tree.rootNode, at, at + placed.length, source);
  if (node && node.id === tree.rootNode.id) node = onlyChild(node);
  if (!node) {
    tree.delete();
    return 'not one node';
  }
  return { node: innermostSingleChild(node), tree };
}

/**
 * How deep and how large a parsed pattern may be. Real patterns are a few dozen nodes a few dozen
 * deep; the compiler and the matcher recurse along the pattern, so a pattern past these bounds
 * (20 000 nested parentheses) is refused here, before anything recurses on it.
 */
export const MAX_PATTERN_DEPTH = 256;
export const MAX_PATTERN_NODES = 4096;

/** Throws PatternError when the scaffold's tree is deeper or larger than a pattern may be; walks without recursion. */
function checkSize(root: Node): void {
  const cursor = root.walk();
  try {
    let depth = 0;
    let nodes = 0;
    for (;;) {
      nodes++;
      if (depth > MAX_PATTERN_DEPTH) {
        throw new PatternError(
          `The pattern nests more than ${MAX_PATTERN_DEPTH} levels deep; search for a smaller fragment (an inner part, or the outer call with $$$ for its arguments).`,
        );
      }
      if (nodes > MAX_PATTERN_NODES) {
        throw new PatternError(
          `The pattern has more than ${MAX_PATTERN_NODES} syntax nodes; search for a smaller fragment and use $X / $$$X for the parts that vary.`,
        );
      }
      if (cursor.gotoFirstChild()) {
        depth++;
        continue;
      }
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent()) return;
        depth--;
      }
    }
  } finally {
    cursor.delete();
  }
}

/**
 * True when the top-level nodes account for all the text but whitespace. A grammar's scanner may
 * drop text without an error (tree-sitter-kotlin ends the file at an unterminated string: `x "`
 * parses as `x`). Deeper down a gap is normal: a C string's characters are in no child.
 */
function everyCharacterParsed(root: Node, source: string): boolean {
  let parsedTo = 0;
  for (const child of root.children) {
    if (!child) continue;
    if (!/^\s*$/.test(source.slice(parsedTo, child.startIndex))) return false;
    parsedTo = Math.max(parsedTo, child.endIndex);
  }
  return /^\s*$/.test(source.slice(parsedTo));
}

/**
 * True when every syntax error is a run metavariable standing where the grammar wants a list of
 * something else, as `$$$CASES` in `switch ($X) { $$$CASES }`: the parser wraps it in an ERROR
 * node of its own, which then compiles to the run (ast-grep reads such patterns the same way). A
 * single metavariable in such a place means the context is wrong (`private $N: $T;` in a block).
 */
function onlyMetavariableErrors(node: Node, placeholders: ReadonlyMap<string, Placeholder>): boolean {
  if (node.isMissing) return false;
  if (node.isError) return placeholders.get(node.text)?.multi === true;
  if (!node.hasError) return true;
  // The error must be in a child we can see: web-tree-sitter leaves some zero-width MISSING nodes
  // out of `children` (html's implicit end tag).
  let seen = false;
  for (const child of node.children) {
    if (!child || !(child.hasError || child.isError || child.isMissing)) continue;
    if (!onlyMetavariableErrors(child, placeholders)) return false;
    seen = true;
  }
  return seen;
}

/**
 * The outermost node whose range is exactly [start, end); failing that, the innermost that starts
 * there and ends with whitespace after `end` (C's `#include` takes its line's newline).
 */
function nodeSpanning(root: Node, start: number, end: number, source: string): Node | undefined {
  let node: Node | null = root;
  let endsInWhitespace: Node | undefined;
  while (node) {
    if (node.startIndex === start && node.endIndex === end) return node;
    if (node.startIndex === start && node.endIndex > end && /^\s*$/.test(source.slice(end, node.endIndex)))
      endsInWhitespace = node;
    let next: Node | null = null;
    for (let i = 0; i < node.childCount; i++) {
      const child = node.child(i);
      if (child && child.startIndex <= start && child.endIndex >= end) {
        next = child;
        break;
      }
    }
    node = next;
  }
  return endsInWhitespace;
}

/** The one non-comment child of a whole-file node; none when the fragment is several statements. */
function onlyChild(root: Node): Node | undefined {
  const children = root.children.filter((child): child is Node => child !== null && !child.isExtra);
  return children.length === 1 ? children[0] : undefined;
}

/** As ast-grep does: `expression_statement > call` becomes the call, so the pattern matches wherever a call is. */
function innermostSingleChild(node: Node): Node {
  let current = node;
  while (current.childCount === 1) {
    const only = current.child(0);
    if (!only || only.startIndex !== current.startIndex || only.endIndex !== current.endIndex) break;
    current = only;
  }
  return current;
}

function compileNode(node: Node, placeholders: ReadonlyMap<string, Placeholder>): PatternNode {
  const placeholder = placeholders.get(node.text);
  if (placeholder) return { kind: 'meta', name: placeholder.name, multi: placeholder.multi };
  const children: PatternNode[] = [];
  for (let i = 0; i < node.childCount; i++) {
    const child = node.child(i);
    if (!child || (child.isExtra && !placeholders.has(child.text))) continue;
    if (child.startIndex === child.endIndex) continue;
    children.push(compileNode(child, placeholders));
  }
  if (children.length === 0) return { kind: 'leaf', type: node.type, text: node.text, named: node.isNamed };
  return { kind: 'node', type: node.type, children };
}
