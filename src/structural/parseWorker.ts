/**
 * A parsing thread of `WorkerPool` (bundled as dist/parseWorker.js): its own grammars and parser,
 * one `MatchJob` per message, answered with the matches or the error.
 */
import * as path from 'node:path';
import { parentPort } from 'node:worker_threads';
import { InlineMatcher } from './fileMatcher';
import { GRAMMARS } from './grammarManifest';
import { LanguageRegistry } from './languages';
import { toWire, WorkerReply, WorkerRequest } from './workerProtocol';

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
  port.on('message', (request: WorkerRequest) => {
    matcher.match(request).then(
      (matches) => port.postMessage({ matches: matches.map(toWire) } satisfies WorkerReply),
      (error: Error) => port.postMessage({ error: { name: error.name, message: error.message } } satisfies WorkerReply),
    );
  });
}
