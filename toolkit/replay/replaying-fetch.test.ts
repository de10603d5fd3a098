import { getEventListeners } from 'node:events';
import { describe, expect, test, vi } from 'vitest';
import { onFakeClock, settlesWithin } from '../../test/support/fake-clock.js';
import type { Cassette, CassetteCall } from '../cassette/types.js';
import { chatBody, chatRequest, sampleCassette, textStream } from '../cassette/testing/sample-cassette.js';
import { withLineage } from '../lineage/lineage-scope.js';
import { createReplayingFetch, type ReplayWarning } from './replaying-fetch.js';

const URL_ = 'http://127.0.0.1:9/v1/chat/completions';
const hint = { recordHint: 'nestcast record trip' };
const located = (cassette: Cassette): Cassette => ({ ...cassette, location: 'recordings/trip' });

function post(
  lineage: string | undefined,
  messages: readonly object[],
  extra: Record<string, unknown> = {},
  init: RequestInit = {},
): [string, RequestInit] {
  const headers: Record<string, string> = { 'content-type': 'application/json', authorization: 'Bearer sk-live' };
  if (lineage) headers['x-session-lineage'] = lineage;
  return [URL_, { method: 'POST', headers, body: chatBody(messages, extra), ...init }];
}

const user = (content: string) => ({ role: 'user', content });

/** What a client reads from a replay failure: HTTP 422 and the OpenAI error shape. */
async function failureOf(response: Response): Promise<{ status: number; code: string; message: string }> {
  const body = (await response.json()) as { error: { code: string; message: string } };
  return { status: response.status, code: body.error.code, message: body.error.message };
}
const firstMainCall = () => post('main', [user('plan the trip')]);

function cassetteOf(calls: Record<string, CassetteCall[]>): Cassette {
  return { ...sampleCassette(), calls };
}

describe('answering a call already read (nestcast serve)', () => {
  const readCall = (lineage: string | undefined, messages: readonly object[], signal?: AbortSignal) => {
    const body = chatBody(messages, {});
    return { method: 'POST', url: new URL(URL_), lineage, body, json: JSON.parse(body) as never, signal };
  };

  test('answers as the fetch answers the same call: the same bytes, cursors and report', async () => {
    const fetch = createReplayingFetch(sampleCassette());
    const viaFetch = createReplayingFetch(sampleCassette());
    const answered = await fetch.answer(readCall('main', [user('plan the trip')]));
    const fetched = await viaFetch(...firstMainCall());
    expect(answered.status).toBe(fetched.status);
    expect(await answered.text()).toBe(await fetched.text());
    expect(fetch.report().sessions).toEqual(viaFetch.report().sessions);
  });

  test('a call that names no session is threaded by content, and a mismatch is refused in the protocol’s shape', async () => {
    const fetch = createReplayingFetch(sampleCassette());
    expect((await fetch.answer(readCall(undefined, [user('plan the trip')]))).status).toBe(200);
    const refused = await fetch.answer(readCall('main/call_1', [user('find planes')]));
    expect(await failureOf(refused)).toMatchObject({ status: 422, code: 'REQUEST_MISMATCH' });
    expect(fetch.report().failures.map((failure) => failure.code)).toEqual(['REQUEST_MISMATCH']);
  });

  test('a call whose signal is already aborted is rejected with its reason and takes no cursor', async () => {
    const fetch = createReplayingFetch(sampleCassette());
    const reason = new Error('caller left');
    await expect(fetch.answer(readCall('main', [user('plan the trip')], AbortSignal.abort(reason)))).rejects.toBe(
      reason,
    );
    expect(fetch.report().sessions.find((session) => session.lineage === 'main')).toMatchObject({ consumed: 0 });
  });
});

describe('serving a recording', () => {
  test('re-emits exactly the recorded events, then [DONE], with status and headers', async () => {
    const fetch = createReplayingFetch(sampleCassette());
    const response = await fetch(...firstMainCall());
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(await response.text()).toBe(
      'data: {"choices":[{"index":0,"delta":{"content":"Sure"}}]}\n\n' +
        'data: {"choices":[{"index":0,"delta":{"content":", delegating."}}]}\n\n' +
        'data: [DONE]\n\n',
    );
  });

  test('a whole conversation across two sessions is consumed and passes assertConsumed', async () => {
    const fetch = createReplayingFetch(sampleCassette());
    await (await fetch(...firstMainCall())).text();
    await (await fetch(...post('main/call_1', [user('find trains')], { temperature: 0 }))).text();
    await (
      await fetch(
        ...post('main', [user('plan the trip'), { role: 'assistant', content: 'Sure, delegating.' }, user('go on')]),
      )
    ).text();
    expect(() => fetch.assertConsumed()).not.toThrow();
    expect(fetch.report().sessions).toEqual([
      { lineage: 'main', consumed: 2, total: 2 },
      { lineage: 'main/call_1', consumed: 1, total: 1 },
    ]);
  });

  test('a client that transfers a chunk’s buffer away does not empty a later replay of the same recording', async () => {
    const [recorded] = sampleCassette().calls['main'] ?? [];
    // The same call twice: both replays serve the one encoding of its events.
    const call: CassetteCall = { ...recorded!, request: null };
    const fetch = createReplayingFetch(cassetteOf({ main: [call, call] }));
    const first = (await fetch(...firstMainCall())).body!.getReader();
    const chunk = (await first.read()).value!;
    structuredClone(chunk.buffer, { transfer: [chunk.buffer] });
    expect(chunk.byteLength).toBe(0);
    await first.cancel();

    expect(await (await fetch(...firstMainCall())).text()).toContain(
      'data: {"choices":[{"index":0,"delta":{"content":"Sure"}}]}\n\n',
    );
  });

  test('a client that transfers a chunk’s buffer away still reads the rest of the same replay', async () => {
    const [recorded] = sampleCassette().calls['main'] ?? [];
    const call: CassetteCall = { ...recorded!, request: null };
    const whole = await (await createReplayingFetch(cassetteOf({ main: [call] }))(...firstMainCall())).text();
    const reader = (await createReplayingFetch(cassetteOf({ main: [call] }))(...firstMainCall())).body!.getReader();
    const first = (await reader.read()).value!;
    const firstText = new TextDecoder().decode(first);
    structuredClone(first.buffer, { transfer: [first.buffer] });
    let rest = '';
    for (let read = await reader.read(); !read.done; read = await reader.read())
      rest += new TextDecoder().decode(read.value);
    expect(firstText + rest).toBe(whole);
  });

  test('without a header the lineage comes from withLineage, else main', async () => {
    const fetch = createReplayingFetch(sampleCassette());
    const child = await withLineage('main/call_1', () =>
      fetch(...post(undefined, [user('find trains')], { temperature: 0 })),
    );
    expect(await child.text()).toContain('Train at 9.');
    expect(await (await fetch(...post(undefined, [user('plan the trip')]))).text()).toContain('Sure');
  });

  test('a recorded HTTP error replays as that status and body', async () => {
    const fetch = createReplayingFetch(
      cassetteOf({
        main: [
          {
            request: null,
            response: {
              error: {
                kind: 'http',
                status: 429,
                headers: { 'retry-after': '2' },
                body: '{"error":{"message":"slow down"}}',
              },
            },
          },
        ],
      }),
    );
    const response = await fetch(...firstMainCall());
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('2');
    expect(await response.json()).toEqual({ error: { message: 'slow down' } });
  });

  test('a recorded connection failure rejects like a real fetch', async () => {
    const fetch = createReplayingFetch(
      cassetteOf({
        main: [
          {
            request: null,
            response: { error: { kind: 'network', message: 'connect ECONNREFUSED', code: 'ECONNREFUSED' } },
          },
        ],
      }),
    );
    const error = await fetch(...firstMainCall()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect(error).toMatchObject({
      message: 'fetch failed',
      cause: { message: 'connect ECONNREFUSED', code: 'ECONNREFUSED' },
    });
  });

  test('a stream cut mid-way delivers the events received before the cut, then fails the body', async () => {
    const partial = {
      status: 200,
      headers: { 'content-type': 'text/event-stream' },
      events: [{ delay: 1, data: '{"n":1}' }],
    };
    const fetch = createReplayingFetch(
      cassetteOf({
        main: [{ request: null, response: { error: { kind: 'network', message: 'other side closed', partial } } }],
      }),
    );
    const reader = (await fetch(...firstMainCall())).body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('data: {"n":1}\n\n');
    await expect(reader.read()).rejects.toMatchObject({
      name: 'TypeError',
      message: 'terminated',
      cause: { message: 'other side closed' },
    });
  });

  test('a recorded timeout fails with a TimeoutError after its partial events', async () => {
    const partial = { status: 200, headers: {}, events: [{ delay: 1, data: '{"n":1}' }] };
    const fetch = createReplayingFetch(
      cassetteOf({
        main: [{ request: null, response: { error: { kind: 'timeout', message: 'timed out', partial } } }],
      }),
    );
    const response = await fetch(...firstMainCall());
    await expect(response.text()).rejects.toMatchObject({ name: 'TimeoutError' });
  });

  test('aborting the request signal fails the body at once with the abort reason', async () => {
    const fetch = createReplayingFetch(
      cassetteOf({
        main: [
          {
            request: null,
            response: {
              ...textStream(['a', 'b']),
              events: [
                { delay: 1, data: 'a' },
                { delay: 60_000, data: 'b' },
              ],
            },
          },
        ],
      }),
    );
    const controller = new AbortController();
    const [url, init] = firstMainCall();
    const reader = (await fetch(url, { ...init, signal: controller.signal })).body!.getReader();
    await reader.read();
    controller.abort();
    await expect(reader.read()).rejects.toMatchObject({ name: 'AbortError' });
  });

  test('a call cancelled while recording, replayed without a signal, is held open after its events', async () => {
    const partial = { status: 200, headers: {}, events: [{ delay: 1, data: '{"n":1}' }] };
    const fetch = createReplayingFetch(
      cassetteOf({ main: [{ request: null, response: { error: { kind: 'aborted', message: 'aborted', partial } } }] }),
    );
    await onFakeClock(async () => {
      const reader = (await fetch(...firstMainCall())).body!.getReader();
      expect(new TextDecoder().decode((await reader.read()).value)).toBe('data: {"n":1}\n\n');
      expect(await settlesWithin(60_000, reader.read())).toBe(false);
      await reader.cancel();
    });
  });

  test('a long-lived request signal shared by many calls keeps no listener once their bodies are read or cancelled', async () => {
    const calls = Array.from({ length: 12 }, () => ({ request: null, response: textStream(['a', 'b']) }));
    const fetch = createReplayingFetch(cassetteOf({ main: calls }), { timing: { scale: 0 } });
    const signal = new AbortController().signal;
    const [url, init] = firstMainCall();
    for (let i = 0; i < 11; i++) expect(await (await fetch(url, { ...init, signal })).text()).toContain('data: [DONE]');
    await (await fetch(url, { ...init, signal })).body!.cancel();
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
  });

  test('a call the caller cancelled while recording is held open after its events until the live caller aborts too', async () => {
    const partial = { status: 200, headers: {}, events: [{ delay: 1, data: '{"n":1}' }] };
    const fetch = createReplayingFetch(
      cassetteOf({ main: [{ request: null, response: { error: { kind: 'aborted', message: 'aborted', partial } } }] }),
    );
    await onFakeClock(async () => {
      const controller = new AbortController();
      const [url, init] = firstMainCall();
      const reader = (await fetch(url, { ...init, signal: controller.signal })).body!.getReader();
      const first = reader.read();
      await vi.advanceTimersByTimeAsync(1);
      await first;
      const next = reader.read();
      expect(await settlesWithin(60_000, next)).toBe(false);
      controller.abort();
      await expect(next).rejects.toMatchObject({ name: 'AbortError' });
    });
  });
});

describe('timing', () => {
  const slow = () =>
    cassetteOf({
      main: [
        {
          request: null,
          response: {
            ...textStream([]),
            events: [
              { delay: 0, data: 'a' },
              { delay: 60_000, data: 'b' },
            ],
          },
        },
      ],
    });

  test('instant timing ignores recorded delays', async () => {
    const fetch = createReplayingFetch(slow(), { timing: 'instant' });
    expect(await (await fetch(...firstMainCall())).text()).toBe('data: a\n\ndata: b\n\ndata: [DONE]\n\n');
  });

  test('recorded timing holds an event back for its recorded delay', async () => {
    const fetch = createReplayingFetch(slow(), { timing: 'recorded' });
    await onFakeClock(async () => {
      const controller = new AbortController();
      const [url, init] = firstMainCall();
      const reader = (await fetch(url, { ...init, signal: controller.signal })).body!.getReader();
      await reader.read();
      const second = reader.read();
      expect(await settlesWithin(59_999, second)).toBe(false);
      controller.abort();
      await second.catch(() => undefined);
    });
  });

  test('a call that gives no signal is served on its recorded timeline', async () => {
    const fetch = createReplayingFetch(slow(), { timing: 'recorded' });
    await onFakeClock(async () => {
      const [url, init] = firstMainCall();
      expect(init.signal).toBeUndefined();
      const reader = (await fetch(url, init)).body!.getReader();
      expect(new TextDecoder().decode((await reader.read()).value)).toBe('data: a\n\n');
      const second = reader.read();
      expect(await settlesWithin(59_999, second)).toBe(false);
      expect(await settlesWithin(1, second)).toBe(true);
      expect(new TextDecoder().decode((await second).value)).toBe('data: b\n\n');
    });
  });

  test('scaled timing shortens the recorded delays', async () => {
    const fetch = createReplayingFetch(slow(), { timing: { scale: 0.0001 } });
    expect(await (await fetch(...firstMainCall())).text()).toBe('data: a\n\ndata: b\n\ndata: [DONE]\n\n');
  });
});

describe('concurrency', () => {
  const twoChildren = () =>
    cassetteOf({
      'main/call_a': [{ request: chatRequest([user('task A')]), response: textStream(['answer A']) }],
      'main/call_b': [{ request: chatRequest([user('task B')]), response: textStream(['answer B']) }],
    });

  for (const order of [
    ['a', 'b'],
    ['b', 'a'],
  ] as const) {
    test(`two children calling at the same moment each get their own recording (${order.join(' then ')})`, async () => {
      const fetch = createReplayingFetch(twoChildren());
      const calls = order.map((id) => fetch(...post(`main/call_${id}`, [user(`task ${id.toUpperCase()}`)])));
      const texts = await Promise.all(calls.map(async (call) => (await call).text()));
      order.forEach((id, i) => expect(texts[i]).toContain(`answer ${id.toUpperCase()}`));
      expect(() => fetch.assertConsumed()).not.toThrow();
    });
  }

  test('the cursor is taken when the request arrives, not when its body has been read', async () => {
    const cassette = cassetteOf({
      main: [
        { request: null, response: textStream(['first']) },
        { request: null, response: textStream(['second']) },
      ],
    });
    const fetch = createReplayingFetch(cassette);
    let release!: () => void;
    const late = new ReadableStream<Uint8Array>({
      start: (controller) => {
        release = () => {
          controller.enqueue(new TextEncoder().encode(chatBody([user('x')])));
          controller.close();
        };
      },
    });
    const [url, init] = firstMainCall();
    const slowBody = fetch(url, { ...init, body: late, duplex: 'half' } as RequestInit);
    const quick = fetch(...firstMainCall());
    release();
    expect(await (await slowBody).text()).toContain('first');
    expect(await (await quick).text()).toContain('second');
  });
});

describe('replay errors', () => {
  test('a different request is REQUEST_MISMATCH naming session, call, path, both values and the way out', async () => {
    const fetch = createReplayingFetch(located(sampleCassette()), hint);
    await fetch(...firstMainCall());
    const response = await fetch(
      ...post('main', [user('plan the trip'), { role: 'assistant', content: 'Sure, delegating.' }, user('stop')]),
    );
    const message =
      'Model call 2 of session "main" does not match the cassette at recordings/trip at messages[2].content:\n' +
      '  recorded: "go on"\n' +
      '  live:     "stop"\n' +
      'If the change is intended, re-record with: nestcast record trip';
    expect(await failureOf(response)).toEqual({
      status: 422,
      code: 'REQUEST_MISMATCH',
      message: `REQUEST_MISMATCH: ${message}`,
    });
    expect(fetch.report().failures[0]).toMatchObject({ code: 'REQUEST_MISMATCH', message });
  });

  test('a failure in a child the recording marked ambiguous is AMBIGUOUS_CHILD naming both tool calls and the lineage fix, never a re-record', async () => {
    const candidates = [
      { lineage: 'main', id: 'call_1', name: 'research' },
      { lineage: 'main', id: 'call_2', name: 'research' },
    ];
    const fetch = createReplayingFetch(
      located({ ...sampleCassette(), ambiguities: [{ lineage: 'main/call_1', candidates }] }),
      hint,
    );
    const response = await fetch(...post('main/call_1', [user('find hotels')], { temperature: 0 }));
    const failure = await failureOf(response);
    expect(failure).toMatchObject({ status: 422, code: 'AMBIGUOUS_CHILD' });
    expect(failure.message).toContain(
      'Model call 1 of session "main/call_1" failed to replay (REQUEST_MISMATCH at messages[0].content)',
    );
    expect(failure.message).toContain('research call call_1 of "main" and research call call_2 of "main"');
    expect(failure.message).toContain('x-session-lineage header or withLineage(lineage, fn)');
    expect(failure.message).not.toMatch(/re-record/i);
    expect(fetch.report().failures[0]).toMatchObject({ code: 'AMBIGUOUS_CHILD', cause: { code: 'REQUEST_MISMATCH' } });
  });

  test('sequence mode serves a drifted request and reports the drift as a warning', async () => {
    const seen: ReplayWarning[] = [];
    const fetch = createReplayingFetch(sampleCassette(), { mode: 'sequence', onWarning: (w) => seen.push(w) });
    const response = await fetch(...post('main', [user('plan a different trip')]));
    expect(await response.text()).toContain('Sure');
    expect(seen).toEqual([
      {
        code: 'REQUEST_DRIFT',
        lineage: 'main',
        call: 1,
        divergence: { path: 'messages[0].content', recorded: 'plan the trip', live: 'plan a different trip' },
        message:
          'Model call 1 of session "main" differs from its recording at messages[0].content (recorded "plan the trip", live "plan a different trip"); served the recording anyway (sequence mode).',
      },
    ]);
    expect(fetch.report().warnings).toEqual(seen);
  });

  test('a session with no recording is UNRECORDED_SESSION listing the known sessions', async () => {
    const fetch = createReplayingFetch(located(sampleCassette()), hint);
    expect(await failureOf(await fetch(...post('main/call_9', [user('x')])))).toMatchObject({
      status: 422,
      code: 'UNRECORDED_SESSION',
    });
    expect(fetch.report().failures[0]).toMatchObject({
      code: 'UNRECORDED_SESSION',
      message:
        'Session "main/call_9" made a model call, but the cassette at recordings/trip has no recording for it. Recorded sessions: main, main/call_1. ' +
        'The run took a different path than the recording (a child started by another tool call gets another lineage). If the change is intended, re-record with: nestcast record trip',
    });
  });

  test("in a recording of many sessions, UNRECORDED_SESSION names the missing session's parent and siblings and counts the rest", async () => {
    const [call] = sampleCassette().calls['main'] ?? [];
    const names = [
      ...Array.from({ length: 500 }, (_, i) => `agent-${String(i).padStart(3, '0')}`),
      'main',
      'main/call_1',
      'main/call_2',
    ];
    const fetch = createReplayingFetch(
      located(cassetteOf(Object.fromEntries(names.map((name) => [name, [call as CassetteCall]])))),
      hint,
    );
    expect(await failureOf(await fetch(...post('main/call_9', [user('x')])))).toMatchObject({
      code: 'UNRECORDED_SESSION',
    });
    const message = fetch.report().failures[0]?.message ?? '';
    const listed = /Recorded sessions: (.*)\. The run took/.exec(message)?.[1];
    // Sorted, the 500 others come first: without the nearest kept, none of main's would be named.
    expect(listed).toBe(
      `${names.slice(0, 17).join(', ')}, main, main/call_1, main/call_2, … and ${names.length - 20} more`,
    );
  });

  test('one call too many is CASSETTE_EXHAUSTED with the recorded count', async () => {
    const fetch = createReplayingFetch(located(sampleCassette()), hint);
    await fetch(...post('main/call_1', [user('find trains')], { temperature: 0 }));
    expect(await failureOf(await fetch(...post('main/call_1', [user('again')])))).toMatchObject({
      status: 422,
      code: 'CASSETTE_EXHAUSTED',
    });
    expect(fetch.report().failures[0]).toMatchObject({
      code: 'CASSETTE_EXHAUSTED',
      message:
        'Session "main/call_1" made model call 2, but the cassette at recordings/trip recorded only 1 call for it. The code now makes more calls than when it was recorded; if that is intended, re-record with: nestcast record trip',
    });
  });

  test('calls left over at the end are UNCONSUMED_CALLS with consumed/total per session', async () => {
    const fetch = createReplayingFetch(located(sampleCassette()), hint);
    await fetch(...firstMainCall());
    expect(() => fetch.assertConsumed()).toThrow(
      expect.objectContaining({
        code: 'UNCONSUMED_CALLS',
        message:
          'The run ended with recorded model calls nobody requested (the cassette at recordings/trip):\n' +
          '  main: 1/2 calls consumed\n  main/call_1: 0/1 calls consumed\n' +
          'The code now makes fewer calls than when it was recorded; if that is intended, re-record with: nestcast record trip',
      }),
    );
  });

  test('a failure the caller swallowed and retried still fails assertConsumed, and the retry gets the same error', async () => {
    const fetch = createReplayingFetch(sampleCassette(), { failures: 'reject' });
    const first = await fetch(...post('main', [user('changed')])).catch((e: unknown) => e);
    const retry = await fetch(...firstMainCall()).catch((e: unknown) => e);
    expect(first).toMatchObject({ name: 'CassetteError', code: 'REQUEST_MISMATCH' });
    expect(retry).toBe(first);
    expect(() => fetch.assertConsumed()).toThrow(first as Error);
    expect(fetch.report().failures).toHaveLength(2);
  });
});

describe('requests that switch transport', () => {
  test('a non-streaming call against a streamed recording is REQUEST_MISMATCH at stream, even in sequence mode', async () => {
    const fetch = createReplayingFetch(located(sampleCassette()), { ...hint, mode: 'sequence' });
    const failure = await failureOf(await fetch(...post('main', [user('plan the trip')], { stream: false })));
    expect(failure).toMatchObject({ status: 422, code: 'REQUEST_MISMATCH' });
    expect(failure.message).toContain('at stream:\n  recorded: true\n  live:     false');
    expect(failure.message).toContain('configure it as it was');
  });

  test('a JSON answer replays to a non-streaming call and refuses a streaming one', async () => {
    const body = JSON.stringify({
      id: 'c1',
      object: 'chat.completion',
      choices: [{ index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' }],
    });
    const cassette = cassetteOf({
      main: [
        {
          request: chatRequest([user('hello')]),
          response: { status: 200, headers: { 'content-type': 'application/json' }, body },
        },
      ],
    });
    const ok = createReplayingFetch(cassette);
    expect(await (await ok(...post('main', [user('hello')], { stream: false }))).text()).toBe(body);
    const refused = createReplayingFetch(cassette);
    expect(await failureOf(await refused(...post('main', [user('hello')])))).toMatchObject({
      code: 'REQUEST_MISMATCH',
      message: expect.stringContaining('at stream'),
    });
  });
});

describe('failures seen through the openai SDK', () => {
  test('the SDK reports REQUEST_MISMATCH with its message at once, without retrying into "Connection error."', async () => {
    const { default: OpenAI } = await import('openai');
    const fetch = createReplayingFetch(located(sampleCassette()), hint);
    const client = new OpenAI({ apiKey: 'sk-none', baseURL: 'http://127.0.0.1:9/v1', fetch, maxRetries: 2 });
    const error = await client.chat.completions
      .create({ model: 'deepseek-v4-flash', messages: [{ role: 'user', content: 'another trip' }], stream: true })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      status: 422,
      message: expect.stringContaining('REQUEST_MISMATCH: Model call 1 of session "main"'),
    });
    expect(fetch.report().failures).toHaveLength(1);
  });
});

describe('calls without a lineage, threaded by content', () => {
  // What the client sends back for the parent's reply: reshaped (content null, arguments re-serialised), as frameworks do.
  const parentAskLive = {
    role: 'assistant',
    content: null,
    tool_calls: [
      { id: 'call_a', type: 'function', function: { name: 'agent', arguments: '{ "task": "count the apples" }' } },
      { id: 'call_b', type: 'function', function: { name: 'agent', arguments: '{ "task": "count the pears" }' } },
    ],
  };
  const tree = (): Cassette => {
    const parentAsk = parentAskLive;
    const toolStream = (ids: readonly [string, string][]) => ({
      status: 200,
      headers: { 'content-type': 'text/event-stream' },
      events: ids.map(([id, task], index) => ({
        delay: 0,
        data: JSON.stringify({
          choices: [
            {
              index: 0,
              delta: {
                tool_calls: [
                  { index, id, type: 'function', function: { name: 'agent', arguments: JSON.stringify({ task }) } },
                ],
              },
            },
          ],
        }),
      })),
      done: true,
    });
    return cassetteOf({
      main: [
        {
          request: chatRequest([user('count fruit')]),
          response: toolStream([
            ['call_a', 'count the apples'],
            ['call_b', 'count the pears'],
          ]),
        },
        {
          request: chatRequest([
            user('count fruit'),
            parentAsk,
            { role: 'tool', tool_call_id: 'call_a', content: '3 apples' },
            { role: 'tool', tool_call_id: 'call_b', content: '5 pears' },
          ]),
          response: textStream(['8 fruit']),
        },
      ],
      'main/call_a': [{ request: chatRequest([user('Please count the apples')]), response: textStream(['3 apples']) }],
      'main/call_b': [{ request: chatRequest([user('Please count the pears')]), response: textStream(['5 pears']) }],
    });
  };
  for (const mode of ['strict', 'sequence'] as const) {
    for (const order of [
      ['apples', 'pears'],
      ['pears', 'apples'],
    ] as const) {
      test(`${mode} mode: concurrent children get their own recordings whatever order they call in (${order.join(' first, then ')})`, async () => {
        const fetch = createReplayingFetch(tree(), { mode });
        await (await fetch(...post(undefined, [user('count fruit')]))).text();
        const answers = await Promise.all(
          order.map(async (fruit) => (await fetch(...post(undefined, [user(`Please count the ${fruit}`)]))).text()),
        );
        expect(answers[0]).toContain(order[0] === 'apples' ? '3 apples' : '5 pears');
        expect(answers[1]).toContain(order[1] === 'apples' ? '3 apples' : '5 pears');
        const last = await fetch(
          ...post(undefined, [
            user('count fruit'),
            parentAskLive,
            { role: 'tool', tool_call_id: 'call_a', content: '3 apples' },
            { role: 'tool', tool_call_id: 'call_b', content: '5 pears' },
          ]),
        );
        expect(await last.text()).toContain('8 fruit');
        fetch.assertConsumed();
        expect(fetch.report().warnings).toEqual([]);
      });
    }
  }

  test("sequence mode serves a drifted child its own parent tool call's recording, never a sibling's", async () => {
    const fetch = createReplayingFetch(tree(), { mode: 'sequence' });
    await (await fetch(...post(undefined, [user('count fruit')]))).text();
    const pears = await (await fetch(...post(undefined, [user('Please count the pears, carefully')]))).text();
    expect(pears).toContain('5 pears');
    expect(fetch.report().warnings).toMatchObject([{ code: 'REQUEST_DRIFT', lineage: 'main/call_b' }]);
  });
});
