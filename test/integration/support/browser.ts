import { BridgeReply, BridgeRequest } from '../../support/bridgeProtocol';
import { runParams } from './params';

/** True when a browser drives this editor (code-server); false under desktop VS Code. */
export function hasBrowser(): boolean {
  return runParams().bridgeUrl !== undefined;
}

/** Asks the harness to act in the workbench page; throws with the harness's reason on failure. */
export async function browser(request: BridgeRequest): Promise<Extract<BridgeReply, { ok: true }>> {
  const url = runParams().bridgeUrl;
  if (!url) throw new Error('No browser bridge in this run (desktop VS Code): this test needs code-server.');
  const response = await fetch(url, { method: 'POST', body: JSON.stringify(request) });
  const reply = (await response.json()) as BridgeReply;
  if (!reply.ok) throw new Error(`browser ${request.op} failed: ${reply.error}`);
  return reply;
}

/**
 * With `LIVE_TOOLS_SCREENSHOTS=<dir>` in the environment of the run, saves the page as `<dir>/<name>`
 * (how README's pictures are taken); otherwise does nothing.
 */
export async function screenshotFor(name: string): Promise<void> {
  const dir = process.env.LIVE_TOOLS_SCREENSHOTS;
  if (dir) await browser({ op: 'screenshot', path: `${dir}/${name}` });
}
