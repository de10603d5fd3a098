import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { createOpenAICompatibleAdapter } from '../../harness/llm/openai-compatible/openai-compatible-adapter.js';
import type { LlmEvent } from '../../harness/llm/types.js';
import { finishChunk, textChunk, toolCallChunk, usageChunk } from '../../test/support/openai-chunks.js';
import { fuzzRuns } from './fuzz-runs.js';
import { sseSplitArbitrary } from './sse-split-arbitrary.js';

/** A fetch whose response body arrives in exactly these chunks, one per read. */
function fetchServing(chunks: readonly Uint8Array[]): typeof fetch {
  return async () => {
    let next = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const chunk = chunks[next++];
        if (chunk === undefined) controller.close();
        else controller.enqueue(chunk);
      },
    });
    return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
  };
}

async function eventsOf(chunks: readonly Uint8Array[]): Promise<LlmEvent[]> {
  const adapter = createOpenAICompatibleAdapter({
    baseUrl: 'http://model.invalid',
    env: {},
    fetch: fetchServing(chunks),
  });
  const events: LlmEvent[] = [];
  for await (const event of adapter.stream({ messages: [{ role: 'user', content: 'hi' }] }, {})) events.push(event);
  return events;
}

const delta = fc.string({
  unit: fc.constantFrom('a', ' ', 'é', '€', '😀', '\n', ':', '"'),
  minLength: 1,
  maxLength: 6,
});

/** A realistic stream: text deltas, a tool call in argument fragments, a comment, CRLF or LF frames, usage, [DONE]. */
const streamBytes = fc
  .record({
    texts: fc.array(delta, { maxLength: 4 }),
    args: fc.array(delta, { maxLength: 3 }),
    crlf: fc.boolean(),
    comment: fc.boolean(),
  })
  .map(({ texts, args, crlf, comment }) => {
    const chunks = [
      ...texts.map((text) => textChunk(text)),
      ...(args.length > 0
        ? [
            toolCallChunk(0, { id: 'call_1', name: 'search' }),
            ...args.map((piece) => toolCallChunk(0, { args: JSON.stringify(piece) })),
          ]
        : []),
      finishChunk(args.length > 0 ? 'tool_calls' : 'stop'),
      usageChunk(12, 7),
    ];
    const eol = crlf ? '\r\n' : '\n';
    const frames = chunks.map((chunk) => `data: ${JSON.stringify(chunk)}${eol}${eol}`);
    if (comment) frames.splice(1, 0, `: keep-alive${eol}${eol}`);
    return new TextEncoder().encode(`${frames.join('')}data: [DONE]${eol}${eol}`);
  });

describe('the OpenAI-compatible adapter', () => {
  test.prop([streamBytes.chain((bytes) => fc.tuple(fc.constant(bytes), sseSplitArbitrary(bytes)))], {
    numRuns: fuzzRuns(200),
  })('streams the same events however the SSE bytes are split', async ([bytes, split]) => {
    expect(Buffer.concat(split)).toEqual(Buffer.from(bytes));
    expect(await eventsOf(split)).toEqual(await eventsOf([bytes]));
  });
});
