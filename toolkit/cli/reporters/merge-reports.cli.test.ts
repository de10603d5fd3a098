import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyScenario } from '../../../test/support/scenario-copies.js';
import { makeTempDir, removeTempDir } from '../../../test/support/temp-dir.js';
import type { CliIo } from '../io.js';
import { main } from '../main.js';
import { childrenFromBuiltCli } from '../../../test/support/built-cli.js';

// The workers `main` starts run from the build: the file proves the commands, not the sources' loader.
childrenFromBuiltCli();

// A suite split over four CI machines, merged: the same report as one machine running it all.
let project: string;
const SCENARIOS = ['hello-child', 'spawn-one', 'nested', 'fork', 'parallel'];

beforeAll(async () => {
  project = await makeTempDir('merge-reports-');
  const dirs = { scenariosDir: join(project, 'scenarios'), recordingsDir: join(project, 'recordings') };
  await mkdir(dirs.scenariosDir, { recursive: true });
  await mkdir(dirs.recordingsDir, { recursive: true });
  for (const name of SCENARIOS) await copyScenario(name, name, dirs);
  // One failing scenario, so that a headline and its consequences cross the merge too.
  await copyScenario('hello-child', 'hello-edited', dirs, (source) =>
    source.replace('Ask a helper to say hello.', 'Ask a helper to say hi.'),
  );
});
afterAll(async () => {
  await removeTempDir(project);
});

async function nestcast(args: readonly string[]): Promise<{ code: number; out: string }> {
  let out = '';
  const io: CliIo = {
    stdout: (text) => void (out += text),
    stderr: (text) => void (out += text),
    env: { NO_COLOR: '1' },
    cwd: project,
    color: false,
  };
  return { code: await main([...args], io), out };
}

/** A JSON report without its times, which differ from run to run. */
function timeless(json: string): unknown {
  return JSON.parse(json, (key, value: unknown) => (key === 'durationMs' || key === 'startedAt' ? 0 : value));
}

/** JUnit XML without its times and timestamp. */
function timelessXml(xml: string): unknown {
  return new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(
    xml.replace(/ time="[\d.]+"/g, '').replace(/ timestamp="[^"]*"/g, ''),
  );
}

describe('nestcast merge-reports', () => {
  it('merges the JSON reports of four shards into the JSON and JUnit reports of the unsharded run, times aside, and an index of every scenario', async () => {
    const whole = await nestcast(['run', '--workers', '2', '--reporter', 'json', '--output', 'whole.json']);
    expect(whole.code).toBe(1);
    await nestcast(['run', '--workers', '2', '--reporter', 'junit', '--output', 'whole.xml']);
    const shards = [];
    for (let index = 1; index <= 4; index++) {
      const file = `shard-${index}.json`;
      await nestcast(['run', '--workers', '2', '--shard', `${index}/4`, '--reporter', 'json', '--output', file]);
      shards.push(file);
    }

    const merged = await nestcast([
      'merge-reports',
      ...shards,
      '--json',
      'merged.json',
      '--junit',
      'merged.xml',
      '--html',
      'html',
    ]);

    expect(merged.code).toBe(1);
    const wholeJson = await readFile(join(project, 'whole.json'), 'utf8');
    expect(timeless(await readFile(join(project, 'merged.json'), 'utf8'))).toEqual(timeless(wholeJson));
    expect(timelessXml(await readFile(join(project, 'merged.xml'), 'utf8'))).toEqual(
      timelessXml(await readFile(join(project, 'whole.xml'), 'utf8')),
    );
    const failed = JSON.parse(wholeJson).results.find((result: { name: string }) => result.name === 'hello-edited');
    expect(failed.file).toBe('scenarios/hello-edited.scenario.ts');
    expect(failed.failures.map((failure: { code: string }) => failure.code)).toEqual(['REQUEST_MISMATCH']);
    const index = await readFile(join(project, 'html', 'index.html'), 'utf8');
    for (const name of [...SCENARIOS, 'hello-edited']) expect(index).toContain(`<a href="${name}.html">${name}</a>`);
    expect(index).toContain('6 scenarios: 5 passed, 1 failed');
  }, 240_000);

  it('refuses a file that is not a JSON run report, and a scenario found in two reports, naming the files', async () => {
    await writeFile(join(project, 'not-a-report.json'), '{"format":"something-else"}');
    const wrong = await nestcast(['merge-reports', 'not-a-report.json']);
    expect(wrong.code).not.toBe(0);
    expect(wrong.out).toContain('REPORT_INPUT_INVALID');
    expect(wrong.out).toContain('not-a-report.json is not a nestcast JSON report of version 2');

    await nestcast(['run', 'spawn-one', '--reporter', 'json', '--output', 'a.json']);
    await nestcast(['run', 'spawn-one', '--reporter', 'json', '--output', 'b.json']);
    const twice = await nestcast(['merge-reports', 'a.json', 'b.json']);
    expect(twice.out).toContain('Scenario "spawn-one" is in both a.json and b.json');
    expect(twice.code).not.toBe(0);
  }, 120_000);
});
