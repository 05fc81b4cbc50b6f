import * as fs from 'node:fs';
import * as path from 'node:path';

/** Every file under `dir` whose name ends with `suffix`, absolute, sorted. */
export function filesUnder(dir: string, suffix: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(suffix))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
}
