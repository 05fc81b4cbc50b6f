/**
 * The MCP endpoint's overhead, measured inside the real editor: one `tools/call` of a cheap read
 * call (`ast_grep` on one small file, answered from the match cache after the first) through the
 * SDK's client and the `live-tools-mcp` bridge process, against `vscode.lm.invokeTool` of the same
 * call, alternating, in one run. The client runs in the extension host here (an agent's runs in its
 * own process), so its share lands on the same thread as the server's. Target: no slower.
 */
import * as path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { bridgePath, connectBridge, terminalEnvironment, textOf } from '../test/integration/support/mcp';
import { activateExtension, invokeText, workspaceRoot } from '../test/integration/support/tools';
import { addToReport, Sample } from './benchReport';

const ROUNDS = 60;
const CALL = {
  pattern: 'export function $F($$$A) { $$$B }',
  path: path.join('src', 'format.ts'),
  language: 'typescript',
};

describe('bench', function () {
  this.timeout(600_000);

  it('MCP tools/call against lm.invokeTool', async () => {
    await activateExtension();
    const env = { PATH: process.env.PATH ?? '', ...(await terminalEnvironment()) };
    const client: Client = await connectBridge(bridgePath(), env, workspaceRoot(), 'bench-agent');
    try {
      const expected = await invokeText('ast_grep', CALL);
      const overMcp = async (): Promise<void> => {
        const result = await client.callTool({ name: 'ast_grep', arguments: CALL });
        if (textOf(result) !== expected) throw new Error(`MCP answered ${textOf(result)}`);
      };
      const invoked = async (): Promise<void> => {
        if ((await invokeText('ast_grep', CALL)) !== expected) throw new Error('invokeTool answered differently');
      };
      const sample: Sample = {
        area: 'mcp',
        measure: 'tools/call round trip, ast_grep on one file (SDK client → bridge → window)',
        ours: [],
        peer: [],
        peerName: 'vscode.lm.invokeTool of the same call',
      };
      await overMcp();
      for (let round = 0; round < ROUNDS; round++) {
        for (const which of round % 2 === 0 ? ['ours', 'peer'] : ['peer', 'ours']) {
          const started = performance.now();
          await (which === 'ours' ? overMcp() : invoked());
          (which === 'ours' ? sample.ours : sample.peer).push(performance.now() - started);
        }
      }
      addToReport([sample]);
    } finally {
      await client.close();
    }
  });
});
