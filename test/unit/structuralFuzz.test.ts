/**
 * Fuzzing the structural engine with a seeded generator, in every shipped language: random
 * fragments (token soup, truncated real lines, metavariables dropped in) and mutated sources never
 * make it fail other than with a PatternError, matches always lie inside the file, a fragment that
 * cannot parse is always a PatternError, and parsing many large files does not grow wasm memory
 * without bound. A failure names the seed and the iteration, which reproduce it.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { findMatches } from '../../src/structural/matcher';
import { FRAGMENT_MARKER, LoadedLanguage } from '../../src/structural/languages';
import { CompiledPattern, compilePattern, PatternError } from '../../src/structural/pattern';
import { editsFor } from '../../src/structural/rewrite';
import { seededRandom } from '../support/seededRandom';
import { registry } from './support/structuralEngine';
import { repoRoot } from '../support/repoRoot';

const SEED = 0x5eed;
const SAMPLES = path.join(repoRoot(), 'test', 'fixtures', 'grammar-samples');

function samples(): Array<{ language: string; source: string }> {
  return fs.readdirSync(SAMPLES).map((name) => {
    const extension = path.extname(name);
    const entry = registry.entryForFile(name);
    assert.ok(entry, `no grammar for ${name} (${extension})`);
    return { language: entry.id, source: fs.readFileSync(path.join(SAMPLES, name), 'utf8') };
  });
}

const METAVARIABLES = ['$A', '$B', '$$$ARGS', '$_', '$$$', '$A', '$X'];
const PUNCTUATION = [
  '(',
  ')',
  '{',
  '}',
  '[',
  ']',
  ',',
  ';',
  '.',
  ':',
  '=',
  '==',
  '+',
  '->',
  '=>',
  '"',
  "'",
  '\n',
  '  ',
];

class Generator {
  private readonly next: () => number;

  constructor(seed: number) {
    this.next = seededRandom(seed);
  }

  int(below: number): number {
    return Math.floor(this.next() * below);
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }

  /** A fragment: token soup, a truncated line, or a line with metavariables dropped in. */
  fragment(source: string): string {
    const lines = source.split('\n').filter((line) => line.trim());
    const tokens = source.match(/[\p{L}\p{N}_$]+|[^\s\p{L}\p{N}_$]/gu) ?? [];
    switch (this.int(4)) {
      case 0:
        return Array.from({ length: 1 + this.int(8) }, () =>
          this.int(3) === 0 ? this.pick(PUNCTUATION) : this.pick(tokens),
        ).join(' ');
      case 1: {
        const line = this.pick(lines).trim();
        return line.slice(0, 1 + this.int(line.length));
      }
      case 2: {
        const line = this.pick(lines).trim();
        return line.replace(/[\p{L}_][\p{L}\p{N}_]*/gu, (word) =>
          this.int(3) === 0 ? this.pick(METAVARIABLES) : word,
        );
      }
      default: {
        const start = this.int(lines.length);
        return lines.slice(start, start + 1 + this.int(3)).join('\n');
      }
    }
  }

  /** The sample cut, spliced or duplicated somewhere: often no longer valid code. */
  source(source: string): string {
    const at = this.int(source.length);
    const other = this.int(source.length);
    switch (this.int(4)) {
      case 0:
        return source.slice(0, at);
      case 1:
        return source.slice(0, Math.min(at, other)) + source.slice(Math.max(at, other));
      case 2:
        return source.slice(0, at) + source.slice(other) + source.slice(at);
      default:
        return source;
    }
  }
}

/** Added after a newline, this makes most fragments invalid code. */
const POISON = '\n= = ) ]';

/**
 * The oracle for "cannot parse": the grammar reports an error with the fragment in every context
 * of the language's ladder (placed as the engine places it, continuation lines indented).
 */
function parsesNowhere(loaded: LoadedLanguage, fragment: string): boolean {
  return loaded.entry.ladder.every(({ template }) => {
    const at = template.indexOf(FRAGMENT_MARKER);
    const indent = /[ \t]*$/.exec(template.slice(0, at))?.[0] ?? '';
    const tree = loaded.parser.parse(template.replace(FRAGMENT_MARKER, () => fragment.replace(/\n/g, `\n${indent}`)));
    try {
      return !tree || tree.rootNode.hasError;
    } finally {
      tree?.delete();
    }
  });
}

function checkMatches(compiled: CompiledPattern, source: string, where: string): number {
  const loaded = registryLoaded.get(compiled.language);
  assert.ok(loaded);
  const tree = loaded.parser.parse(source);
  assert.ok(tree, where);
  try {
    const matches = findMatches(tree, source, compiled.root);
    for (const match of matches) {
      assert.ok(0 <= match.start && match.start <= match.end && match.end <= source.length, where);
      assert.equal(match.text, source.slice(match.start, match.end), where);
      assert.ok(match.start <= match.coveredStart && match.coveredStart <= match.coveredEnd, where);
      assert.ok(match.coveredEnd <= match.end, where);
      for (const capture of match.captures.values()) {
        assert.ok(match.coveredStart <= capture.start && capture.start <= capture.end, where);
        assert.ok(capture.end <= match.coveredEnd, where);
        assert.equal(capture.text, source.slice(capture.start, capture.end), where);
      }
    }
    const template = [...compiled.metavariables.keys()].map((name) => `$${name}`).join(' + ') || 'x';
    let previousEnd = 0;
    for (const edit of editsFor(source, matches, template)) {
      assert.ok(
        previousEnd <= edit.start && edit.start <= edit.end && edit.end <= source.length,
        `${where}: overlapping or outside edit`,
      );
      previousEnd = edit.end;
    }
    return matches.length;
  } finally {
    tree.delete();
  }
}

const registryLoaded = new Map<string, Awaited<ReturnType<typeof registry.load>>>();

describe('structural engine: fuzzing', function () {
  this.timeout(120_000);

  before(async () => {
    for (const { language } of samples()) registryLoaded.set(language, await registry.load(language));
  });

  it('random fragments and sources: only PatternError or matches inside the file', function () {
    const corpus = samples();
    const generate = new Generator(SEED);
    const counts = { iterations: 0, compiled: 0, refused: 0, matches: 0 };
    const started = Date.now();
    for (let iteration = 0; iteration < 4000 && Date.now() - started < 40_000; iteration++) {
      const { language, source } = generate.pick(corpus);
      const fragment = generate.fragment(source);
      const where = `seed ${SEED}, iteration ${iteration}, ${language}, pattern ${JSON.stringify(fragment)}`;
      let compiled: CompiledPattern;
      try {
        compiled = compilePattern(registryLoaded.get(language)!, fragment);
      } catch (error) {
        assert.ok(error instanceof PatternError, `${where}: ${(error as Error).stack}`);
        counts.refused++;
        counts.iterations++;
        continue;
      }
      counts.compiled++;
      counts.matches += checkMatches(compiled, generate.source(source), where);
      counts.iterations++;
    }
    assert.ok(counts.iterations >= 1000, `only ${counts.iterations} iterations in the time allowed`);
    // The generator must exercise both outcomes, or the test proves little.
    assert.ok(
      counts.compiled > counts.iterations / 10 && counts.refused > counts.iterations / 10,
      JSON.stringify(counts),
    );
    assert.ok(counts.matches > 0, JSON.stringify(counts));
    this.test!.title += ` (${counts.iterations} fragments: ${counts.compiled} compiled, ${counts.refused} refused; ${counts.matches} matches checked)`;
  });

  it('a fragment that cannot parse is a PatternError, never a match or another error', function () {
    const corpus = samples();
    const generate = new Generator(SEED + 1);
    let unparseable = 0;
    const iterations = 1500;
    for (let iteration = 0; iteration < iterations; iteration++) {
      const { language, source } = generate.pick(corpus);
      // Without metavariables: a run where the grammar wants something else is a parse error the engine accepts.
      const fragment = generate.fragment(source).replace(/\$/g, '') + POISON;
      const loaded = registryLoaded.get(language)!;
      if (!parsesNowhere(loaded, fragment)) continue;
      unparseable++;
      assert.throws(
        () => compilePattern(loaded, fragment),
        (error: unknown) => error instanceof PatternError && /does not parse/.test(error.message),
        `seed ${SEED + 1}, iteration ${iteration}, ${language}, pattern ${JSON.stringify(fragment)}`,
      );
    }
    assert.ok(unparseable > iterations / 2, `only ${unparseable} of ${iterations} fragments were unparseable`);
    this.test!.title += ` (${unparseable} of ${iterations} fragments unparseable in every context)`;
  });

  it('wasm memory stays bounded over many large parses', function () {
    const javascript = fs.readFileSync(path.join(SAMPLES, 'javascript.js'), 'utf8');
    // About 300 KB: a leaked tree of it would be several MB.
    const large = Array.from({ length: Math.ceil(300_000 / javascript.length) }, () => javascript).join('\n');
    const loaded = registryLoaded.get('javascript')!;
    // Both ways to find candidates: around the anchors of a rare text, and by walking the whole tree.
    const patterns = ['$A.get($B)', '$A = $B'].map((pattern) => compilePattern(loaded, pattern));
    const round = (): void => {
      for (const pattern of patterns) checkMatches(pattern, large, 'large javascript');
    };
    for (let i = 0; i < 3; i++) round();
    const before = process.memoryUsage().rss;
    const rounds = 20;
    for (let i = 0; i < rounds; i++) round();
    const grown = process.memoryUsage().rss - before;
    const grownMb = (grown / 1024 / 1024).toFixed(1);
    assert.ok(
      grown < 48 * 1024 * 1024,
      `RSS grew by ${grownMb} MB over ${rounds * patterns.length} parses of a 300 KB file`,
    );
    this.test!.title += ` (RSS ${grownMb} MB more after ${rounds * patterns.length} parses of ${(large.length / 1000).toFixed(0)} K characters)`;
  });
});
