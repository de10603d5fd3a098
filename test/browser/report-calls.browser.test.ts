import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../toolkit/cli/main.js';
import { readReportPage } from '../../toolkit/report/testing/read-report-page.js';
import { tamperedSpawnOne } from '../../toolkit/report/testing/tampered-recording.js';
import type { ReportData } from '../../toolkit/report/types.js';
import { launchSystemChromium, type SystemChromium, type WatchedPage } from '../support/chromium.js';
import { copyScenario } from '../support/scenario-copies.js';
import { quietIo } from '../support/quiet-io.js';
import { makeTempDir, removeTempDir } from '../support/temp-dir.js';

// What each model call asked and answered, per wire protocol, and on which clock the bars stand.
const REPO = process.cwd();
const io = () => quietIo(REPO);

let temp: string;
let replayDir: string;
let browser: SystemChromium;

beforeAll(async () => {
  temp = await makeTempDir('browser-calls-');
  replayDir = join(temp, 'report');
  expect(await main(['run', 'anthropic-loop', 'agents-sdk-parallel', 'mixed', '--report', replayDir], io())).toBe(0);
  // A replay of an authored script: hello-child with its recording taken away, so its script answers.
  const authored = { scenariosDir: join(temp, 'scenarios'), recordingsDir: join(temp, 'recordings') };
  await mkdir(authored.scenariosDir, { recursive: true });
  await copyScenario('hello-child', 'hello-authored', authored);
  await rm(join(authored.recordingsDir, 'hello-authored'), { recursive: true, force: true });
  // It fails for want of expected transcripts; its page is drawn all the same.
  expect(
    await main(
      [
        'run',
        'hello-authored',
        '--scenarios',
        authored.scenariosDir,
        '--recordings',
        authored.recordingsDir,
        '--report',
        replayDir,
      ],
      io(),
    ),
  ).toBe(1);
  await tamperedSpawnOne(REPO, join(temp, 'tampered'));
  expect(await main(['run', 'spawn-one', '--recordings', join(temp, 'tampered'), '--report', replayDir], io())).toBe(1);
  browser = await launchSystemChromium();
});

afterAll(async () => {
  await browser?.close();
  await removeTempDir(temp);
});

async function open(name: string): Promise<WatchedPage & { data: ReportData }> {
  const file = join(replayDir, `${name}.html`);
  const watched = await browser.open(pathToFileURL(file).href);
  return { ...watched, data: (await readReportPage<ReportData>(file)).data };
}

/** Where a bar starts along its track, as a share of the track's width. */
function startShare(page: Page, bar: string): Promise<number> {
  return page.evaluate(`(() => {
    const bar = document.querySelector('.track .bar[data-bar="${bar}"]').getBoundingClientRect();
    const track = document.querySelector('.track .bar[data-bar="${bar}"]').closest('.track').getBoundingClientRect();
    return (bar.left - track.left) / track.width;
  })()`);
}

describe('model calls in the report, in Chromium', () => {
  it('draws a replay on the recording’s clock, and on its own clock after the switch, from the keyboard', async () => {
    const { page, data, problems } = await open('anthropic-loop');
    const other = data.otherClock;
    expect(data.scenario.timing).toBe('recorded');
    expect(other?.timing).toBe('run');
    const [recordedStart] = data.sessions[1]?.modelCalls[0] ? [data.sessions[1].modelCalls[0].start] : [NaN];
    const [runStart] = other?.times['s2.m1'] ?? [NaN];
    expect(await page.locator('#axis-clock').textContent()).toBe('time axis: the recording’s clock');
    expect(await page.locator('.timeline .timeline-inner').getAttribute('data-clock')).toBe('recorded');
    expect(await startShare(page, 's2.m1')).toBeCloseTo(recordedStart / data.span, 2);

    await page.locator('.track .bar[data-bar="s2.m1"]').click();
    await page.getByRole('radio', { name: 'as recorded' }).focus();
    await page.keyboard.press('ArrowRight');
    expect(await page.getByRole('radio', { name: 'this replay' }).isChecked()).toBe(true);
    expect(await page.locator('.timeline .timeline-inner').getAttribute('data-clock')).toBe('run');
    expect(await page.locator('#axis-clock').textContent()).toBe('time axis: this replay’s own clock');
    expect(await startShare(page, 's2.m1')).toBeCloseTo(runStart / (other?.span ?? NaN), 2);
    expect(await page.locator('.track .bar.selected').getAttribute('data-bar')).toBe('s2.m1');
    expect(await page.locator('#details dt').allTextContents()).toContain('time, this replay');
    expect(await page.locator('.track .bar[data-bar]').count()).toBe(
      data.sessions.reduce((sum, s) => sum + s.modelCalls.length + s.toolCalls.length + s.tasks.length, 0),
    );

    await page.keyboard.press('ArrowLeft');
    expect(await page.locator('.timeline .timeline-inner').getAttribute('data-clock')).toBe('recorded');
    expect(await startShare(page, 's2.m1')).toBeCloseTo(recordedStart / data.span, 2);
    expect(problems).toEqual([]);
  });

  it('says that a replay of an authored script has no recorded timing, and offers no clock to switch to', async () => {
    const { page, data, problems } = await open('hello-authored');
    expect(data.scenario.timing).toBe('run');
    expect(data.otherClock).toBeNull();
    expect(await page.locator('.timing-note').textContent()).toMatch(/^No recorded timing\. .*authored.*own clock/);
    expect(await page.locator('#axis-clock').textContent()).toBe('time axis: this replay’s own clock');
    expect(await page.getByRole('radio').count()).toBe(0);
    expect(problems).toEqual([]);
  });

  it.each([
    ['anthropic-loop', 'delegate', 'tool_use', ['max_tokens', 'model']],
    ['agents-sdk-parallel', null, 'completed', ['model']],
    ['mixed', null, 'stop', ['model']],
  ] as const)(
    '%s: the tools offered (folded), the parameters and the recorded reply of its first call, as its protocol reads them',
    async (name, tool, stop, parameters) => {
      const { page, data, problems } = await open(name);
      const call = data.sessions[0]?.modelCalls[0];
      await page.locator('.track .bar[data-bar="s1.m1"]').click();
      const details = page.locator('#details');
      const tools = details.locator('details.tools');
      expect(await tools.count()).toBe(call?.tools?.length ? 1 : 0);
      if (call?.tools?.length) {
        expect(await tools.getAttribute('open')).toBeNull();
        expect(await tools.locator('.tool-def').first().isVisible()).toBe(false);
        if (tool !== null) expect(await tools.locator('summary').textContent()).toContain(tool);
        await tools.locator('summary').click();
        expect(await tools.locator('.tool-def strong').allTextContents()).toEqual(call.tools.map((t) => t.name));
      }
      const shownParameters = await details.locator('.parameters dt').allTextContents();
      for (const parameter of parameters) expect(shownParameters).toContain(parameter);
      expect(await details.locator('.reply h3').textContent()).toBe(`Reply (as recorded) · stop: ${stop}`);
      const asked = call?.reply?.toolCalls ?? [];
      expect(await details.locator('.reply .reply-tool').count()).toBe(asked.length);
      for (const [index, asking] of asked.entries())
        expect(await details.locator('.reply .reply-tool').nth(index).textContent()).toContain(
          `→ ${asking.name} (${asking.id})`,
        );
      expect(problems).toEqual([]);
    },
  );

  it('states the divergence’s path and values once: in the inline diff, not again in the failure’s text', async () => {
    const { page, problems } = await open('spawn-one');
    const failure = page.locator('.failures .failure').first();
    expect(await failure.locator('.divergence dd.recorded').textContent()).toContain('Canberra');
    expect(await failure.locator('.divergence dd').first().textContent()).toBe('messages[3].content');
    const text = (await failure.locator('> pre').textContent()) ?? '';
    expect(text).toContain('does not match the cassette');
    for (const shown of ['Canberra', 'Sydney', 'messages[3].content']) expect(text).not.toContain(shown);
    expect(problems).toEqual([]);
  });
});
