import { fc, test } from '@fast-check/vitest';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { startLoopbackServer, type LoopbackServer } from '../../test/support/loopback-server.js';
import { fuzzRuns } from '../arbitraries/fuzz-runs.js';
import { sseSplitArbitrary } from '../arbitraries/sse-split-arbitrary.js';
import { createRecordingFetch } from '../record/recording-fetch.js';
import { createReplayingFetch } from '../replay/replaying-fetch.js';
import { fixtureText, sseOfChunkLines } from './testing/streamed-response.js';

/** Real captured streams, as their APIs framed them, with a keep-alive comment where proxies add one. */
const anthropicStream = fixtureText(
  new URL('./anthropic-messages/fixtures/tool_use_response.txt', import.meta.url),
).replace('event: content_block_stop', ': keep-alive\n\nevent: content_block_stop');
const geminiStream = sseOfChunkLines(
  fixtureText(new URL('./gemini/fixtures/google-tool-call.chunks.txt', import.meta.url)),
  { named: false, eol: '\r\n' },
);

const calls = {
  anthropic: {
    path: '/v1/messages',
    body: {
      model: 'claude-test',
      max_tokens: 64,
      stream: true,
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
    },
    bytes: anthropicStream,
    // Replay writes LF frames: the events and their data are what is kept, byte for byte.
    replayed: anthropicStream,
  },
  gemini: {
    path: '/v1beta/models/gemini-test:streamGenerateContent?alt=sse&key=AIza-not-stored',
    body: { contents: [{ role: 'user', parts: [{ text: 'Weather in San Francisco?' }] }] },
    bytes: geminiStream,
    replayed: geminiStream.replace(/\r\n/g, '\n'),
  },
} as const;

let pieces: readonly Uint8Array[] = [];
let server: LoopbackServer;
beforeAll(async () => {
  server = await startLoopbackServer(async (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    for (const piece of pieces) {
      response.write(piece);
      await new Promise((resolve) => setImmediate(resolve));
    }
    response.end();
  });
});
afterAll(async () => server.close());

describe('real Anthropic and Gemini streams through record and replay', () => {
  test.prop(
    [
      fc
        .constantFrom('anthropic' as const, 'gemini' as const)
        .chain((api) =>
          fc.tuple(fc.constant(api), sseSplitArbitrary(new TextEncoder().encode(calls[api].bytes), { maxCuts: 16 })),
        ),
    ],
    { numRuns: fuzzRuns(20) },
  )(
    'are filed under their protocol and replay the recorded events byte for byte, however the bytes arrived, storing no query key',
    async ([api, split]) => {
      const call = calls[api];
      pieces = split;
      const init = { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(call.body) };
      const recording = createRecordingFetch();
      const live = await (await recording(`${server.url}${call.path}`, init)).text();
      expect(live).toBe(call.bytes);
      const cassette = await recording.cassette();
      expect(cassette.calls['main']?.[0]?.protocol).toBe(api === 'anthropic' ? 'anthropic-messages' : 'gemini');
      expect(JSON.stringify(cassette)).not.toContain('AIza-not-stored');
      const replay = createReplayingFetch(cassette);
      const replayed = await (await replay(`http://model.nestcast.invalid${call.path}`, init)).text();
      expect(replayed).toBe(call.replayed);
      replay.assertConsumed();
    },
  );
});
