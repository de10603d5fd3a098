import { describe } from 'vitest';
import { listScenarios } from '../toolkit/scenarios/load-scenarios.js';
import { scenarioTest } from '../toolkit/vitest/index.js';

// Every scenario replays keyless against its committed recording and transcripts, exactly as
// `nestcast run` does: each is one vitest test, and a divergence is the test's failure message.
describe('scenarios', async () => {
  for (const name of await listScenarios('scenarios')) scenarioTest(name);
});
