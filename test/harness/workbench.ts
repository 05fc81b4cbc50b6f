/**
 * Headless Chromium (Debian's, through playwright-core) on a code-server workbench. Seeds the
 * browser storage so the built-in chat works offline, opens the payload URL that loads the
 * extension under development (and the tests), and reports the exit code VS Code hands to
 * `codeAutomationExit`.
 */
import * as fs from 'node:fs';
import { Browser, chromium, Page } from 'playwright-core';

export function chromiumPath(): string {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(
    (candidate): candidate is string => !!candidate,
  );
  const found = candidates.find((candidate) => fs.existsSync(candidate));
  if (!found) {
    throw new Error(
      `Chromium not found (looked at ${candidates.join(', ')}). Install Debian's chromium: apt-get install -y chromium, or set CHROMIUM_PATH.`,
    );
  }
  return found;
}

/**
 * Measured in VS Code 1.139: the built-in Copilot Chat serves chat offline (with a model from
 * any provider) once these global-storage keys say setup completed and nothing disabled it.
 */
const CHAT_STORAGE_SEED: Record<string, string> = {
  builtinChatExtensionEnablementMigration: 'true',
  'chat.setupContext': JSON.stringify({ entitlement: 5, installed: true, completed: true, registered: true }),
  'chat.setupContext.migrated.v1': 'true',
  'extensionsIdentifiers/disabled': '[]',
};

async function seedGlobalStorage(page: Page, origin: string): Promise<void> {
  await page.goto(`${origin}/healthz`);
  await page.evaluate(async (seed: Record<string, string>) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open('vscode-web-state-db-global');
      request.onupgradeneeded = () => request.result.createObjectStore('ItemTable');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const transaction = db.transaction('ItemTable', 'readwrite');
    const store = transaction.objectStore('ItemTable');
    for (const [key, value] of Object.entries(seed)) store.put(value, key);
    await new Promise<void>((resolve, reject) => {
      transaction.oncomplete = () => resolve();
      transaction.onerror = () => reject(transaction.error);
    });
    db.close();
  }, CHAT_STORAGE_SEED);
}

export interface WorkbenchOptions {
  readonly host: string;
  readonly folder: string;
  readonly extensionDevelopmentPath: string;
  readonly extensionTestsPath?: string;
  readonly consoleLog: string;
}

export interface Workbench {
  readonly browser: Browser;
  readonly page: Page;
  /** Resolves with the code VS Code reports when the extension tests end. */
  readonly exitCode: Promise<number>;
  close(): Promise<void>;
}

export function workbenchUrl(
  options: Pick<WorkbenchOptions, 'host' | 'folder' | 'extensionDevelopmentPath' | 'extensionTestsPath'>,
): string {
  const remote = (file: string) => `vscode-remote://${options.host}${file}`;
  const payload: [string, string][] = [['extensionDevelopmentPath', remote(options.extensionDevelopmentPath)]];
  if (options.extensionTestsPath) payload.push(['extensionTestsPath', remote(options.extensionTestsPath)]);
  return `http://${options.host}/?folder=${encodeURIComponent(options.folder)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
}

export async function openWorkbench(options: WorkbenchOptions): Promise<Workbench> {
  // launchServer rather than launch: it tells us the browser's pid, so we can make sure it is gone.
  const server = await chromium.launchServer({
    executablePath: chromiumPath(),
    headless: true,
    args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'],
    handleSIGINT: false,
    handleSIGTERM: false,
  });
  const browserPid = server.process().pid;
  const closeBrowser = async (): Promise<void> => {
    await server.close().catch(() => undefined);
    if (browserPid !== undefined) {
      try {
        process.kill(browserPid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
  };
  const browser = await chromium.connect(server.wsEndpoint());
  try {
    const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
    const consoleLog = fs.createWriteStream(options.consoleLog, { flags: 'a' });
    page.on('console', (message) => consoleLog.write(`[${message.type()}] ${message.text()}\n`));
    page.on('pageerror', (error) => consoleLog.write(`[pageerror] ${error.message}\n`));
    let reportExit: (code: number) => void = () => undefined;
    const exitCode = new Promise<number>((resolve) => (reportExit = resolve));
    await page.exposeFunction('codeAutomationExit', (code: number) => reportExit(code));
    await page.exposeFunction('codeAutomationLog', (type: string, args: unknown[]) =>
      consoleLog.write(
        `[${type}] ${args.map((arg) => (typeof arg === 'string' ? arg : JSON.stringify(arg))).join(' ')}\n`,
      ),
    );
    await seedGlobalStorage(page, `http://${options.host}`);
    await page.goto(workbenchUrl(options));
    return {
      browser,
      page,
      exitCode,
      close: async () => {
        await browser.close().catch(() => undefined);
        await closeBrowser();
        consoleLog.end();
      },
    };
  } catch (error) {
    await browser.close().catch(() => undefined);
    await closeBrowser();
    throw error;
  }
}
