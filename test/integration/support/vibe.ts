/** What the vibe-mode suites share: turning vibe mode on and off, reading a spawned worker's id, answering an approval card. */
import * as assert from 'node:assert/strict';
import { browser } from './browser';
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

/**
 * Waits for the question card (an approval's or ask_user's) that shows the first pattern (the card
 * answered before it may still be on screen for a moment), checks the others, picks the option
 * labelled `choice` (Allow, Deny, …), submits, and waits until the card is gone. `beforeAnswer` runs once the
 * card is seen, before the choice (what happens while the human reads it).
 */
export async function answerCard(
  expect: RegExp[],
  choice: string,
  beforeAnswer?: () => void | Promise<void>,
): Promise<string> {
  const card = await browser({
    op: 'text',
    selector: '.card.active',
    text: expect[0].source,
    frames: CARD_FRAMES,
    timeoutMs: 30_000,
  });
  const text = card.text ?? '';
  for (const pattern of expect) assert.match(text, pattern);
  await beforeAnswer?.();
  // An option's text starts with its key's number.
  await browser({ op: 'click', selector: '.card.active .option', text: `^\\d*${choice}`, frames: CARD_FRAMES });
  await browser({ op: 'click', selector: '.card.active .submit', frames: CARD_FRAMES });
  const number = /^#\d+/.exec(text)?.[0];
  if (number)
    await waitUntilAsync(`card ${number} to be answered`, async () =>
      (await browser({ op: 'count', selector: '.card.active', text: `^${number}(?!\\d)`, frames: CARD_FRAMES }))
        .count === 0
        ? true
        : undefined,
    );
  return text;
}

/**
 * Waits for `call`, answering each card that shows `pattern` meanwhile with `choose(its text)` (the
 * project checkers' first runs); returns the call's answer and the texts of the cards answered.
 */
export async function answeringCards(
  call: Promise<string>,
  pattern: RegExp,
  choose: (card: string) => string = () => 'Allow',
): Promise<{ answer: string; cards: string[] }> {
  let settled = false;
  const done = call.finally(() => (settled = true));
  done.catch(() => undefined);
  const cards: string[] = [];
  while (!settled) {
    const shown = await browser({ op: 'count', selector: '.card.active', text: pattern.source, frames: CARD_FRAMES });
    if ((shown.count ?? 0) > 0) {
      const { text } = await browser({ op: 'text', selector: '.card.active', frames: CARD_FRAMES });
      cards.push(await answerCard([pattern], choose(text ?? '')));
    } else await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { answer: await done, cards };
}
