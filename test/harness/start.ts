/**
 * `npm start`: VS Code (code-server) with Agent Live Tools on a demo workspace, at a printed
 * loopback URL. Ctrl+C stops it. State is kept in .vscode-test/start/.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CODE_SERVER_VERSION } from './codeServerInstall';
import { repoRoot } from '../support/repoRoot';
import { demoPaths, startProduct } from './product';

async function main(): Promise<void> {
  const home = path.join(repoRoot(), '.vscode-test', 'start');
  fs.mkdirSync(home, { recursive: true });
  const { url, server } = await startProduct(
    home,
    Number(process.env.PORT ?? 0) || undefined,
    (line) => console.log(line),
    true,
  );
  console.log(`\nAgent Live Tools is running in VS Code (code-server ${CODE_SERVER_VERSION}) on a demo workspace:`);
  console.log(`  ${url}`);
  console.log(
    'Open it in a browser. "Agent Live Tools: Run Tool…" in the command palette runs any tool. Ctrl+C stops.',
  );
  const demo = demoPaths(home);
  console.log('Once the window is open, an agent in another shell reaches it from the demo folder (README: MCP):');
  console.log(`  cd ${demo.workspace}`);
  console.log(`  claude mcp add live-tools -- node ${demo.bridge}`);
  console.log(`Logs: ${server.logFile}`);
  const stop = () => void server.stop().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  const code = await server.process.exited;
  console.log(`code-server exited (${code}).`);
  process.exitCode = code ?? 1;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
});
