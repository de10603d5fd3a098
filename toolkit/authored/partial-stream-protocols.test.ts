import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { describe, expect, test } from 'vitest';
import { createReplayingFetch } from '../replay/replaying-fetch.js';
import { compileScript } from './compile-script.js';

/** A script whose only turn drops the connection after streaming part of its text. */
const resetMidStream = () =>
  createReplayingFetch(
    compileScript({ lineages: { main: [{ networkError: 'reset-mid-stream', text: 'Half an answer' }] } }),
  );

describe('an authored mid-stream reset, in the protocol of the request it answers', () => {
  test('the Anthropic SDK reads the partial text as text_delta events, then the stream fails', async () => {
    const client = new Anthropic({
      apiKey: 'unused',
      baseURL: 'http://127.0.0.1:1',
      fetch: resetMidStream(),
      maxRetries: 0,
    });
    const stream = await client.messages.create({
      model: 'claude-test',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'Go.' }],
      stream: true,
    });
    let text = '';
    const types: string[] = [];
    const failure = await (async () => {
      for await (const event of stream) {
        types.push(event.type);
        if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') text += event.delta.text;
      }
    })().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(text).toBe('Half an answer');
    expect(types[0]).toBe('message_start');
    expect(types).not.toContain('message_stop');
    expect(failure).toBeInstanceOf(Error);
  });

  test('the OpenAI SDK reads the partial text as response.output_text.delta events, then the stream fails', async () => {
    const client = new OpenAI({
      apiKey: 'unused',
      baseURL: 'http://127.0.0.1:1',
      fetch: resetMidStream(),
      maxRetries: 0,
    });
    const stream = await client.responses.create({ model: 'gpt-test', input: 'Go.', stream: true });
    let text = '';
    const types: string[] = [];
    const failure = await (async () => {
      for await (const event of stream) {
        types.push(event.type);
        if (event.type === 'response.output_text.delta') text += event.delta;
      }
    })().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(text).toBe('Half an answer');
    expect(types[0]).toBe('response.created');
    expect(types).not.toContain('response.completed');
    expect(failure).toBeInstanceOf(Error);
  });

  test('a chat-completions call still gets chat.completion.chunk events', async () => {
    const response = await resetMidStream()('http://127.0.0.1:1/chat/completions', {
      method: 'POST',
      body: '{"model":"any","messages":[],"stream":true}',
    });
    const reader = response.body!.getReader();
    let text = '';
    await (async () => {
      for (;;) text += new TextDecoder().decode((await reader.read()).value);
    })().catch(() => undefined);
    expect(text).toContain('"object":"chat.completion.chunk"');
    expect(text).not.toContain('finish_reason":"stop"');
  });
});
