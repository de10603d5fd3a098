import { describe, expect, test } from 'vitest';
import { loadCassette } from '../cassette/load-cassette.js';
import type { Cassette } from '../cassette/types.js';
import { listScenarios } from '../scenarios/load-scenarios.js';
import { callOrder } from '../interop/call-order.js';
import { threadCalls, type FlatCall } from './thread-calls.js';
import { namedWithoutParent } from '../../test/support/named-sessions.js';

/** The calls of a recording in an order the run could have made them (the order an export writes). */
function runOrder(cassette: Cassette): (FlatCall & { lineage: string })[] {
  return callOrder(cassette).map(({ lineage, value }) => ({
    lineage,
    request: value.request ?? {},
    response: value.response,
    ...(value.protocol === undefined ? {} : { protocol: value.protocol }),
  }));
}

/** Both lists put the same calls together: a one-to-one renaming of sessions. */
function sameSessions(a: readonly string[], b: readonly string[]): boolean {
  const forward = new Map<string, string>();
  const backward = new Map<string, string>();
  return (
    a.length === b.length &&
    a.every((x, i) => {
      const y = b[i] as string;
      if ((forward.get(x) ?? y) !== y || (backward.get(y) ?? x) !== x) return false;
      forward.set(x, y);
      backward.set(y, x);
      return true;
    })
  );
}

describe('our own scenarios without the lineage header, in the model API each spoke', async () => {
  for (const name of await listScenarios('scenarios')) {
    test(`${name}: every recorded call threads to the lineage the harness gave it (a named session without recorded parent calls: to one session of its own)`, async () => {
      const cassette = await loadCassette(`recordings/${name}`);
      const calls = runOrder(cassette);
      expect(calls).toHaveLength(Object.values(cassette.calls).reduce((sum, list) => sum + list.length, 0));
      const threaded = threadCalls(calls);
      const recorded = calls.map((call) => call.lineage);
      if (namedWithoutParent(cassette).length === 0) expect(threaded.lineages).toEqual(recorded);
      else
        expect(
          sameSessions(threaded.lineages, recorded),
          `${threaded.lineages.join(', ')} against ${recorded.join(', ')}`,
        ).toBe(true);
      expect(threaded.ambiguities).toEqual([]);
    });
  }
});
