import { join } from 'node:path';
import { fc, test } from '@fast-check/vitest';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { fuzzRuns } from '../arbitraries/fuzz-runs.js';
import { canonicalRequest } from '../canonical/canonical-request.js';
import { loadCassette } from './load-cassette.js';
import { saveCassette } from './save-cassette.js';
import { makeTempDir, removeTempDir } from '../../test/support/temp-dir.js';
import type { Cassette, CassetteCall, RecordedResponse, SseEvent } from './types.js';
import { lineageNameProblem } from '../lineage/lineage-name.js';

const text = fc.string({ unit: fc.constantFrom('a', 'Z', ' ', '\n', 'é', '😀', '"', '\\', '/'), maxLength: 10 });
const headers = fc.dictionary(fc.constantFrom('content-type', 'x-request-id', 'retry-after'), text, { maxKeys: 2 });
const status = fc.integer({ min: 100, max: 599 });
const delay = fc.nat({ max: 5000 });
const sseEvent: fc.Arbitrary<SseEvent> = fc.oneof(
  fc.record({ delay, data: text }),
  fc.record({ delay, data: text, event: fc.constantFrom('message', 'error') }),
  fc.record({ delay, comment: text }),
);
const partial = fc.record({ status, headers, events: fc.array(sseEvent, { maxLength: 3 }) });
const response: fc.Arbitrary<RecordedResponse> = fc.oneof(
  fc.record({ status, headers, events: fc.array(sseEvent, { maxLength: 4 }), done: fc.boolean() }),
  fc.record({ status, headers, body: text }),
  fc.record({ error: fc.record({ kind: fc.constant('http' as const), status, headers, body: text }) }),
  fc.record({
    error: fc.record(
      {
        kind: fc.constant('network' as const),
        message: text,
        code: fc.constantFrom('ECONNRESET', 'ECONNREFUSED'),
        partial,
      },
      { requiredKeys: ['kind', 'message'] },
    ),
  }),
  fc.record({
    error: fc.record(
      { kind: fc.constantFrom('timeout' as const, 'aborted' as const), message: text, partial },
      { requiredKeys: ['kind', 'message'] },
    ),
  }),
);
const message = fc.oneof(
  fc.record({ role: fc.constantFrom('user', 'assistant', 'system'), content: text }),
  fc.record({ role: fc.constant('tool'), tool_call_id: text, content: text }),
);

/** A conversation's calls: each request extends the previous one's messages, or (sometimes) starts over, or matches anything. */
const callsOfOneSession: fc.Arbitrary<CassetteCall[]> = fc
  .array(
    fc.record({
      added: fc.array(message, { minLength: 1, maxLength: 3 }),
      reset: fc.boolean(),
      any: fc.boolean(),
      temperature: fc.option(fc.constantFrom(0, 0.5, 1)),
      response,
    }),
    { maxLength: 4 },
  )
  .map((steps) => {
    let messages: unknown[] = [];
    return steps.map(({ added, reset, any, temperature, response }) => {
      messages = reset ? [...added] : [...messages, ...added];
      const body = {
        model: 'deepseek-v4-flash',
        stream: true,
        messages,
        ...(temperature === null ? {} : { temperature }),
      };
      return { request: any ? null : canonicalRequest(JSON.stringify(body)), response };
    });
  });

const lineage = fc
  .array(
    // Only names a recording may hold (the name rule refuses the others before anything is written).
    fc.string({ minLength: 1, maxLength: 6 }).filter((s) => !s.includes('/') && lineageNameProblem(s) === undefined),
    { minLength: 0, maxLength: 2 },
  )
  .map((rest) => ['main', ...rest].join('/'));

const cassette: fc.Arbitrary<Cassette> = fc.record({
  provenance: fc.record(
    {
      source: fc.constantFrom('recorded' as const, 'authored' as const),
      host: fc.constant('127.0.0.1:4000'),
      model: text,
      recordedAt: fc.constant('2026-01-01T00:00:00.000Z'),
      recorder: fc.constant('nestcast 0.1.0'),
    },
    { requiredKeys: ['source', 'recordedAt', 'recorder'] },
  ),
  calls: fc.dictionary(lineage, callsOfOneSession, { minKeys: 1, maxKeys: 3 }),
});

describe('cassette folders', () => {
  let root: string;
  let saved = 0;
  beforeAll(async () => {
    root = await makeTempDir('cassette-prop-');
  });
  afterAll(() => removeTempDir(root));

  test.prop([cassette], { numRuns: fuzzRuns(200) })(
    'save then load gives back the same provenance and calls per lineage',
    async (original) => {
      const dir = join(root, `c${++saved}`);
      await saveCassette(dir, original);
      const loaded = await loadCassette(dir);
      expect(loaded.provenance).toEqual(original.provenance);
      expect(loaded.calls).toEqual(original.calls);
    },
  );
});
