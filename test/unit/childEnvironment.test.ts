/**
 * Nothing the extension starts can reach its MCP endpoint: the socket and token variables (an
 * agent in a terminal gets them; a window started from another window's terminal inherits them)
 * are left out of every child's environment, the rest kept.
 */
import * as assert from 'node:assert/strict';
import * as os from 'node:os';
import * as path from 'node:path';
import { Kernel } from '../../src/kernels/kernel';
import { formatText } from '../../src/kernels/kernelResult';
import { pythonLaunch } from '../../src/kernels/pythonKernel';
import { ENDPOINT_SOCKET_VARIABLE, ENDPOINT_TOKEN_VARIABLE } from '../../src/process/childEnvironment';
import { runToCompletion } from '../../src/process/childProcess';
import { repoRoot } from '../support/repoRoot';

const inherited = {
  ...process.env,
  [ENDPOINT_SOCKET_VARIABLE]: '/tmp/agent-live-tools-other/mcp.sock',
  [ENDPOINT_TOKEN_VARIABLE]: 'the-other-windows-token',
  KEPT_VARIABLE: 'kept',
};

describe('child environments: the MCP endpoint variables are left out', function () {
  this.timeout(60_000);

  it('a process the extension runs (a checker, a build) does not get them; other variables stay', async () => {
    const ran = await runToCompletion(
      '/bin/sh',
      ['-c', `echo "\${${ENDPOINT_SOCKET_VARIABLE}-unset} \${${ENDPOINT_TOKEN_VARIABLE}-unset} $KEPT_VARIABLE"`],
      { cwd: os.tmpdir(), env: inherited, timeoutSeconds: 20 },
    );
    assert.equal(ran.stdout.trim(), 'unset unset kept');
  });

  it('a kernel does not get them; other variables stay', async () => {
    const driver = path.join(repoRoot(), 'src', 'kernels', 'python', 'kernel.py');
    const kernel = new Kernel({ launch: pythonLaunch('/usr/bin/python3', driver), cwd: os.tmpdir(), env: inherited });
    try {
      const result = await kernel.execute(
        `import os\nprint([os.environ.get(name) for name in (${JSON.stringify(ENDPOINT_SOCKET_VARIABLE)}, ${JSON.stringify(ENDPOINT_TOKEN_VARIABLE)}, "KEPT_VARIABLE")])`,
      );
      assert.equal(formatText(result), "[None, None, 'kept']");
    } finally {
      await kernel.dispose();
    }
  });
});
