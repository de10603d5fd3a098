import { afterEach, describe, expect, it } from 'vitest';
import {
  destroySocket,
  end,
  reply,
  scriptedResponse,
  sseFrames,
  startLoopbackServer,
  wait,
  write,
  type LoopbackHandler,
  type LoopbackServer,
  type ResponseStep,
} from '../../../test/support/loopback-server.js';
import { LlmError } from '../errors.js';
import type { LlmEvent, LlmRequest } from '../types.js';
import { createOpenAICompatibleAdapter, type OpenAICompatibleConfig } from './openai-compatible-adapter.js';

const chunk = (delta: object, finishReason: string | null = null, extra: object = {}): object => ({
  id: 'chatcmpl-1',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'deepseek-v4-flash',
  choices: [{ index: 0, delta, finish_reason: finishReason }],
  ...extra,
});
const usageChunk = (usage: object): object => ({
  id: 'chatcmpl-1',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'deepseek-v4-flash',
  choices: [],
  usage,
});
const toolFragment = (index: number, fields: { id?: string; name?: string; args?: string }): object => ({
  index,
  ...(fields.id === undefined ? {} : { id: fields.id, type: 'function' }),
  function: { ...(fields.name === undefined ? {} : { name: fields.name }), arguments: fields.args ?? '' },
});

const hello: LlmRequest = { messages: [{ role: 'user', content: 'hello' }] };

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(script: readonly ResponseStep[] | LoopbackHandler): Promise<LoopbackServer> {
  server = await startLoopbackServer(typeof script === 'function' ? script : scriptedResponse(script));
  return server;
}

function adapterFor(target: LoopbackServer, config: OpenAICompatibleConfig = {}) {
  return createOpenAICompatibleAdapter({ baseUrl: target.url, apiKey: 'sk-test', env: {}, ...config });
}

async function collect(events: AsyncIterable<LlmEvent>): Promise<LlmEvent[]> {
  const seen: LlmEvent[] = [];
  for await (const event of events) seen.push(event);
  return seen;
}

async function failureOf(events: AsyncIterable<LlmEvent>): Promise<LlmError> {
  try {
    await collect(events);
  } catch (error) {
    if (error instanceof LlmError) return error;
    throw error;
  }
  throw new Error('the call succeeded but a failure was expected');
}

function onlyRequest(target: LoopbackServer) {
  expect(target.requests).toHaveLength(1);
  const [request] = target.requests;
  if (request === undefined) throw new Error('no request recorded');
  return request;
}

describe('configuring the adapter', () => {
  it("refuses a key it does not read, naming the one meant: the openai SDK's baseURL would send the key beside it to DeepSeek", () => {
    expect(() =>
      createOpenAICompatibleAdapter({
        baseURL: 'https://api.openai.com/v1',
        apiKey: 'sk-openai',
      } as OpenAICompatibleConfig),
    ).toThrow(
      expect.objectContaining({
        code: 'CONFIG_INVALID',
        message:
          'createOpenAICompatibleAdapter: unknown option "baseURL" (did you mean "baseUrl"?); the options are name, baseUrl, apiKey, model, fetch, env, idleTimeoutMs, extraBody.',
      }),
    );
  });
});

describe('streaming a completion', () => {
  it('streams text deltas, then the usage from the final empty-choices chunk, then the finish', async () => {
    const target = await serve([
      write(
        sseFrames([
          chunk({ role: 'assistant', content: '' }),
          chunk({ content: 'Hel' }),
          chunk({ content: 'lo' }),
          chunk({}, 'stop'),
          usageChunk({
            prompt_tokens: 12,
            completion_tokens: 2,
            total_tokens: 14,
            prompt_tokens_details: { cached_tokens: 8 },
          }),
        ]),
      ),
      end(),
    ]);
    expect(await collect(adapterFor(target).stream(hello, {}))).toEqual([
      { type: 'text-delta', text: 'Hel' },
      { type: 'text-delta', text: 'lo' },
      { type: 'usage', usage: { inputTokens: 12, outputTokens: 2, cachedInputTokens: 8 } },
      { type: 'finish', reason: 'stop' },
    ]);
  });

  it('yields each delta as soon as it arrives, before the server has sent the rest', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let restSent = false;
    const target = await serve(async (_request, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(sseFrames([chunk({ content: 'first' })], { done: false }));
      await released;
      restSent = true;
      res.end(sseFrames([chunk({ content: ' second' }, 'stop')]));
    });
    const seen: LlmEvent[] = [];
    for await (const event of adapterFor(target).stream(hello, {})) {
      if (seen.length === 0) {
        expect(event).toEqual({ type: 'text-delta', text: 'first' });
        expect(restSent).toBe(false);
        release();
      }
      seen.push(event);
    }
    expect(seen.map((event) => event.type)).toEqual(['text-delta', 'text-delta', 'finish']);
  });

  it('streams reasoning_content as reasoning deltas, ignoring the empty first one', async () => {
    const target = await serve([
      write(
        sseFrames([
          chunk({ role: 'assistant', content: null, reasoning_content: '' }),
          chunk({ content: null, reasoning_content: 'Think' }),
          chunk({ content: null, reasoning_content: 'ing.' }),
          chunk({ content: 'Answer', reasoning_content: null }),
          chunk({}, 'stop', {
            usage: { prompt_tokens: 5, completion_tokens: 9, completion_tokens_details: { reasoning_tokens: 6 } },
          }),
        ]),
      ),
      end(),
    ]);
    expect(await collect(adapterFor(target).stream(hello, {}))).toEqual([
      { type: 'reasoning-delta', text: 'Think' },
      { type: 'reasoning-delta', text: 'ing.' },
      { type: 'text-delta', text: 'Answer' },
      { type: 'usage', usage: { inputTokens: 5, outputTokens: 9, reasoningTokens: 6 } },
      { type: 'finish', reason: 'stop' },
    ]);
  });

  it('assembles tool calls from argument fragments interleaved by index and emits them complete, in index order, at the end', async () => {
    const target = await serve([
      write(
        sseFrames([
          chunk({ content: 'Let me look.' }),
          chunk({ tool_calls: [toolFragment(1, { id: 'call_b', name: 'grep', args: '' })] }),
          chunk({ tool_calls: [toolFragment(0, { id: 'call_a', name: 'read_file', args: '{"pa' })] }),
          chunk({ tool_calls: [toolFragment(1, { args: '{"pattern":' }), toolFragment(0, { args: 'th":"a.ts"' })] }),
          chunk({ tool_calls: [toolFragment(1, { args: '"x"}' })] }),
          chunk({ tool_calls: [toolFragment(0, { args: '}' })] }),
          chunk({}, 'tool_calls'),
          usageChunk({ prompt_tokens: 30, completion_tokens: 20, prompt_cache_hit_tokens: 16 }),
        ]),
      ),
      end(),
    ]);
    expect(await collect(adapterFor(target).stream(hello, {}))).toEqual([
      { type: 'text-delta', text: 'Let me look.' },
      { type: 'tool-call', id: 'call_a', name: 'read_file', arguments: '{"path":"a.ts"}' },
      { type: 'tool-call', id: 'call_b', name: 'grep', arguments: '{"pattern":"x"}' },
      { type: 'usage', usage: { inputTokens: 30, outputTokens: 20, cachedInputTokens: 16 } },
      { type: 'finish', reason: 'tool-calls' },
    ]);
  });

  it('keeps the last usage seen when usage comes both on the finish chunk and in a trailing chunk', async () => {
    const target = await serve([
      write(
        sseFrames([
          chunk({ content: 'x' }, 'stop', { usage: { prompt_tokens: 1, completion_tokens: 1 } }),
          usageChunk({ prompt_tokens: 7, completion_tokens: 3 }),
        ]),
      ),
      end(),
    ]);
    const events = await collect(adapterFor(target).stream(hello, {}));
    expect(events.filter((event) => event.type === 'usage')).toEqual([
      { type: 'usage', usage: { inputTokens: 7, outputTokens: 3 } },
    ]);
  });

  it('ignores SSE comment keep-alives and accepts CRLF framing', async () => {
    const target = await serve([
      write(': keep-alive\r\n\r\n'),
      write(`data: ${JSON.stringify(chunk({ content: 'ok' }))}\r\n\r\n: still here\r\n\r\n`),
      write(`data: ${JSON.stringify(chunk({}, 'length'))}\r\n\r\ndata: [DONE]\r\n\r\n`),
      end(),
    ]);
    expect(await collect(adapterFor(target).stream(hello, {}))).toEqual([
      { type: 'text-delta', text: 'ok' },
      { type: 'finish', reason: 'max-tokens' },
    ]);
  });

  it('stops at [DONE] even when the server keeps the connection open after it', async () => {
    const target = await serve([write(sseFrames([chunk({ content: 'done' }, 'stop')])), wait(60_000)]);
    expect(await collect(adapterFor(target).stream(hello, {}))).toEqual([
      { type: 'text-delta', text: 'done' },
      { type: 'finish', reason: 'stop' },
    ]);
  });
});

describe('what goes on the wire', () => {
  it('posts to <baseUrl>/chat/completions with the lineage header and the bearer key', async () => {
    const target = await serve([write(sseFrames([chunk({}, 'stop')])), end()]);
    await collect(
      createOpenAICompatibleAdapter({ baseUrl: `${target.url}/`, apiKey: 'sk-live', env: {} }).stream(hello, {
        lineage: 'main/call_7',
      }),
    );
    const request = onlyRequest(target);
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/chat/completions');
    expect(request.headers['x-session-lineage']).toBe('main/call_7');
    expect(request.headers.authorization).toBe('Bearer sk-live');
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers.accept).toBe('text/event-stream');
  });

  it('sends lineage main and no authorization header when no lineage and no key are given', async () => {
    const target = await serve([write(sseFrames([chunk({}, 'stop')])), end()]);
    await collect(createOpenAICompatibleAdapter({ baseUrl: target.url, env: {} }).stream(hello, {}));
    const request = onlyRequest(target);
    expect(request.headers['x-session-lineage']).toBe('main');
    expect(request.headers).not.toHaveProperty('authorization');
  });

  it('reads base URL, key and model from the environment at call time', async () => {
    const target = await serve([write(sseFrames([chunk({}, 'stop')])), end()]);
    const env: NodeJS.ProcessEnv = {};
    const adapter = createOpenAICompatibleAdapter({ env });
    env.DEEPSEEK_BASE_URL = target.url;
    env.DEEPSEEK_API_KEY = 'sk-env';
    env.DEEPSEEK_MODEL = 'deepseek-v4-pro';
    await collect(adapter.stream(hello, {}));
    const request = onlyRequest(target);
    expect(request.headers.authorization).toBe('Bearer sk-env');
    expect(JSON.parse(request.body).model).toBe('deepseek-v4-pro');
  });

  it('prefers the request model over the configured one, and defaults to deepseek-v4-flash', async () => {
    const target = await serve([write(sseFrames([chunk({}, 'stop')])), end()]);
    await collect(adapterFor(target, { model: 'configured' }).stream({ ...hello, model: 'requested' }, {}));
    await collect(adapterFor(target).stream(hello, {}));
    expect(target.requests.map((request) => JSON.parse(request.body).model)).toEqual([
      'requested',
      'deepseek-v4-flash',
    ]);
  });

  it('sends a conversation with reasoning, tool calls and tool results in OpenAI form, with a fixed key order', async () => {
    const target = await serve([write(sseFrames([chunk({}, 'stop')])), end()]);
    const request: LlmRequest = {
      model: 'deepseek-v4-flash',
      system: 'You are terse.',
      messages: [
        { role: 'user', content: 'Read a.ts' },
        {
          role: 'assistant',
          content: '',
          reasoning: 'I should read it.',
          toolCalls: [
            { id: 'call_a', name: 'read_file', arguments: '{"path":"a.ts"}' },
            { id: 'call_b', name: 'grep', arguments: '{"pattern":"x"}' },
          ],
        },
        { role: 'tool', toolCallId: 'call_a', content: 'export {}' },
        { role: 'tool', toolCallId: 'call_b', content: 'no match' },
        { role: 'assistant', content: 'It is empty.' },
        { role: 'user', content: 'Thanks' },
      ],
      tools: [
        {
          name: 'read_file',
          description: 'Read a file',
          parameters: { type: 'object', properties: { path: { type: 'string' } } },
        },
      ],
      maxTokens: 256,
      temperature: 0,
    };
    await collect(adapterFor(target, { extraBody: { thinking: { type: 'enabled' } } }).stream(request, {}));
    const body = onlyRequest(target).body;
    expect(JSON.parse(body)).toEqual({
      model: 'deepseek-v4-flash',
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: 'Read a.ts' },
        {
          role: 'assistant',
          content: '',
          reasoning_content: 'I should read it.',
          tool_calls: [
            { id: 'call_a', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.ts"}' } },
            { id: 'call_b', type: 'function', function: { name: 'grep', arguments: '{"pattern":"x"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_a', content: 'export {}' },
        { role: 'tool', tool_call_id: 'call_b', content: 'no match' },
        { role: 'assistant', content: 'It is empty.' },
        { role: 'user', content: 'Thanks' },
      ],
      stream: true,
      stream_options: { include_usage: true },
      tools: [
        {
          type: 'function',
          function: {
            name: 'read_file',
            description: 'Read a file',
            parameters: { type: 'object', properties: { path: { type: 'string' } } },
          },
        },
      ],
      max_tokens: 256,
      temperature: 0,
      thinking: { type: 'enabled' },
    });
    expect(Object.keys(JSON.parse(body))).toEqual([
      'model',
      'messages',
      'stream',
      'stream_options',
      'tools',
      'max_tokens',
      'temperature',
      'thinking',
    ]);
  });

  it('omits the tools key when the request has no tools', async () => {
    const target = await serve([write(sseFrames([chunk({}, 'stop')])), end()]);
    await collect(adapterFor(target).stream({ ...hello, tools: [] }, {}));
    expect(Object.keys(JSON.parse(onlyRequest(target).body))).toEqual([
      'model',
      'messages',
      'stream',
      'stream_options',
    ]);
  });
});

describe('failures', () => {
  it('maps HTTP 401 to AUTH, keeping status and body and saying how to set the key', async () => {
    const body = '{"error":{"message":"Authentication Fails, Your api key is invalid","type":"authentication_error"}}';
    const target = await serve([reply(401, body)]);
    const error = await failureOf(createOpenAICompatibleAdapter({ baseUrl: target.url, env: {} }).stream(hello, {}));
    expect(error.code).toBe('AUTH');
    expect(error.status).toBe(401);
    expect(error.body).toBe(body);
    expect(error.message).toContain(`${target.url}/chat/completions`);
    expect(error.message).toContain('401');
    expect(error.message).toContain('set DEEPSEEK_API_KEY or pass apiKey');
  });

  it('maps HTTP 429 to RATE_LIMIT and keeps Retry-After and the request id', async () => {
    const target = await serve([
      reply(429, '{"error":{"message":"Rate limit reached"}}', { 'retry-after': '7', 'x-request-id': 'req-42' }),
    ]);
    const error = await failureOf(adapterFor(target).stream(hello, {}));
    expect(error.code).toBe('RATE_LIMIT');
    expect(error.status).toBe(429);
    expect(error.retryAfterMs).toBe(7000);
    expect(error.requestId).toBe('req-42');
    expect(error.body).toContain('Rate limit reached');
  });

  it('maps HTTP 500 to SERVER with its body', async () => {
    const target = await serve([reply(500, 'upstream exploded')]);
    const error = await failureOf(adapterFor(target).stream(hello, {}));
    expect(error).toMatchObject({ code: 'SERVER', status: 500, body: 'upstream exploded' });
    expect(error.message).toContain('upstream exploded');
  });

  it('maps HTTP 400 to BAD_REQUEST naming the model', async () => {
    const target = await serve([reply(400, '{"error":{"message":"Model Not Exist"}}')]);
    const error = await failureOf(adapterFor(target, { model: 'deepseek-nope' }).stream(hello, {}));
    expect(error).toMatchObject({ code: 'BAD_REQUEST', status: 400 });
    expect(error.message).toContain('deepseek-nope');
  });

  it('fails with NETWORK when nothing listens at the base URL', async () => {
    const closed = await startLoopbackServer(scriptedResponse([end()]));
    await closed.close();
    const error = await failureOf(createOpenAICompatibleAdapter({ baseUrl: closed.url, env: {} }).stream(hello, {}));
    expect(error.code).toBe('NETWORK');
    expect(error.message).toContain('before a response arrived');
    expect(error.cause).toBeDefined();
  });

  it('fails with NETWORK saying how many events arrived when the connection drops mid-stream', async () => {
    const target = await serve([
      write(sseFrames([chunk({ content: 'partial' }), chunk({ content: ' answer' })], { done: false })),
      wait(20),
      destroySocket(),
    ]);
    const seen: LlmEvent[] = [];
    let failure: unknown;
    try {
      for await (const event of adapterFor(target).stream(hello, {})) seen.push(event);
    } catch (error) {
      failure = error;
    }
    expect(seen).toEqual([
      { type: 'text-delta', text: 'partial' },
      { type: 'text-delta', text: ' answer' },
    ]);
    expect(failure).toBeInstanceOf(LlmError);
    expect(failure).toMatchObject({ code: 'NETWORK' });
    expect((failure as LlmError).message).toContain('cut after 2 events');
  });

  it('fails with PROTOCOL quoting the data when a chunk is not valid JSON', async () => {
    const target = await serve([
      write(`${sseFrames([chunk({ content: 'ok' })], { done: false })}data: {"choices": [oops\n\n`),
      wait(60_000),
    ]);
    const error = await failureOf(adapterFor(target).stream(hello, {}));
    expect(error.code).toBe('PROTOCOL');
    expect(error.message).toContain('{\\"choices\\": [oops');
    expect(error.body).toBe('{"choices": [oops');
    expect(await onlyRequest(target).outcome).toBe('closed-early');
  });

  it('truncates a long malformed chunk in the message but keeps it whole on the error', async () => {
    const junk = `{${'x'.repeat(1000)}`;
    const target = await serve([write(`data: ${junk}\n\n`), end()]);
    const error = await failureOf(adapterFor(target).stream(hello, {}));
    expect(error.code).toBe('PROTOCOL');
    expect(error.message.length).toBeLessThan(500);
    expect(error.body).toBe(junk);
  });

  it('fails with PROTOCOL "truncated" when the stream closes without [DONE] before any finish_reason', async () => {
    const target = await serve([write(sseFrames([chunk({ content: 'half' })], { done: false })), end()]);
    const error = await failureOf(adapterFor(target).stream(hello, {}));
    expect(error.code).toBe('PROTOCOL');
    expect(error.message).toContain('truncated');
    expect(error.message).toContain('after 1 events');
  });

  it('accepts a stream that closes cleanly after its finish_reason chunk without [DONE], as gateways send it', async () => {
    const target = await serve([
      write(sseFrames([chunk({ content: 'whole' }), chunk({}, 'stop')], { done: false })),
      end(),
    ]);
    const events = await collect(adapterFor(target).stream(hello, {}));
    expect(events).toEqual([
      { type: 'text-delta', text: 'whole' },
      { type: 'finish', reason: 'stop' },
    ]);
  });

  it('fails with SERVER when the stream carries an error object', async () => {
    const target = await serve([write(sseFrames([{ error: { message: 'overloaded', code: 503 } }])), end()]);
    const error = await failureOf(adapterFor(target).stream(hello, {}));
    expect(error.code).toBe('SERVER');
    expect(error.message).toContain('overloaded');
  });

  it('fails with TIMEOUT and closes the connection when no bytes arrive for idleTimeoutMs', async () => {
    const target = await serve([write(sseFrames([chunk({ content: 'slow' })], { done: false })), wait(60_000)]);
    const error = await failureOf(adapterFor(target, { idleTimeoutMs: 50 }).stream(hello, {}));
    expect(error.code).toBe('TIMEOUT');
    expect(error.message).toContain('50 ms');
    expect(await onlyRequest(target).outcome).toBe('closed-early');
  });

  it('does not time out while the consumer is slow between events, only while waiting on the network', async () => {
    const target = await serve([write(sseFrames([chunk({ content: 'a' }), chunk({ content: 'b' }, 'stop')])), end()]);
    const seen: LlmEvent[] = [];
    for await (const event of adapterFor(target, { idleTimeoutMs: 20 }).stream(hello, {})) {
      seen.push(event);
      if (seen.length === 1) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(seen.map((event) => event.type)).toEqual(['text-delta', 'text-delta', 'finish']);
  });

  it('fails with ABORTED and closes the request socket when the caller aborts mid-stream', async () => {
    const target = await serve([write(sseFrames([chunk({ content: 'first' })], { done: false })), wait(60_000)]);
    const controller = new AbortController();
    const seen: LlmEvent[] = [];
    let failure: unknown;
    try {
      for await (const event of adapterFor(target).stream(hello, { signal: controller.signal })) {
        seen.push(event);
        controller.abort();
      }
    } catch (error) {
      failure = error;
    }
    expect(seen).toEqual([{ type: 'text-delta', text: 'first' }]);
    expect(failure).toMatchObject({ code: 'ABORTED' });
    expect(await onlyRequest(target).outcome).toBe('closed-early');
  });

  it('fails with ABORTED while waiting for the response headers, and the server sees the socket close', async () => {
    let arrived!: () => void;
    const requestArrived = new Promise<void>((resolve) => (arrived = resolve));
    const target = await serve(() => arrived());
    const controller = new AbortController();
    const pending = failureOf(adapterFor(target).stream(hello, { signal: controller.signal }));
    await requestArrived;
    controller.abort();
    expect((await pending).code).toBe('ABORTED');
    expect(await onlyRequest(target).outcome).toBe('closed-early');
  });

  it('fails with ABORTED without sending anything when the signal is already aborted', async () => {
    const target = await serve([end()]);
    const error = await failureOf(adapterFor(target).stream(hello, { signal: AbortSignal.abort() }));
    expect(error.code).toBe('ABORTED');
    expect(target.requests).toHaveLength(0);
  });

  it('closes the connection when the consumer stops reading early', async () => {
    const target = await serve([write(sseFrames([chunk({ content: 'one' })], { done: false })), wait(60_000)]);
    for await (const event of adapterFor(target).stream(hello, {})) {
      expect(event).toEqual({ type: 'text-delta', text: 'one' });
      break;
    }
    expect(await onlyRequest(target).outcome).toBe('closed-early');
  });
});
