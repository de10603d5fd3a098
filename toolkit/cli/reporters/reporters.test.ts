import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BaseSequencer, type TestSpecification, type Vitest } from 'vitest/node';
import { makeTempDir, removeTempDir } from '../../../test/support/temp-dir.js';
import { listScenarios } from '../../scenarios/load-scenarios.js';
import type { ScenarioReport } from '../../scenarios/run-scenario.js';
import { narrowScenarios } from '../../scenarios/select-scenarios.js';
import type { CliIo } from '../io.js';
import { main } from '../main.js';
import { jsonReporter } from './json-reporter.js';
import { junitReporter, xml } from './junit-reporter.js';
import { childrenFromBuiltCli } from '../../../test/support/built-cli.js';

// The workers `main` starts run from the build: the file proves the commands, not the sources' loader.
childrenFromBuiltCli();

/** What vitest itself would pick for `--shard index/count` if each name were a test file at the root. */
async function vitestShard(names: readonly string[], index: number, count: number): Promise<string[]> {
  const sequencer = new BaseSequencer({ config: { root: '/r/', shard: { index, count } } } as unknown as Vitest);
  const specs = names.map((name) => ({ moduleId: `/r/${name}` }) as TestSpecification);
  return (await sequencer.shard(specs)).map((spec) => spec.moduleId.slice('/r/'.length));
}

const names = fc.uniqueArray(fc.stringMatching(/^[a-z][a-z0-9-]{0,11}$/), { minLength: 1, maxLength: 40 });

describe('selecting scenarios', () => {
  it('--shard i/n picks exactly what vitest --shard picks, and the shards partition the suite', async () => {
    await fc.assert(
      fc.asyncProperty(names, fc.integer({ min: 1, max: 7 }), async (all, count) => {
        const shards = [];
        for (let index = 1; index <= count; index++) {
          const ours = narrowScenarios(all, { shard: { index, count } });
          expect(new Set(ours)).toEqual(new Set(await vitestShard(all, index, count)));
          shards.push(ours);
        }
        expect(shards.flat().sort()).toEqual([...all].sort());
      }),
      { numRuns: 150 },
    );
  });

  it('--grep keeps the names its regular expression matches, before sharding', () => {
    const all = ['acp-child', 'acp-child-crash', 'fork', 'nested'];
    expect(narrowScenarios(all, { grep: '^acp' })).toEqual(['acp-child', 'acp-child-crash']);
    expect(narrowScenarios(all, { grep: 'crash|fork', shard: { index: 1, count: 1 } })).toEqual([
      'acp-child-crash',
      'fork',
    ]);
    expect(() => narrowScenarios(all, { grep: '(' })).toThrow(/--grep "\(" is not a regular expression/);
  });
});

const passing: ScenarioReport = {
  name: 'hello-child',
  mode: 'replay',
  source: 'recording at recordings/hello-child',
  sessions: 2,
  modelCalls: 3,
  passed: true,
  failures: [],
  durationMs: 21.4,
  wroteTranscripts: false,
};
const failing = (message: string): ScenarioReport => ({
  ...passing,
  name: 'fork',
  passed: false,
  failures: [
    { code: 'REQUEST_MISMATCH', message },
    { code: 'EXPECTATION_FAILED', message: 'fork: expected 2 sessions' },
  ],
});

describe('reporters', () => {
  it('JUnit XML is well-formed for any failure text, with one testcase per scenario and the failure code as its type', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), (text) => {
        const report = junitReporter({
          reports: [passing, failing(text)],
          startedAt: '2026-12-01T09:00:00.000Z',
          durationMs: 1234,
        });
        expect(XMLValidator.validate(report)).toBe(true);
        const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(report);
        const suite = parsed.testsuites.testsuite;
        expect([suite.tests, suite.failures, suite.errors]).toEqual(['2', '1', '0']);
        expect(suite.testcase[0]).toMatchObject({ name: 'hello-child', time: '0.021' });
        expect(suite.testcase[1].failure.type).toBe('REQUEST_MISMATCH');
      }),
      { numRuns: 200 },
    );
    expect(xml('a<b & "c"\u0001')).toBe('a&lt;b &amp; &quot;c&quot;\\u0001');
  });

  it('the JSON report has per scenario its verdict, sessions, model calls, duration and failures', () => {
    const report = JSON.parse(
      jsonReporter({ reports: [passing, failing('differs')], startedAt: '2026-12-01T09:00:00.000Z', durationMs: 50 }),
    );
    expect(report.scenarios).toEqual({ total: 2, passed: 1, failed: 1 });
    expect(report.results[1]).toEqual({
      name: 'fork',
      result: 'fail',
      mode: 'replay',
      source: 'recording at recordings/hello-child',
      sessions: 2,
      modelCalls: 3,
      durationMs: 21,
      failures: [
        { code: 'REQUEST_MISMATCH', message: 'differs' },
        { code: 'EXPECTATION_FAILED', message: 'fork: expected 2 sessions' },
      ],
    });
  });
});

describe('nestcast run for CI', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await makeTempDir('reporters-');
  });
  afterEach(async () => {
    await removeTempDir(dir);
  });

  it('--grep with --shard 1/1 and --reporter junit --output writes the report of exactly the selected scenarios, each with its file', async () => {
    let out = '';
    const io: CliIo = {
      stdout: (text) => void (out += text),
      stderr: (text) => void (out += text),
      env: { NO_COLOR: '1' },
      cwd: process.cwd(),
      color: false,
    };
    const file = join(dir, 'ci', 'junit.xml');
    expect(
      await main(
        ['run', '--grep', '^(hello-child|spawn-one)$', '--shard', '1/1', '--reporter', 'junit', '--output', file],
        io,
      ),
    ).toBe(0);
    expect(out).toContain('2 scenarios passed');
    const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(
      await readFile(file, 'utf8'),
    );
    expect(
      parsed.testsuites.testsuite.testcase.map((test: { name: string; file: string }) => [test.name, test.file]),
    ).toEqual([
      ['hello-child', 'scenarios/hello-child.scenario.ts'],
      ['spawn-one', 'scenarios/spawn-one.scenario.ts'],
    ]);
  });

  it('--reporter json without --output prints only the JSON; shards of the real suite split it as vitest would', async () => {
    let out = '';
    const io: CliIo = {
      stdout: (text) => void (out += text),
      stderr: () => undefined,
      env: { NO_COLOR: '1' },
      cwd: process.cwd(),
      color: false,
    };
    const all = await listScenarios('scenarios');
    const second = (await vitestShard(all, 2, 8)).sort();
    expect(await main(['run', '--shard', '2/8', '--reporter', 'json'], io)).toBe(0);
    expect((JSON.parse(out).results as { name: string }[]).map((result) => result.name).sort()).toEqual(second);
    expect(await main(['run', '--shard', '9/8'], io)).toBe(2);
  });

  it('a --grep that is not a regular expression is a usage error, as a bad --shard is: exit 2, said before any scenario is listed', async () => {
    let err = '';
    const io: CliIo = {
      stdout: () => undefined,
      stderr: (text) => void (err += text),
      env: { NO_COLOR: '1' },
      // No scenarios folder here: the option is refused before one is looked for.
      cwd: '/nonexistent-nestcast-dir',
      color: false,
    };
    expect(await main(['run', '--grep', '('], io)).toBe(2);
    expect(err).toContain('--grep "(" is not a regular expression');
    err = '';
    expect(await main(['run', '--shard', '0/3'], io)).toBe(2);
    expect(err).toContain('--shard must be <index>/<count>');
  });
});
