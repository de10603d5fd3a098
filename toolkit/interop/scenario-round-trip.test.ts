import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { namedWithoutParent } from '../../test/support/named-sessions.js';
import { makeTempDir, removeTempDir } from '../../test/support/temp-dir.js';
import { loadCassette } from '../cassette/load-cassette.js';
import type { CassetteCall, RecordedResponse } from '../cassette/types.js';
import { listScenarios } from '../scenarios/load-scenarios.js';
import { exportRecording } from './export-recording.js';
import { importFixture } from './import-fixture.js';

/** A response as a flat fixture keeps it: every delay is 0. */
function withoutTiming(call: CassetteCall): CassetteCall {
  const response: RecordedResponse =
    'events' in call.response
      ? { ...call.response, events: call.response.events.map((event) => ({ ...event, delay: 0 })) }
      : call.response;
  return { request: call.request, response, ...(call.protocol === undefined ? {} : { protocol: call.protocol }) };
}

describe('our own recordings through nock and back', async () => {
  let root: string;
  beforeAll(async () => {
    root = await makeTempDir('interop-scenarios-');
  });
  afterAll(async () => {
    await removeTempDir(root);
  });

  for (const name of await listScenarios('scenarios')) {
    test(`${name}: exported to nock, its session names dropped, and imported back, every call lands in the session it was recorded in`, async () => {
      const original = await loadCassette(join('recordings', name));
      const file = join(root, `${name}.nock.json`);
      const exported = await exportRecording(join('recordings', name), { to: 'nock', file });
      // Keep the requests, drop the lineages: the import must derive every session from content.
      const definitions = JSON.parse(await readFile(file, 'utf8')) as { _nestcast: { lineage?: string } }[];
      for (const definition of definitions) delete definition._nestcast.lineage;
      await writeFile(file, JSON.stringify(definitions));
      const back = join(root, name);
      await importFixture(file, { from: 'nock', to: back });
      const imported = await loadCassette(back);
      // Calls nock cannot hold (a cancelled or dropped stream) are left out, and named.
      const kept = Object.fromEntries(
        Object.entries(original.calls)
          .map(
            ([lineage, calls]) =>
              [
                lineage,
                calls
                  .filter((_, i) => !exported.leftOut.some((left) => left.lineage === lineage && left.call === i + 1))
                  .map(withoutTiming),
              ] as const,
          )
          .filter(([, calls]) => calls.length > 0),
      );
      if (namedWithoutParent(original).length === 0) expect(imported.calls).toEqual(kept);
      // A session named without recorded parent calls is imported under a name content gives it: the same sessions, renamed.
      else expect(sessionsOf(imported.calls)).toEqual(sessionsOf(kept));
    });
  }
});

/** Each session's calls, whatever it is named, in a stable order. */
function sessionsOf(calls: Readonly<Record<string, readonly unknown[]>>): string[] {
  return Object.values(calls)
    .map((list) => JSON.stringify(list))
    .sort();
}
