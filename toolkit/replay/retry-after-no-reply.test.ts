import { afterEach, describe, expect, test } from 'vitest';
import { startLoopbackServer, type LoopbackServer } from '../../test/support/loopback-server.js';
import { fixtureText, sseOfChunkLines } from '../protocols/testing/streamed-response.js';
import { createRecordingFetch } from '../record/recording-fetch.js';
import { createReplayingFetch } from './replaying-fetch.js';

const fixture = (path: string): string => fixtureText(new URL(`../protocols/${path}`, import.meta.url));

interface Exchange {
  readonly api: string;
  readonly path: string;
  readonly request: object;
  /** What the first call gets: a 200 answer with no reply in it. */
  readonly noReply: { readonly type: string; readonly body: string };
  readonly reply: { readonly type: string; readonly body: string };
}

const SSE = 'text/event-stream';
const JSON_TYPE = 'application/json';

/** Per API, an answer that carries no reply though it came back 200, and a good one. */
const EXCHANGES: readonly Exchange[] = [
  {
    api: 'chat completions, a JSON body without a message',
    path: '/v1/chat/completions',
    request: { model: 'm', messages: [{ role: 'user', content: 'Plan the trip.' }] },
    noReply: { type: JSON_TYPE, body: '{"id":"chatcmpl-1","object":"chat.completion"}' },
    reply: {
      type: JSON_TYPE,
      body: '{"id":"chatcmpl-2","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"Done."},"finish_reason":"stop"}]}',
    },
  },
  {
    api: 'OpenAI Responses, a stream that ends in response.failed',
    path: '/v1/responses',
    request: { model: 'm', input: 'Plan the trip.', stream: true },
    noReply: {
      type: SSE,
      body: sseOfChunkLines(fixture('openai-responses/__fixtures__/openai-error.1.chunks.txt'), { named: true }),
    },
    reply: {
      type: SSE,
      body: sseOfChunkLines(fixture('openai-responses/__fixtures__/openai-phase.1.chunks.txt'), { named: true }),
    },
  },
  {
    api: 'Anthropic Messages, a stream cut by an error event',
    path: '/v1/messages',
    request: { model: 'm', max_tokens: 64, messages: [{ role: 'user', content: 'Plan the trip.' }], stream: true },
    noReply: {
      type: SSE,
      body: `${fixture('anthropic-messages/fixtures/basic_response.txt').split('event: message_delta')[0]}event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n`,
    },
    reply: { type: SSE, body: fixture('anthropic-messages/fixtures/basic_response.txt') },
  },
  {
    api: 'Gemini, a stream with an error chunk',
    path: '/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse',
    request: { contents: [{ role: 'user', parts: [{ text: 'Plan the trip.' }] }] },
    noReply: {
      type: SSE,
      body: 'data: {"error":{"code":503,"message":"The model is overloaded.","status":"UNAVAILABLE"}}\n\n',
    },
    reply: {
      type: SSE,
      body: sseOfChunkLines(fixture('gemini/fixtures/google-text.chunks.txt'), { named: false }),
    },
  },
];

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('a call retried after an answer with no reply is filed alike when recorded and when replayed', () => {
  test.for(EXCHANGES)('$api: both calls in session main, replayed as recorded', async (exchange) => {
    let calls = 0;
    server = await startLoopbackServer((_request, res) => {
      const answer = calls++ === 0 ? exchange.noReply : exchange.reply;
      res.writeHead(200, { 'content-type': answer.type });
      res.end(answer.body);
    });
    const send = async (fetch: typeof globalThis.fetch): Promise<string> => {
      const response = await fetch(`${(server as LoopbackServer).url}${exchange.path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(exchange.request),
      });
      return response.text();
    };

    const recording = createRecordingFetch();
    const recorded = [await send(recording), await send(recording)];
    const cassette = await recording.cassette();
    expect(Object.fromEntries(Object.entries(cassette.calls).map(([lineage, list]) => [lineage, list.length]))).toEqual(
      {
        main: 2,
      },
    );

    const replaying = createReplayingFetch(cassette, { mode: 'strict', timing: 'instant' });
    expect([await send(replaying), await send(replaying)]).toEqual(recorded);
    expect(() => replaying.assertConsumed()).not.toThrow();
  });
});
