import { describe, expect, it } from 'vitest';
import { fuzzRuns } from '../../arbitraries/fuzz-runs.js';
import { checkProviderLifecycle } from '../check-provider-lifecycle.js';
import { formatConformanceFailure } from '../format-failure.js';
import { acpFactory } from './acp-factory.js';

describe('the acp provider under the lifecycle suite', () => {
  it(
    'keeps every ordering and cleanup promise over 60 schedules with real child processes, reaching every path it claims',
    { timeout: 300_000 },
    async () => {
      // A fixed seed: the plans, and with them the calm runs that reach each stop reason, are the same in every run.
      const report = await checkProviderLifecycle(acpFactory, { runs: 60, seed: 1 });
      expect(report.ok, formatConformanceFailure(report)).toBe(true);
      expect(report.schedules).toBe(fuzzRuns(60));
      expect(report.claimedPaths).toEqual(
        expect.arrayContaining([
          'path:stop-refusal',
          'path:cancel-after-streamed',
          'path:background-completed',
          'path:background-killed',
          'path:background-failed',
        ]),
      );
    },
  );
});
