import { describe, expect, test } from 'vitest';
import { loadScenarios } from '../scenarios/load-scenarios.js';
import { runScenario } from '../scenarios/run-scenario.js';
import { isProgramScenario, type HarnessScenario, type ScenarioProvider } from '../scenarios/types.js';

async function scenario(name: string): Promise<HarnessScenario> {
  const found = (await loadScenarios('scenarios', [name]))[0];
  if (!found || isProgramScenario(found)) throw new Error(`harness scenario ${name} is missing`);
  return found;
}

/** The scenario with its ACP provider changed by `change`. */
function withProvider(
  definition: HarnessScenario,
  change: Partial<Extract<ScenarioProvider, { kind: 'acp' }>>,
): HarnessScenario {
  return {
    ...definition,
    providers: (definition.providers ?? []).map((provider) =>
      provider.kind === 'acp' ? { ...provider, ...change } : provider,
    ),
  };
}

describe.concurrent('scenarios with a protocol-cassette ACP child', () => {
  test('acp-python-child replays from its committed recording with its command gone from the system', async () => {
    const report = await runScenario(
      withProvider(await scenario('acp-python-child'), { command: '/no/such/dir/python3' }),
      { mode: 'replay' },
    );
    expect(report.failures).toEqual([]);
    expect(report.passed).toBe(true);
  });

  test('a client that answers the recorded permission request otherwise fails the scenario at the first divergence', async () => {
    const report = await runScenario(withProvider(await scenario('acp-python-permission'), { permission: 'reject' }), {
      mode: 'replay',
    });
    expect(report.passed).toBe(false);
    expect(report.failures.map((failure) => failure.code)).toContain('ACP_REQUEST_MISMATCH');
    expect(report.failures.find((failure) => failure.code === 'ACP_REQUEST_MISMATCH')?.message).toMatch(
      /acp\/main\/call_py\.json\) does not match the recording at result\.outcome/,
    );
  });
});
