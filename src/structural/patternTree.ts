/**
 * A compiled pattern's tree, and what can be read off it without a grammar: the compiler
 * (pattern.ts) builds it, the matcher walks it, the prefilter reads the texts and runs every match
 * must contain. Plain data: no parser, no language.
 */

export type PatternNode =
  | { readonly kind: 'meta'; readonly name: string; readonly multi: boolean }
  | { readonly kind: 'leaf'; readonly type: string; readonly text: string; readonly named: boolean }
  | { readonly kind: 'node'; readonly type: string; readonly children: readonly PatternNode[] };

/**
 * A compiled pattern's root, with the `;`/`,` the fragment wrote after its node that the grammar
 * keeps beside it (the `;` of `@Input() $P: $T;` is a sibling of the field): a match covers the
 * file's own where they come next, and is the node alone where they do not (the `;` is optional).
 */
export type PatternRoot = PatternNode & {
  readonly terminators?: readonly string[];
  /**
   * What the fragment wrote before its node that the grammar keeps as its siblings (Dart's
   * `@override` above a method): a match has them as the nearest named siblings before the node,
   * in order (comments between skipped), and starts at the first.
   */
  readonly leading?: readonly PatternNode[];
  /** Another reading of the same fragment whose matches are matches too (a Dart method for a function pattern). */
  readonly alternative?: PatternRoot;
};

/**
 * Texts every match contains verbatim: the leaves of the pattern, except one-character
 * punctuation (everywhere, so useless as a filter) and the tokens written right after a run,
 * which a match may leave out (`f($$$A, last)` matches `f(last)`).
 */
export function requiredTextsOf(root: PatternNode): string[] {
  const texts = new Set<string>();
  const visit = (node: PatternNode, optional: boolean): void => {
    if (node.kind === 'leaf') {
      if (!optional && (node.text.length > 1 || /[\p{L}\p{N}_]/u.test(node.text))) texts.add(node.text);
    } else if (node.kind === 'node') {
      for (const { child, optional: leftOut } of childrenOf(node)) visit(child, leftOut);
    }
  };
  visit(root, false);
  return [...texts].sort((a, b) => b.length - a.length);
}

/** A node's children, each with whether a match may leave it out (a token written right after a `$$$` run). */
export function childrenOf(
  node: Extract<PatternNode, { kind: 'node' }>,
): Array<{ child: PatternNode; optional: boolean }> {
  let afterRun = false;
  return node.children.map((child) => {
    const optional = afterRun && child.kind === 'leaf' && !child.named;
    afterRun = (child.kind === 'meta' && child.multi) || optional;
    return { child, optional };
  });
}
