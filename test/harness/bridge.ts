/**
 * The browser bridge: a loopback HTTP endpoint through which a test running in the extension
 * host asks the harness to act in the real workbench page (click the chat confirmation, type
 * into a quick pick…). Only the harness and the tests it started know the URL.
 */
import * as http from 'node:http';
import { FrameLocator, Page } from 'playwright-core';
import { BridgeReply, BridgeRequest } from '../support/bridgeProtocol';

/** Where selectors are looked up: the page, or the innermost of the request's frames. */
function scopeOf(page: Page, frames: readonly string[] | undefined): Page | FrameLocator {
  let scope: Page | FrameLocator = page;
  for (const selector of frames ?? []) scope = scope.frameLocator(selector);
  return scope;
}

function hasText(text: string | undefined): { hasText?: RegExp } {
  return text ? { hasText: new RegExp(text) } : {};
}

/** Finds the first visible element of `selector` and clicks it in the same step in the page, polling until `timeout`. */
async function clickAtomically(scope: Page | FrameLocator, selector: string, timeout: number): Promise<BridgeReply> {
  const deadline = Date.now() + timeout;
  for (;;) {
    const text = await scope.locator('body').evaluate((body, wanted) => {
      const element = Array.from(body.ownerDocument.querySelectorAll<HTMLElement>(wanted)).find(
        (candidate) => candidate.getClientRects().length > 0,
      );
      if (!element) return undefined;
      element.click();
      return element.innerText.trim();
    }, selector);
    if (text !== undefined) return { ok: true, text };
    if (Date.now() > deadline) throw new Error(`no visible element matches ${selector} within ${timeout} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function perform(page: Page, request: BridgeRequest): Promise<BridgeReply> {
  const timeout = request.timeoutMs ?? 15_000;
  const scope = scopeOf(page, request.frames);
  switch (request.op) {
    case 'click': {
      if (request.atomic) return clickAtomically(scope, request.selector, timeout);
      const locator = scope.locator(request.selector, hasText(request.text)).filter({ visible: true }).first();
      await locator.waitFor({ state: 'visible', timeout });
      const text = (await locator.innerText()).trim();
      const container = request.container
        ? await locator.evaluate((element, selector) => {
            const found = element.closest(selector) as HTMLElement | null;
            return { text: found?.innerText ?? '', label: found?.getAttribute('aria-label') ?? '' };
          }, request.container)
        : undefined;
      await locator.click({ timeout });
      return { ok: true, text, containerText: container?.text, containerLabel: container?.label };
    }
    case 'text': {
      const locator = scope.locator(request.selector, hasText(request.text)).filter({ visible: true }).first();
      await locator.waitFor({ state: 'visible', timeout });
      // Bounded too: an element that goes away after it was found must not hold the caller for 30 s.
      return { ok: true, text: (await locator.innerText({ timeout })).trim() };
    }
    case 'html': {
      const locator = scope.locator(request.selector).first();
      await locator.waitFor({ state: 'attached', timeout });
      return { ok: true, text: await locator.evaluate((element) => element.outerHTML) };
    }
    case 'count': {
      return {
        ok: true,
        count: await scope.locator(request.selector, hasText(request.text)).filter({ visible: true }).count(),
      };
    }
    case 'type': {
      await page.keyboard.type(request.text, { delay: 10 });
      return { ok: true };
    }
    case 'press': {
      await page.keyboard.press(request.key);
      return { ok: true };
    }
    case 'block': {
      await page.route(request.url, (route) => route.abort());
      return { ok: true };
    }
    case 'unblock': {
      await page.unroute(request.url);
      return { ok: true };
    }
    case 'screenshot': {
      await page.screenshot({ path: request.path });
      return { ok: true };
    }
  }
}

export interface Bridge {
  readonly url: string;
  close(): Promise<void>;
}

export async function startBridge(page: () => Page | undefined, log: (line: string) => void): Promise<Bridge> {
  const server = http.createServer((incoming, outgoing) => {
    let body = '';
    incoming.on('data', (chunk) => (body += chunk));
    incoming.on('end', () => {
      const reply = (status: number, value: BridgeReply) => {
        outgoing.writeHead(status, { 'content-type': 'application/json' });
        outgoing.end(JSON.stringify(value));
      };
      let request: BridgeRequest;
      try {
        request = JSON.parse(body) as BridgeRequest;
      } catch {
        reply(400, { ok: false, error: 'body is not JSON' });
        return;
      }
      const current = page();
      if (!current) {
        reply(503, { ok: false, error: 'no workbench page yet' });
        return;
      }
      log(`bridge ${request.op} ${JSON.stringify(request)}`);
      perform(current, request).then(
        (value) => reply(200, value),
        (error: unknown) =>
          reply(500, { ok: false, error: error instanceof Error ? error.message.split('\n')[0] : String(error) }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
