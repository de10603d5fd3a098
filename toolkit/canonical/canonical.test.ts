import { describe, expect, test } from 'vitest';
import { canonicalJson } from './canonical-json.js';
import { canonicalRequest, fingerprintOf, readRequest } from './canonical-request.js';
import { firstDivergence } from './first-divergence.js';

describe('canonical request', () => {
  test('key order and transport-only fields do not change the canonical request', () => {
    const a = canonicalRequest(
      '{"model":"m","stream":true,"stream_options":{"include_usage":true},"messages":[{"role":"user","content":"hi"}]}',
    );
    const b = canonicalRequest('{"messages":[{"content":"hi","role":"user"}],"model":"m"}');
    expect(canonicalJson(a)).toBe(canonicalJson(b));
    expect(fingerprintOf(a)).toBe(fingerprintOf(b));
  });

  test('a body that is not a JSON object is kept verbatim under $body', () => {
    expect(canonicalRequest('not json')).toEqual({ $body: 'not json' });
    expect(canonicalRequest('')).toEqual({});
  });

  test('readRequest keeps the body as sent, and the content without transport fields, in sent order', () => {
    const body =
      '{"model":"m","stream":true,"stream_options":{"include_usage":true},"messages":[],"__proto__":{"x":1}}';
    const { content, stream, sent } = readRequest(body);
    expect(stream).toBe(true);
    expect(Object.keys(sent)).toEqual(['model', 'stream', 'stream_options', 'messages', '__proto__']);
    expect(Object.keys(content)).toEqual(['model', 'messages', '__proto__']);
    // A body's own `__proto__` key stays data: the content's prototype is still Object's.
    expect(Object.getPrototypeOf(content)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(content, '__proto__')?.value).toEqual({ x: 1 });
    expect(content['messages']).toBe(sent['messages']);
  });
});

describe('first divergence', () => {
  test('names the path of the first differing value with both sides', () => {
    const recorded = {
      messages: [
        { role: 'user', content: 'a' },
        { role: 'tool', content: 'x' },
      ],
      model: 'm',
    };
    const live = {
      messages: [
        { role: 'user', content: 'a' },
        { role: 'tool', content: 'y' },
      ],
      model: 'n',
    };
    expect(firstDivergence(recorded, live)).toEqual({ path: 'messages[1].content', recorded: 'x', live: 'y' });
  });

  test('a missing element or odd key is reported as undefined on that side', () => {
    expect(firstDivergence({ messages: [1] }, { messages: [1, 2] })).toEqual({
      path: 'messages[1]',
      recorded: undefined,
      live: 2,
    });
    expect(firstDivergence({ 'a-b': 1 }, {})).toEqual({ path: '["a-b"]', recorded: 1, live: undefined });
  });

  test('equal values have no divergence', () => {
    expect(firstDivergence({ a: [1, { b: null }] }, { a: [1, { b: null }] })).toBeUndefined();
  });
});
