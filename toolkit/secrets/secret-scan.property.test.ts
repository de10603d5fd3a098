import { fc, test } from '@fast-check/vitest';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempDir, removeTempDir } from '../../test/support/temp-dir.js';
import { fuzzRuns } from '../arbitraries/fuzz-runs.js';
import { writeCassetteInto } from '../cassette/save-cassette.js';
import type { Cassette, RecordedResponse, SseEvent } from '../cassette/types.js';
import { assertNoSecrets } from './scan-before-write.js';

const LABEL = 'the test key';
const secretArb = fc
  .string({ unit: fc.constantFrom(...'abcdef0123456789-_ABCXYZ'), minLength: 12, maxLength: 32 })
  .map((body) => `sk-${body}`);
/** Filler that can never form the secret: no `s`, no `k`. */
const filler = fc.string({ unit: fc.constantFrom('a', ' ', 'é', '😀', '"', '\\', '\n'), maxLength: 6 });
const places = ['text', 'reasoning', 'tool arguments', 'tool result', 'header', 'error body', 'transcript'] as const;
type Place = (typeof places)[number];

/** A JSON string literal of `text` with the characters picked by `escapes` written as `\uXXXX` (upper or lower hex). */
function jsonString(text: string, escapes: readonly boolean[], upper: boolean): string {
  let out = '"';
  [...text].forEach((char, i) => {
    const plain = JSON.stringify(char).slice(1, -1);
    if (!escapes[i % Math.max(escapes.length, 1)] || char.length > 1) out += plain;
    else {
      const hex = char.charCodeAt(0).toString(16).padStart(4, '0');
      out += `\\u${upper ? hex.toUpperCase() : hex}`;
    }
  });
  return `${out}"`;
}

/** `text` cut at the given points (in code units, never inside a surrogate pair). */
function cut(text: string, cuts: readonly number[]): string[] {
  const chars = [...text];
  const bounds = [
    0,
    ...[...new Set(cuts.map((c) => c % chars.length))].sort((a, b) => a - b).filter((c) => c > 0),
    chars.length,
  ];
  return bounds.slice(1).map((end, i) => chars.slice(bounds[i], end).join(''));
}

const leak = fc.record({
  secret: secretArb,
  before: filler,
  after: filler,
  place: fc.constantFrom(...places),
  cuts: fc.array(fc.nat({ max: 200 }), { maxLength: 8 }),
  escapes: fc.array(fc.boolean(), { minLength: 1, maxLength: 16 }),
  upper: fc.boolean(),
  swapOrder: fc.array(fc.boolean(), { minLength: 1, maxLength: 8 }),
  /** How each fragment writes its tool call's `index`: all three are one tool call to some client. */
  indexForms: fc.array(fc.constantFrom('number', 'string', 'padded string'), { minLength: 1, maxLength: 8 }),
});
type Leak = typeof leak extends fc.Arbitrary<infer T> ? T : never;

function streamed(datas: readonly string[]): RecordedResponse {
  const events: SseEvent[] = datas.map((data) => ({ delay: 0, data }));
  return { status: 200, headers: { 'content-type': 'text/event-stream' }, events, done: true };
}

/** The leak as the files nestcast would write: a cassette, or the lines of a transcript. */
function carrier(value: string, input: Leak): { cassette?: Cassette; transcript?: string } {
  const carried = `${input.before}${value}${input.after}`;
  const pieces = cut(carried, input.cuts);
  const esc = (text: string) => jsonString(text, input.escapes, input.upper);
  const cassette = (
    response: RecordedResponse,
    messages: Record<string, string>[] = [{ role: 'user', content: 'hi' }],
  ): Cassette => ({
    provenance: { source: 'recorded', recordedAt: '2026-12-01T00:00:00.000Z', recorder: 'test' },
    calls: { main: [{ request: { model: 'm', stream: true, messages }, response }] },
  });
  const place: Place = input.place;
  switch (place) {
    case 'text':
    case 'reasoning': {
      const field = place === 'text' ? 'content' : 'reasoning_content';
      return {
        cassette: cassette(
          streamed(pieces.map((piece) => `{"choices":[{"index":0,"delta":{"${field}":${esc(piece)}}}]}`)),
        ),
      };
    }
    case 'tool arguments': {
      // The arguments are JSON text themselves, escaped inside, streamed in fragments of tool call 1
      // while tool call 0 streams beside it, in either array order, each fragment's `index` a
      // number, a string (the openai SDK files "1" where it files 1) or a padded string (a typed
      // client reads "01" as 1).
      const args = cut(`{"key":${esc(carried)}}`, input.cuts);
      const index = (n: number, i: number): string => {
        const form = input.indexForms[i % input.indexForms.length];
        return form === 'number' ? String(n) : form === 'string' ? `"${n}"` : `"0${n}"`;
      };
      return {
        cassette: cassette(
          streamed(
            args.map((piece, i) => {
              const leaky = `{"index":${index(1, i)},"id":"c1","function":{"arguments":${JSON.stringify(piece)}}}`;
              const other = `{"index":${index(0, i + 1)},"id":"c0","function":{"arguments":"{}"}}`;
              const order = input.swapOrder[i % input.swapOrder.length] ? [other, leaky] : [leaky, other];
              return `{"choices":[{"index":0,"delta":{"tool_calls":[${order.join(',')}]}}]}`;
            }),
          ),
        ),
      };
    }
    case 'tool result':
      return {
        cassette: cassette(streamed(['{"choices":[{"index":0,"delta":{"content":"ok"}}]}']), [
          { role: 'user', content: 'read the file' },
          { role: 'tool', tool_call_id: 'c1', content: `{"file":${esc(carried)}}` },
        ]),
      };
    case 'header':
      return {
        cassette: cassette({
          status: 200,
          headers: { 'content-type': 'application/json', 'x-request-id': carried },
          body: '{}',
        }),
      };
    case 'error body':
      return {
        cassette: cassette({
          error: {
            kind: 'http',
            status: 401,
            headers: {},
            body: `{"error":{"message":${esc(`invalid key ${carried}`)}}}`,
          },
        }),
      };
    case 'transcript':
      return {
        transcript: pieces
          .map((piece, seq) => `{"data":{"text":${esc(piece)}},"seq":${seq},"time":0,"type":"model/delta"}\n`)
          .join(''),
      };
  }
}

let dir: string;
let runs = 0;
beforeAll(async () => {
  dir = await makeTempDir('secret-scan-');
});
afterAll(async () => {
  await removeTempDir(dir);
});

describe('the secret scan', () => {
  test.prop([leak], { numRuns: fuzzRuns(300) })(
    'refuses a secret split across SSE events and JSON-escaped anywhere (text, reasoning, tool arguments in any fragment order with any type of index, tool results, headers, error bodies, transcripts), writing nothing and never quoting it',
    async (input) => {
      const secrets = [{ value: input.secret, label: LABEL }];
      const files = carrier(input.secret, input);
      const target = join(dir, String(++runs));
      const error = files.cassette
        ? await writeCassetteInto(target, files.cassette, { secrets }).then(
            () => undefined,
            (e: unknown) => e,
          )
        : (() => {
            try {
              assertNoSecrets([{ path: 'transcripts/main.jsonl', text: files.transcript ?? '' }], { secrets });
              return undefined;
            } catch (e) {
              return e;
            }
          })();
      expect(error).toMatchObject({ code: 'SECRET_IN_RECORDING', message: expect.stringContaining(LABEL) });
      expect((error as Error).message).not.toContain(input.secret);
      expect(existsSync(target)).toBe(false);
    },
  );

  test.prop([leak], { numRuns: fuzzRuns(100) })(
    'lets the same files through when they hold a different value',
    (input) => {
      const other = `${input.secret.slice(0, -1)}${input.secret.endsWith('Z') ? 'Y' : 'Z'}`;
      const files = carrier(other, input);
      const planned = files.cassette
        ? Object.entries(files.cassette.calls).map(([lineage, calls]) => ({
            path: lineage,
            text: JSON.stringify(calls),
          }))
        : [{ path: 'transcripts/main.jsonl', text: files.transcript ?? '' }];
      expect(() => assertNoSecrets(planned, { secrets: [{ value: input.secret, label: LABEL }] })).not.toThrow();
    },
  );
});
