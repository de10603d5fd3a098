import { access } from 'node:fs/promises';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { makeTempDir, removeTempDir } from './temp-dir.js';

export const CHROMIUM = '/usr/bin/chromium';

/** Flags that keep the browser from reaching anything on its own (updates, sync, field trials). */
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** One page's life in the browser: every request it made, and every console error or uncaught exception. */
export interface WatchedPage {
  readonly page: Page;
  readonly requests: string[];
  readonly problems: string[];
}

export interface SystemChromium {
  readonly context: BrowserContext;
  open(url: string, viewport?: { width: number; height: number }): Promise<WatchedPage>;
  close(): Promise<void>;
}

/**
 * The system's Chromium (Debian package `chromium`) with a fresh profile. Never downloads a
 * browser: a machine without it fails here, saying what to install.
 */
export async function launchSystemChromium(): Promise<SystemChromium> {
  try {
    await access(CHROMIUM);
  } catch (error) {
    throw new Error(
      `${CHROMIUM} is missing: install the system package (apt-get install -y chromium); the browser tests never download one.`,
      { cause: error },
    );
  }
  const profile = await makeTempDir('chromium-profile-');
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
    viewport: { width: 1280, height: 800 },
  });
  return {
    context,
    async open(url, viewport) {
      const page = await context.newPage();
      const requests: string[] = [];
      const problems: string[] = [];
      page.on('request', (request) => void requests.push(request.url()));
      page.on('console', (message) => {
        if (message.type() === 'error' || message.type() === 'warning')
          problems.push(`console ${message.type()}: ${message.text()}`);
      });
      page.on('pageerror', (error) => void problems.push(`uncaught: ${error.message}`));
      if (viewport) await page.setViewportSize(viewport);
      await page.goto(url);
      return { page, requests, problems };
    },
    async close() {
      await context.close();
      await removeTempDir(profile);
    },
  };
}
