/**
 * The pattern compiler. A pattern is code in the target language with metavariables (`$NAME`
 * one node, `$$$NAME` a run of siblings, `$_` / `$$$` anonymous). Metavariables become plain
 * identifiers, the fragment is parsed in the first scaffold of the language's ladder that
 * accepts it without error (a `$$$` run standing where the grammar wants something else, as the
 * cases of a switch, is let through) and with every character in a token, and the fragment's own
 * node is compiled into a `PatternNode` tree (patternTree.ts). What the scaffold writes (its
 * template, and the terminator after a metavariable that stands for a statement) is not part of
 * the pattern: the node may cover such tokens, and they compile to nothing.
 */
import { Node } from 'web-tree-sitter';
import { FRAGMENT_MARKER, LoadedLanguage } from './languages';
import { PatternNode, PatternRoot, requiredTextsOf } from './patternTree';
import { gapWordsOf, requiredRunsOf } from './prefilter';
import { ModelFacingError } from '../platform/modelFacingError';

export interface CompiledPattern {
  readonly source: string;
  readonly language: string;
  /** The scaffold context that accepted the fragment. */
  readonly context: string;
  readonly root: PatternRoot;
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
  const suffix = loaded.entry.metavariableStatement ?? '';
  const statements = suffix ? statementMetavariables(text, placeholders, suffix) : [];
  // As written, in every rung first; only then with each metavariable that stands alone as a
  // statement made one the grammar's way (Dart reads `if (c) { $$$B }` as an if whose body is a set
  // literal otherwise). A pattern some rung takes as written keeps that reading: `void $F() { $$$B }`
  // stays a top-level function instead of becoming a local one in the statement rung.
  const writings: Insertion[][] = statements.length > 0 ? [[], statements] : [[]];
  // A node that takes in the scaffold's tokens is the answer only where no rung has one of the fragment's own.
  let overScaffold: CompiledPattern | undefined;
  for (const madeStatements of writings) {
    for (const scaffold of loaded.entry.ladder) {
      if (madeStatements.length === 0) tried.push(scaffold.context);
      const placement = place(scaffold.template, text, madeStatements);
      const found = parseInScaffold(loaded, placement, placeholders);
      if (found === 'error') continue;
      if (found === 'not one node') {
        manyNodes ??= scaffold.context;
        continue;
      }
      let compiled: CompiledPattern;
      try {
        const root = withTerminators(compileNode(found.node, placeholders, placement), found.node, placement);
        compiled = {
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
      if (!found.intoScaffold) {
        for (const writing of writings) {
          const other = otherReading(loaded, compiled, text, placeholders, writing);
          if (other) return { ...compiled, root: { ...compiled.root, alternative: other } };
        }
        return compiled;
      }
      overScaffold ??= compiled;
    }
  }
  if (overScaffold) return overScaffold;
  if (manyNodes) {
    throw new PatternError(
      `The pattern parses as ${loaded.entry.id} (as ${/^[aeiou]/.test(manyNodes) ? 'an' : 'a'} ${manyNodes}) but not as one node; ` +
        'search for one statement, expression or declaration at a time.',
    );
  }
  throw new PatternError(
    `The pattern does not parse as ${loaded.entry.id} in any context tried (${tried.join(', ')}). ` +
      'Check it is complete, valid code in that language (balanced brackets, a whole expression or statement)' +
      (placeholders.size > 0
        ? '; a metavariable parses as a name, so it stands only where a name can (where a name alone is no statement, use a `$$$` run).'
        : '.'),
  );
}

/**
 * The grammar's other reading of the pattern's node (`alsoReadIn`: a Dart function pattern read as
 * a class's method too) with the statements made as `writing` says, when that rung reads it as a
 * different node, or as one after leading siblings (`leadingTypes`: annotations). Taken only where
 * both readings require the same texts, so the prefilter and the index rule out no file either
 * would match.
 */
function otherReading(
  loaded: LoadedLanguage,
  compiled: CompiledPattern,
  text: string,
  placeholders: ReadonlyMap<string, Placeholder>,
  writing: readonly Insertion[],
): PatternRoot | undefined {
  const { root } = compiled;
  if (root.kind !== 'node') return undefined;
  const context = loaded.entry.alsoReadIn?.[root.type];
  const scaffold = context === undefined ? undefined : loaded.entry.ladder.find((rung) => rung.context === context);
  if (!scaffold) return undefined;
  const placement = place(scaffold.template, text, writing);
  const tree = loaded.parser.parse(placement.source);
  if (!tree) return undefined;
  try {
    const { rootNode } = tree;
    if (rootNode.hasError && !onlyMetavariableErrors(rootNode, placeholders)) return undefined;
    if (!everyCharacterParsed(rootNode, placement.source)) return undefined;
    const found = nodeAfterLeading(rootNode, placement, new Set(loaded.entry.leadingTypes ?? []));
    if (!found || placeholders.has(fragmentText(found.node, placement))) return undefined;
    const node = innermostSingleChild(found.node);
    const leadingNodes = found.leading.map((sibling) => compileNode(sibling, placeholders, placement));
    const other: PatternRoot = {
      ...withTerminators(compileNode(node, placeholders, placement), node, placement),
      ...(leadingNodes.length > 0 ? { leading: leadingNodes } : {}),
    };
    if (other.kind !== 'node' || (other.type === root.type && !other.leading)) return undefined;
    const written: PatternNode = { kind: 'node', type: '', children: [...leadingNodes, other] };
    const sameRuns = JSON.stringify(requiredRunsOf(loaded.entry.id, written)) === JSON.stringify(compiled.requiredRuns);
    return sameRuns && sameTexts(requiredTextsOf(written), compiled.requiredTexts) ? other : undefined;
  } finally {
    tree.delete();
  }
}

function sameTexts(a: readonly string[], b: readonly string[]): boolean {
  const sorted = (texts: readonly string[]): string => [...new Set(texts)].sort().join('\u0000');
  return sorted(a) === sorted(b);
}

/**
 * In a scaffold's tree, the fragment as siblings of one parent: nodes of the leading types, then
 * one node that ends the fragment (followed by whitespace only). Undefined when it is not so.
 */
function nodeAfterLeading(
  root: Node,
  placement: Placement,
  leadingTypes: ReadonlySet<string>,
): { node: Node; leading: Node[] } | undefined {
  const { start, end, source } = placement;
  let parent: Node = root;
  for (;;) {
    const inside: Node | undefined = parent.children.find(
      (child): child is Node => child !== null && child.startIndex <= start && child.endIndex >= end,
    );
    if (!inside || (inside.startIndex === start && /^\s*$/.test(source.slice(end, inside.endIndex)))) break;
    parent = inside;
  }
  const siblings = parent.children.filter(
    (child): child is Node => child !== null && !child.isExtra && child.startIndex >= start && child.startIndex < end,
  );
  const node = siblings.pop();
  if (!node || (siblings[0] ?? node).startIndex !== start || node.endIndex < end) return undefined;
  if (!/^\s*$/.test(source.slice(end, node.endIndex))) return undefined;
  if (siblings.some((sibling) => !leadingTypes.has(sibling.type))) return undefined;
  return { node, leading: siblings };
}

/** Text written into the fragment at an offset (of the text with metavariables substituted). */
interface Insertion {
  readonly at: number;
  readonly text: string;
}

/**
 * Where a metavariable stands alone as a statement, and what makes it one (`suffix`, the grammar's
 * `metavariableStatement`): in a block, after `{`, `;` or `}` and before `}` or the end of its line
 * (`{ $$$A }`, a line of its own); as the body of a compound statement, after `)` or `else` and
 * before `else` or the fragment's end (`for (…) $BODY`). Where the fragment writes the `;` itself
 * (`$S;`), only what comes before the suffix's `;` is added (C#'s `()`).
 */
function statementMetavariables(
  text: string,
  placeholders: ReadonlyMap<string, Placeholder>,
  suffix: string,
): Insertion[] {
  const insertions: Insertion[] = [];
  const beforeTerminator = suffix.endsWith(';') ? suffix.slice(0, -1) : '';
  for (const found of text.matchAll(/\bmv[sm]_[A-Za-z0-9_]*/g)) {
    if (!placeholders.has(found[0])) continue;
    const at = found.index + found[0].length;
    const before = text.slice(0, found.index);
    const after = /^[ \t]*(\n|\S?)/.exec(text.slice(at))?.[1] ?? '';
    const inBlock = /[{;}]\s*$/.test(before);
    const body = /(\)|\belse)\s*$/.test(before);
    const bodyEnds = at === text.length || /^\s*else\b/.test(text.slice(at));
    if ((inBlock && (after === '\n' || after === '}')) || (body && bodyEnds)) insertions.push({ at, text: suffix });
    else if ((inBlock || body) && after === ';' && beforeTerminator) insertions.push({ at, text: beforeTerminator });
  }
  return insertions;
}

/** The scaffold's source with the fragment in place, and which of its characters the fragment did not write. */
interface Placement {
  readonly source: string;
  /** The fragment's range in `source`. */
  readonly start: number;
  readonly end: number;
  /** Inside it, where the grammar's statement suffix was written after a metavariable, ascending. */
  readonly written: ReadonlyArray<readonly [number, number]>;
  /**
   * Where what is written right after the fragment ends, before any whitespace: the suffix of a
   * metavariable that ends it, then the template's text (the `;` of "statement;").
   */
  readonly scaffoldEnd: number;
}

/** Puts `text` in the template, continuation lines indented as the marker's line, with the insertions. */
function place(template: string, text: string, insertions: readonly Insertion[]): Placement {
  const start = template.indexOf(FRAGMENT_MARKER);
  const lineStart = template.lastIndexOf('\n', start - 1) + 1;
  const indent = /^[ \t]*/.exec(template.slice(lineStart, start))?.[0] ?? '';
  const written: Array<[number, number]> = [];
  let placed = '';
  let from = 0;
  let tail = '';
  for (const insertion of insertions) {
    // What follows the fragment's last metavariable lies past its end, as the template's text does.
    if (insertion.at === text.length) {
      tail = insertion.text;
      break;
    }
    placed += text.slice(from, insertion.at).replace(/\n/g, `\n${indent}`);
    written.push([start + placed.length, start + placed.length + insertion.text.length]);
    placed += insertion.text;
    from = insertion.at;
  }
  placed += text.slice(from).replace(/\n/g, `\n${indent}`);
  const after = tail + template.slice(start + FRAGMENT_MARKER.length);
  const end = start + placed.length;
  return {
    source: template.slice(0, start) + placed + after,
    start,
    end,
    written,
    scaffoldEnd: end + tail.length + (/^\S*/.exec(after.slice(tail.length))?.[0].length ?? 0),
  };
}

type ScaffoldParse = 'error' | 'not one node' | (FragmentNode & { tree: { delete(): void } });

function parseInScaffold(
  loaded: LoadedLanguage,
  placement: Placement,
  placeholders: ReadonlyMap<string, Placeholder>,
): ScaffoldParse {
  const { source } = placement;
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
  const found = fragmentNode(tree.rootNode, placement, placeholders);
  if (!found) {
    tree.delete();
    return 'not one node';
  }
  return { node: innermostSingleChild(found.node), intoScaffold: found.intoScaffold, tree };
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
 * The fragment's own node, the first of:
 * - the outermost node whose range is exactly the fragment's;
 * - the innermost that starts there and ends with whitespace after it (C's `#include` takes its
 *   line's newline);
 * - the outermost that starts there and is followed to the fragment's end only by `;` or `,` tokens
 *   of the same list, which the fragment wrote (`@Input() $P: $T;` in a class body, whose `;` is a
 *   sibling of the field): the root keeps them as its `terminators`, and a match covers the file's;
 * - the outermost that starts there and goes on past it only by tokens the template wrote: in
 *   "statement;", `if ($X) $X.f()` is an if whose body holds the `;`, `for (…) $BODY` one whose
 *   body is `mvs_BODY;`. Only where no rung has one of the others: with the `;`, C reads `$A * $B`
 *   as a pointer declaration, which the expression rung reads as the product it is.
 * Whatever the node holds that the scaffold wrote must be unnamed tokens, which compile to nothing.
 */
interface FragmentNode {
  readonly node: Node;
  /** It goes on over tokens the template wrote: a reading taken only where no rung has a node of the fragment's own. */
  readonly intoScaffold: boolean;
}

function fragmentNode(
  root: Node,
  placement: Placement,
  placeholders: ReadonlyMap<string, Placeholder>,
): FragmentNode | undefined {
  const { source, start, end, scaffoldEnd } = placement;
  const checked = (found: Node | undefined, intoScaffold = false): FragmentNode | undefined =>
    found && writtenPartsAreTokens(found, placement, placeholders) ? { node: found, intoScaffold } : undefined;
  // The root, a whole file, stands for its one statement (comments aside).
  const own = (found: Node): Node | undefined => (found.id === root.id ? onlyChild(found) : found);
  let node: Node | null = root;
  let endsInWhitespace: Node | undefined;
  let endsInScaffold: Node | undefined;
  let beforeTerminators: Node | undefined;
  while (node) {
    if (node.startIndex === start && node.endIndex === end) {
      return checked(own(node) ?? (node.id === root.id ? childBeforeTerminators(node, placement) : undefined));
    }
    if (node.startIndex === start && node.endIndex > end) {
      if (/^\s*$/.test(source.slice(end, node.endIndex))) endsInWhitespace = node;
      else if (node.endIndex <= scaffoldEnd) endsInScaffold ??= node;
    }
    beforeTerminators ??= childBeforeTerminators(node, placement);
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
  if (endsInWhitespace) return checked(own(endsInWhitespace));
  if (beforeTerminators) return checked(beforeTerminators);
  return endsInScaffold && checked(own(endsInScaffold), true);
}

/** How much of [from, to) the scaffold wrote: its template past the fragment's end, and the terminators it put in. */
function writtenShare(placement: Placement, from: number, to: number): 'none' | 'all' | 'part' {
  if (from >= placement.end) return 'all';
  const straddlesEnd = to > placement.end;
  for (const [writtenFrom, writtenTo] of placement.written) {
    if (writtenFrom >= to) break;
    if (writtenTo <= from) continue;
    return writtenFrom <= from && to <= writtenTo ? 'all' : 'part';
  }
  return straddlesEnd ? 'part' : 'none';
}

/**
 * True when every part of the node the scaffold wrote is an unnamed token (a `;`), not a node of
 * its own nor a token cut in two, or lies in a node that compiles to a metavariable (C#'s
 * `mvs_S();` statement).
 */
function writtenPartsAreTokens(
  node: Node,
  placement: Placement,
  placeholders: ReadonlyMap<string, Placeholder>,
): boolean {
  for (const child of node.children) {
    if (!child || child.startIndex === child.endIndex) continue;
    const share = writtenShare(placement, child.startIndex, child.endIndex);
    if (share === 'none') continue;
    if (share === 'all') {
      if (child.isNamed || child.childCount > 0) return false;
    } else if (!placeholders.has(fragmentText(child, placement))) {
      if (child.childCount === 0 || !writtenPartsAreTokens(child, placement, placeholders)) return false;
    }
  }
  return true;
}

const TERMINATORS = new Set([';', ',']);

/**
 * The child of `parent` that starts where the fragment does and is followed to its end by nothing
 * but `;`/`,` and whitespace: unnamed tokens of the same list, or text no node holds (Kotlin's `;`).
 */
function childBeforeTerminators(parent: Node, placement: Placement): Node | undefined {
  const { source, start, end } = placement;
  const children = parent.children;
  const first = children.findIndex((child) => child?.startIndex === start);
  if (first === -1) return undefined;
  const candidate = children[first] as Node;
  if (candidate.endIndex >= end || !/^[\s;,]*[;,][\s;,]*$/.test(source.slice(candidate.endIndex, end)))
    return undefined;
  for (const sibling of children.slice(first + 1)) {
    if (!sibling || sibling.startIndex >= end) break;
    if (sibling.isNamed || sibling.childCount > 0 || !TERMINATORS.has(sibling.type)) return undefined;
  }
  return candidate;
}

/** The root with the terminators the fragment wrote after its node, which the node does not hold (childBeforeTerminators). */
function withTerminators(root: PatternNode, node: Node, placement: Placement): PatternRoot {
  if (node.endIndex >= placement.end) return root;
  return { ...root, terminators: [...placement.source.slice(node.endIndex, placement.end).replace(/\s+/g, '')] };
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

/** Compiles what the fragment wrote of the node: the scaffold's tokens (fragmentNode) compile to nothing. */
function compileNode(node: Node, placeholders: ReadonlyMap<string, Placeholder>, placement: Placement): PatternNode {
  const text = fragmentText(node, placement);
  const placeholder = placeholders.get(text);
  if (placeholder) return { kind: 'meta', name: placeholder.name, multi: placeholder.multi };
  const children: PatternNode[] = [];
  for (let i = 0; i < node.childCount; i++) {
    const child = node.child(i);
    if (!child || (child.isExtra && !placeholders.has(child.text))) continue;
    if (child.startIndex === child.endIndex) continue;
    if (writtenShare(placement, child.startIndex, child.endIndex) === 'all') continue;
    children.push(compileNode(child, placeholders, placement));
  }
  if (children.length === 0) return { kind: 'leaf', type: node.type, text, named: node.isNamed };
  return { kind: 'node', type: node.type, children };
}

/** The node's text without what the scaffold wrote. */
function fragmentText(node: Node, placement: Placement): string {
  if (writtenShare(placement, node.startIndex, node.endIndex) === 'none') return node.text;
  let text = '';
  let at = node.startIndex;
  const to = Math.min(node.endIndex, placement.end);
  for (const [writtenFrom, writtenTo] of placement.written) {
    if (writtenTo <= at) continue;
    if (writtenFrom >= to) break;
    text += placement.source.slice(at, writtenFrom);
    at = writtenTo;
  }
  return text + placement.source.slice(at, Math.max(at, to));
}
