/** The structural engine on plain Node, with the grammars the build copied into dist/. */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { GRAMMARS } from '../../../src/structural/grammarManifest';
import { LanguageRegistry } from '../../../src/structural/languages';
import { InlineMatcher } from '../../../src/structural/fileMatcher';
import { FlatTree } from '../../../src/structural/flatTree';
import { findMatches, Match } from '../../../src/structural/matcher';
import { compilePattern } from '../../../src/structural/pattern';
import { applyEdits } from '../../../src/edits/textEdits';
import { checkRewrite, editsFor } from '../../../src/structural/rewrite';
import { repoRoot } from '../../support/repoRoot';

/** The engine as the extension ships it: grammars from dist/ (built before the tests run). */
export function distRegistry(): LanguageRegistry {
  return new LanguageRegistry({
    grammars: GRAMMARS,
    locateWasm: (entry) => path.join(repoRoot(), 'dist', 'grammars', `${entry.id}.wasm`),
    runtimeWasm: path.join(repoRoot(), 'dist', 'web-tree-sitter.wasm'),
  });
}

export const registry = distRegistry();

/** A pattern, a source, and the texts it must match there (the spec tables' row). */
export interface MatchSpec {
  readonly language: string;
  readonly pattern: string;
  readonly source: string;
  readonly matches: readonly string[];
}

const inline = new InlineMatcher(registry);

/** The text's structural index, built as a parsing thread builds it, reading `text`. */
export async function indexOf(language: string, text: string): Promise<FlatTree> {
  const index = await inline.index(language, text);
  if (!index) throw new Error('no tree');
  return index.withText(text);
}

export async function matchesIn(language: string, pattern: string, source: string): Promise<Match[]> {
  const loaded = await registry.load(language);
  const compiled = compilePattern(loaded, pattern);
  const tree = loaded.parser.parse(source);
  if (!tree) throw new Error('no tree');
  try {
    return findMatches(tree, source, compiled.root);
  } finally {
    tree.delete();
  }
}

/** The matches on the parsed tree, once the text's structural index has given the very same. */
export async function matchesOnTreeAndIndex(language: string, pattern: string, source: string): Promise<Match[]> {
  const fromTree = await matchesIn(language, pattern, source);
  const { root } = compilePattern(await registry.load(language), pattern);
  assert.deepEqual(findMatches(await indexOf(language, source), source, root), fromTree);
  return fromTree;
}

export async function matchTexts(language: string, pattern: string, source: string): Promise<string[]> {
  return (await matchesIn(language, pattern, source)).map((match) => match.text);
}

export async function rewritten(language: string, pattern: string, rewrite: string, source: string): Promise<string> {
  const loaded = await registry.load(language);
  const compiled = compilePattern(loaded, pattern);
  checkRewrite(compiled, rewrite);
  const matches = await matchesIn(language, pattern, source);
  return applyEdits(source, editsFor(source, matches, rewrite));
}

/**
 * 24 small files in `dir`, TypeScript, Python and Go in turn, each with two `log(…)` calls but
 * every fifth with nothing to match: the corpus the thread-pool suites compare searches on.
 */
export function writeLogFiles(dir: string): string[] {
  const files: string[] = [];
  for (let i = 0; i < 24; i++) {
    const extension = ['ts', 'py', 'go'][i % 3];
    const body =
      extension === 'py'
        ? `def f${i}():\n    log(${i}, "a")\n    log(x${i})\n`
        : extension === 'go'
          ? `package p\nfunc f${i}() {\n\tlog(${i}, "a")\n\tlog(x${i})\n}\n`
          : `function f${i}() {\n  log(${i}, 'a');\n  log(x${i});\n}\n`;
    const file = path.join(dir, `file${String(i).padStart(2, '0')}.${extension}`);
    fs.writeFileSync(file, i % 5 === 4 ? 'nothing here\n' : body);
    files.push(file);
  }
  return files;
}

/** The ERROR and MISSING nodes of `text` parsed by the language's grammar, as `type at line:column` (1-based); empty when it parses cleanly. */
export async function parseErrors(language: string, text: string): Promise<string[]> {
  const tree = (await registry.load(language)).parser.parse(text);
  if (!tree) throw new Error('no tree');
  try {
    const errors: string[] = [];
    const cursor = tree.walk();
    try {
      let descending = true;
      for (;;) {
        if (descending) {
          const node = cursor.currentNode;
          if (node.isError || node.isMissing) {
            const where = `${node.startPosition.row + 1}:${node.startPosition.column + 1}`;
            errors.push(node.isMissing ? `MISSING ${node.type} at ${where}` : `ERROR at ${where}`);
          }
          if (node.hasError && cursor.gotoFirstChild()) continue;
        }
        if (cursor.gotoNextSibling()) {
          descending = true;
          continue;
        }
        if (!cursor.gotoParent()) return errors;
        descending = false;
      }
    } finally {
      cursor.delete();
    }
  } finally {
    tree.delete();
  }
}
