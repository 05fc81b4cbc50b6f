/**
 * A parsing thread of `ParsePool` (bundled as dist/parseWorker.js): its own grammars and parser,
 * one request per message, answered with the matches, the outcome of a file it read, a pattern's
 * summary, the size of a structural index it built and keeps (within the budget the pool gives
 * it), or the error; each with what the thread measures of its own memory.
 */
import * as path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { InlineMatcher } from './fileMatcher';
import { IndexStore } from './structuralIndex';
import { GRAMMARS } from './grammarManifest';
import { LanguageRegistry } from './languages';
import { errorToWire, fileOutcomeToWire, toWire, WorkerMessage, WorkerReply, WorkerRequest } from './workerProtocol';
import { measureThread, parserMemory } from './engineMemory';

if (parentPort) {
  const port = parentPort;
  const grammarDir = path.join(__dirname, 'grammars');
  const wasmMemory = parserMemory();
  const matcher = new InlineMatcher(
    new LanguageRegistry({
      grammars: GRAMMARS,
      locateWasm: (entry) => path.join(grammarDir, `${entry.id}.wasm`),
      runtimeWasm: path.join(__dirname, 'web-tree-sitter.wasm'),
      wasmMemory,
    }),
  );
  const indexes = new IndexStore((workerData as { indexBudget?: number } | null)?.indexBudget ?? 0);
  const answer = async (request: WorkerRequest): Promise<WorkerReply> => {
    switch (request.kind) {
      case 'text':
        return { matches: (await matcher.match(request.job)).map(toWire) };
      case 'file':
        // The text comes back along when asked for, or when it is less to copy than the matches' own texts.
        return {
          file: fileOutcomeToWire(
            await matcher.matchFile({ ...request.job, withSource: true }),
            request.job.withSource,
          ),
        };
      case 'index': {
        const index = await matcher.index(request.language, request.text);
        return { indexed: index && indexes.put(request.file, index, request.build) ? index.bytes : 0 };
      }
      case 'forget':
        indexes.forget(request.file, request.build);
        return { indexed: 0 };
      case 'indexed': {
        const index = indexes.get(request.job.file, request.job.text.length, request.job.build);
        if (!index) return { missing: true };
        return { matches: (await matcher.matchIndexed(request.job, index)).map(toWire) };
      }
      case 'describe': {
        const { language, context, requiredTexts, requiredRuns, gapWords, metavariables } = await matcher.describe(
          request.language,
          request.pattern,
        );
        return { summary: { language, context, requiredTexts, requiredRuns, gapWords, metavariables } };
      }
    }
  };
  // Requests are answered one after another, in the order they came (the pool pairs replies with its requests by order),
  // each with what the thread measures of itself then (the engine's budget adds it up: engineMemory.ts).
  const measured = (reply: WorkerReply): WorkerMessage => ({
    ...reply,
    memory: measureThread(wasmMemory, indexes.bytes),
  });
  let previous = Promise.resolve();
  port.on('message', (request: WorkerRequest) => {
    previous = previous.then(() =>
      answer(request).then(
        (reply) => port.postMessage(measured(reply)),
        (error: Error) => port.postMessage(measured({ error: errorToWire(error) })),
      ),
    );
  });
}
