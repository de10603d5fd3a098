import { describe, expect, test } from 'vitest';
import { loadCassette } from '../cassette/load-cassette.js';
import type { Cassette } from '../cassette/types.js';
import { listScenarios } from '../scenarios/load-scenarios.js';
import { replyOfResponse } from './reply-of-response.js';
import { threadCalls, type FlatCall } from './thread-calls.js';

/**
 * The calls of a recording in an order the run could have made them: each session's calls in
 * order, the children of a call's tool calls (in call order) run to the end before its next call.
 */
function runOrder(cassette: Cassette, lineage = 'main'): (FlatCall & { lineage: string })[] {
  const out: (FlatCall & { lineage: string })[] = [];
  for (const call of cassette.calls[lineage] ?? []) {
    out.push({ lineage, request: call.request ?? {}, response: call.response });
    for (const toolCall of replyOfResponse(call.response)?.toolCalls ?? []) {
      const child = `${lineage}/${toolCall.id}`;
      if (cassette.calls[child]) out.push(...runOrder(cassette, child));
    }
  }
  return out;
}

describe('our own scenarios without the lineage header', async () => {
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
