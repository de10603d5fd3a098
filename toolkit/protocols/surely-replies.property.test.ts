import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { RecordedResponse, StreamedResponse } from '../exchange/recorded-response.js';
import { sseFrames } from '../../test/support/loopback-server.js';
import { textChunk, toolCallChunk, usageChunk } from '../../test/support/openai-chunks.js';
import { anthropicMessages } from './anthropic-messages/anthropic-messages.js';
import { chatCompletions } from './chat-completions/chat-completions.js';
import { gemini } from './gemini/gemini.js';
import { openaiResponses } from './openai-responses/openai-responses.js';
import { fixtureText, sseOfChunkLines, streamedResponse } from './testing/streamed-response.js';
import type { WireProtocol } from './wire-protocol.js';

const fixture = (path: string): string => fixtureText(new URL(path, import.meta.url));

/** Real streams of each API (fixtures recorded by others) and the failure event that API sends mid-stream. */
const CASES: readonly { protocol: WireProtocol; streams: StreamedResponse[]; failure: string }[] = [
  {
    protocol: chatCompletions,
    streams: [
      streamedResponse(sseFrames([textChunk('Hello'), textChunk(' there', 'stop'), usageChunk(3, 2)])),
      streamedResponse(
        sseFrames([
          toolCallChunk(0, { id: 'call_1', name: 'research', args: '{"q":' }),
          toolCallChunk(0, { args: '1}' }),
        ]),
      ),
    ],
    failure: '{"error":{"message":"overloaded","type":"server_error"}}',
  },
  {
    protocol: openaiResponses,
    streams: ['openai-phase.1', 'openai-tool-search.1', 'openai-web-search-tool.1'].map((name) =>
      streamedResponse(sseOfChunkLines(fixture(`./openai-responses/__fixtures__/${name}.chunks.txt`), { named: true })),
    ),
    failure: '{"type":"response.failed","response":{"id":"resp_x","status":"failed","output":[]}}',
  },
  {
    protocol: anthropicMessages,
    streams: [
      streamedResponse(fixture('./anthropic-messages/fixtures/basic_response.txt')),
      streamedResponse(fixture('./anthropic-messages/fixtures/tool_use_response.txt')),
      streamedResponse(
        sseOfChunkLines(fixture('./anthropic-messages/fixtures/anthropic-text.chunks.txt'), { named: true }),
      ),
    ],
    failure: '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
  },
  {
    protocol: gemini,
    streams: ['google-text', 'google-tool-call'].map((name) =>
      streamedResponse(sseOfChunkLines(fixture(`./gemini/fixtures/${name}.chunks.txt`), { named: false })),
    ),
    failure: '{"error":{"code":503,"message":"The model is overloaded.","status":"UNAVAILABLE"}}',
  },
];

/** A real stream cut short, thinned, or with the API's failure event put somewhere in it. */
function damaged(streams: readonly StreamedResponse[], failure: string): fc.Arbitrary<RecordedResponse> {
  return fc
    .record({
      stream: fc.constantFrom(...streams),
      keep: fc.array(fc.boolean(), { minLength: 200, maxLength: 200 }),
      cut: fc.nat(200),
      failAt: fc.option(fc.nat(200), { nil: undefined }),
      status: fc.constantFrom(200, 200, 200, 500),
    })
    .map(({ stream, keep, cut, failAt, status }) => {
      const events = stream.events.slice(0, Math.min(cut, stream.events.length)).filter((_, i) => keep[i] !== false);
      if (failAt !== undefined)
        events.splice(Math.min(failAt, events.length), 0, { delay: 0, event: 'error', data: failure });
      return { ...stream, status, events };
    });
}

describe('surelyReplies: an answer an API vouches for has a reply, so threading may read it late', () => {
  for (const { protocol, streams, failure } of CASES) {
    test(`${protocol.id}: never vouches for a cut, thinned or failed stream without a reply (2,000 runs)`, () => {
      fc.assert(
        fc.property(damaged(streams, failure), (response) => {
          if (protocol.surelyReplies(response)) expect(protocol.reply(response)).toBeDefined();
        }),
        { numRuns: 2_000 },
      );
    });

    test(`${protocol.id}: vouches for every whole real stream, so its reply is not parsed until needed`, () => {
      for (const stream of streams) {
        expect(protocol.reply(stream)).toBeDefined();
        expect(protocol.surelyReplies(stream)).toBe(true);
      }
    });
  }

  test('no API vouches for a failure, or for a JSON answer (parsed at once: one parse, no stream)', () => {
    const failed: RecordedResponse = { error: { kind: 'network', message: 'socket hang up' } };
    const json: RecordedResponse = { status: 200, headers: {}, body: '{"choices":[]}' };
    for (const { protocol } of CASES) {
      expect(protocol.surelyReplies(failed)).toBe(false);
      expect(protocol.surelyReplies(json)).toBe(false);
    }
  });
});
