import { describe, expect, it } from 'vitest';
import { fuzzRuns } from '../../arbitraries/fuzz-runs.js';
import { checkProviderLifecycle } from '../check-provider-lifecycle.js';
import { formatConformanceFailure } from '../format-failure.js';
import { acpFactory } from './acp-factory.js';

describe('the acp provider under the lifecycle suite', () => {
  it(
    'keeps every ordering and cleanup promise over 40 schedules with real child processes',
    { timeout: 120_000 },
    async () => {
      const report = await checkProviderLifecycle(acpFactory, { runs: 40 });
      expect(report.ok, formatConformanceFailure(report)).toBe(true);
      expect(report.schedules).toBe(fuzzRuns(40));
    },
  );
});
