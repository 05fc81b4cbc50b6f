/**
 * A parsing thread of `ParsePool` (bundled as dist/parseWorker.js): its own grammars and parser,
 * one request per message, answered with the matches, the outcome of a file it read, a pattern's
 * summary, or the error.
 */
import * as path from 'node:path';
import { parentPort } from 'node:worker_threads';
import { InlineMatcher } from './fileMatcher';
import { GRAMMARS } from './grammarManifest';
import { LanguageRegistry } from './languages';
import { errorToWire, fileOutcomeToWire, toWire, WorkerReply, WorkerRequest } from './workerProtocol';

if (parentPort) {
  const port = parentPort;
  const grammarDir = path.join(__dirname, 'grammars');
  const matcher = new InlineMatcher(
    new LanguageRegistry({
      grammars: GRAMMARS,
      locateWasm: (entry) => path.join(grammarDir, `${entry.id}.wasm`),
      runtimeWasm: path.join(__dirname, 'web-tree-sitter.wasm'),
    }),
  );
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
      case 'describe': {
        const { language, context, requiredTexts, requiredRuns, gapWords, metavariables } = await matcher.describe(
          request.language,
          request.pattern,
        );
        return { summary: { language, context, requiredTexts, requiredRuns, gapWords, metavariables } };
      }
    }
  };
  // Requests are answered one after another, in the order they came (the pool pairs replies with its requests by order).
  let previous = Promise.resolve();
  port.on('message', (request: WorkerRequest) => {
    previous = previous.then(() =>
      answer(request).then(
        (reply) => port.postMessage(reply),
        (error: Error) => port.postMessage({ error: errorToWire(error) } satisfies WorkerReply),
      ),
    );
  });
}
