/** How the JavaScript kernel starts: jsKernelHost on the editor's own Node. */
import * as path from 'node:path';
import { KernelLaunch } from './kernel';

/** jsKernelHost as the extension ships it: dist/kernels/jsKernelHost.js beside the bundle. */
export function defaultHostPath(): string {
  return path.join(__dirname, 'kernels', 'jsKernelHost.js');
}

/**
 * `node` is the extension host's own executable: Node itself under code-server, Electron in the
 * desktop editor, where ELECTRON_RUN_AS_NODE makes it behave as Node (Node ignores the variable).
 */
export function javascriptLaunch(node = process.execPath, hostPath = defaultHostPath()): KernelLaunch {
  return { language: 'JavaScript', command: node, args: [hostPath], env: { ELECTRON_RUN_AS_NODE: '1' } };
}
