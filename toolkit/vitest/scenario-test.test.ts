import { describe, expect, it } from 'vitest';
import { defineScenario } from '../scenarios/define-scenario.js';
import { scenarioTestTimeoutMs } from './scenario-test.js';

// `timeout` means seconds everywhere in nestcast; vitest's limit must come after the scenario's
// so the scenario's SCENARIO_TIMEOUT verdict, not vitest's bare timeout, reports a slow run.
describe('scenarioTest timeouts', () => {
  const slow = defineScenario({ name: 'slow', description: 'a long scenario', timeout: 120, steps: [] });

  it('reads the options timeout as seconds, not milliseconds', () => {
    expect(scenarioTestTimeoutMs('hello-child', { timeout: 5 })).toBe(5_000 + 15_000);
  });

  it('lets vitest wait past the default 60 s scenario limit', () => {
    expect(scenarioTestTimeoutMs('hello-child', {})).toBe(60_000 + 15_000);
  });

  it("follows a given definition's own timeout, which wins over the options", () => {
    expect(scenarioTestTimeoutMs(slow, { timeout: 5 })).toBe(120_000 + 15_000);
  });
});
