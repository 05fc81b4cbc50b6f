/**
 * The trigram index's thread (bundled as dist/indexWorker.js; its host side is trigramFilter.ts):
 * it holds the index, answers which files of a search surely lack the pattern's trigrams (a stat
 * each, no read), and builds the records of the files that had none, between searches, reading
 * them itself, a few at a time so that a question is answered between two. Saves the index to its
 * file once a build is done. Nothing of this runs on the extension host's thread.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { fileTrigrams } from './trigrams';
import { TrigramIndex } from './trigramIndex';
import type { IndexMessage, IndexReply, IndexRequest, IndexWorkerData } from './trigramFilter';
import { measureThread } from './engineMemory';

/** Files larger than this are not indexed (always read): most searches cap files far below it. */
export const INDEXED_MAX_BYTES = 4 * 1024 * 1024;
/** Files indexed between two looks at the messages. */
const BATCH = 16;
/** A search that never says it ended (its host went away) holds the build back no longer than this. */
const PAUSE_LIMIT_MS = 30_000;
/**
 * A build started by file events alone saves the index (written whole: MBs at 10 k files) at most
 * this often: with auto-save, every few keystrokes' save is an event.
 */
const EVENTS_SAVE_EVERY_MS = 60_000;

if (parentPort) {
  const port = parentPort;
  const options = workerData as IndexWorkerData;
  const index = new TrigramIndex(options.budgetBytes);
  const loaded = options.storageFile ? readIndex(index, options.storageFile) : false;
  /** Files a search asked about that have no fresh record: built once no search runs. */
  const queue = new Set<string>();
  let pausedUntil = 0;
  let building = false;
  let built = 0;
  /** The build under way was started by file events, not by a search's end. */
  let fromEvents = false;
  let lastSave = 0;
  let saveTimer: NodeJS.Timeout | undefined;

  const save = (): void => {
    clearTimeout(saveTimer);
    saveTimer = undefined;
    if (!index.dirty || !options.storageFile) return;
    try {
      saveIndex(index, options.storageFile);
    } catch (error) {
      reply({ kind: 'saveFailed', reason: error instanceof Error ? error.message : String(error) });
    }
    lastSave = Date.now();
  };

  // Each reply with what the thread measures of itself (the engine's budget adds it up: engineMemory.ts).
  const reply = (message: IndexReply): void =>
    port.postMessage({ ...message, memory: measureThread(undefined, index.heldBytes) } satisfies IndexMessage);
  const schedule = (delayMs: number): void => {
    building = true;
    setTimeout(build, delayMs);
  };

  const build = (): void => {
    // While a search runs, its threads have the cores.
    if (Date.now() < pausedUntil) return schedule(50);
    let taken = 0;
    for (const file of queue) {
      queue.delete(file);
      if (indexFile(index, file, options.racyMs)) built++;
      if (++taken === BATCH) break;
    }
    if (queue.size > 0) return schedule(0);
    building = false;
    const wait = fromEvents ? lastSave + EVENTS_SAVE_EVERY_MS - Date.now() : 0;
    fromEvents = false;
    if (wait <= 0) save();
    else saveTimer ??= setTimeout(save, wait);
    reply({ kind: 'built', files: built, records: index.size, bytes: index.heldBytes });
    built = 0;
  };
  const startBuilding = (): void => {
    if (!building && queue.size > 0) schedule(0);
  };

  port.on('message', (request: IndexRequest) => {
    switch (request.kind) {
      case 'filter': {
        pausedUntil = Date.now() + PAUSE_LIMIT_MS;
        const ruledOut = new Uint8Array(request.files.length);
        let fresh = 0;
        request.files.forEach((file, at) => {
          let stat: fs.Stats;
          try {
            stat = fs.statSync(file);
          } catch {
            return;
          }
          const record = index.fresh(file, stat);
          if (!record) {
            if (stat.size <= INDEXED_MAX_BYTES) queue.add(file);
            return;
          }
          fresh++;
          if (stat.size <= request.maxBytes && index.rulesOut(file, stat, request.required)) ruledOut[at] = 1;
        });
        reply({ kind: 'filtered', id: request.id, ruledOut, fresh, loaded });
        return;
      }
      case 'searchEnded':
        pausedUntil = 0;
        fromEvents = false;
        startBuilding();
        return;
      case 'changed':
        // Queued once past the window in which a second write may keep the same times (a build running now
        // would take them at once, find them changed within it and drop them).
        setTimeout(() => {
          for (const file of request.files) if (index.has(file)) queue.add(file);
          if (!building && queue.size > 0) fromEvents = true;
          startBuilding();
        }, options.racyMs + 50);
        return;
      case 'status':
        reply({
          kind: 'status',
          id: request.id,
          records: index.size,
          bytes: index.heldBytes,
          waiting: queue.size + (building ? 1 : 0),
        });
        return;
    }
  });
}

/** Records the file's trigrams when it is a text not changed in the last `racyMs` (a change within a clock tick keeps the same time). */
function indexFile(index: TrigramIndex, file: string, racyMs: number): boolean {
  try {
    const before = fs.statSync(file);
    if (before.size > INDEXED_MAX_BYTES || Date.now() - Math.max(before.mtimeMs, before.ctimeMs) < racyMs) return false;
    const text = fs.readFileSync(file, 'utf8');
    // A binary file is always read, and named as such.
    if (text.includes('\u0000')) return false;
    const { dev, ino, size, mtimeMs, ctimeMs } = before;
    const after = fs.statSync(file);
    if (
      after.dev !== dev ||
      after.ino !== ino ||
      after.size !== size ||
      after.mtimeMs !== mtimeMs ||
      after.ctimeMs !== ctimeMs
    )
      return false;
    index.put(file, { dev, ino, size, mtimeMs, ctimeMs, trigrams: fileTrigrams(text) });
    return true;
  } catch {
    index.forget(file);
    return false;
  }
}

function readIndex(index: TrigramIndex, file: string): boolean {
  try {
    return index.load(fs.readFileSync(file));
  } catch {
    return false;
  }
}

/** Written whole to a temporary file, then renamed over the old one: a crash leaves one or the other, whole. */
function saveIndex(index: TrigramIndex, file: string): void {
  const temporary = `${file}.tmp`;
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(temporary, index.serialize());
    fs.renameSync(temporary, file);
    index.saved();
  } catch (error) {
    fs.rmSync(temporary, { force: true });
    throw error;
  }
}
