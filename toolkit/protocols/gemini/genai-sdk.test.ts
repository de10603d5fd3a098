import { GoogleGenAI, type GenerateContentResponse } from '@google/genai';
import { afterEach, describe, expect, it } from 'vitest';
import { startLoopbackServer, type LoopbackServer } from '../../../test/support/loopback-server.js';
import type { RecordedResponse } from '../../exchange/recorded-response.js';
import { serveRecorded } from '../testing/serve-recorded.js';
import type { WireErrorResponse } from '../wire-protocol.js';
import { gemini } from './gemini.js';

let server: LoopbackServer | undefined;
afterEach(async () => server?.close());

/** Retry options on: the SDK then retries 408, 429 and 5xx, so a retried error would show as a second request. */
async function clientServing(answer: RecordedResponse | WireErrorResponse): Promise<GoogleGenAI> {
  server = await startLoopbackServer((_request, response) => serveRecorded(answer, response));
  return new GoogleGenAI({
    apiKey: 'test-key',
    httpOptions: { baseUrl: server.url, retryOptions: { attempts: 3, initialDelay: 0.01 } },
  });
}

const turn = { text: 'Asking a sub-agent.', toolCalls: [{ name: 'ask_child', args: { question: 'how many files?' } }] };
const context = (stream: boolean) => ({
  stream,
  model: 'gemini-test',
  toolCallIds: [],
  answerId: 'nestcast-answer-1',
  eventDelay: 0,
});
const params = { model: 'gemini-test', contents: 'Go.' };

describe('the Gemini SDK (@google/genai)', () => {
  it('reads a rendered JSON answer: its text and function call', async () => {
    const client = await clientServing(gemini.render(turn, context(false)));
    const response = await client.models.generateContent(params);
    expect(textOf(response)).toBe('Asking a sub-agent.');
    expect(response.functionCalls).toEqual([{ name: 'ask_child', args: { question: 'how many files?' } }]);
    expect(response.usageMetadata?.candidatesTokenCount).toBeGreaterThan(0);
    expect(server?.requests[0]?.path).toBe('/v1beta/models/gemini-test:generateContent');
  });

  it('reads a rendered stream chunk by chunk', async () => {
    const client = await clientServing(gemini.render(turn, context(true)));
    let text = '';
    const calls: unknown[] = [];
    for await (const chunk of await client.models.generateContentStream(params)) {
      text += textOf(chunk);
      calls.push(...(chunk.functionCalls ?? []));
    }
    expect(text).toBe('Asking a sub-agent.');
    expect(calls).toEqual([{ name: 'ask_child', args: { question: 'how many files?' } }]);
    expect(server?.requests[0]?.path).toBe('/v1beta/models/gemini-test:streamGenerateContent?alt=sse');
  });

  it('throws the nestcast error at once, without retrying, even with retries on', async () => {
    const client = await clientServing(gemini.errorResponse('UNRECORDED_SESSION', 'no recording for this session'));
    await expect(client.models.generateContent(params)).rejects.toThrow(
      /UNRECORDED_SESSION: no recording for this session/,
    );
    await expect(client.models.generateContentStream(params)).rejects.toThrow(/UNRECORDED_SESSION/);
    expect(server?.requests).toHaveLength(2);
  });
});

/** The text parts joined; `response.text` would warn on stderr beside function calls. */
function textOf(response: GenerateContentResponse): string {
  return (response.candidates?.[0]?.content?.parts ?? []).map((part) => part.text ?? '').join('');
}
