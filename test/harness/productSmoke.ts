/**
 * The product smoke test: what `npm start` serves is a working VS Code with the tools. Starts
 * the product in a scratch home, opens it in Chromium like a person, runs "Agent Live Tools:
 * Run Tool…" from the command palette, checks the tools and their tiers are listed, picks lsp
 * and checks its input editor opens. Not an extension test: nothing of ours runs in the editor.
 */
import * as fs from 'node:fs';
import { chromium } from 'playwright-core';
import { newRunDir } from './editorRun';
import { startProduct } from './product';
import { chromiumPath } from './workbench';

export async function productSmokeTest(runDir: string, log: (line: string) => void): Promise<boolean> {
  fs.mkdirSync(runDir, { recursive: true });
  const product = await startProduct(runDir, undefined, () => undefined);
  const browser = await chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: ['--no-sandbox', '--disable-dev-shm-usage'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(product.url);
    await page.waitForSelector('.monaco-workbench .part.editor', { timeout: 60_000 });
    // The extension activates on startup; its command is in the palette once it has.
    let rows: string[] = [];
    for (let attempt = 0; attempt < 20 && !rows.some((row) => row.startsWith('lsp')); attempt++) {
      await page.keyboard.press('Escape');
      await page.keyboard.press('F1');
      await page.waitForSelector('.quick-input-widget', { state: 'visible', timeout: 10_000 });
      await page.keyboard.type('Agent Live Tools: Run Tool');
      await page.waitForTimeout(300);
      const commands = await page.locator('.quick-input-list .monaco-list-row').allInnerTexts();
      if (!commands.some((row) => row.includes('Agent Live Tools: Run Tool'))) {
        await page.waitForTimeout(500);
        continue;
      }
      await page.keyboard.press('Enter');
      await page.waitForSelector('.quick-input-title:has-text("Run Tool")', { timeout: 10_000 });
      rows = await page.locator('.quick-input-list .monaco-list-row').allInnerTexts();
    }
    const lsp = rows.find((row) => row.startsWith('lsp') && row.includes('read · Agent Live Tools'));
    const rename = rows.find((row) => row.startsWith('lsp_rename') && row.includes('write · Agent Live Tools'));
    if (!lsp || !rename) {
      log(
        `✗ npm start: the Run Tool picker does not list lsp (read) and lsp_rename (write); it lists:\n${rows.slice(0, 5).join('\n')}`,
      );
      return false;
    }
    await page.keyboard.type('lsp');
    await page.keyboard.press('Enter');
    const input = page.locator('.part.editor .monaco-editor .view-lines', { hasText: 'lsp — Language Server (read)' });
    const opened = await input.waitFor({ state: 'visible', timeout: 15_000 }).then(
      () => true,
      () => false,
    );
    if (!opened) {
      const shown = await page
        .locator('.part.editor')
        .innerText()
        .catch(() => '');
      log(`✗ npm start: picking lsp did not open its input; the editor area shows:\n${shown.slice(0, 300)}`);
      return false;
    }
    log(
      '✓ npm start serves VS Code with the .vsix installed: Run Tool… lists lsp (read), lsp_rename (write) and opens the input',
    );
    return true;
  } finally {
    await browser.close().catch(() => undefined);
    await product.server.stop();
  }
}

export function smokeRunDir(root: string): string {
  return newRunDir(root, 'start');
}
