/** What the vibe-mode suites share: turning vibe mode on and off, and reading a spawned worker's id. */
import { invokeText, setSetting, waitUntilAsync } from './tools';

/** The frames the question card's webview is rendered in (the approval card of workers too). */
export const CARD_FRAMES = ['iframe.webview.ready', 'iframe#active-frame'];

/** The worker id in a vibe_spawn answer ("Started worker w3 …"). */
export function workerIdOf(answer: string): string {
  const id = /worker (w\d+)/.exec(answer)?.[1];
  if (!id) throw new Error(`no worker id in: ${answer}`);
  return id;
}

/** Sets vibe mode and waits until the tools see it (they refuse while it is off). */
export async function setVibe(on: boolean): Promise<void> {
  await setSetting('liveTools.vibe.enabled', on);
  await waitUntilAsync(`vibe mode ${on ? 'on' : 'off'}`, async () =>
    (await invokeText('vibe_list', {})).startsWith('Refused') === !on ? true : undefined,
  );
}
