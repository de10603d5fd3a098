import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, removeTempDir } from '../../../test/support/temp-dir.js';
import type { CliIo } from '../../cli/io.js';
import { main } from '../../cli/main.js';
import { checkReportData } from '../../report/report-schema.js';
import { readReportPage } from '../../report/testing/read-report-page.js';
import type { ReportData } from '../../report/types.js';
import { childrenFromBuiltCli } from '../../../test/support/built-cli.js';

// The workers `main` starts run from the build: the file proves the commands, not the sources' loader.
childrenFromBuiltCli();

const NAME = 'agents-sdk-parallel';

function io(): CliIo & { out: () => string } {
  let out = '';
  return {
    stdout: (text) => void (out += text),
    stderr: (text) => void (out += text),
    env: { NO_COLOR: '1' },
    cwd: process.cwd(),
    color: false,
    out: () => out,
  };
}

async function page(dir: string): Promise<ReportData> {
  const { data } = await readReportPage<unknown>(join(dir, `${NAME}.html`));
  const checked = checkReportData(data);
  if (!checked.ok) throw new Error(checked.problem);
  return checked.value;
}

/** The lanes of a page: lineage, the lineage of its parent lane, and how many model and tool calls it drew. */
function lanes(data: ReportData): unknown[] {
  const lineageOf = new Map(data.sessions.map((session) => [session.id, session.lineage]));
  return data.sessions.map((session) => ({
    lineage: session.lineage,
    parent: session.parent === null ? null : lineageOf.get(session.parent),
    modelCalls: session.modelCalls.length,
    toolCalls: session.toolCalls.length,
  }));
}

const DERIVED_LANES = [
  { lineage: 'main', parent: null, modelCalls: 2, toolCalls: 2 },
  { lineage: 'main/call_tides', parent: 'main', modelCalls: 2, toolCalls: 1 },
  { lineage: 'main/call_tides/call_period', parent: 'main/call_tides', modelCalls: 1, toolCalls: 0 },
  { lineage: 'main/call_sum', parent: 'main', modelCalls: 1, toolCalls: 0 },
];

let temp: string;
beforeAll(async () => {
  temp = await makeTempDir('program-cli-');
});
afterAll(async () => {
  await removeTempDir(temp);
});

describe(`the CLI on the program scenario ${NAME}`, () => {
  it('run --report draws the derived session tree as lanes, children under their parents', async () => {
    const dir = join(temp, 'run-report');
    const run = io();
    expect(await main(['run', NAME, '--report', dir], run), run.out()).toBe(0);
    const data = await page(dir);
    expect(data.scenario).toMatchObject({ kind: 'replay', passed: true, modelCalls: 6 });
    expect(lanes(data)).toEqual(DERIVED_LANES);
  });

  it('show draws its recording on its recorded timing with the same lanes', async () => {
    const dir = join(temp, 'show');
    const show = io();
    expect(await main(['show', NAME, '--report', dir], show), show.out()).toBe(0);
    expect(lanes(await page(dir))).toEqual(DERIVED_LANES);
  });

  it('--grep and --shard select it by name like any scenario, and the JSON reporter reports its sessions', async () => {
    const file = join(temp, 'report.json');
    const run = io();
    expect(
      await main(['run', '--grep', '^agents-sdk', '--shard', '1/1', '--reporter', 'json', '--output', file], run),
      run.out(),
    ).toBe(0);
    const report = JSON.parse(await readFile(file, 'utf8')) as { results: { name: string; sessions: number }[] };
    // `^agents-sdk` selects both Agents SDK scenarios: the chat-completions one and this one.
    expect(report.results.map(({ name, sessions }) => ({ name, sessions }))).toEqual([
      { name: 'agents-sdk-chat', sessions: 3 },
      { name: NAME, sessions: 4 },
    ]);
  });

  it('inspect lists its derived sessions', async () => {
    const inspect = io();
    expect(await main(['inspect', join('recordings', NAME)], inspect), inspect.out()).toBe(0);
    for (const lane of DERIVED_LANES) expect(inspect.out()).toContain(lane.lineage);
  });
});
