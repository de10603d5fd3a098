import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../toolkit/cli/main.js';
import { readReportPage } from '../../toolkit/report/testing/read-report-page.js';
import { tamperedSpawnOne } from '../../toolkit/report/testing/tampered-recording.js';
import type { ReportData } from '../../toolkit/report/types.js';
import { launchSystemChromium, type SystemChromium, type WatchedPage } from '../support/chromium.js';
import { quietIo } from '../support/quiet-io.js';
import { makeTempDir, removeTempDir } from '../support/temp-dir.js';

const REPO = process.cwd();
/** Screenshots for a person to look at; kept after the run. */
const SCREENS = process.env['NESTCAST_SCREENSHOTS'] ?? join(REPO, '.browser-screens');

/** The bar that has the keyboard focus, as a page expression. */
const FOCUSED_BAR = "document.activeElement?.getAttribute('data-bar') ?? null";

const io = () => quietIo(REPO);

let temp: string;
let reportDir: string;
let tamperedDir: string;
let browser: SystemChromium;

beforeAll(async () => {
  temp = await makeTempDir('browser-');
  reportDir = join(temp, 'report');
  tamperedDir = join(temp, 'tampered-report');
  await mkdir(SCREENS, { recursive: true });
  expect(await main(['run', 'mixed', 'parallel', 'acp-child', '--report', reportDir], io())).toBe(0);
  await tamperedSpawnOne(REPO, join(temp, 'recordings'));
  expect(
    await main(['run', 'spawn-one', '--recordings', join(temp, 'recordings'), '--report', tamperedDir], io()),
  ).toBe(1);
  browser = await launchSystemChromium();
});

afterAll(async () => {
  await browser?.close();
  await removeTempDir(temp);
});

async function openPage(
  dir: string,
  name: string,
  viewport?: { width: number; height: number },
): Promise<WatchedPage & { data: ReportData; url: string }> {
  const file = join(dir, `${name}.html`);
  const url = pathToFileURL(file).href;
  const watched = await browser.open(url, viewport);
  return { ...watched, data: (await readReportPage<ReportData>(file)).data, url };
}

/** Nothing but the page itself was requested, and nothing went wrong in it. */
function expectSelfContained(watched: WatchedPage & { url: string }): void {
  expect(watched.requests).toEqual([watched.url]);
  expect(watched.problems).toEqual([]);
}

describe('a report page in Chromium', () => {
  it.each([
    ['mixed', { main: [4, 2], 'main/call_fruits': [1, 0], 'main/call_pick': [1, 0] }],
    ['parallel', { main: [2, 2], 'main/call_iceland': [1, 0], 'main/call_malta': [1, 0] }],
    ['acp-child', { main: [2, 1], 'main/call_prime': [1, 0] }],
  ] as const)('draws %s as one lane per session with a bar per model and tool call', async (name, expected) => {
    const watched = await openPage(reportDir, name);
    const { page } = watched;
    const lanes = page.locator('.lane');
    expect(await lanes.count()).toBe(Object.keys(expected).length);
    for (const [index, [lineage, [models, tools]]] of Object.entries(expected).entries()) {
      const row = lanes.nth(index);
      await expect.poll(() => row.locator('.lineage').textContent()).toBe(lineage);
      expect(await row.locator('.bar-model').count(), `${lineage} model calls`).toBe(models);
      expect(await row.locator('.bar-tool').count(), `${lineage} tool calls`).toBe(tools);
    }
    const oop = await page
      .locator('.lane', { has: page.locator('.badge.oop') })
      .locator('.lineage')
      .allTextContents();
    expect(oop).toEqual(name === 'acp-child' ? ['main/call_prime'] : []);
    // At 1280×800 the whole axis is in view: nothing to scroll sideways.
    expect(
      await page.evaluate<number>(
        "(() => { const t = document.querySelector('.timeline'); return t.scrollWidth - t.clientWidth; })()",
      ),
    ).toBeLessThanOrEqual(0);
    await page.screenshot({ path: join(SCREENS, `${name}-1280x800.png`), fullPage: true });
    expectSelfContained(watched);
  });

  it('tells every kind of bar apart without colour: by border, pattern and label', async () => {
    const watched = await openPage(reportDir, 'mixed');
    // Per legend entry: border style and width, the fill's pattern, the streamed phase's pattern; no hue.
    const signatures = await watched.page.evaluate<
      string[]
    >(`[...document.querySelectorAll('.legend li')].map((item) => {
      const swatch = item.querySelector('.swatch');
      const phase = swatch.querySelector('.phase');
      const style = getComputedStyle(swatch);
      const pattern = (image) => (image === 'none' ? 'flat' : image.slice(0, image.indexOf('(')));
      const inner = phase ? (getComputedStyle(phase).backgroundImage === 'none' ? 'shade' : pattern(getComputedStyle(phase).backgroundImage)) : '-';
      return [style.borderTopStyle, style.borderTopWidth, pattern(style.backgroundImage), inner].join(' ');
    })`);
    expect(signatures).toHaveLength(9);
    expect(new Set(signatures).size).toBe(signatures.length);
    expectSelfContained(watched);
  });

  it('opens a tool call on click and follows it to the child session it started', async () => {
    const watched = await openPage(reportDir, 'mixed');
    const { page } = watched;
    await page.locator('.bar-tool', { hasText: 'subagent_fork' }).click();
    const details = page.locator('#details');
    await expect.poll(() => details.locator('h2').textContent()).toBe('Tool call subagent_fork in main');
    expect(await details.textContent()).toContain('From: unripe blueberries, green grapes. Which suits the user best?');
    await details.getByRole('button', { name: 'session main/call_pick' }).click();
    await expect
      .poll(() => page.evaluate<string | undefined>('document.activeElement?.id'))
      .toBe(`lane-${watched.data.sessions.find((s) => s.lineage === 'main/call_pick')?.id}`);
    expectSelfContained(watched);
  });

  it('is worked from the keyboard: Tab reaches the first bar, Enter opens it', async () => {
    const watched = await openPage(reportDir, 'parallel');
    const { page } = watched;
    let focused: string | null = null;
    for (let presses = 0; presses < 40 && focused === null; presses++) {
      await page.keyboard.press('Tab');
      focused = await page.evaluate<string | null>(FOCUSED_BAR);
    }
    expect(focused).toBe('s1.m1');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('#details h2').textContent()).toBe('Model call 1 of main');
    await page.keyboard.press('Tab');
    const next = await page.evaluate<string | null>(FOCUSED_BAR);
    expect(next).not.toBe('s1.m1');
    expect(next).toMatch(/^s\d+\.[mtk]\d+$/);
    expectSelfContained(watched);
  });

  it('shows a child’s streamed reasoning and text, and its usage, on click', async () => {
    const watched = await openPage(reportDir, 'parallel');
    const { page } = watched;
    const iceland = page.locator('.lane', { has: page.locator('.lineage', { hasText: 'main/call_iceland' }) });
    await iceland.locator('.bar-model').click();
    const details = page.locator('#details');
    await expect.poll(() => details.locator('h2').textContent()).toBe('Model call 1 of main/call_iceland');
    const text = await details.textContent();
    expect(text).toContain('Recent estimates are a little under 400 thousand.');
    expect(text).toContain('About 390,000 people.');
    expect(text).toMatch(/usage\d+ in, \d+ out/);
    expect(await iceland.locator('.bar-model .phase-reasoning').count()).toBe(1);
    expectSelfContained(watched);
  });

  it('fits a narrow screen: the page does not overflow sideways and the bars still open', async () => {
    const watched = await openPage(reportDir, 'mixed', { width: 390, height: 844 });
    const { page } = watched;
    const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
    expect(overflow).toBeLessThanOrEqual(0);
    await page.locator('.track .bar-model').last().click();
    await expect.poll(() => page.locator('#details h2').textContent()).toMatch(/^Model call \d of main/);
    await page.screenshot({ path: join(SCREENS, 'mixed-390x844.png'), fullPage: true });
    expectSelfContained(watched);
  });

  it('highlights the call a tampered replay failed on and shows its first divergence', async () => {
    const watched = await openPage(tamperedDir, 'spawn-one');
    const { page } = watched;
    expect(await page.locator('.verdict').textContent()).toBe('✗ FAILED');
    const failed = page.locator('.bar.is-failed');
    expect(await failed.count()).toBe(1);
    expect(await failed.getAttribute('data-bar')).toBe('s1.m2');
    const note = page.locator('#details .failed-note');
    await expect.poll(() => note.isVisible()).toBe(true);
    const text = await note.textContent();
    expect(text).toContain('REQUEST_MISMATCH');
    expect(text).toContain('messages[3].content');
    expect(await note.locator('dd.recorded').textContent()).toBe('"Canberra"');
    expect(await note.locator('dd.live').textContent()).toBe('"Sydney"');
    // The failures panel jumps to the same call.
    await page.locator('#details').evaluate((panel) => panel.replaceChildren());
    await page.getByRole('button', { name: 'show the failing call' }).click();
    await expect.poll(() => page.locator('#details h2').textContent()).toBe('Model call 2 of main');
    await page.screenshot({ path: join(SCREENS, 'tampered-spawn-one-1280x800.png'), fullPage: true });
    expectSelfContained(watched);
  });

  it('draws a recording shown without running it on its recorded timing, its background task until it settles', async () => {
    const dir = join(temp, 'show');
    expect(await main(['show', 'background', '--report', dir], io())).toBe(0);
    const watched = await openPage(dir, 'background');
    const { page } = watched;
    expect(await page.locator('header .meta').last().textContent()).toContain('time axis: the recording’s clock');
    const task = page.locator('.track .bar-task');
    expect(await task.count()).toBe(1);
    expect(await task.textContent()).toBe('task subagent-1 (completed) → main/call_peak');
    await task.click();
    await expect.poll(() => page.locator('#details h2').textContent()).toBe('Background task subagent-1 of main');
    await page.locator('.track .bar-model').nth(1).click();
    await page.screenshot({ path: join(SCREENS, 'background-recorded-1280x800.png') });
    expectSelfContained(watched);
  });

  it('links every scenario from the index with its verdict', async () => {
    const file = join(reportDir, 'index.html');
    const url = pathToFileURL(file).href;
    const watched = await browser.open(url);
    const rows = await watched.page
      .locator('tbody tr')
      .evaluateAll((trs) =>
        trs.map((tr) => [tr.querySelector('a')?.getAttribute('href'), tr.children[1]?.textContent]),
      );
    expect(rows).toEqual([
      ['mixed.html', '✓ pass'],
      ['parallel.html', '✓ pass'],
      ['acp-child.html', '✓ pass'],
    ]);
    await watched.page.locator('a', { hasText: 'parallel' }).click();
    await watched.page.waitForURL(/parallel\.html$/);
    expect(await watched.page.locator('h1').textContent()).toContain('parallel');
    expect(watched.requests).toEqual([url, pathToFileURL(join(reportDir, 'parallel.html')).href]);
    expect(watched.problems).toEqual([]);
  });
});
