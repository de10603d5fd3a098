import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { fuzzRuns } from '../arbitraries/fuzz-runs.js';
import { canonicalize, type Json } from '../canonical/canonical-json.js';
import type { CanonicalRequest } from '../canonical/canonical-request.js';
import { firstDivergence } from '../canonical/first-divergence.js';
import { jsonEqual } from '../canonical/json-equal.js';
import { createReplayingFetch } from '../replay/replaying-fetch.js';
import { createMessageSharer, decodeRequests, encodeRequests } from './request-encoding.js';
import { requestEqual } from './request-equal.js';
import { textStream } from './testing/sample-cassette.js';
import type { Cassette } from './types.js';

type Message = { [key: string]: Json };

const text = fc.string({ maxLength: 6 });
const toolCall = fc.record({
  id: fc.constantFrom('call_1', 'call_2'),
  type: fc.constant('function'),
  function: fc.record({ name: fc.constantFrom('search', 'read'), arguments: text }),
});
const message: fc.Arbitrary<Message> = fc.oneof(
  fc.record({ role: fc.constant('user'), content: text }),
  fc.record({ role: fc.constant('assistant'), content: text }),
  fc.record({
    role: fc.constant('assistant'),
    content: fc.constant(null),
    tool_calls: fc.array(toolCall, { minLength: 1, maxLength: 2 }),
  }),
  fc.record({ role: fc.constant('tool'), tool_call_id: fc.constantFrom('call_1', 'call_2'), content: text }),
);
const base = fc.record(
  { model: fc.constantFrom('a', 'b'), temperature: fc.constantFrom(0, 0.5) },
  { requiredKeys: ['model'] },
);

/** A session whose history grows: call k sends the first `lengths[k]` messages of one conversation. */
const growingSession = fc
  .tuple(base, fc.array(message, { minLength: 1, maxLength: 12 }), fc.array(fc.nat(), { minLength: 1, maxLength: 6 }))
  .map(([head, messages, steps]) => {
    const lengths = [...new Set(steps.map((step) => 1 + (step % messages.length)))].sort((a, b) => a - b);
    return lengths.map((length) => canonicalize({ ...head, messages: messages.slice(0, length) }) as CanonicalRequest);
  });

/** One edit of a request, each a mismatch strict replay must report. */
type Edit =
  | { kind: 'change message'; at: number }
  | { kind: 'drop message'; at: number }
  | { kind: 'add message'; at: number; message: Message }
  | { kind: 'change tool result'; at: number }
  | { kind: 'change base'; key: string; value: Json }
  | { kind: 'drop base key' }
  | { kind: 'add base key' };

const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ kind: fc.constant('change message' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('drop message' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('add message' as const), at: fc.nat(), message }),
  fc.record({ kind: fc.constant('change tool result' as const), at: fc.nat() }),
  fc.record({
    kind: fc.constant('change base' as const),
    key: fc.constantFrom('model', 'temperature'),
    value: fc.constantFrom('c', 1, true, null),
  }),
  fc.record({ kind: fc.constant('drop base key' as const) }),
  fc.record({ kind: fc.constant('add base key' as const) }),
);

/** The request as a client would send it after `change`, parsed from its body, keys in reverse order. */
function edited(request: CanonicalRequest, change: Edit | undefined): Json {
  const copy = JSON.parse(JSON.stringify(request)) as { [key: string]: Json } & { messages: Message[] };
  const { messages } = copy;
  const at = (n: number) => n % messages.length;
  switch (change?.kind) {
    case undefined:
      break;
    case 'change message': {
      const target = messages[at(change.at)] as Message;
      target['content'] = `${typeof target['content'] === 'string' ? target['content'] : ''}!`;
      break;
    }
    case 'drop message':
      messages.splice(at(change.at), 1);
      break;
    case 'add message':
      messages.splice(change.at % (messages.length + 1), 0, change.message);
      break;
    case 'change tool result': {
      const results = messages.filter((m) => m['role'] === 'tool');
      const target = results[change.at % Math.max(results.length, 1)];
      if (target) target['content'] = `${String(target['content'])}!`;
      else messages.push({ role: 'tool', tool_call_id: 'call_1', content: 'late' });
      break;
    }
    case 'change base':
      copy[change.key] = copy[change.key] === change.value ? 'other' : change.value;
      break;
    case 'drop base key':
      delete copy['model'];
      break;
    case 'add base key':
      copy['seed'] = 7;
      break;
  }
  return JSON.parse(
    JSON.stringify(copy, (_key, value: unknown) =>
      value !== null && typeof value === 'object' && !Array.isArray(value)
        ? Object.fromEntries(Object.entries(value).reverse())
        : value,
    ),
  ) as Json;
}

/** The session as replay holds it after loading: every request a view over one shared message log. */
function loaded(requests: readonly CanonicalRequest[]): CanonicalRequest[] {
  const rebuilt = decodeRequests(encodeRequests(requests, chatFields(requests)), chatFields(requests));
  if (!Array.isArray(rebuilt)) throw new Error(rebuilt.message);
  return rebuilt as CanonicalRequest[];
}

describe('strict matching against a recorded request that shares its session’s message log', () => {
  test.prop([growingSession, fc.nat()], { numRuns: fuzzRuns(150) })(
    'the live request the recording was made from matches every call, loaded or recorded',
    (requests, pick) => {
      const i = pick % requests.length;
      const plain = requests[i] as CanonicalRequest;
      const share = createMessageSharer('messages');
      const recorded = requests.map(share)[i] as CanonicalRequest;
      expect(requestEqual(loaded(requests)[i] as Json, edited(plain, undefined))).toBe(true);
      expect(requestEqual(recorded, edited(plain, undefined))).toBe(true);
    },
  );

  test.prop([growingSession, fc.nat(), edit], { numRuns: fuzzRuns(300) })(
    'a changed earlier message, a dropped or added message, a changed tool result or a changed, dropped or added base key is a mismatch',
    (requests, pick, change) => {
      const i = pick % requests.length;
      const plain = requests[i] as CanonicalRequest;
      const live = edited(plain, change);
      // The edit is one: the full requests differ.
      expect(jsonEqual(plain, live)).toBe(false);
      expect(requestEqual(loaded(requests)[i] as Json, live)).toBe(false);
      expect(requestEqual(requests.map(createMessageSharer('messages'))[i] as Json, live)).toBe(false);
    },
  );

  test.prop([growingSession, fc.nat(), edit], { numRuns: fuzzRuns(60) })(
    'the replaying fetch in strict mode answers the edited call of a loaded session with REQUEST_MISMATCH at the first divergence',
    async (requests, pick, change) => {
      const i = pick % requests.length;
      const cassette: Cassette = {
        provenance: { source: 'recorded', recordedAt: '2026-01-01T00:00:00.000Z', recorder: 'nestcast test' },
        calls: { main: loaded(requests).map((request) => ({ request, response: textStream(['ok'], 0) })) },
      };
      const fetch = createReplayingFetch(cassette, { mode: 'strict', failures: 'reject' });
      const send = (body: Json) =>
        fetch('http://127.0.0.1:9/v1/chat/completions', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-session-lineage': 'main' },
          body: JSON.stringify({ ...(body as object), stream: true }),
        });
      for (const earlier of requests.slice(0, i)) expect((await send(edited(earlier, undefined))).status).toBe(200);
      const plain = requests[i] as CanonicalRequest;
      const live = edited(plain, change);
      await expect(send(live)).rejects.toMatchObject({
        code: 'REQUEST_MISMATCH',
        failedCall: { lineage: 'main', call: i + 1, divergence: firstDivergence(plain, live) },
      });
    },
  );
});

/** Chat-completions requests: each call's history is its `messages`. */
function chatFields(requests: readonly unknown[]): string[] {
  return requests.map(() => 'messages');
}
