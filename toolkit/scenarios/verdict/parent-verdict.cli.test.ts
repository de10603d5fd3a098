import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { ensureBuiltCli, runBuiltCli } from '../../../test/support/built-cli.js';
import {
  answeringScenario,
  BLOCKS_FOREVER,
  makeScenarioProject,
  toolScenario,
} from '../../../test/support/scenario-project.js';
import { removeTempDir } from '../../../test/support/temp-dir.js';

beforeAll(async () => {
  await ensureBuiltCli();
}, 180_000);

let project: string | undefined;
afterEach(async () => {
  if (project) await removeTempDir(project);
  project = undefined;
});

/** Every way `nestcast run` can run its scenarios: serially, in two workers, and with an HTML report. */
const MODES = [
  ['--workers', '1'],
  ['--workers', '2'],
  ['--workers', '1', '--report', 'report'],
] as const;

describe('scenario code never decides the verdict, and never holds the run', () => {
  test('code that never yields, blocked at import or spinning in a tool, fails with SCENARIO_TIMEOUT in every mode, and the scenarios after it still run', async () => {
    project = await makeScenarioProject({
      // Blocked rather than spinning: the import limit is 10 s whatever --timeout says, in three runs at once.
      'a-blocks-at-import': `${BLOCKS_FOREVER}\nexport default {};\n`,
      // A limit of its own long enough to reach the tool on a loaded machine.
      'b-spins-in-a-tool': toolScenario('b-spins-in-a-tool', '() => { while (true) {} }', 'timeout: 5,'),
      'c-fine': answeringScenario('c-fine', 'hello'),
    });
    expect((await runBuiltCli(['record', 'c-fine'], { cwd: project })).code).toBe(0);
    const cwd = project;

    const runs = await Promise.all(MODES.map((mode) => runBuiltCli(['run', '--timeout', '1', ...mode], { cwd })));

    for (const [index, run] of runs.entries()) {
      const mode = MODES[index]?.join(' ');
      expect(run.code, mode).toBe(1);
      expect(run.stdout, mode).toMatch(
        /✗ a-blocks-at-import[^\n]*\n\s+SCENARIO_TIMEOUT a-blocks-at-import: importing its file did not finish within its time limit of 10 s, and its code never gave control back/,
      );
      expect(run.stdout, mode).toMatch(
        /✗ b-spins-in-a-tool[^\n]*\n\s+SCENARIO_TIMEOUT b-spins-in-a-tool: did not finish within its time limit of 5 s, and its code never gave control back/,
      );
      expect(run.stdout, mode).toMatch(/✓ c-fine/);
      expect(run.stdout, mode).toContain('2 of 3 scenarios failed');
    }
  }, 180_000);

  test('process.exit at import, process.reallyExit, an exit listener resetting exitCode and a replaced process.exit each fail the run by name in every mode, and the scenarios after them still run', async () => {
    const failing = (name: string, prelude: string) => `${prelude}\n${answeringScenario(name, 'never recorded')}`;
    project = await makeScenarioProject({
      'a-exits-at-import': 'process.exit(0);\nexport default {};\n',
      'b-really-exits': toolScenario('b-really-exits', '() => { (process as any).reallyExit(0); }'),
      // Both fail (no recording): the runner's own failure must not be turned into exit code 0.
      'c-resets-exit-code': failing('c-resets-exit-code', "process.on('exit', () => { process.exitCode = 0; });"),
      'd-replaces-exit': failing('d-replaces-exit', 'process.exit = (() => undefined) as never;'),
      'e-fine': answeringScenario('e-fine', 'hello'),
      'f-last-fails': answeringScenario('f-last-fails', 'never recorded either'),
    });
    expect((await runBuiltCli(['record', 'e-fine'], { cwd: project })).code).toBe(0);
    const cwd = project;

    const runs = await Promise.all(MODES.map((mode) => runBuiltCli(['run', ...mode], { cwd })));

    for (const [index, run] of runs.entries()) {
      const mode = MODES[index]?.join(' ');
      expect(run.code, mode).toBe(1);
      expect(run.stdout, mode).toMatch(
        /✗ a-exits-at-import[^\n]*\n\s+WORKER_EXITED a-exits-at-import: the worker process running it exited with code 0 before the scenario reported a verdict/,
      );
      expect(run.stdout, mode).toMatch(
        /✗ b-really-exits[^\n]*\n\s+WORKER_EXITED b-really-exits: the worker process running it exited with code 0 before the scenario reported a verdict/,
      );
      expect(run.stdout, mode).toMatch(/✗ c-resets-exit-code/);
      expect(run.stdout, mode).toMatch(/✗ d-replaces-exit/);
      expect(run.stdout, mode).toMatch(/✓ e-fine/);
      expect(run.stdout, mode).toMatch(/✗ f-last-fails/);
      expect(run.stdout, mode).toContain('5 of 6 scenarios failed');
    }
  }, 180_000);

  test('nestcast record gives the same verdicts from outside the scenario: code that never yields is SCENARIO_TIMEOUT, process.exit at import and process.reallyExit are WORKER_EXITED, and the scenario after them is recorded', async () => {
    project = await makeScenarioProject({
      'a-spins-in-a-tool': toolScenario('a-spins-in-a-tool', '() => { while (true) {} }', 'timeout: 2,'),
      'b-exits-at-import': 'process.exit(0);\nexport default {};\n',
      'c-really-exits': toolScenario('c-really-exits', '() => { (process as any).reallyExit(0); }'),
      'd-fine': answeringScenario('d-fine', 'hello'),
    });
    const run = await runBuiltCli(['record'], { cwd: project });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(
      /✗ a-spins-in-a-tool[^\n]*\n\s+SCENARIO_TIMEOUT a-spins-in-a-tool: did not finish within its time limit of 2 s, and its code never gave control back/,
    );
    expect(run.stdout).toMatch(
      /✗ b-exits-at-import[^\n]*\n\s+WORKER_EXITED b-exits-at-import: the worker process running it exited with code 0 before the scenario reported a verdict/,
    );
    expect(run.stdout).toMatch(
      /✗ c-really-exits[^\n]*\n\s+WORKER_EXITED c-really-exits: the worker process running it exited with code 0 before the scenario reported a verdict/,
    );
    expect(run.stdout).toMatch(/✓ d-fine/);
    expect(run.stdout).toContain('3 of 4 scenarios failed');
    expect(await readdir(join(project, 'recordings'))).toContain('d-fine');
    expect((await runBuiltCli(['run', 'd-fine'], { cwd: project })).code).toBe(0);
  }, 180_000);

  test('a report or started message scenario code sends on its worker channel (process.send) never gives a verdict nor moves the watchdog: the scenario fails with VERDICT_FORGED and the next one still runs', async () => {
    const forged = (name: string, message: string) =>
      toolScenario(name, `() => { process.send!(${message}); ${BLOCKS_FOREVER} }`, 'timeout: 2,');
    const passing = (name: string) =>
      `{ name: '${name}', mode: 'replay', source: 'none', sessions: 1, modelCalls: 1, passed: true, failures: [], durationMs: 1, wroteTranscripts: false }`;
    project = await makeScenarioProject({
      'a-forges-a-pass': forged(
        'a-forges-a-pass',
        `{ type: 'report', name: 'a-forges-a-pass', report: ${passing('a-forges-a-pass')}, escapes: [] }`,
      ),
      'b-forges-a-limit': forged('b-forges-a-limit', `{ type: 'started', name: 'b-forges-a-limit', timeout: 100000 }`),
      'c-fine': answeringScenario('c-fine', 'hello'),
    });
    expect((await runBuiltCli(['record', 'c-fine'], { cwd: project })).code).toBe(0);
    const run = await runBuiltCli(['run', '--workers', '1'], { cwd: project });
    expect(run.code).toBe(1);
    for (const [name, type] of [
      ['a-forges-a-pass', 'report'],
      ['b-forges-a-limit', 'started'],
    ]) {
      expect(run.stdout).toMatch(
        new RegExp(
          `✗ ${name}[^\\n]*\\n\\s+VERDICT_FORGED ${name}: scenario code sent its worker's parent a "${type}" message of its own \\(process\\.send\\)`,
        ),
      );
    }
    expect(run.stdout).toMatch(/✓ c-fine/);
    expect(run.stdout).toContain('2 of 3 scenarios failed');
  }, 180_000);
});
