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
import { anthropicMessages } from './anthropic-messages.js';
import { eventKind, mayCallTools } from './event-kind.js';

const conversationOf = (body: unknown) => anthropicMessages.conversation(body as CanonicalRequest);

const fixture = (name: string): string => fixtureText(new URL(`./fixtures/${name}`, import.meta.url));

function request(body: unknown, path = '/v1/messages', method = 'POST'): WireRequest {
  return { method, url: new URL(path, 'https://api.anthropic.com'), body: body as CanonicalRequest | undefined };
}

function json(body: unknown, status = 200): RecordedResponse {
  return { status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
}

const context = (stream: boolean, toolCallIds: readonly string[] = []): RenderContext => ({
  stream,
  model: 'claude-test',
  toolCallIds,
  answerId: 'nestcast_1',
  eventDelay: 3,
});

describe('Anthropic Messages requests', () => {
  it('are POSTs to …/messages with a messages array, with or without ?beta=true', () => {
    const body = { model: 'claude', messages: [] };
    expect(anthropicMessages.matches(request(body))).toBe(true);
    expect(anthropicMessages.matches(request(body, '/v1/messages?beta=true'))).toBe(true);
    expect(anthropicMessages.matches(request(body, '/lineage/main/v1/messages'))).toBe(true);
    expect(anthropicMessages.matches(request(body, '/v1/messages/count_tokens'))).toBe(false);
    expect(anthropicMessages.matches(request(body, '/v1/chat/completions'))).toBe(false);
    expect(anthropicMessages.matches(request(body, '/v1/messages', 'GET'))).toBe(false);
    expect(anthropicMessages.matches(request(undefined))).toBe(false);
  });

  it('stream when the body says stream: true', () => {
    expect(anthropicMessages.streams(request({ messages: [], stream: true }))).toBe(true);
    expect(anthropicMessages.streams(request({ messages: [], stream: false }))).toBe(false);
    expect(anthropicMessages.streams(request({ messages: [] }))).toBe(false);
  });

  it('read as a conversation: system first, tool_use as calls, a message of tool_result blocks as a tool message, thinking left out', () => {
    const body = {
      model: 'claude',
      system: [
        { type: 'text', text: 'You are ' },
        { type: 'text', text: 'terse.', cache_control: { type: 'ephemeral' } },
      ],
      messages: [
        { role: 'user', content: 'Weather in Paris?' },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'Look it up.', signature: 'c2ln' },
            { type: 'redacted_thinking', data: 'abc' },
            { type: 'text', text: 'Checking.' },
            { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { unit: 'C', location: 'Paris' } },
          ],
        },
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: '21 C' }] }],
        },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'And this?' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } },
          ],
        },
      ],
    };
    expect(conversationOf(body)).toEqual({
      messages: [
        { role: 'system', text: 'You are terse.' },
        { role: 'user', text: 'Weather in Paris?' },
        {
          role: 'assistant',
          text: 'Checking.',
          toolCalls: [{ id: 'toolu_1', name: 'get_weather', arguments: '{"location":"Paris","unit":"C"}' }],
        },
        { role: 'tool', text: '21 C', answers: ['toolu_1'], answerTexts: ['21 C'] },
        {
          role: 'user',
          text: 'And this?',
          other: [canonicalJson({ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } })],
        },
      ],
    });
  });

  it('keep each answer of a message that answers several tool calls, beside the joined text', () => {
    const body = {
      messages: [
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_a', content: 'sunny' },
            { type: 'tool_result', tool_use_id: 'toolu_b', content: [{ type: 'text', text: '21 C' }] },
          ],
        },
      ],
    };
    expect(conversationOf(body).messages).toEqual([
      { role: 'tool', text: 'sunny21 C', answers: ['toolu_a', 'toolu_b'], answerTexts: ['sunny', '21 C'] },
    ]);
  });

  it('carry a system string as the first message', () => {
    const body = { system: 'Be brief.', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] };
    expect(conversationOf(body).messages).toEqual([
      { role: 'system', text: 'Be brief.' },
      { role: 'user', text: 'hi' },
    ]);
  });

  it('put keys in x-api-key or authorization, never in the query', () => {
    expect(anthropicMessages.credentials).toEqual({ headers: ['x-api-key', 'authorization'], query: [] });
  });
});

describe('Anthropic Messages answers', () => {
  it('read a real streamed tool call: text, then input_json_delta fragments joined, with usage', () => {
    expect(anthropicMessages.reply(streamedResponse(fixture('tool_use_response.txt')))).toEqual({
      message: {
        role: 'assistant',
        text: "I'll check the current weather in Paris for you.",
        toolCalls: [{ id: 'toolu_01NRLabsLyVHZPKxbKvkfSMn', name: 'get_weather', arguments: '{"location":"Paris"}' }],
      },
      usage: { input: 377, output: 65 },
    });
  });

  it('read a real streamed text answer with a ping', () => {
    expect(anthropicMessages.reply(streamedResponse(fixture('basic_response.txt')))).toEqual({
      message: { role: 'assistant', text: 'Hello there!' },
      usage: { input: 11, output: 6 },
    });
  });

  it('leave a real stream’s thinking block and its signature out of the reply', () => {
    const stream = streamedResponse(sseOfChunkLines(fixture('anthropic-clear-thinking.1.chunks.txt'), { named: true }));
    expect(anthropicMessages.reply(stream)).toEqual({
      message: { role: 'assistant', text: '925 ÷ 5 = 185' },
      usage: { input: 69, output: 53 },
    });
  });

  it('read a real JSON answer, and the next request carrying it back reads as the same message', () => {
    const answer = JSON.parse(fixture('anthropic-tool-no-args.json')) as { content: unknown[] };
    const reply = anthropicMessages.reply(json(answer));
    expect(reply?.message.toolCalls).toEqual([
      { id: 'toolu_01LRmxn9vGM1d2DZSDBowdZ1', name: 'updateIssueList', arguments: '{}' },
    ]);
    expect(reply?.usage).toEqual({ input: 602, output: 93 });
    const next = conversationOf({
      messages: [
        { role: 'user', content: 'Update the list.' },
        { role: 'assistant', content: answer.content },
      ],
    });
    expect(next.messages[1]).toEqual(reply?.message);
  });

  it('read the same reply from a real answer streamed and as JSON', () => {
    const streamed = anthropicMessages.reply(
      streamedResponse(sseOfChunkLines(fixture('anthropic-text.chunks.txt'), { named: true })),
    );
    expect(streamed?.message).toEqual({
      role: 'assistant',
      text: "Hello! I'm doing well, thank you for asking. How are you doing today? Is there anything I can help you with?",
    });
    expect(anthropicMessages.reply(json(JSON.parse(fixture('anthropic-text.json'))))?.message.text).toMatch(/^Hello!/);
  });

  it('are no reply when the stream carries an error event or the call failed', () => {
    const overloaded = `${fixture('basic_response.txt').split('event: message_delta')[0]}event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n`;
    expect(anthropicMessages.reply(streamedResponse(overloaded))).toBeUndefined();
    expect(anthropicMessages.reply(json({ type: 'error', error: { type: 'x', message: 'y' } }, 529))).toBeUndefined();
    expect(anthropicMessages.reply({ error: { kind: 'network', message: 'reset' } })).toBeUndefined();
    expect(anthropicMessages.reply(json({ unrelated: true }))).toBeUndefined();
  });

  test.prop(
    [
      fc
        .record({ crlf: fc.boolean(), file: fc.constantFrom('tool_use_response.txt', 'basic_response.txt') })
        .map(({ crlf, file }) => new TextEncoder().encode(crlf ? fixture(file).replace(/\n/g, '\r\n') : fixture(file)))
        .chain((bytes) => fc.tuple(fc.constant(bytes), sseSplitArbitrary(bytes))),
    ],
    { numRuns: fuzzRuns(200) },
  )('read the same reply from a real stream however its bytes are split', ([bytes, split]) => {
    expect(anthropicMessages.reply(streamedResponse(split))).toEqual(
      anthropicMessages.reply(streamedResponse([bytes])),
    );
  });
});

describe('Anthropic Messages stream events', () => {
  it('are thinking, text or tool input by their delta; pings, starts of text and stops carry none', () => {
    const kinds = (file: string, named: boolean) =>
      streamedResponse(named ? sseOfChunkLines(fixture(file), { named: true }) : fixture(file)).events.map((event) =>
        'data' in event ? eventKind(event) : undefined,
      );
    expect(new Set(kinds('anthropic-clear-thinking.1.chunks.txt', true))).toEqual(
      new Set(['reasoning', 'text', undefined]),
    );
    const tool = kinds('tool_use_response.txt', false);
    expect(tool.filter((kind) => kind === 'tool-call')).toHaveLength(6);
    expect(tool.filter((kind) => kind === 'text')).toHaveLength(2);
  });

  it('say an answer may call tools only when it holds a tool_use block', () => {
    expect(mayCallTools(streamedResponse(fixture('tool_use_response.txt')))).toBe(true);
    expect(mayCallTools(json(JSON.parse(fixture('anthropic-tool-no-args.json'))))).toBe(true);
    expect(mayCallTools(streamedResponse(fixture('basic_response.txt')))).toBe(false);
    expect(mayCallTools(json(JSON.parse(fixture('anthropic-text.json'))))).toBe(false);
  });
});

describe('Anthropic Messages errors', () => {
  it('carry the nestcast code in Anthropic’s error shape, with a status and header the SDK does not retry', () => {
    const error = anthropicMessages.errorResponse('REQUEST_MISMATCH', 'the run took a different path');
    expect(error.body).toEqual({
      type: 'error',
      error: { type: 'nestcast_replay_error', message: 'REQUEST_MISMATCH: the run took a different path' },
    });
    expect(error.headers['x-should-retry']).toBe('false');
    expect([408, 409, 429].includes(error.status) || error.status >= 500).toBe(false);
  });
});

const text = fc.string({ unit: fc.constantFrom('a', 'b', ' ', 'é', '😀', '\n', '"'), maxLength: 30 });
const authoredReply: fc.Arbitrary<AuthoredReply> = fc.record(
  {
    text,
    reasoning: text,
    toolCalls: fc.array(
      fc.record({
        name: fc.constantFrom('search', 'run_child', 'get_weather'),
        args: fc.dictionary(
          fc.constantFrom('query', 'n', 'nested'),
          fc.oneof(text, fc.integer(), fc.constant({ a: [1] })),
        ),
      }),
      { maxLength: 3 },
    ),
  },
  { requiredKeys: [] },
);

describe('Anthropic Messages rendering', () => {
  test.prop([authoredReply, fc.boolean()], { numRuns: fuzzRuns(200) })(
    'renders an authored turn that reads back as its text and tool calls, streamed and as JSON',
    (turn, stream) => {
      const ids = (turn.toolCalls ?? []).map((_, index) => `toolu_${index + 1}`);
      const reply = anthropicMessages.reply(anthropicMessages.render(turn, context(stream, ids)));
      expect(reply?.message).toEqual({
        role: 'assistant',
        text: turn.text ?? '',
        ...((turn.toolCalls ?? []).length > 0
          ? {
              toolCalls: (turn.toolCalls ?? []).map((call, index) => ({
                id: ids[index],
                name: call.name,
                arguments: canonicalJson(call.args),
              })),
            }
          : {}),
      });
    },
  );

  it('streams message_start … message_stop, each event named by its type, thinking signed', () => {
    const turn = { reasoning: 'Think.', text: 'Hi.', toolCalls: [{ name: 'run_child', args: { task: 'count' } }] };
    const rendered = anthropicMessages.render(turn, context(true, ['toolu_a'])) as StreamedResponse;
    const types = rendered.events.map((event) =>
      'data' in event ? (JSON.parse(event.data) as { type: string }).type : '',
    );
    expect(
      rendered.events.every((event) => 'data' in event && event.event === types[rendered.events.indexOf(event)]),
    ).toBe(true);
    expect(types[0]).toBe('message_start');
    expect(types.slice(-2)).toEqual(['message_delta', 'message_stop']);
    expect(types).toContain('ping');
    const data = rendered.events.map((event) => ('data' in event ? event.data : ''));
    expect(data.some((line) => line.includes('"signature_delta"'))).toBe(true);
    expect(data.filter((line) => line.includes('"input_json_delta"')).length).toBeGreaterThan(1);
    expect(data.at(-2)).toContain('"stop_reason":"tool_use"');
    expect(rendered.events.every((event) => event.delay === 3)).toBe(true);
  });

  it('answers as one JSON message with the model, the id and the stop reason', () => {
    const rendered = anthropicMessages.render({ text: 'Done.', usage: { prompt: 7, completion: 2 } }, context(false));
    expect('body' in rendered && JSON.parse(rendered.body)).toMatchObject({
      id: 'msg_nestcast_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-test',
      content: [{ type: 'text', text: 'Done.' }],
      stop_reason: 'end_turn',
      usage: { input_tokens: 7, output_tokens: 2 },
    });
    expect(anthropicMessages.reply(rendered)?.usage).toEqual({ input: 7, output: 2 });
  });

  it('refuses argument text that is no JSON object in a JSON answer, naming the call', () => {
    expect(() =>
      anthropicMessages.render({ toolCalls: [{ name: 'search', args: 'not json' }] }, context(false, ['t'])),
    ).toThrow(expect.objectContaining({ code: 'SCRIPT_INVALID', message: expect.stringContaining('"search"') }));
  });
});
