/**
 * Which files import a given file, found by text: the module specifiers of `import … from`,
 * `export … from`, `import()` and `require()` that are relative and resolve to the target
 * (with or without extension, `.js` naming a `.ts`, or a folder's index). No type checker needed.
 */
import * as path from 'node:path';

/** Importers whose diagnostics a write also checks (files that import the written file). */
export const WRITE_IMPORTERS_CAP = 20;

/**
 * A relative module specifier after `from`, `import(`, `require(` or a bare `import`. The bare form's
 * leading space is spaces and tabs only: with `\s*` (which spans line breaks) every line start of a
 * run of blank lines would scan the rest of the run, quadratic in it.
 */
const specifierPattern =
  /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|^[ \t]*import\s+)(['"])(\.{1,2}\/[^'"\n]*|\.{1,2})\1/gm;

export function relativeSpecifiers(text: string): string[] {
  return [...text.matchAll(specifierPattern)].map((match) => match[2]);
}

const SCRIPT_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs', '.d.ts'];

/** Whether `specifier`, written in `importer`, names `target` (all absolute paths). */
export function specifierResolvesTo(importer: string, specifier: string, target: string): boolean {
  const base = path.resolve(path.dirname(importer), specifier);
  if (base === target) return true;
  const stem = (file: string) => file.replace(/\.(d\.ts|tsx?|mts|cts|jsx?|mjs|cjs)$/, '');
  const targetStem = stem(target);
  if (base === targetStem && SCRIPT_EXTENSIONS.some((extension) => target.endsWith(extension))) return true;
  if (stem(base) === targetStem && base !== stem(base)) return true; // './a.js' → a.ts
  return path.join(base, 'index') === targetStem;
}

export function importsFile(importer: string, text: string, target: string): boolean {
  if (importer === target) return false;
  const name = path.basename(target).replace(/\.[^.]+$/, '');
  if (!text.includes(name === 'index' ? path.basename(path.dirname(target)) : name) && name !== 'index') return false;
  return relativeSpecifiers(text).some((specifier) => specifierResolvesTo(importer, specifier, target));
}

export function isScriptFile(file: string): boolean {
  return SCRIPT_EXTENSIONS.some((extension) => file.endsWith(extension));
}
