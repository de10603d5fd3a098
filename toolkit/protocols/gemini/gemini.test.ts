import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { fuzzRuns } from '../../arbitraries/fuzz-runs.js';
import { sseSplitArbitrary } from '../../arbitraries/sse-split-arbitrary.js';
import type { AuthoredReply } from '../authored-reply.js';
import { canonicalJson } from '../../canonical/canonical-json.js';
import type { CanonicalRequest } from '../../canonical/canonical-request.js';
import type { RecordedResponse, StreamedResponse } from '../../exchange/recorded-response.js';
import { fixtureText, sseOfChunkLines, streamedResponse } from '../testing/streamed-response.js';
import type { RenderContext, WireRequest } from '../wire-protocol.js';
import { derivedCallId } from './call-ids.js';
import { eventKind, mayCallTools } from './event-kind.js';
import { gemini } from './gemini.js';

const conversationOf = (body: unknown) => gemini.conversation(body as CanonicalRequest);

const fixture = (name: string): string => fixtureText(new URL(`./fixtures/${name}`, import.meta.url));

const STREAM = '/v1beta/models/gemini-2.0-flash:streamGenerateContent?alt=sse';

function request(body: unknown, path = STREAM, method = 'POST'): WireRequest {
  return {
    method,
    url: new URL(path, 'https://generativelanguage.googleapis.com'),
    body: body as CanonicalRequest | undefined,
  };
}

function json(body: unknown, status = 200): RecordedResponse {
  return { status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
}

const context = (stream: boolean): RenderContext => ({
  stream,
  model: 'gemini-test',
  toolCallIds: ['ignored_1', 'ignored_2', 'ignored_3'],
  answerId: 'nestcast-answer-1',
  eventDelay: 4,
});

/** The interactions of the js-genai chat recording: each request body and its streamed answer's chunks. */
interface GenaiInteraction {
  readonly request: { readonly url: string; readonly bodySegments: readonly unknown[] };
  readonly response: { readonly bodySegments: readonly unknown[] };
}
const chat = (JSON.parse(fixture('chats-function-calling-stream.json')) as { interactions: GenaiInteraction[] })
  .interactions;
const sseOf = (chunks: readonly unknown[]): string =>
  chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\r\n\r\n`).join('');

describe('Gemini requests', () => {
  it('are POSTs to …/models/<model>:generateContent or :streamGenerateContent, Gemini API and Vertex paths alike', () => {
    expect(gemini.matches(request({}, STREAM))).toBe(true);
    expect(gemini.matches(request({}, '/v1beta/models/gemini-2.5-pro:generateContent?key=AIza-secret'))).toBe(true);
    expect(
      gemini.matches(
        request({}, '/v1/projects/p/locations/us/publishers/google/models/gemini-2.5-pro:generateContent'),
      ),
    ).toBe(true);
    expect(gemini.matches(request({}, '/v1beta/models/gemini-2.5-pro:countTokens'))).toBe(false);
    expect(gemini.matches(request({}, '/v1beta/models/gemini-2.5-pro:generateContent', 'GET'))).toBe(false);
  });

  it('stream only on :streamGenerateContent?alt=sse (without it the method answers one JSON array)', () => {
    expect(gemini.streams(request({}, STREAM))).toBe(true);
    expect(gemini.streams(request({}, '/v1beta/models/m:streamGenerateContent'))).toBe(false);
    expect(gemini.streams(request({ stream: true }, '/v1beta/models/m:generateContent'))).toBe(false);
  });

  it('carry keys in x-goog-api-key, authorization or the key query parameter', () => {
    expect(gemini.credentials).toEqual({ headers: ['x-goog-api-key', 'authorization'], query: ['key'] });
  });

  it('read as a conversation: systemInstruction first, model as assistant, thoughts left out, other parts kept', () => {
    const body = {
      systemInstruction: { parts: [{ text: 'Be ' }, { text: 'brief.' }] },
      contents: [
        { role: 'user', parts: [{ text: 'Look at ' }, { inlineData: { mimeType: 'image/png', data: 'AAAA' } }] },
        {
          role: 'model',
          parts: [
            { text: 'Hmm.', thought: true },
            { text: 'A cat.', thoughtSignature: 'c2ln' },
          ],
        },
      ],
    };
    expect(conversationOf(body).messages).toEqual([
      { role: 'system', text: 'Be brief.' },
      {
        role: 'user',
        text: 'Look at ',
        other: [canonicalJson({ inlineData: { mimeType: 'image/png', data: 'AAAA' } })],
      },
      { role: 'assistant', text: 'A cat.' },
    ]);
  });

  it('read a model turn kept as one content per streamed chunk as one assistant message', () => {
    const body = {
      contents: [
        { role: 'user', parts: [{ text: 'hi' }] },
        { role: 'model', parts: [{ text: 'Hel' }] },
        { role: 'model', parts: [{ text: 'lo' }, { functionCall: { name: 'f', args: { a: 1 } } }] },
        { role: 'user', parts: [{ text: 'more' }] },
      ],
    };
    expect(conversationOf(body).messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
    expect(conversationOf(body).messages[1]).toEqual({
      role: 'assistant',
      text: 'Hello',
      toolCalls: [{ id: derivedCallId('f', { a: 1 }, 0), name: 'f', arguments: '{"a":1}' }],
    });
  });

  it('answer each function call by name and order, whatever order the responses come in', () => {
    const body = {
      contents: [
        { role: 'user', parts: [{ text: 'Ask two children.' }] },
        {
          role: 'model',
          parts: [
            { functionCall: { name: 'child', args: { task: 'one' } } },
            { functionCall: { name: 'lookup', args: { q: 'x' } } },
            { functionCall: { name: 'child', args: { task: 'two' } } },
          ],
        },
        {
          role: 'user',
          parts: [
            { functionResponse: { name: 'lookup', response: { output: 'found' } } },
            { functionResponse: { name: 'child', response: { output: 'first' } } },
            { functionResponse: { name: 'child', response: { output: 'second' } } },
          ],
        },
      ],
    };
    const [, model, results] = conversationOf(body).messages;
    const ids = (model?.toolCalls ?? []).map((call) => call.id);
    expect(new Set(ids).size).toBe(3);
    expect(results).toEqual({
      role: 'tool',
      text: '{"output":"found"}{"output":"first"}{"output":"second"}',
      answers: [ids[1], ids[0], ids[2]],
      answerTexts: ['{"output":"found"}', '{"output":"first"}', '{"output":"second"}'],
    });
  });

  it('keep the ids of calls and responses that carry them', () => {
    const body = {
      contents: [
        { role: 'model', parts: [{ functionCall: { id: 'call-7', name: 'f', args: {} } }] },
        { role: 'user', parts: [{ functionResponse: { id: 'call-7', name: 'f', response: {} } }] },
      ],
    };
    const [model, result] = conversationOf(body).messages;
    expect(model?.toolCalls?.[0]?.id).toBe('call-7');
    expect(result?.answers).toEqual(['call-7']);
  });
});

describe('Gemini answers', () => {
  it('derive the same call id from a real recorded answer as from the next real request that carries it back', () => {
    const [first, second] = chat;
    const reply = gemini.reply(streamedResponse(sseOf(first?.response.bodySegments ?? [])));
    expect(reply?.message.toolCalls).toEqual([
      {
        id: derivedCallId('customDivide', { denominator: 2, numerator: 100 }, 0),
        name: 'customDivide',
        arguments: '{"denominator":2,"numerator":100}',
      },
    ]);
    expect(reply?.usage).toEqual({ input: 21, output: 6 });
    const next = conversationOf(second?.request.bodySegments[0]);
    expect(next.messages[1]).toEqual(reply?.message);
  });

  it('read a real streamed text answer, its thought-signature-only chunk adding nothing', () => {
    const reply = gemini.reply(
      streamedResponse(sseOfChunkLines(fixture('google-text.chunks.txt'), { named: false, eol: '\r\n' })),
    );
    expect(reply).toEqual({
      message: { role: 'assistant', text: 'There are **3** "r"s in strawberry.\n\nst**r**awbe**rr**y' },
      usage: { input: 9, output: 23 + 185 },
    });
  });

  it('read the same call from a real tool call streamed and as JSON', () => {
    const streamed = gemini.reply(
      streamedResponse(sseOfChunkLines(fixture('google-tool-call.chunks.txt'), { named: false })),
    );
    const whole = gemini.reply(json(JSON.parse(fixture('google-tool-call.json'))));
    const call = {
      id: derivedCallId('weather', { location: 'San Francisco' }, 0),
      name: 'weather',
      arguments: '{"location":"San Francisco"}',
    };
    expect(streamed?.message).toEqual({ role: 'assistant', text: '', toolCalls: [call] });
    expect(whole?.message).toEqual(streamed?.message);
    expect(gemini.reply(json(JSON.parse(fixture('google-text.json'))))?.usage).toEqual({ input: 9, output: 28 + 244 });
  });

  it('read the JSON array :streamGenerateContent answers without alt=sse', () => {
    expect(gemini.reply(json(chat[0]?.response.bodySegments))?.message.toolCalls?.[0]?.name).toBe('customDivide');
  });

  it('assemble a call whose arguments Vertex streams in partialArgs into the call the next request carries back', () => {
    const chunk = (functionCall: object) => ({
      candidates: [{ content: { role: 'model', parts: [{ functionCall }] } }],
    });
    const events = [
      chunk({
        name: 'book',
        partialArgs: [{ jsonPath: '$.city', stringValue: 'Ly', willContinue: true }],
        willContinue: true,
      }),
      chunk({ partialArgs: [{ jsonPath: '$.city', stringValue: 'on' }], willContinue: true }),
      chunk({
        partialArgs: [
          { jsonPath: '$.guests[0].name', stringValue: 'Ada' },
          { jsonPath: "$.guests[0]['age in years']", numberValue: 36 },
          { jsonPath: '$.late', boolValue: false },
          { jsonPath: '$.note', nullValue: 'NULL_VALUE' },
        ],
        willContinue: true,
      }),
      chunk({}),
      { candidates: [{ content: { role: 'model', parts: [{ text: '' }] }, finishReason: 'STOP' }] },
    ];
    const args = { city: 'Lyon', guests: [{ name: 'Ada', 'age in years': 36 }], late: false, note: null };
    const reply = gemini.reply(streamedResponse(events.map((event) => `data: ${JSON.stringify(event)}\n\n`).join('')));
    expect(reply?.message).toEqual({
      role: 'assistant',
      text: '',
      toolCalls: [{ id: derivedCallId('book', args, 0), name: 'book', arguments: canonicalJson(args) }],
    });
    const next = conversationOf({ contents: [{ role: 'model', parts: [{ functionCall: { name: 'book', args } }] }] });
    expect(next.messages[0]).toEqual(reply?.message);
  });

  it('take a streamed call whose stream ended before it said it was complete as it stands, its own id kept', () => {
    const data = {
      candidates: [
        {
          content: {
            role: 'model',
            parts: [
              {
                functionCall: {
                  id: 'call-7',
                  name: 'f',
                  partialArgs: [{ jsonPath: '$.q', stringValue: 'x' }],
                  willContinue: true,
                },
              },
            ],
          },
        },
      ],
    };
    expect(gemini.reply(streamedResponse(`data: ${JSON.stringify(data)}\n\n`))?.message.toolCalls).toEqual([
      { id: 'call-7', name: 'f', arguments: '{"q":"x"}' },
    ]);
  });

  it('are no reply when the call failed or a chunk is an error', () => {
    const error = { error: { code: 429, message: 'quota', status: 'RESOURCE_EXHAUSTED' } };
    expect(gemini.reply(json(error, 429))).toBeUndefined();
    expect(gemini.reply(streamedResponse(`data: ${JSON.stringify(error)}\n\n`))).toBeUndefined();
    expect(gemini.reply({ error: { kind: 'network', message: 'reset' } })).toBeUndefined();
    expect(gemini.reply(json({ promptFeedback: { blockReason: 'SAFETY' } }))).toBeUndefined();
  });

  test.prop(
    [
      fc
        .record({
          eol: fc.constantFrom('\n', '\r\n'),
          file: fc.constantFrom('google-text.chunks.txt', 'google-tool-call.chunks.txt'),
        })
        .map(({ eol, file }) => new TextEncoder().encode(sseOfChunkLines(fixture(file), { named: false, eol })))
        .chain((bytes) => fc.tuple(fc.constant(bytes), sseSplitArbitrary(bytes))),
    ],
    { numRuns: fuzzRuns(200) },
  )('read the same reply from a real stream however its bytes are split', ([bytes, split]) => {
    expect(gemini.reply(streamedResponse(split))).toEqual(gemini.reply(streamedResponse([bytes])));
  });
});

describe('Gemini stream chunks', () => {
  it('are a function call, text or thoughts by their parts; a signature-only chunk carries none', () => {
    const kinds = (file: string) =>
      streamedResponse(sseOfChunkLines(fixture(file), { named: false })).events.map((event) =>
        'data' in event ? eventKind(event) : undefined,
      );
    expect(kinds('google-text.chunks.txt')).toEqual(['text', 'text', undefined]);
    expect(kinds('google-tool-call.chunks.txt')).toEqual(['tool-call', undefined]);
    expect(
      eventKind({ data: JSON.stringify({ candidates: [{ content: { parts: [{ text: 'hm', thought: true }] } }] }) }),
    ).toBe('reasoning');
  });

  it('say an answer may call tools only when it holds a functionCall part', () => {
    expect(
      mayCallTools(streamedResponse(sseOfChunkLines(fixture('google-tool-call.chunks.txt'), { named: false }))),
    ).toBe(true);
    expect(mayCallTools(json(JSON.parse(fixture('google-tool-call.json'))))).toBe(true);
    expect(mayCallTools(json(JSON.parse(fixture('google-text.json'))))).toBe(false);
  });
});

describe('Gemini errors', () => {
  it('carry the nestcast code in Google’s error shape with a status @google/genai does not retry', () => {
    const error = gemini.errorResponse('UNRECORDED_SESSION', 'no recording for this session');
    expect(error.body).toMatchObject({
      error: {
        code: error.status,
        message: 'UNRECORDED_SESSION: no recording for this session',
        status: 'FAILED_PRECONDITION',
      },
    });
    expect([408, 429].includes(error.status) || error.status >= 500).toBe(false);
    expect(error.headers['content-type']).toContain('application/json');
  });
});

const text = fc.string({ unit: fc.constantFrom('a', 'b', ' ', 'é', '😀', '\n', '"'), maxLength: 30 });
const authoredReply: fc.Arbitrary<AuthoredReply> = fc.record(
  {
    text,
    reasoning: text,
    toolCalls: fc.array(
      fc.record(
        {
          id: fc.constantFrom('call_a', 'call_b'),
          name: fc.constantFrom('search', 'run_child'),
          args: fc.dictionary(fc.constantFrom('query', 'n'), fc.oneof(text, fc.integer(), fc.constant({ a: [1] }))),
        },
        { requiredKeys: ['name', 'args'] },
      ),
      { maxLength: 3 },
    ),
  },
  { requiredKeys: [] },
);

describe('Gemini rendering', () => {
  test.prop([authoredReply, fc.boolean()], { numRuns: fuzzRuns(200) })(
    'renders an authored turn that reads back as its text and calls, streamed and as JSON, with the script’s ids or ids derived as for the request',
    (turn, stream) => {
      const reply = gemini.reply(gemini.render(turn, context(stream)));
      const calls = (turn.toolCalls ?? []).map((call, index) => ({
        id: call.id ?? derivedCallId(call.name, call.args, index),
        name: call.name,
        arguments: canonicalJson(call.args),
      }));
      expect(reply?.message).toEqual({
        role: 'assistant',
        text: turn.text ?? '',
        ...(calls.length > 0 ? { toolCalls: calls } : {}),
      });
      const carriedBack = { contents: [{ role: 'model', parts: candidateParts(gemini.render(turn, context(false))) }] };
      expect(conversationOf(carriedBack).messages[0]).toEqual(reply?.message);
    },
  );

  it('streams data-only chunks, the last one with the finish reason and usage', () => {
    const rendered = gemini.render(
      { text: 'Hi there.', toolCalls: [{ name: 'f', args: { a: 1 } }] },
      context(true),
    ) as StreamedResponse;
    const chunks = rendered.events.map((event) =>
      'data' in event && event.event === undefined ? JSON.parse(event.data) : undefined,
    );
    expect(
      chunks.every((chunk) => chunk?.responseId === 'nestcast-answer-1' && chunk.modelVersion === 'gemini-test'),
    ).toBe(true);
    expect(chunks.slice(0, -1).every((chunk) => chunk.candidates[0].finishReason === undefined)).toBe(true);
    expect(chunks.at(-1)).toMatchObject({
      candidates: [{ finishReason: 'STOP', content: { parts: [{ functionCall: { name: 'f', args: { a: 1 } } }] } }],
      usageMetadata: { promptTokenCount: 0 },
    });
  });

  it('answers :streamGenerateContent without alt=sse with the streamed chunks as one JSON array, read back as the same reply', () => {
    const turn = { text: 'Hi there.', toolCalls: [{ name: 'f', args: { a: 1 } }] };
    const url = new URL('https://example.test/v1beta/models/gemini-test:streamGenerateContent');
    const rendered = gemini.render(turn, { ...context(false), url });
    const streamed = gemini.render(turn, context(true)) as StreamedResponse;
    if (!('body' in rendered)) throw new Error('expected a JSON answer');
    expect(JSON.parse(rendered.body)).toEqual(
      streamed.events.map((event) => ('data' in event ? JSON.parse(event.data) : undefined)),
    );
    expect(gemini.reply(rendered)).toEqual(gemini.reply(streamed));
    const plain = gemini.render(turn, { ...context(false), url: new URL(':generateContent', url) });
    expect(Array.isArray(JSON.parse((plain as { body: string }).body))).toBe(false);
  });

  it('refuses argument text that is no JSON object, naming the call', () => {
    expect(() => gemini.render({ toolCalls: [{ name: 'search', args: '[1]' }] }, context(true))).toThrow(
      expect.objectContaining({ code: 'SCRIPT_INVALID', message: expect.stringContaining('"search"') }),
    );
  });
});

function candidateParts(response: RecordedResponse): unknown {
  if (!('body' in response)) throw new Error('expected a JSON answer');
  return (JSON.parse(response.body) as { candidates: { content: { parts: unknown } }[] }).candidates[0]?.content.parts;
}
