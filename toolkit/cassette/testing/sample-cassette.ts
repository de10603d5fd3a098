import type { CanonicalRequest } from '../../canonical/canonical-request.js';
import { canonicalRequest } from '../../canonical/canonical-request.js';
import type { Cassette, CassetteCall, StreamedResponse } from '../types.js';

/** A chat request body as a client would send it. */
export function chatBody(messages: readonly object[], extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    model: 'deepseek-v4-flash',
    stream: true,
    stream_options: { include_usage: true },
    messages,
    ...extra,
  });
}

export function chatRequest(messages: readonly object[], extra: Record<string, unknown> = {}): CanonicalRequest {
  return canonicalRequest(chatBody(messages, extra));
}

/** A streamed answer whose content deltas are `texts`, ending with `[DONE]`. */
export function textStream(texts: readonly string[], delay = 3): StreamedResponse {
  return {
    status: 200,
    headers: { 'content-type': 'text/event-stream' },
    events: texts.map((text) => ({
      delay,
      data: JSON.stringify({ choices: [{ index: 0, delta: { content: text } }] }),
    })),
    done: true,
  };
}

const user = (content: string) => ({ role: 'user', content });
const assistant = (content: string) => ({ role: 'assistant', content });

/** Two sessions: `main` makes two calls (the second extends the first), its child one. */
export function sampleCassette(delay = 3): Cassette {
  const main: CassetteCall[] = [
    { request: chatRequest([user('plan the trip')]), response: textStream(['Sure', ', delegating.'], delay) },
    {
      request: chatRequest([user('plan the trip'), assistant('Sure, delegating.'), user('go on')]),
      response: textStream(['Done.'], delay),
    },
  ];
  const child: CassetteCall[] = [
    { request: chatRequest([user('find trains')], { temperature: 0 }), response: textStream(['Train at 9.'], delay) },
  ];
  return {
    provenance: {
      source: 'recorded',
      host: 'api.deepseek.com',
      model: 'deepseek-v4-flash',
      recordedAt: '2026-01-01T00:00:00.000Z',
      recorder: 'nestcast 0.1.0',
    },
    calls: { main, 'main/call_1': child },
  };
}
