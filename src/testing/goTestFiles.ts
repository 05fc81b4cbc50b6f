/**
 * Where a Go test function is defined: go test's events name a package (its import path) and a test,
 * never a file. The module's go.mod maps the import path to a folder; the folder's `_test.go` files
 * (each size-checked, a bounded number of them) are searched for `func TestX(`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { GoTestLocator } from './goTestJson';

const MAX_FILE_BYTES = 2 * 1024 * 1024;
const MAX_FILES = 500;

/** A locator for the module at `root` (the folder of its go.mod); files come back relative to `root`. */
export function goTestLocator(root: string): GoTestLocator {
  const modulePath = readModulePath(root);
  const sources = new Map<string, Array<{ file: string; text: string }>>();
  return (packagePath, testFunction) => {
    const dir = packageDir(root, modulePath, packagePath);
    if (dir === undefined) return undefined;
    let files = sources.get(dir);
    if (!files) {
      files = readTestFiles(dir);
      sources.set(dir, files);
    }
    for (const { file, text } of files) {
      const at = text.startsWith(`func ${testFunction}(`) ? 0 : text.indexOf(`\nfunc ${testFunction}(`);
      if (at === -1) continue;
      let line = 1;
      for (let index = text.indexOf('\n'); index !== -1 && index <= at; index = text.indexOf('\n', index + 1)) line++;
      return { file: path.relative(root, file), line: at === 0 ? 1 : line };
    }
    return undefined;
  };
}

/** The module path of `root/go.mod`, when it has one. */
function readModulePath(root: string): string | undefined {
  try {
    const file = path.join(root, 'go.mod');
    if (fs.statSync(file).size > MAX_FILE_BYTES) return undefined;
    return /^module\s+"?([^\s"]+)"?\s*$/m.exec(fs.readFileSync(file, 'utf8'))?.[1];
  } catch {
    return undefined;
  }
}

function packageDir(root: string, modulePath: string | undefined, packagePath: string): string | undefined {
  if (modulePath === undefined) return undefined;
  if (packagePath === modulePath) return root;
  if (!packagePath.startsWith(modulePath + '/')) return undefined;
  const dir = path.join(root, ...packagePath.slice(modulePath.length + 1).split('/'));
  return dir.startsWith(root + path.sep) ? dir : undefined;
}

function readTestFiles(dir: string): Array<{ file: string; text: string }> {
  let names: string[];
  try {
    names = fs.readdirSync(dir).filter((name) => name.endsWith('_test.go'));
  } catch {
    return [];
  }
  const files: Array<{ file: string; text: string }> = [];
  for (const name of names.sort().slice(0, MAX_FILES)) {
    const file = path.join(dir, name);
    try {
      const stat = fs.statSync(file);
      if (stat.isFile() && stat.size <= MAX_FILE_BYTES) files.push({ file, text: fs.readFileSync(file, 'utf8') });
    } catch {
      // Gone or unreadable: not searched.
    }
  }
  return files;
}
