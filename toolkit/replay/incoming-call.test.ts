import { describe, expect, test } from 'vitest';
import { incomingCall } from './incoming-call.js';

const URL_ = 'http://127.0.0.1:9/v1/chat/completions';

describe('reading a call the way fetch reads it', () => {
  test('a POST with a string body yields that body and the headers, whatever their form', async () => {
    const call = incomingCall(URL_, { method: 'post', headers: [['X-Session-Lineage', 'main/c1']], body: '{"a":1}' });
    expect(call.headers.get('x-session-lineage')).toBe('main/c1');
    expect(await call.text()).toBe('{"a":1}');
  });

  test('a Request, a stream body or a URL object give the same text as the Request would', async () => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('streamed'));
        controller.close();
      },
    });
    expect(await incomingCall(new Request(URL_, { method: 'POST', body: 'as request' }), undefined).text()).toBe(
      'as request',
    );
    expect(await incomingCall(URL_, { method: 'POST', body, duplex: 'half' } as RequestInit).text()).toBe('streamed');
    expect(await incomingCall(new URL(URL_), { method: 'POST', body: 'url object' }).text()).toBe('url object');
  });

  test('what fetch refuses is refused: a bad URL, a bad header name, a GET with a body', () => {
    expect(() => incomingCall('not a url', { method: 'POST', body: 'x' })).toThrow(TypeError);
    expect(() => incomingCall(URL_, { method: 'POST', headers: { 'bad header': 'x' }, body: 'x' })).toThrow(TypeError);
    expect(() => incomingCall(URL_, { method: 'GET', body: 'x' })).toThrow(TypeError);
  });

  test('a call read for recording is sent on whole: its body, its method, the new headers and the signal', async () => {
    const signal = new AbortController().signal;
    const headers = new Headers({ authorization: 'Bearer k' });
    const calls = [
      incomingCall(URL_, { method: 'POST', headers: { 'x-session-lineage': 'main' }, body: '{"fast":1}' }),
      incomingCall(new Request(URL_, { method: 'POST', body: '{"slow":1}' }), undefined),
    ];
    const sent: { method: string; body: string; auth: string | null; lineage: string | null }[] = [];
    for (const call of calls) {
      expect(call.url.href).toBe(URL_);
      const text = await call.text();
      const [input, init] = call.sendOn(headers, signal);
      const request = new Request(input, init);
      expect(await request.text()).toBe(text);
      sent.push({
        method: request.method,
        body: text,
        auth: request.headers.get('authorization'),
        lineage: request.headers.get('x-session-lineage'),
      });
      expect(init.signal).toBe(signal);
    }
    expect(sent).toEqual([
      { method: 'POST', body: '{"fast":1}', auth: 'Bearer k', lineage: null },
      { method: 'POST', body: '{"slow":1}', auth: 'Bearer k', lineage: null },
    ]);
  });
});
