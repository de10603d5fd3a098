import { afterAll, describe, expect, it } from 'vitest';
import { checkProviderLifecycle } from '../check-provider-lifecycle.js';
import { formatConformanceFailure } from '../format-failure.js';
import { toyFactory } from '../toy-provider.js';
import { clearLeakedTimers, clearLeakedUnrefTimers, MUTANTS } from './index.js';

/** The CLI's default run count for a provider module: every mutant must be caught within it. */
const DEFAULT_RUNS = 1000;
/**
 * Each search starts from this seed (the next attempt from the next one), so what it finds and
 * when is the same in every run. With a random seed a flaw the schedules reach rarely could
 * escape 1,000 of them now and then: drops-steering-in-final-step once did in CI, before calm
 * runs were drawn (see docs/fuzzing.md).
 */
const FIRST_SEED = 1;
const caughtAt: string[] = [];

afterAll(() => {
  clearLeakedTimers();
  clearLeakedUnrefTimers();
  // The record of how soon each flaw is caught (docs/fuzzing.md lists a measured run).
  console.info(`mutation set: schedules until caught\n${caughtAt.join('\n')}`);
});

describe('the mutation set', () => {
  it('holds at least one broken provider per promise, 20 or more in all, each its own module', () => {
    expect(MUTANTS.length).toBeGreaterThanOrEqual(20);
    expect(new Set(MUTANTS.map((mutant) => mutant.module)).size).toBe(MUTANTS.length);
    expect(MUTANTS.every((mutant) => /^toolkit\/fuzz\/mutants\/[a-z-]+\.ts$/.test(mutant.module))).toBe(true);
  });

  it('leaves the correct toy provider they are made from passing 300 schedules', { timeout: 120_000 }, async () => {
    const report = await checkProviderLifecycle(toyFactory(), { runs: 300 });
    expect(report.ok, formatConformanceFailure(report)).toBe(true);
  });

  // Each run stops at its first failure. A flaw often breaks more than one promise, and the first
  // failing schedule may show another: the search goes on (next seed) until the promise the mutant
  // is for is reported, within the default run count in all.
  it.each(MUTANTS.map((mutant) => [mutant.name, mutant.breaks, mutant] as const))(
    'catches %s as [%s] within the default run count',
    { timeout: 120_000 },
    async (_name, breaks, mutant) => {
      const seen: string[] = [];
      let schedules = 0;
      for (let attempt = 0; schedules < DEFAULT_RUNS; attempt++) {
        const report = await checkProviderLifecycle(mutant, {
          seed: FIRST_SEED + attempt,
          runs: DEFAULT_RUNS - schedules,
          endOnFailure: true,
          settleWaitMs: 500,
          timeoutMs: 3_000,
        });
        schedules += report.schedules;
        if (report.ok) break;
        expect(report.failure?.kind, formatConformanceFailure(report)).toBe('provider');
        expect(report.failure?.rerun).toContain(`--provider ${mutant.module} `);
        const promises = report.failure?.violations.map((violation) => violation.promise) ?? [];
        seen.push(`seed ${report.seed}: ${promises.join(', ')}`);
        if (promises.includes(breaks)) {
          caughtAt.push(
            `  ${mutant.name}: [${breaks}] caught at schedule ${schedules} (${attempt + 1} failing run(s); seed ${report.seed})`,
          );
          return;
        }
      }
      expect.fail(
        `[${breaks}] was not reported within ${DEFAULT_RUNS} schedules from seed ${FIRST_SEED}; failures seen: ${seen.join('; ') || 'none'}`,
      );
    },
  );
});
