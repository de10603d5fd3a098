import { join } from 'node:path';
import { fc, test } from '@fast-check/vitest';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { makeTempDir, removeTempDir } from '../../test/support/temp-dir.js';
import { fuzzRuns } from '../arbitraries/fuzz-runs.js';
import { canonicalRequest } from '../canonical/canonical-request.js';
import { loadCassette } from '../cassette/load-cassette.js';
import { saveCassette } from '../cassette/save-cassette.js';
import type { Cassette, CassetteCall, RecordedResponse, SseEvent } from '../cassette/types.js';
import { exportRecording } from './export-recording.js';
import { importFixture } from './import-fixture.js';

const text = fc.string({ unit: fc.constantFrom('a', 'Z', ' ', '\n', 'é', '😀', '"', '\\', '/', ':'), maxLength: 12 });
const extraHeaders = fc.dictionary(
  fc.constantFrom('x-request-id', 'retry-after'),
  fc.stringMatching(/^[a-z0-9-]{1,8}$/),
  { maxKeys: 2 },
);
const sseEvent: fc.Arbitrary<SseEvent> = fc.oneof(
  fc.record({ delay: fc.constant(0), data: text.filter((data) => data !== '[DONE]') }),
  fc.record({ delay: fc.constant(0), data: text, event: fc.constantFrom('message', 'error') }),
  fc.record({ delay: fc.constant(0), comment: text.filter((comment) => !comment.includes('\n')) }),
);
/** What a flat fixture can hold: streams, bodies and HTTP errors (network failures have no answer to keep). */
const response: fc.Arbitrary<RecordedResponse> = fc.oneof(
  fc.record({
    status: fc.constant(200),
    headers: extraHeaders.map((h) => ({ ...h, 'content-type': 'text/event-stream' })),
    events: fc.array(sseEvent, { maxLength: 4 }),
    done: fc.boolean(),
  }),
  fc.record({
    status: fc.constantFrom(200, 201),
    headers: extraHeaders.map((h) => ({ ...h, 'content-type': 'application/json' })),
    body: text,
  }),
  fc.record({
    error: fc.record({
      kind: fc.constant('http' as const),
      status: fc.integer({ min: 400, max: 599 }),
      headers: extraHeaders.map((h) => ({ ...h, 'content-type': 'application/json' })),
      body: text,
    }),
  }),
);
const message = fc.oneof(
  fc.record({ role: fc.constantFrom('user', 'assistant', 'system'), content: text }),
  fc.record({ role: fc.constant('tool'), tool_call_id: text, content: text }),
);
const callsOfOneSession: fc.Arbitrary<CassetteCall[]> = fc
  .array(fc.record({ added: fc.array(message, { minLength: 1, maxLength: 3 }), response }), {
    minLength: 1,
    maxLength: 4,
  })
  .map((steps) => {
    let messages: unknown[] = [];
    return steps.map(({ added, response }) => {
      messages = [...messages, ...added];
      return { request: canonicalRequest(JSON.stringify({ model: 'deepseek-v4-flash', messages })), response };
    });
  });
const lineage = fc
  .array(fc.stringMatching(/^call_[a-z0-9]{1,4}$/), { maxLength: 2 })
  .map((rest) => ['main', ...rest].join('/'));
const cassette: fc.Arbitrary<Cassette> = fc.record({
  provenance: fc.constant({
    source: 'recorded' as const,
    baseUrl: 'https://api.deepseek.com',
    recordedAt: '2026-01-01T00:00:00.000Z',
    recorder: 'nestcast 0.1.0',
  }),
  calls: fc.dictionary(lineage, callsOfOneSession, { minKeys: 1, maxKeys: 3 }),
});

describe('export then import', () => {
  let root: string;
  let n = 0;
  beforeAll(async () => {
    root = await makeTempDir('interop-prop-');
  });
  afterAll(async () => {
    await removeTempDir(root);
  });

  test.prop([cassette], { numRuns: fuzzRuns(40) })(
    'through HAR gives back the same calls in the same sessions',
    async (original) => {
      const dir = join(root, `c${++n}`);
      await saveCassette(dir, original);
      const file = join(root, `c${n}.har`);
      await exportRecording(dir, { to: 'har', file });
      const back = join(root, `c${n}-back`);
      await importFixture(file, { from: 'har', to: back });
      expect((await loadCassette(back)).calls).toEqual((await loadCassette(dir)).calls);
    },
  );
});
