import { describe, expect, it } from 'vitest';
import { createMockProvider } from '../../../providers/mock/mock-provider.js';
import { mockScript } from '../../../providers/mock/mock-script.js';
import { fuzzRuns } from '../../arbitraries/fuzz-runs.js';
import { checkProviderLifecycle } from '../check-provider-lifecycle.js';
import { expectedCells, formatCoverage } from '../coverage.js';
import { formatConformanceFailure } from '../format-failure.js';
import type { LiveThing, ProviderFactory } from '../types.js';
import { mockFactory } from './mock-factory.js';

describe('the mock provider under the lifecycle suite', () => {
  it(
    'keeps every promise over 1,000 schedules, which reach every phase x act it offers (no steering, no resume)',
    { timeout: 300_000 },
    async () => {
      const report = await checkProviderLifecycle(mockFactory, { runs: 1000 });
      expect(report.ok, formatConformanceFailure(report)).toBe(true);
      expect(report.schedules).toBe(fuzzRuns(1000));
      const missed = expectedCells({ streams: true, steers: false, resumes: false }).filter(
        (cell) => (report.coverage[cell] ?? 0) === 0,
      );
      expect(missed, `seed ${report.seed}:\n${formatCoverage(report.coverage)}`).toEqual([]);
    },
  );

  it('is failed when scripted to leak on purpose, though the leak is counted, not named by lineage', async () => {
    const leaking: ProviderFactory = {
      name: 'mock-leak',
      outcomes: ['hang'],
      create: () => {
        const script = mockScript([{ kind: 'leak' }, { kind: 'leak' }, { kind: 'leak' }]);
        return {
          provider: createMockProvider({ script }),
          alive: () =>
            Array.from({ length: script.alive }, (_, index): LiveThing => ({
              kind: 'other',
              id: `mock run #${index + 1}`,
            })),
        };
      },
    };
    // endOnFailure: the failure is the point; shrinking a hundred leaky schedules only costs time.
    const report = await checkProviderLifecycle(leaking, { runs: 100, endOnFailure: true, timeoutMs: 1_000 });
    // Which promise sees the leak first depends on the schedule: a disposed run's (most seeds), a
    // rejected start's, or the end's (about 1 seed in 25). Each names the leaked thing.
    const leakPromises = ['dispose-leaves-nothing-alive', 'rejected-start-releases-everything', 'nothing-left-alive'];
    const caught = report.failure?.violations.filter((v) => leakPromises.includes(v.promise)) ?? [];
    expect(caught, formatConformanceFailure(report)).not.toEqual([]);
    for (const violation of caught) expect(violation.message).toContain('mock run #1');
  });
});
