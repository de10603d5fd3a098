import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { ensureBuiltCli, runBuiltCli } from '../../../test/support/built-cli.js';
import { answeringScenario, makeScenarioProject, toolScenario } from '../../../test/support/scenario-project.js';
import { removeTempDir } from '../../../test/support/temp-dir.js';

beforeAll(async () => {
  await ensureBuiltCli();
}, 180_000);

let project: string | undefined;
afterEach(async () => {
  if (project) await removeTempDir(project);
  project = undefined;
});

describe('nestcast run gives every selected scenario a verdict', () => {
  test('a tool that never settles, process.exit in a tool and scenarios over their time limit (--timeout, or their own, which wins) each fail by name, and the scenario after them still runs and passes', async () => {
    // The interval keeps the event loop busy: only the time limit can end these.
    const busyForever = '() => new Promise(() => { setInterval(() => {}, 1000); })';
    project = await makeScenarioProject({
      // Limits of their own far above --timeout: a slow machine must not turn these into timeouts.
      'a-stalls': toolScenario('a-stalls', '() => new Promise(() => {})', 'timeout: 600,'),
      'b-exits': toolScenario('b-exits', '() => { process.exit(0); }', 'timeout: 600,'),
      'c-slow': toolScenario('c-slow', busyForever),
      'd-own-limit': toolScenario('d-own-limit', busyForever, 'timeout: 0.2,'),
      'e-fine': answeringScenario('e-fine', 'hello', 'timeout: 600,'),
    });
    expect((await runBuiltCli(['record', 'e-fine'], { cwd: project })).code).toBe(0);

    const result = await runBuiltCli(['run', '--timeout', '0.3'], { cwd: project });

    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      /✗ a-stalls[^\n]*\n\s+SCENARIO_STALLED a-stalls: stopped with nothing left to wait on[^\n]*Last event of each session: main: tool\/call \(seq \d+\)/,
    );
    expect(result.stdout).toMatch(/✗ b-exits[^\n]*\n\s+SCENARIO_EXIT b-exits: scenario code called process\.exit\(0\)/);
    // Where a timed-out scenario stood depends on how far it got in 0.3 s: only that it says so is fixed.
    expect(result.stdout).toMatch(
      /✗ c-slow[^\n]*\n\s+SCENARIO_TIMEOUT c-slow: did not finish within its time limit of 0\.3 s[^\n]*Last event of each session: (main: [a-z]+\/[a-z]+ \(seq \d+\)|no session was created)/,
    );
    expect(result.stdout).toMatch(
      /✗ d-own-limit[^\n]*\n\s+SCENARIO_TIMEOUT d-own-limit: did not finish within its time limit of 0\.2 s/,
    );
    expect(result.stdout).toMatch(/✓ e-fine/);
    expect(result.stdout).toContain('4 of 5 scenarios failed');
  }, 120_000);

  test('a scenario module whose top-level await never settles fails that scenario instead of exiting 0 with nothing run', async () => {
    project = await makeScenarioProject({ never: `await new Promise(() => {});\nexport default {};\n` });
    const result = await runBuiltCli(['run'], { cwd: project });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      /✗ never[^\n]*\n\s+SCENARIO_STALLED never: importing its file stopped with nothing left to wait on/,
    );
  });

  test('zero scenarios selected exits 1 with NO_SCENARIOS, and 0 with --pass-with-no-scenarios', async () => {
    project = await makeScenarioProject({});
    const refused = await runBuiltCli(['run'], { cwd: project });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('NO_SCENARIOS: No scenarios selected');
    const allowed = await runBuiltCli(['run', '--pass-with-no-scenarios'], { cwd: project });
    expect(allowed.code).toBe(0);
  });
});
