import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../toolkit/cli/main.js';
import { tamperedSpawnOne } from '../../toolkit/report/testing/tampered-recording.js';
import { copyScenario } from '../support/scenario-copies.js';
import { launchSystemChromium, type SystemChromium, type WatchedPage } from '../support/chromium.js';
import { quietIo } from '../support/quiet-io.js';
import { makeTempDir, removeTempDir } from '../support/temp-dir.js';

// The report as a debugger: what changed, what each call was asked, where to look, at any zoom.
const REPO = process.cwd();
const io = () => quietIo(REPO);

let temp: string;
let tamperedDir: string;
let shownDir: string;
let recordings: string[];
let browser: SystemChromium;

beforeAll(async () => {
  temp = await makeTempDir('browser-debugger-');
  tamperedDir = join(temp, 'tampered');
  shownDir = join(temp, 'shown');
  await tamperedSpawnOne(REPO, join(temp, 'recordings'));
  expect(
    await main(['run', 'spawn-one', '--recordings', join(temp, 'recordings'), '--report', tamperedDir], io()),
  ).toBe(1);
  // One edited prompt: main diverges on its first call, and its child is never started.
  const edited = { scenariosDir: join(temp, 'scenarios'), recordingsDir: join(temp, 'recordings') };
  await mkdir(edited.scenariosDir, { recursive: true });
  await copyScenario('hello-child', 'hello-edited', edited, (source) =>
    source.replace('Ask a helper to say hello.', 'Ask a helper to say hi.'),
  );
  expect(
    await main(
      [
        'run',
        'hello-edited',
        '--scenarios',
        edited.scenariosDir,
        '--recordings',
        edited.recordingsDir,
        '--report',
        tamperedDir,
      ],
      io(),
    ),
  ).toBe(1);
  recordings = (await readdir(join(REPO, 'recordings'), { withFileTypes: true }))
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  for (const name of recordings) expect(await main(['show', name, '--report', shownDir], io())).toBe(0);
  browser = await launchSystemChromium();
});

afterAll(async () => {
  await browser?.close();
  await removeTempDir(temp);
});

async function open(dir: string, name: string): Promise<WatchedPage> {
  return browser.open(pathToFileURL(join(dir, `${name}.html`)).href);
}

/** The boxes of the elements `selector` finds inside each element `within` finds, one list per container. */
function boxesIn(
  page: Page,
  within: string,
  selector: string,
): Promise<{ x: number; y: number; w: number; h: number }[][]> {
  return page.evaluate(`[...document.querySelectorAll(${JSON.stringify(within)})].map((container) =>
    [...container.querySelectorAll(${JSON.stringify(selector)})].map((element) => {
      const box = element.getBoundingClientRect();
      return { x: box.left, y: box.top, w: box.width, h: box.height };
    }))`);
}

/** The computed text decoration of the first element `selector` finds. */
function decoration(page: Page, selector: string): Promise<string> {
  return page.evaluate(`getComputedStyle(document.querySelector(${JSON.stringify(selector)})).textDecorationLine`);
}

/** Pairs of boxes that cover some of the same pixels (touching edges is not overlapping). */
function overlaps(boxes: readonly { x: number; y: number; w: number; h: number }[]): number {
  let found = 0;
  for (const [i, a] of boxes.entries())
    for (const b of boxes.slice(i + 1))
      if (
        Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x) > 0.5 &&
        Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y) > 0.5
      )
        found++;
  return found;
}

describe('the report as a debugger, in Chromium', () => {
  it('marks the changed word of the first divergence, struck through where recorded and underlined where live, in the box and the failed call', async () => {
    const { page, problems } = await open(tamperedDir, 'spawn-one');
    const box = page.locator('.failures .divergence');
    expect(await box.locator('dd.recorded del').textContent()).toBe('Canberra');
    expect(await box.locator('dd.live ins').textContent()).toBe('Sydney');
    expect(await decoration(page, '.failures .divergence dd.recorded del')).toBe('line-through');
    expect(await decoration(page, '.failures .divergence dd.live ins')).toBe('underline');
    const note = page.locator('#details .failed-note');
    await expect.poll(() => note.locator('dd.live ins').textContent()).toBe('Sydney');
    expect(await note.locator('pre').count()).toBe(0);
    expect(problems).toEqual([]);
  });

  it('draws the session the recording expected and the failed run never reached as a dashed, empty lane, the failing call marked', async () => {
    const { page, problems } = await open(tamperedDir, 'hello-edited');
    const missing = page.locator('.lane.missing');
    expect(await missing.count()).toBe(1);
    expect(await missing.getAttribute('data-missing')).toBe('main/call_hello');
    expect(await missing.locator('.badge').textContent()).toBe('expected, never reached');
    expect(await missing.locator('.missing-note').textContent()).toBe('1 recorded model call never requested');
    expect(
      await page.evaluate<string>(`getComputedStyle(document.querySelector('.missing-track')).borderTopStyle`),
    ).toBe('dashed');
    expect(await page.locator('.track .bar.is-failed').getAttribute('data-bar')).toBe('s1.m1');
    const lanes = (await boxesIn(page, '.timeline-inner', '.lane'))[0] ?? [];
    expect(lanes).toHaveLength(2);
    expect(overlaps(lanes)).toBe(0);
    expect(problems).toEqual([]);
  });

  it('shows the recorded request of a model call message by message, earlier messages folded, and the tokens of the run and each session', async () => {
    const { page, problems } = await open(tamperedDir, 'spawn-one');
    await page.locator('.track .bar[data-bar="s1.m2"]').click();
    const request = page.locator('#details .request');
    await expect.poll(() => request.locator('h3').textContent()).toBe('Request (4 messages, as recorded)');
    expect(await request.locator('> ol > li.msg .role').textContent()).toBe('tool');
    expect(await request.locator('details').getAttribute('open')).toBeNull();
    await request.locator('summary').click();
    expect(await request.locator('details .msg .role').allTextContents()).toEqual(['system', 'user', 'assistant']);
    expect(await page.locator('header .meta').last().textContent()).toMatch(/\d+ tokens in, \d+ out/);
    expect(await page.locator('.lane .badge.tokens').count()).toBe(2);
    expect(problems).toEqual([]);
  });

  it('finds calls and sessions by text, marks them, and opens each match with Enter', async () => {
    const { page, problems } = await open(shownDir, 'parallel');
    await page.keyboard.press('/');
    expect(await page.evaluate<string | undefined>('document.activeElement?.id')).toBe('search');
    await page.keyboard.type('malta');
    const matches = page.locator('.track .bar.match');
    await expect.poll(() => matches.count()).toBeGreaterThan(0);
    const count = await matches.count();
    expect(await page.locator('#search-count').textContent()).toBe(`${count} match${count === 1 ? '' : 'es'}`);
    expect(await page.locator('.track .bar.no-match').count()).toBe(
      (await page.locator('.track .bar').count()) - count,
    );
    await page.keyboard.press('Enter');
    const opened = await page.locator('#details').getAttribute('data-open');
    expect(await matches.evaluateAll((bars) => bars.map((bar) => bar.getAttribute('data-bar')))).toContain(opened);
    expect(await page.locator('#details').textContent()).toMatch(/malta/i);
    await page.keyboard.press('Escape');
    expect(await page.locator('.track .bar.match').count()).toBe(0);
    expect(problems).toEqual([]);
  });

  it('zooms the time axis: each step in doubles a bar’s width, and out again', async () => {
    const { page, problems } = await open(shownDir, 'background');
    const bar = page.locator('.track .bar').first();
    const width = async () => (await bar.boundingBox())?.width ?? 0;
    const before = await width();
    await page.getByRole('button', { name: 'zoom in' }).click();
    expect(await page.locator('#zoom-level').textContent()).toBe('2×');
    expect((await width()) / before).toBeGreaterThan(1.8);
    await page.getByRole('button', { name: 'zoom out' }).click();
    expect(Math.abs((await width()) - before)).toBeLessThan(1);
    expect(problems).toEqual([]);
  });

  it('moves between bars with the arrow keys: along a lane by time, and across lanes', async () => {
    const { page, problems } = await open(shownDir, 'mixed');
    const focused = () => page.evaluate<string | null>("document.activeElement?.getAttribute('data-bar') ?? null");
    await page.locator('.track .bar[data-bar="s1.m1"]').focus();
    await page.keyboard.press('ArrowRight');
    const second = await focused();
    expect(second).toMatch(/^s1\./);
    expect(second).not.toBe('s1.m1');
    await page.keyboard.press('ArrowLeft');
    expect(await focused()).toBe('s1.m1');
    await page.keyboard.press('ArrowDown');
    expect(await focused()).toMatch(/^s2\./);
    expect(problems).toEqual([]);
  });

  it('draws no two bars, and no two axis labels, over each other on the page of any of the repository’s recordings', async () => {
    const found: string[] = [];
    for (const name of recordings) {
      const { page } = await open(shownDir, name);
      const tracks = await boxesIn(page, '.track', '.bar');
      tracks.forEach((boxes, lane) => {
        if (overlaps(boxes) > 0) found.push(`${name}: lane ${lane + 1}, ${overlaps(boxes)} overlapping bars`);
      });
      const [ticks] = await boxesIn(page, '.axis', '.tick');
      if (overlaps(ticks ?? []) > 0) found.push(`${name}: axis labels overlap`);
      await page.close();
    }
    expect(found).toEqual([]);
    expect(recordings.length).toBeGreaterThan(10);
  });
});
