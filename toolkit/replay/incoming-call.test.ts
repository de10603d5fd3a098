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
});
