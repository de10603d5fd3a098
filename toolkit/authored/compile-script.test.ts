import OpenAI from 'openai';
import { describe, expect, test } from 'vitest';
import { onFakeClock, settlesWithin } from '../../test/support/fake-clock.js';
import { createReplayingFetch } from '../replay/replaying-fetch.js';
import { compileScript } from './compile-script.js';
import { splitArguments, splitText } from '../protocols/split-text.js';
import type { AuthoredScript } from './types.js';

const script: AuthoredScript = {
  model: 'scripted-model',
  lineages: {
    main: [
      {
        reasoning: 'The user wants weather; ask a child.',
        text: 'Let me check that for you.',
        toolCalls: [{ name: 'get_weather', args: { city: 'Paris', unit: 'celsius' } }],
      },
      { text: 'It is sunny in Paris.' },
    ],
    'main/call_1': [
      { httpError: { status: 429, body: { error: { message: 'slow down' } } } },
      { networkError: 'reset-mid-stream', text: 'Half an ans' },
    ],
  },
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- parsed SSE chunks, probed field by field
async function chunksOf(response: Response): Promise<Array<Record<string, any>>> {
  const text = await response.text();
  const datas = text
    .split('\n\n')
    .filter(Boolean)
    .map((frame) => frame.replace(/^data: /, ''));
  expect(datas.at(-1)).toBe('[DONE]');
  return datas.slice(0, -1).map((data) => JSON.parse(data));
}

const call = (lineage: string) =>
  [
    'http://127.0.0.1:1/chat/completions',
    { method: 'POST', headers: { 'x-session-lineage': lineage }, body: '{"model":"any","messages":[],"stream":true}' },
  ] as const;

describe('compiled streams', () => {
  test('reasoning streams before text, both in small deltas, then tool calls in fragments, finish and a usage chunk', async () => {
    const chunks = await chunksOf(await createReplayingFetch(compileScript(script))(...call('main')));
    const deltas = chunks.flatMap((chunk) =>
      chunk['choices'].map((choice: { delta: Record<string, unknown> }) => choice.delta),
    );
    const reasoning = deltas.filter((d) => 'reasoning_content' in d).map((d) => d['reasoning_content'] as string);
    const content = deltas
      .filter((d) => typeof d['content'] === 'string' && d['content'] !== '')
      .map((d) => d['content'] as string);
    expect(reasoning.join('')).toBe('The user wants weather; ask a child.');
    expect(content.join('')).toBe('Let me check that for you.');
    expect(Math.max(...[...reasoning, ...content].map((piece) => piece.length))).toBeLessThanOrEqual(8);
    expect(deltas.findIndex((d) => 'reasoning_content' in d)).toBeLessThan(
      deltas.findIndex((d) => d['content'] === 'Let '),
    );
    const fragments = deltas.flatMap(
      (d) => (d['tool_calls'] as Array<{ function: { arguments: string } }> | undefined) ?? [],
    );
    expect(fragments.length - 1).toBeGreaterThanOrEqual(2);
    expect(fragments.length - 1).toBeLessThanOrEqual(4);
    expect(JSON.parse(fragments.map((f) => f.function.arguments).join(''))).toEqual({ city: 'Paris', unit: 'celsius' });
    expect(chunks.at(-2)?.['choices'][0].finish_reason).toBe('tool_calls');
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 0 } });
    expect(new Set(chunks.map((chunk) => `${chunk['id']} ${chunk['created']} ${chunk['model']}`)).size).toBe(1);
  });

  test('compiling twice gives the same cassette, with deterministic tool-call ids', () => {
    const once = compileScript(script);
    const twice = compileScript(script);
    expect(twice.calls).toEqual(once.calls);
    expect(JSON.stringify(once.calls['main'])).toMatch(/"id\\":\\"call_[0-9a-f]{8}_1\\"/);
  });

  test('an HTTP error turn replays as that status with a JSON body', async () => {
    const fetch = createReplayingFetch(compileScript(script));
    const response = await fetch(...call('main/call_1'));
    expect(response.status).toBe(429);
    expect(await response.json()).toEqual({ error: { message: 'slow down' } });
  });

  test('a mid-stream reset delivers the partial text, then fails the body like a dropped connection', async () => {
    const fetch = createReplayingFetch(compileScript(script));
    await fetch(...call('main/call_1'));
    const response = await fetch(...call('main/call_1'));
    const reader = response.body!.getReader();
    let text = '';
    const failure = await (async () => {
      for (;;) text += new TextDecoder().decode((await reader.read()).value);
    })().catch((error: unknown) => error);
    expect(text).toContain('"content":"Half "');
    expect(failure).toMatchObject({ name: 'TypeError', message: 'terminated' });
  });

  test('a hang streams its text and then holds the stream open until the caller aborts', async () => {
    const fetch = createReplayingFetch(compileScript({ lineages: { main: [{ hang: { text: 'Still working' } }] } }));
    await onFakeClock(async () => {
      const caller = new AbortController();
      const response = await fetch('http://127.0.0.1:1/chat/completions', {
        method: 'POST',
        body: '{}',
        signal: caller.signal,
      });
      const reader = response.body!.getReader();
      let text = '';
      while (!text.includes('working')) text += new TextDecoder().decode((await reader.read()).value);
      const next = reader.read();
      expect(await settlesWithin(60_000, next)).toBe(false);
      caller.abort();
      await expect(next).rejects.toMatchObject({ name: 'AbortError' });
    });
  });

  test('a reset before the response rejects the fetch like a refused connection', async () => {
    const fetch = createReplayingFetch(
      compileScript({ lineages: { main: [{ networkError: 'reset-before-response' }] } }),
    );
    await expect(fetch(...call('main'))).rejects.toMatchObject({
      message: 'fetch failed',
      cause: { code: 'ECONNRESET' },
    });
  });

  test('the official openai SDK assembles an authored turn: text, reasoning and the tool call', async () => {
    const client = new OpenAI({
      apiKey: 'unused',
      baseURL: 'http://127.0.0.1:1',
      fetch: createReplayingFetch(compileScript(script)),
      maxRetries: 0,
    });
    const stream = await client.chat.completions.create({
      model: 'any',
      messages: [{ role: 'user', content: 'weather?' }],
      stream: true,
    });
    let content = '';
    let args = '';
    let name = '';
    for await (const chunk of stream) {
      content += chunk.choices[0]?.delta.content ?? '';
      const tool = chunk.choices[0]?.delta.tool_calls?.[0];
      name += tool?.function?.name ?? '';
      args += tool?.function?.arguments ?? '';
    }
    expect(content).toBe('Let me check that for you.');
    expect(name).toBe('get_weather');
    expect(JSON.parse(args)).toEqual({ city: 'Paris', unit: 'celsius' });
  });

  test('a script that breaks the format is SCRIPT_INVALID naming the field', () => {
    const bad = { lineages: { main: [{ toolCalls: [{ name: 'x' }] }] } } as unknown as AuthoredScript;
    expect(() => compileScript(bad, { source: 'scripts/demo.json' })).toThrow(
      expect.objectContaining({
        code: 'SCRIPT_INVALID',
        message:
          "Invalid authored script scripts/demo.json: /lineages/main/0/toolCalls/0 must have required property 'args'. See docs/recording.md for the script format.",
      }),
    );
  });
});

describe('session names in a script', () => {
  test.each([
    ['constructor', '"constructor" is a name every JavaScript object already has'],
    ['main/..', 'a part between slashes is not a name'],
    ['__proto__', '"__proto__" is a name every JavaScript object already has'],
  ])('a lineage %j (as JSON gives it, an own key) is SCRIPT_INVALID naming it', (lineage, why) => {
    const script = JSON.parse(
      `{"lineages":{"main":[{"text":"hi"}],${JSON.stringify(lineage)}:[{"text":"x"}]}}`,
    ) as AuthoredScript;
    expect(() => compileScript(script, { source: 'scripts/demo.json' })).toThrow(
      expect.objectContaining({
        code: 'SCRIPT_INVALID',
        message: expect.stringContaining(
          `lineages[${JSON.stringify(lineage)}] is not a session name: ${why}`,
        ) as unknown,
      }),
    );
  });

  test('__proto__ as a key of an object literal, which sets the prototype instead of naming a session, is SCRIPT_INVALID instead of its turns being dropped', () => {
    const script = { lineages: { main: [{ text: 'hi' }], __proto__: [{ text: 'x' }] } } as unknown as AuthoredScript;
    expect(() => compileScript(script)).toThrow(
      expect.objectContaining({
        code: 'SCRIPT_INVALID',
        message: expect.stringContaining('lineages has a prototype of its own') as unknown,
      }),
    );
  });
});

describe('splitting', () => {
  test('text deltas rejoin to the text', () => {
    const text = '  Hello, extraordinarily long\nworld!  ';
    expect(splitText(text).join('')).toBe(text);
  });

  test('arguments come in two to four fragments that rejoin to the arguments', () => {
    for (const args of ['{}', '{"a":1}', JSON.stringify({ query: 'x'.repeat(200) })]) {
      const fragments = splitArguments(args);
      expect(fragments.join('')).toBe(args);
      expect(fragments.length).toBeGreaterThanOrEqual(2);
      expect(fragments.length).toBeLessThanOrEqual(4);
    }
  });
});
