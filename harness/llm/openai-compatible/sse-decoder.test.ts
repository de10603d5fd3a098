import { fc, test as propertyTest } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { SseDecoder, type SseMessage } from './sse-decoder.js';

const encoder = new TextEncoder();

function decodePieces(pieces: readonly Uint8Array[]): { messages: SseMessage[]; done: boolean } {
  const decoder = new SseDecoder();
  const messages = pieces.flatMap((piece) => decoder.push(piece));
  return { messages, done: decoder.done };
}

function splitAt(bytes: Uint8Array, offsets: readonly number[]): Uint8Array[] {
  const cuts = [0, ...[...offsets].sort((a, b) => a - b), bytes.length];
  return cuts.slice(1).map((cut, i) => bytes.subarray(cuts[i], cut));
}

const sample = [
  ': keep-alive\r\n',
  '\r\n',
  'data: {"text":"héllo 🌍 世界"}\r\n',
  'data: crlf second line\r\n',
  '\r\n',
  'event: delta\n',
  'data: first line\n',
  'data:second line\n',
  '\n',
  'data: cr only\r\r',
  'data\n\n',
  'id: 7\nretry: 100\ndata: after unknown fields\n\n',
  'data: [DONE]\n\n',
  'data: never seen\n\n',
].join('');

const sampleMessages: SseMessage[] = [
  { data: '{"text":"héllo 🌍 世界"}\ncrlf second line' },
  { data: 'first line\nsecond line', event: 'delta' },
  { data: 'cr only' },
  { data: '' },
  { data: 'after unknown fields' },
];

describe('SseDecoder', () => {
  it('decodes every event of a stream that mixes CRLF, CR and LF line breaks, comments and multi-line data, and stops at [DONE]', () => {
    expect(decodePieces([encoder.encode(sample)])).toEqual({ messages: sampleMessages, done: true });
  });

  it('gives the same events when the bytes are split in two at every offset, including inside multi-byte characters and CRLF pairs', () => {
    const bytes = encoder.encode(sample);
    const multiByteStart = bytes.indexOf(0xf0);
    expect(multiByteStart).toBeGreaterThan(0);
    for (let offset = 0; offset <= bytes.length; offset++) {
      expect(decodePieces(splitAt(bytes, [offset])), `split at byte ${offset}`).toEqual({
        messages: sampleMessages,
        done: true,
      });
    }
  });

  it('gives the same events when fed one byte at a time', () => {
    const bytes = encoder.encode(sample);
    const pieces = Array.from({ length: bytes.length }, (_, i) => bytes.subarray(i, i + 1));
    expect(decodePieces(pieces)).toEqual({ messages: sampleMessages, done: true });
  });

  propertyTest.prop([fc.uniqueArray(fc.nat({ max: encoder.encode(sample).length }), { maxLength: 12 })])(
    'gives the same events however the bytes are split into many pieces',
    (offsets) => {
      expect(decodePieces(splitAt(encoder.encode(sample), offsets))).toEqual({ messages: sampleMessages, done: true });
    },
  );

  it('does not dispatch an event whose terminating blank line never arrived', () => {
    const result = decodePieces([encoder.encode('data: complete\n\ndata: cut off\n')]);
    expect(result).toEqual({ messages: [{ data: 'complete' }], done: false });
  });

  it('ignores blank lines and comments that carry no data', () => {
    expect(decodePieces([encoder.encode('\n\n: ping\n\n:another\r\n\r\n')])).toEqual({ messages: [], done: false });
  });

  it('keeps a CR that ends one piece from swallowing the first line of the next piece', () => {
    const decoder = new SseDecoder();
    expect(decoder.push(encoder.encode('data: a\r'))).toEqual([]);
    expect(decoder.push(encoder.encode('\rdata: b\r\n\r\n'))).toEqual([{ data: 'a' }, { data: 'b' }]);
  });

  it('strips only one space after the colon', () => {
    expect(decodePieces([encoder.encode('data:  two spaces\n\n')]).messages).toEqual([{ data: ' two spaces' }]);
  });
});
