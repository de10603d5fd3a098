import { access, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, removeTempDir } from '../../test/support/temp-dir.js';
import { loadCassette } from '../cassette/load-cassette.js';
import type { CliIo } from '../cli/io.js';
import { main } from '../cli/main.js';
import { readTranscripts } from '../harvest/transcript.js';
import { listScenarios } from '../scenarios/load-scenarios.js';
import { buildReportData } from './build-report-data.js';
import { embedJson } from './html.js';
import { renderScenarioPage } from './render-page.js';
import { recordingReportInput } from './report-inputs.js';
import { readCallStream } from './call-stream.js';
import { checkReportData, checkReportIndex } from './report-schema.js';
import { embeddedData, readReportPage } from './testing/read-report-page.js';
import { tamperedSpawnOne } from './testing/tampered-recording.js';
import type { ReportData, ReportIndexData, ReportSession } from './types.js';
import { childrenFromBuiltCli } from '../../test/support/built-cli.js';

// The workers `main` starts run from the build: the file proves the commands, not the sources' loader.
childrenFromBuiltCli();

const REPO = process.cwd();

function memoryIo(env: NodeJS.ProcessEnv = {}): CliIo & { out: () => string; err: () => string } {
  let out = '';
  let err = '';
  return {
    stdout: (t) => void (out += t),
    stderr: (t) => void (err += t),
    env,
    cwd: REPO,
    color: false,
    out: () => out,
    err: () => err,
  };
}

async function page(dir: string, name: string): Promise<ReportData> {
  const { data } = await readReportPage<unknown>(join(dir, `${name}.html`));
  const checked = checkReportData(data);
  if (!checked.ok) throw new Error(`${name}.html: ${checked.problem}`);
  return checked.value;
}

function lane(data: ReportData, lineage: string): ReportSession {
  const found = data.sessions.find((session) => session.lineage === lineage);
  if (!found) throw new Error(`no lane ${lineage} in ${data.sessions.map((s) => s.lineage).join(', ')}`);
  return found;
}

let temp: string;
beforeAll(async () => {
  temp = await makeTempDir('report-');
});
afterAll(async () => {
  await removeTempDir(temp);
});

describe('nestcast run --report', () => {
  it('writes a page per scenario whose embedded data matches the schema and the sessions the run harvested', async () => {
    const dir = join(temp, 'run');
    const io = memoryIo({ NO_COLOR: '1' });
    expect(
      await main(['run', 'mixed', 'parallel', 'acp-child', 'background', '--report', dir], io),
      io.out() + io.err(),
    ).toBe(0);
    expect(io.out()).toContain(`report: ${join(dir, 'index.html')}`);
    expect((await readdir(dir)).sort()).toEqual([
      'acp-child.html',
      'background.html',
      'index.html',
      'mixed.html',
      'parallel.html',
    ]);

    const index = embeddedData<ReportIndexData>((await readReportPage(join(dir, 'index.html'))).html);
    expect(checkReportIndex(index).ok).toBe(true);
    expect(index.scenarios.map((s) => [s.name, s.file, s.passed, s.sessions])).toEqual([
      ['mixed', 'mixed.html', true, 3],
      ['parallel', 'parallel.html', true, 3],
      ['acp-child', 'acp-child.html', true, 2],
      ['background', 'background.html', true, 2],
    ]);

    for (const name of ['mixed', 'parallel', 'acp-child', 'background']) {
      const data = await page(dir, name);
      const transcripts = await readTranscripts(join(REPO, 'recordings', name, 'transcripts'));
      const cassette = await loadCassette(join(REPO, 'recordings', name));
      // A replay stands on the recording's clock, the same as `nestcast show` draws it; its own clock is the second view.
      expect(data.scenario).toMatchObject({ name, kind: 'replay', passed: true, timing: 'recorded', timingNote: null });
      expect(data.otherClock?.timing).toBe('run');
      const shown = buildReportData(await recordingReportInput(join(REPO, 'recordings', name)));
      expect(data.sessions.map((s) => s.modelCalls.map((call) => [call.start, call.end]))).toEqual(
        shown.sessions.map((s) => s.modelCalls.map((call) => [call.start, call.end])),
      );
      expect(data.sessions.map((s) => s.lineage)).toEqual(transcripts.map((t) => t.header.lineage));
      for (const session of data.sessions) {
        // One bar per recorded model call, numbered as the cassette numbers them.
        expect(
          session.modelCalls.map((call) => call.call),
          `${name} ${session.lineage}`,
        ).toEqual((cassette.calls[session.lineage] ?? []).map((_, i) => i + 1));
        const transcript = transcripts.find((t) => t.header.lineage === session.lineage);
        expect(session.toolCalls.map((tool) => tool.callId)).toEqual(
          transcript?.events.flatMap((e) =>
            e.type === 'tool/call' && e.seq >= (transcript.header.seedLength ?? 0) ? [e.data.id] : [],
          ),
        );
        expect(session.start).toBeLessThanOrEqual(session.end);
        expect(session.end).toBeLessThanOrEqual(data.span);
        if (session.parent !== null) {
          const parent = data.sessions.find((s) => s.id === session.parent);
          expect(session.lineage).toBe(`${parent?.lineage}/${session.spawnedBy}`);
          // The tool call that started the child links to its lane.
          expect(parent?.toolCalls.find((tool) => tool.callId === session.spawnedBy)?.child).toBe(session.id);
        }
      }
    }

    expect(lane(await page(dir, 'acp-child'), 'main/call_prime')).toMatchObject({
      outOfProcess: true,
      depth: 1,
      parent: 's1',
    });
    expect(lane(await page(dir, 'mixed'), 'main/call_fruits').outOfProcess).toBe(false);
    expect(lane(await page(dir, 'mixed'), 'main/call_pick').seedLength).toBeGreaterThan(0);
    const parallel = await page(dir, 'parallel');
    const reasoning = lane(parallel, 'main/call_iceland').modelCalls[0];
    expect(reasoning?.reasoning).toBe('Recent estimates are a little under 400 thousand.');
    expect(reasoning?.text).toBe('About 390,000 people.');
    expect(reasoning?.phases.map((phase) => phase.kind)).toEqual(expect.arrayContaining(['reasoning', 'text']));
    expect(reasoning?.request).toMatch(/^deepseek-v4-flash · 2 messages/);

    const background = lane(await page(dir, 'background'), 'main');
    expect(background.tasks).toEqual([
      expect.objectContaining({ taskId: 'subagent-1', callId: 'call_peak', child: 's2', outcome: 'completed' }),
    ]);
    expect(background.toolCalls.find((tool) => tool.callId === 'call_peak')?.background).toBe(true);
    // Its four scenarios run in worker processes that load the toolkit from its TypeScript sources.
  }, 120_000);

  it('highlights the call a tampered replay failed on, with the first divergence recorded vs live, its changed word marked, and the call’s recorded request', async () => {
    const recordings = join(temp, 'tampered-recordings');
    await tamperedSpawnOne(REPO, recordings);
    const dir = join(temp, 'tampered');
    const io = memoryIo({ NO_COLOR: '1' });

    expect(await main(['run', 'spawn-one', '--recordings', recordings, '--report', dir], io)).toBe(1);

    const { html } = await readReportPage(join(dir, 'spawn-one.html'));
    const data = await page(dir, 'spawn-one');
    expect(data.scenario.passed).toBe(false);
    const failed = data.sessions.flatMap((session) =>
      session.modelCalls.filter((call) => call.failed).map((call) => [session.lineage, call.call]),
    );
    expect(failed).toEqual([['main', 2]]);
    expect(data.failures[0]).toMatchObject({
      code: 'REQUEST_MISMATCH',
      lineage: 'main',
      call: 2,
      divergence: { path: 'messages[3].content', recorded: '"Canberra"', live: '"Sydney"' },
    });
    // The changed word marked on each side: struck through where recorded, underlined where live.
    expect(html).toContain('<dd class="recorded">&#34;<del>Canberra</del>&#34;</dd>');
    expect(html).toContain('<dd class="live">&#34;<ins>Sydney</ins>&#34;</dd>');
    // The recorded request of the failed call, message by message, and the tokens of the run.
    const messages = data.sessions[0]?.modelCalls[1]?.messages ?? [];
    expect(messages.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'tool']);
    expect(messages[3]?.text).toBe('Canberra');
    const sum = (key: 'inputTokens' | 'outputTokens') =>
      data.sessions.reduce((total, session) => total + (session.usage?.[key] ?? 0), 0);
    expect(data.sessions.every((session) => session.usage !== null)).toBe(true);
    expect(data.usage).toEqual({ inputTokens: sum('inputTokens'), outputTokens: sum('outputTokens') });
    expect(html).toMatch(/class="bar bar-model is-failed" data-bar="s1\.m2"[^>]*><span class="label">FAILED: call 2</);
    // Replay refused the call, so nothing of its recording streamed: no phases drawn.
    expect(data.sessions[0]?.modelCalls[1]?.phases).toEqual([]);
    const index = embeddedData<ReportIndexData>((await readReportPage(join(dir, 'index.html'))).html);
    expect(index.scenarios).toEqual([
      expect.objectContaining({ name: 'spawn-one', passed: false, firstFailure: 'REQUEST_MISMATCH' }),
    ]);
  });

  it('draws a record run too, from the calls it just recorded', async () => {
    const dir = join(temp, 'record');
    const io = memoryIo({ NO_COLOR: '1' });
    expect(await main(['record', 'hello-child', '--recordings', join(temp, 'recorded'), '--report', dir], io)).toBe(0);
    const data = await page(dir, 'hello-child');
    expect(data.scenario).toMatchObject({ kind: 'record', passed: true, timing: 'run', modelCalls: 3 });
    expect(
      data.sessions.map((s) => [s.lineage, s.modelCalls.length, s.modelCalls.every((call) => call.request !== null)]),
    ).toEqual([
      ['main', 2, true],
      ['main/call_hello', 1, true],
    ]);
  });

  it('refuses to write a report that holds the value of a key-like variable, and writes nothing', async () => {
    const dir = join(temp, 'secret');
    const io = memoryIo({ NO_COLOR: '1', PEAK_TOKEN: 'Kilimanjaro' });

    // `show`: a run's worker refuses the session log itself (SECRET_IN_RECORDING) before a report could hold it.
    await expect(main(['show', 'background', '--report', dir], io)).resolves.toBe(1);

    expect(io.err()).toContain('SECRET_IN_REPORT: Refusing to write the report');
    expect(io.err()).toContain('the PEAK_TOKEN environment variable appears verbatim in background.html');
    await expect(access(dir)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('nestcast show', () => {
  it('draws every recording on its recorded timing without running it, under 2 MB for all of them', async () => {
    const dir = join(temp, 'show');
    const names = await listScenarios('scenarios');
    expect(names.length).toBeGreaterThanOrEqual(16);
    for (const name of names) {
      const io = memoryIo();
      expect(await main(['show', name, '--report', dir], io), io.err()).toBe(0);
      expect(io.out()).toBe(`${join(dir, `${name}.html`)}\n`);
      const data = await page(dir, name);
      const cassette = await loadCassette(join(REPO, 'recordings', name));
      const transcripts = await readTranscripts(join(REPO, 'recordings', name, 'transcripts'));
      expect(data.scenario).toMatchObject({ kind: 'recording', passed: null, timing: 'recorded' });
      expect(data.sessions.map((s) => s.lineage)).toEqual(transcripts.map((t) => t.header.lineage));
      expect(data.sessions.reduce((sum, s) => sum + s.modelCalls.length, 0)).toBe(data.scenario.modelCalls);
      // Each model call lasts exactly as long as its recorded stream.
      for (const session of data.sessions) {
        session.modelCalls.forEach((call) => {
          const recorded = cassette.calls[session.lineage]?.[call.call - 1];
          expect(recorded, `${name} ${session.lineage} call ${call.call}`).toBeDefined();
          if (recorded && call.finish !== 'aborted')
            expect(call.end - call.start).toBe(readCallStream(recorded).duration);
        });
      }
    }
    const sizes = await Promise.all((await readdir(dir)).map(async (file) => (await stat(join(dir, file))).size));
    expect(sizes.length).toBe(names.length + 1);
    expect(sizes.reduce((a, b) => a + b, 0)).toBeLessThan(2 * 1024 * 1024);

    // A foreground child runs inside its tool call; a background one past it, until task_output collects it.
    const nested = await page(dir, 'spawn-one');
    const child = lane(nested, 'main/call_capital');
    const starter = lane(nested, 'main').toolCalls.find((tool) => tool.callId === 'call_capital');
    expect(starter?.start).toBe(child.start);
    expect(starter?.end).toBe(child.end);
    // Parallel children start together, when the call that asked for both has streamed.
    const parallel = await page(dir, 'parallel');
    const first = lane(parallel, 'main').modelCalls[0];
    expect([lane(parallel, 'main/call_iceland').start, lane(parallel, 'main/call_malta').start]).toEqual([
      first?.end,
      first?.end,
    ]);
    expect(lane(parallel, 'main').modelCalls[1]?.start).toBe(
      Math.max(lane(parallel, 'main/call_iceland').end, lane(parallel, 'main/call_malta').end),
    );
    const background = await page(dir, 'background');
    const task = lane(background, 'main').tasks[0];
    const collect = lane(background, 'main').toolCalls.find((tool) => tool.name === 'task_output');
    expect(task?.end).toBe(lane(background, 'main/call_peak').end);
    expect(collect?.end).toBe(task?.end);
    expect(lane(background, 'main').toolCalls.find((tool) => tool.callId === 'call_peak')?.end).toBe(task?.start);
  });

  it('fails with REPORT_NOT_WRITTEN when the report folder is a file', async () => {
    const file = join(temp, 'a-file');
    await writeFile(file, 'not a folder');
    const io = memoryIo();
    expect(await main(['show', 'spawn-one', '--report', file], io)).toBe(1);
    expect(io.err()).toContain(`REPORT_NOT_WRITTEN: Could not write the report to ${file}`);
    expect(await readFile(file, 'utf8')).toBe('not a folder');
  });

  it('tells its user how to record a recording that does not exist', async () => {
    const io = memoryIo();
    expect(await main(['show', 'nothing-here', '--recordings', temp, '--report', join(temp, 'none')], io)).toBe(1);
    expect(io.err()).toContain('CASSETTE_NOT_FOUND');
    expect(io.err()).toContain('nestcast record nothing-here');
  });
});

describe('the embedded data', () => {
  it('of a run that left no sessions still shows its failures, on an empty axis', () => {
    const data = buildReportData({
      name: 'unscripted',
      kind: 'replay',
      passed: false,
      durationMs: 3,
      source: 'none',
      timing: 'run',
      sessions: [],
      modelCalls: 0,
      failures: [
        {
          code: 'CASSETTE_NOT_FOUND',
          message: 'unscripted: No recording. Record one with: nestcast record unscripted',
        },
      ],
    });
    expect(checkReportData(data)).toMatchObject({ ok: true });
    expect(data).toMatchObject({ span: 0, sessions: [], failures: [{ code: 'CASSETTE_NOT_FOUND' }] });
    expect(renderScenarioPage(data)).toContain('Record one with: nestcast record unscripted');
  });

  it('reads back unchanged from the page whatever the strings hold, and never closes its script element', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(fc.string({ unit: 'grapheme' }), fc.constantFrom('</script>', '<!--', '\u2028', '</SCRIPT', ']]>')),
        ),
        (strings) => {
          const html = `<script type="application/json" id="nestcast-report">${embedJson({ strings })}</script>`;
          // HTML ends a script at `</script` in ASCII case only; toLowerCase would shift indices ('İ' → 'i̇').
          expect(html.search(/<\/script/i)).toBe(html.length - '</script>'.length);
          expect(embeddedData<{ strings: string[] }>(html).strings).toEqual(strings);
        },
      ),
      { numRuns: 300 },
    );
  });
});
