import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { listScenarios, loadScenarios } from '../../toolkit/scenarios/load-scenarios.js';
import { runScenario } from '../../toolkit/scenarios/run-scenario.js';
import { isProgramScenario } from '../../toolkit/scenarios/types.js';
import { makeTempDir, removeTempDir } from '../support/temp-dir.js';
import { loadCassette } from '../../toolkit/cassette/load-cassette.js';

/**
 * The live tier: every scenario recorded against the real API into a temporary folder. A real
 * model chooses its own words and tool-call ids, so this checks structure, not words: the run
 * completes, every call was recorded and saved, the sessions are well formed, and a scenario that
 * offers a subagent tool and asks for delegation got at least one child.
 */
const key = process.env['DEEPSEEK_API_KEY'];
if (key === undefined || key === '') {
  throw new Error(
    'npm run test:live records against the real API: set DEEPSEEK_API_KEY (and DEEPSEEK_BASE_URL / DEEPSEEK_MODEL for another endpoint or model).',
  );
}
const baseUrl = process.env['DEEPSEEK_BASE_URL'] ?? 'https://api.deepseek.com';

let recordings: string;
beforeAll(async () => {
  recordings = await makeTempDir('live-');
});
afterAll(async () => {
  await removeTempDir(recordings);
});

const model = process.env['DEEPSEEK_MODEL'];

// A step that waits for or cancels at a scripted point names a lineage from the script; a real
// model picks its own tool-call ids, so those scenarios are recorded from their scripts only.
// Program scenarios speak their own frameworks' APIs (Responses, Anthropic Messages), not this one.
const scenarios = (await loadScenarios('scenarios', await listScenarios('scenarios'))).filter(
  (scenario) =>
    !isProgramScenario(scenario) &&
    scenario.steps.every((step) => !('waitFor' in step) && !('cancel' in step && step.cancel !== undefined)),
);

describe(`scenarios recorded live against ${baseUrl}`, () => {
  for (const scenario of scenarios) {
    test(scenario.name, async () => {
      // The scenario's expectations name the script's words and tool-call ids: a real model picks its own.
      const report = await runScenario(scenario, {
        mode: 'record',
        recordingsDir: recordings,
        baseUrl,
        ...(model === undefined || model === '' ? {} : { model }),
        env: process.env,
        checkExpectations: false,
      });

      expect(report.failures).toEqual([]);
      const cassette = await loadCassette(`${recordings}/${scenario.name}`);
      expect(cassette.calls['main']?.length ?? 0).toBeGreaterThan(0);
      expect(report.sessions).toBeGreaterThan(0);
      if (
        (scenario.subagentTools ?? []).length > 0 &&
        (scenario.providers ?? []).every((provider) => provider.kind !== 'acp' || provider.command === undefined)
      ) {
        expect(
          Object.keys(cassette.calls).length,
          'the model was asked to delegate but no child called the model',
        ).toBeGreaterThan(1);
      }
    });
  }
});
