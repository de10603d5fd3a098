import { expect, test } from 'vitest';
import { formatSseEvent } from './sse-format.js';
import { SseParser } from './sse-parser.js';

test('a one-line event is one data line; a named event leads with its name', () => {
  expect(formatSseEvent({ delay: 0, data: '{"a":1}' })).toBe('data: {"a":1}\n\n');
  expect(formatSseEvent({ delay: 0, event: 'message_start', data: '{}' })).toBe('event: message_start\ndata: {}\n\n');
});

test('a multi-line event goes out as one data line per line, and parses back to the same data', () => {
  const text = formatSseEvent({ delay: 0, event: 'ping', data: 'one\ntwo\n' });
  expect(text).toBe('event: ping\ndata: one\ndata: two\ndata: \n\n');
  expect(new SseParser().push(text)).toEqual([{ event: 'ping', data: 'one\ntwo\n' }]);
});

test('a comment is kept as a comment line', () => {
  expect(formatSseEvent({ delay: 0, comment: 'keep-alive' })).toBe(': keep-alive\n\n');
});
