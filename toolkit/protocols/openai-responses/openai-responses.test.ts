import { readFileSync } from 'node:fs';
import { test } from '@fast-check/vitest';
import OpenAI from 'openai';
import { describe, expect } from 'vitest';
import { fuzzRuns } from '../../arbitraries/fuzz-runs.js';
import { sseSplitArbitrary } from '../../arbitraries/sse-split-arbitrary.js';
import type { AuthoredReply } from '../authored-reply.js';
import type { Cassette, RecordedResponse } from '../../cassette/types.js';
import { createRecordingFetch } from '../../record/recording-fetch.js';
import { createReplayingFetch } from '../../replay/replaying-fetch.js';
import { threadCalls } from '../../threading/thread-calls.js';
import { protocolOf } from '../registry.js';
import { openaiResponses } from './openai-responses.js';

const URL_ = 'http://127.0.0.1:9/v1/responses';
const encoder = new TextEncoder();

/** A captured stream as the API sends it: `event: <type>` and `data: <line>` per event, a keep-alive after the first. */
function capturedStream(name: string): Uint8Array {
  const lines = readFileSync(new URL(`./__fixtures__/${name}.chunks.txt`, import.meta.url), 'utf8')
    .split('\n')
    .filter((line) => line !== '');
  const frames = lines.map((line) => `event: ${(JSON.parse(line) as { type: string }).type}\ndata: ${line}\n\n`);
  frames.splice(1, 0, ': keep-alive\n\n');
  return encoder.encode(frames.join(''));
}

/** A fetch whose response body arrives in exactly these chunks. */
function serving(chunks: readonly Uint8Array[]): typeof fetch {
  return async () => {
    let next = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const chunk = chunks[next++];
        if (chunk === undefined) controller.close();
        else controller.enqueue(chunk);
      },
    });
    return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
  };
}

const request = (body: object): [string, RequestInit] => [
  URL_,
  { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
];

const FIXTURES = ['openai-phase.1', 'openai-web-search-tool.1', 'openai-tool-search.1', 'openai-error.1'];

describe('OpenAI Responses streams through record and replay', () => {
  for (const name of FIXTURES) {
    const bytes = capturedStream(name);
    test.prop([sseSplitArbitrary(bytes)], { numRuns: fuzzRuns(25) })(
      `the captured ${name} stream, split anywhere, is recorded and replayed byte for byte`,
      async (split) => {
        const recorder = createRecordingFetch({ fetch: serving(split) });
        const sent = request({ model: 'gpt-5', input: 'What happened today?', stream: true });
        const live = await (await recorder(...sent)).arrayBuffer();
        // Compared as text: a deep comparison of 80 kB byte arrays costs seconds a run.
        const text = Buffer.from(bytes).toString('utf8');
        expect(Buffer.from(live).toString('utf8')).toBe(text);
        const cassette = await recorder.cassette();
        const [call] = Object.values(cassette.calls).flat();
        expect(call?.protocol).toBe('openai-responses');
        const replayed = await (await createReplayingFetch(cassette)(...sent)).arrayBuffer();
        expect(Buffer.from(replayed).toString('utf8')).toBe(text);
      },
    );
  }

  test.prop([sseSplitArbitrary(capturedStream('openai-tool-search.1'))], { numRuns: fuzzRuns(10) })(
    'the function call of a captured stream, split anywhere, is read with its call id, name and canonical arguments',
    async (split) => {
      const recorder = createRecordingFetch({ fetch: serving(split) });
      await (await recorder(...request({ model: 'gpt-5', input: 'Plan.', stream: true }))).text();
      const response = (await recorder.cassette()).calls['main']?.[0]?.response as RecordedResponse;
      expect(openaiResponses.reply(response)?.message.toolCalls).toEqual([
        {
          id: 'call_pddfxhfOx4gY56zn4vIIEbFp',
          name: 'get_weather',
          arguments: '{"location":"San Francisco, CA","unit":"fahrenheit"}',
        },
      ]);
    },
  );
});

const renderOf = (turn: AuthoredReply, stream: boolean, answerId: string, ids: string[] = []): RecordedResponse =>
  openaiResponses.render(turn, { stream, model: 'gpt-5', toolCallIds: ids, answerId, eventDelay: 0 });

describe('OpenAI Responses threading', () => {
  const parentReply = renderOf({ toolCalls: [{ name: 'research', args: { topic: 'tide tables' } }] }, true, 'p1', [
    'call_research',
  ]);
  const functionCall = {
    type: 'function_call',
    id: 'fc_p1_1',
    call_id: 'call_research',
    name: 'research',
    arguments: '{"topic": "tide tables"}',
    status: 'completed',
  };
  const output = { type: 'function_call_output', call_id: 'call_research', output: 'High tide at 6.' };

  test('a child is filed under the function_call whose argument its prompt holds; the output continues the parent, with or without previous_response_id', () => {
    const child = renderOf({ text: 'High tide at 6.' }, false, 'c1');
    const { lineages, ambiguities } = threadCalls([
      { protocol: 'openai-responses', request: { instructions: 'Plan.', input: 'Sail?' }, response: parentReply },
      {
        protocol: 'openai-responses',
        request: { input: [{ role: 'user', content: [{ type: 'input_text', text: 'Research: tide tables' }] }] },
        response: child,
      },
      {
        protocol: 'openai-responses',
        request: { instructions: 'Plan.', input: [{ role: 'user', content: 'Sail?' }, functionCall, output] },
        response: renderOf({ text: 'Sail at 6.' }, true, 'p2'),
      },
      {
        protocol: 'openai-responses',
        request: { previous_response_id: 'resp_p2', input: [{ role: 'user', content: 'And back?' }] },
        response: renderOf({ text: 'At noon.' }, true, 'p3'),
      },
    ]);
    expect(lineages).toEqual(['main', 'main/call_research', 'main', 'main']);
    expect(ambiguities).toEqual([]);
  });

  test('previous_response_id naming a reply its session has since moved past (continued by content) continues that session, not a new root', () => {
    const { lineages } = threadCalls([
      {
        protocol: 'openai-responses',
        request: { instructions: 'Plan.', input: 'Sail?' },
        response: renderOf({ text: 'Sail at 6.' }, true, 'p1'),
      },
      {
        protocol: 'openai-responses',
        request: {
          instructions: 'Plan.',
          input: [
            { role: 'user', content: 'Sail?' },
            { role: 'assistant', content: 'Sail at 6.' },
            { role: 'user', content: 'And back?' },
          ],
        },
        response: renderOf({ text: 'At noon.' }, true, 'p2'),
      },
      // Branches from the first answer, as a "regenerate" from an earlier turn does.
      {
        protocol: 'openai-responses',
        request: { previous_response_id: 'resp_p1', input: [{ role: 'user', content: 'And tomorrow?' }] },
        response: renderOf({ text: 'At 7.' }, true, 'p3'),
      },
    ]);
    expect(lineages).toEqual(['main', 'main', 'main']);
  });

  test('a JSON answer is a reply like a stream: its function calls start children and its id is the handle', () => {
    const json = renderOf({ toolCalls: [{ name: 'research', args: { topic: 'tide tables' } }] }, false, 'j1', [
      'call_research',
    ]);
    expect(openaiResponses.reply(json)).toEqual({ ...openaiResponses.reply(parentReply), handle: 'resp_j1' });
    const { lineages } = threadCalls([
      { protocol: 'openai-responses', request: { input: 'Sail?' }, response: json },
      { protocol: 'openai-responses', request: { input: 'Research: tide tables' }, response: json },
    ]);
    expect(lineages).toEqual(['main', 'main/call_research']);
  });

  test('a stream that ends in response.failed is no reply: the retry repeats the request in the same session', () => {
    const failed = {
      status: 200,
      headers: {},
      events: [
        {
          delay: 0,
          event: 'response.failed',
          data: '{"type":"response.failed","response":{"id":"resp_x","status":"failed"}}',
        },
      ],
      done: false,
    };
    expect(openaiResponses.reply(failed)).toBeUndefined();
    const { lineages } = threadCalls([
      { protocol: 'openai-responses', request: { input: 'Sail?' }, response: failed },
      { protocol: 'openai-responses', request: { input: 'Sail?' }, response: parentReply },
    ]);
    expect(lineages).toEqual(['main', 'main']);
  });
});

describe('OpenAI Responses requests and failures', () => {
  test('claims POST …/responses only', () => {
    const claims = (method: string, path: string) =>
      protocolOf({ method, url: new URL(`http://api.test${path}`), body: {} })?.id;
    expect(claims('POST', '/v1/responses')).toBe('openai-responses');
    expect(claims('GET', '/v1/responses')).toBeUndefined();
    expect(claims('POST', '/v1/responses/resp_1/cancel')).toBeUndefined();
    expect(claims('POST', '/v1/chat/completions')).toBe('chat-completions');
  });

  test('the openai SDK shows a replay failure at once, with its code, without retrying', async () => {
    let sent = 0;
    const empty: Cassette = {
      provenance: { source: 'recorded', recordedAt: 'x', recorder: 'nestcast test' },
      calls: {},
    };
    const replay = createReplayingFetch(empty);
    const client = new OpenAI({
      apiKey: 'sk-test',
      baseURL: 'http://127.0.0.1:9/v1',
      fetch: (input, init) => {
        sent++;
        return replay(input as string, init);
      },
    });
    const error = await client.responses.create({ model: 'gpt-5', input: 'Sail?' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect(error).toMatchObject({ status: 422, code: 'UNRECORDED_SESSION' });
    expect((error as Error).message).toContain('UNRECORDED_SESSION: Session "main" made a model call');
    expect(sent).toBe(1);
  });
});
