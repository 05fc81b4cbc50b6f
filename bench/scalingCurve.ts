/**
 * How cost grows with the number of files (`--scaling`): folders of 1 k, 10 k and 50 k Python
 * files made of copies of the standard library (hard links where the file system allows, so
 * the copies take no space), deleted afterwards. Per size, one pair of cold processes given the
 * folder (so both walk it), and the warm engine in a process of its own (warmRun.ts): its first
 * search, the background indexing after it, a new pattern and a repeat, its memory, and the first
 * search of an engine made again that reads the trigram index saved (a reloaded window).
 * One selective pattern: a broad one takes ~3× as long (at 50 k files, ~1 GB of text, that is
 * most of an hour on two cores).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { filesUnder } from '../test/support/filesUnder';
import { Contenders } from './contenders';
import type { Corpus } from './structuralCorpora';
import { markdownTable, mebibytes, ProcessRun, ratio, seconds, timedRun } from './timedRun';
import { warmInChild } from './warmRun';

const PATTERN = 'isinstance($X, $T)';

export async function scalingCurve(
  run: Contenders,
  corpus: Corpus,
  sizes: readonly number[],
  log: (line: string) => void,
): Promise<void> {
  log(
    `Scaling curve: \`${PATTERN}\` over copies of the ${corpus.files.length} files of ${corpus.name} (${corpus.description}), one cold pair per size given the folder (both walk it); warm: the engine in a process of its own.`,
  );
  const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'live-tools-scaling-'));
  const rows: string[][] = [
    [
      'files',
      'MiB of text',
      'matches ours / ast-grep / warm',
      'cold wall ours / ast-grep',
      'wall',
      'CPU ours / ast-grep',
      'peak MiB ours / ast-grep',
      'warm first search',
      'indexing after it',
      'warm new',
      'warm new / ast-grep cold',
      'from index',
      'not read (trigram index)',
      'warm repeat',
      'first after a reload',
      'reload / ast-grep cold',
      'index file / text',
      'warm MiB peak / after / after a GC (heap)',
      'engine MiB (budget)',
    ],
  ];
  try {
    for (const size of sizes) {
      const folder = path.join(temp, String(size));
      const bytes = copies(corpus.files, size, folder);
      const ours = await timedRun(process.execPath, run.ours(corpus.language, PATTERN, [folder]), run.root);
      const theirs = await timedRun(run.astGrep, run.theirs(corpus.language, PATTERN, [folder]), run.root);
      const warm = await warmInChild({
        root: run.root,
        language: corpus.language,
        files: filesUnder(folder, '.py'),
        prime: PATTERN,
        patterns: [PATTERN],
        rounds: 1,
      });
      const [measured] = warm.patterns;
      const cpu = (one: ProcessRun): string => (one.cpuMs === undefined ? 'n/a' : seconds(one.cpuMs));
      rows.push([
        String(size),
        (bytes / 1024 / 1024).toFixed(0),
        `${ours.matches} / ${theirs.matches} / ${measured.matches}`,
        `${seconds(ours.ms)} / ${seconds(theirs.ms)}`,
        ratio(ours.ms, theirs.ms),
        `${cpu(ours)} / ${cpu(theirs)}`,
        `${mebibytes(ours.peakMiB)} / ${mebibytes(theirs.peakMiB)}`,
        seconds(warm.primeMs),
        seconds(warm.indexingMs),
        seconds(measured.newMs[0]),
        ratio(measured.newMs[0], theirs.ms),
        `${measured.fromIndex} of ${measured.fromIndex + measured.parsed}`,
        `${measured.ruledOut} of ${size}`,
        seconds(measured.repeatMs[0]),
        `${seconds(warm.reloadMs)} (${warm.reloadRuledOut} not read)`,
        ratio(warm.reloadMs, theirs.ms),
        (warm.indexFileBytes / warm.textBytes).toFixed(3),
        `${mebibytes(warm.peakMiB)} / ${mebibytes(warm.afterMiB)} / ${mebibytes(warm.afterGcMiB)} (${mebibytes(warm.heapAfterGcMiB)})`,
        `${mebibytes(warm.engineMiB)} (${warm.budgetMiB})`,
      ]);
      fs.rmSync(folder, { recursive: true, force: true });
      log(`  ${size} files: done`);
    }
  } finally {
    fs.rmSync(temp, { recursive: true, force: true });
  }
  log(markdownTable(rows));
}

/** `size` files in `folder`: the corpus over and over (copy-0/…, copy-1/…), each a hard link where possible. Returns their bytes. */
function copies(files: readonly string[], size: number, folder: string): number {
  const common = commonFolder(files);
  let bytes = 0;
  for (let at = 0; at < size; at++) {
    const source = files[at % files.length];
    const target = path.join(folder, `copy-${Math.floor(at / files.length)}`, path.relative(common, source));
    fs.mkdirSync(path.dirname(target), { recursive: true });
    try {
      fs.linkSync(source, target);
    } catch {
      fs.copyFileSync(source, target);
    }
    bytes += fs.statSync(source).size;
  }
  return bytes;
}

function commonFolder(files: readonly string[]): string {
  let common = path.dirname(files[0]);
  for (const file of files) while (!file.startsWith(common + path.sep)) common = path.dirname(common);
  return common;
}
