import { describe, expect, test } from 'vitest';
import { loadCassette } from '../cassette/load-cassette.js';
import type { Cassette } from '../cassette/types.js';
import { listScenarios } from '../scenarios/load-scenarios.js';
import { callOrder } from '../interop/call-order.js';
import { threadCalls, type FlatCall } from './thread-calls.js';

/** The calls of a recording in an order the run could have made them (the order an export writes). */
function runOrder(cassette: Cassette): (FlatCall & { lineage: string })[] {
  return callOrder(cassette).map(({ lineage, value }) => ({
    lineage,
    request: value.request ?? {},
    response: value.response,
    ...(value.protocol === undefined ? {} : { protocol: value.protocol }),
  }));
}

describe('our own scenarios without the lineage header, in the model API each spoke', async () => {
  for (const name of await listScenarios('scenarios')) {
    test(`${name}: every recorded call threads to the lineage the harness gave it`, async () => {
      const cassette = await loadCassette(`recordings/${name}`);
      const calls = runOrder(cassette);
      expect(calls).toHaveLength(Object.values(cassette.calls).reduce((sum, list) => sum + list.length, 0));
      const threaded = threadCalls(calls);
      expect(threaded.lineages).toEqual(calls.map((call) => call.lineage));
      expect(threaded.ambiguities).toEqual([]);
    });
  }
});
