import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyScenario } from '../../test/support/scenario-copies.js';
import { makeTempDir, removeTempDir } from '../../test/support/temp-dir.js';
import { CassetteError } from '../errors/cassette-error.js';
import type { CliIo } from '../cli/io.js';
import { main } from '../cli/main.js';
import { jsonReporter } from '../cli/reporters/json-reporter.js';
import { junitReporter } from '../cli/reporters/junit-reporter.js';
import { loadScenario } from './load-scenarios.js';
import { createMemoryLogger } from '../../harness/runtime/logger.js';
import { progressLine } from '../cli/scenario-table.js';
import { paint } from '../cli/io.js';
import { assertScenarioPassed, runScenario, type ScenarioReport } from './run-scenario.js';
import { ScenarioError } from './scenario-error.js';
import type { ScenarioFailureCode } from './scenario-failure.js';
import { childrenFromBuiltCli } from '../../test/support/built-cli.js';

// The workers `main` starts run from the build: the file proves the commands, not the sources' loader.
childrenFromBuiltCli();

let temp: string;
let dirs: { scenariosDir: string; recordingsDir: string };

/** Scenario name → the code its run fails with first: one of each kind a replay meets. */
const FIRST_CODE: Readonly<Record<string, ScenarioFailureCode>> = {
  'prompt-edited': 'REQUEST_MISMATCH',
  'transcript-edited': 'TRANSCRIPT_MISMATCH',
  'expects-more': 'EXPECTATION_FAILED',
  'over-its-limit': 'SCENARIO_TIMEOUT',
};

/** A scenario whose main agent calls one tool, `execute` given as source text. */
function toolScenario(name: string, execute: string, extra = ''): string {
  return `export default {
  name: '${name}',
  description: 'calls a tool',
  tools: [{ name: 'act', description: 'acts', parameters: { type: 'object', properties: {} }, execute: ${execute} }],
  steps: [{ prompt: 'act' }],
  script: { lineages: { main: [{ toolCalls: [{ id: 'c1', name: 'act', args: {} }] }, { text: 'done' }] } },
  ${extra}
};
`;
}

beforeAll(async () => {
  temp = await makeTempDir('scenario-failures-');
  dirs = { scenariosDir: join(temp, 'scenarios'), recordingsDir: join(temp, 'recordings') };
  await mkdir(dirs.scenariosDir, { recursive: true });
  await mkdir(dirs.recordingsDir, { recursive: true });
  await copyScenario('hello-child', 'prompt-edited', dirs, (source) =>
    source.replace('Ask a helper to say hello.', 'Ask a helper to say hi.'),
  );
  await copyScenario('hello-child', 'transcript-edited', dirs);
  const transcript = join(dirs.recordingsDir, 'transcript-edited', 'transcripts', 'main.jsonl');
  await writeFile(
    transcript,
    (await readFile(transcript, 'utf8')).replace('The helper says: Hello!', 'The helper says: Howdy!'),
  );
  await copyScenario('hello-child', 'expects-more', dirs, (source) => source.replace('sessions: 2,', 'sessions: 3,'));
  // Ends only when its call is aborted: only the scenario's time limit stops the run. The interval
  // keeps the event loop busy, as real work would, so the run is not merely stalled (SCENARIO_STALLED).
  const untilAborted =
    "(_args, { signal }) => new Promise((resolve) => { const busy = setInterval(() => {}, 1000); signal.addEventListener('abort', () => { clearInterval(busy); resolve('aborted'); }); })";
  await writeFile(
    join(dirs.scenariosDir, 'over-its-limit.scenario.ts'),
    toolScenario('over-its-limit', untilAborted, 'timeout: 0.05,'),
  );
});
afterAll(async () => {
  await removeTempDir(temp);
});

async function replay(name: string): Promise<ScenarioReport> {
  return runScenario(await loadScenario(dirs.scenariosDir, name), { recordingsDir: dirs.recordingsDir });
}

function thrownBy(report: ScenarioReport): ScenarioError {
  try {
    assertScenarioPassed(report);
  } catch (error) {
    return error as ScenarioError;
  }
  throw new Error(`${report.name} passed`);
}

describe('every failure keeps its own code', () => {
  it('assertScenarioPassed throws the first failure’s own code (REQUEST_MISMATCH stays REQUEST_MISMATCH) with its error as cause, and the JSON and JUnit reports name the same codes', async () => {
    const reports = [];
    for (const name of Object.keys(FIRST_CODE)) reports.push(await replay(name));

    for (const report of reports) {
      const error = thrownBy(report);
      expect(error).toBeInstanceOf(ScenarioError);
      expect([report.name, error.code]).toEqual([report.name, FIRST_CODE[report.name]]);
      expect(error.message).toContain(`[${error.code}] ${report.name}: `);
    }
    const mismatch = thrownBy(reports[0] as ScenarioReport);
    expect(mismatch.cause).toBeInstanceOf(CassetteError);
    expect((mismatch.cause as CassetteError).code).toBe('REQUEST_MISMATCH');

    const json = JSON.parse(jsonReporter({ reports, startedAt: '2026-12-01T09:00:00.000Z', durationMs: 1 }));
    expect(
      json.results.map((result: { name: string; failures: { code: string }[] }) => [
        result.name,
        result.failures[0]?.code,
      ]),
    ).toEqual(Object.entries(FIRST_CODE));
    const junit = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(
      junitReporter({ reports, startedAt: '2026-12-01T09:00:00.000Z', durationMs: 1 }),
    );
    expect(
      junit.testsuites.testsuite.testcase.map((test: { name: string; failure: { type: string } }) => [
        test.name,
        test.failure.type,
      ]),
    ).toEqual(Object.entries(FIRST_CODE));
  });

  it('a failed record keeps the failure’s own code first and adds NOT_SAVED after it', async () => {
    const report = await runScenario(await loadScenario(dirs.scenariosDir, 'expects-more'), {
      mode: 'record',
      recordingsDir: join(temp, 'fresh'),
    });
    expect(report.failures.map((failure) => failure.code)).toEqual(['EXPECTATION_FAILED', 'NOT_SAVED']);
    expect(thrownBy(report).code).toBe('EXPECTATION_FAILED');
  });

  it('nestcast run prints each scenario’s failure under its own code, and a process.exit in a tool as SCENARIO_EXIT, and exits 1', async () => {
    await writeFile(join(dirs.scenariosDir, 'exits.scenario.ts'), toolScenario('exits', '() => { process.exit(0); }'));
    let out = '';
    const io: CliIo = {
      stdout: (text) => void (out += text),
      stderr: (text) => void (out += text),
      env: { NO_COLOR: '1' },
      cwd: temp,
      color: false,
    };
    const code = await main(
      ['run', '--scenarios', dirs.scenariosDir, '--recordings', dirs.recordingsDir, '--workers', '1'],
      io,
    );
    expect(code).toBe(1);
    for (const [name, first] of [...Object.entries(FIRST_CODE), ['exits', 'SCENARIO_EXIT']]) {
      expect(out).toMatch(new RegExp(`✗ ${name}[^\\n]*\\n {4}${first} ${name}: `));
    }
    expect(out).toContain('5 of 5 scenarios failed');
  });
});

describe('the logger option', () => {
  let crashDirs: { scenariosDir: string; recordingsDir: string };
  beforeAll(async () => {
    crashDirs = { scenariosDir: join(temp, 'crash-scenarios'), recordingsDir: join(temp, 'crash-recordings') };
    await mkdir(crashDirs.scenariosDir, { recursive: true });
    await mkdir(crashDirs.recordingsDir, { recursive: true });
  });

  it('a failed run without a logger carries what the harness logged (a crashed ACP child) in its report, its printed failure and the thrown error; a given logger gets the lines instead', async () => {
    await copyScenario('acp-child-crash', 'crash-unmet', crashDirs, (source) =>
      source.replace('sessions: 1,', 'sessions: 2,'),
    );
    const scenario = await loadScenario(crashDirs.scenariosDir, 'crash-unmet');

    const report = await runScenario(scenario, { recordingsDir: crashDirs.recordingsDir });
    expect(report.failures.map((failure) => failure.code)).toEqual(['EXPECTATION_FAILED']);
    expect(report.log).toEqual(
      expect.arrayContaining([expect.stringMatching(/^warn: .*child run failed: .*exited with code 3/)]),
    );
    const line = (report.log ?? []).find((entry) => entry.includes('child run failed')) as string;
    expect(progressLine(report, paint(false))).toContain(`harness log:\n      ${line}`);
    expect(thrownBy(report).message).toContain(`harness log:\n${line}`);

    const logger = createMemoryLogger();
    const given = await runScenario(scenario, { recordingsDir: crashDirs.recordingsDir, logger });
    expect(given.passed).toBe(false);
    expect(given.log).toBeUndefined();
    expect(logger.lines).toContain(line);
  });

  it('a passing run carries no log, even when the harness logged (the crash is what the scenario expects)', async () => {
    await copyScenario('acp-child-crash', 'crash-expected', crashDirs);
    const report = await runScenario(await loadScenario(crashDirs.scenariosDir, 'crash-expected'), {
      recordingsDir: crashDirs.recordingsDir,
    });
    expect([report.passed, report.log]).toEqual([true, undefined]);
  });
});
