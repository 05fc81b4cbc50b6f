import { Readable } from 'node:stream';

/**
 * Calls `onLine` for each non-empty line of a stream as it arrives (a process's JSON-lines
 * output can be megabytes per line, so lines are handled as they come), and for the last
 * unterminated line when the stream ends.
 */
export function onLines(stream: Readable, onLine: (line: string) => void): void {
  let pending = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    let from = 0;
    for (let newline = chunk.indexOf('\n'); newline !== -1; newline = chunk.indexOf('\n', from)) {
      const line = pending + chunk.slice(from, newline);
      pending = '';
      from = newline + 1;
      if (line) onLine(line);
    }
    pending += chunk.slice(from);
  });
  stream.on('end', () => {
    if (pending) onLine(pending);
    pending = '';
  });
}
