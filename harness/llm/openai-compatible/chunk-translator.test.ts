import { describe, expect, it } from 'vitest';
import { LlmError } from '../errors.js';
import { ChunkTranslator } from './chunk-translator.js';

const SOURCE = 'POST http://127.0.0.1:1/chat/completions';

function translate(chunks: readonly object[]): ReturnType<ChunkTranslator['end']> {
  const translator = new ChunkTranslator(SOURCE);
  const events = chunks.flatMap((chunk) => translator.accept(JSON.stringify(chunk)));
  return [...events, ...translator.end()];
}

const finishChunk = (reason: string | null) => ({ choices: [{ index: 0, delta: {}, finish_reason: reason }] });

describe('ChunkTranslator', () => {
  it.each([
    ['stop', { type: 'finish', reason: 'stop' }],
    ['tool_calls', { type: 'finish', reason: 'tool-calls' }],
    ['length', { type: 'finish', reason: 'max-tokens' }],
    ['content_filter', { type: 'finish', reason: 'content-filter' }],
    ['insufficient_system_resource', { type: 'finish', reason: 'other', raw: 'insufficient_system_resource' }],
  ])('maps finish_reason %s to %o', (wire, expected) => {
    expect(translate([finishChunk(wire)])).toEqual([expected]);
  });

  it('finishes with other and no raw value when the stream never gave a finish_reason', () => {
    expect(translate([finishChunk(null)])).toEqual([{ type: 'finish', reason: 'other' }]);
  });

  it('emits a text delta and a reasoning delta from one chunk, reasoning first', () => {
    const events = translate([
      { choices: [{ index: 0, delta: { content: 'B', reasoning_content: 'A' }, finish_reason: 'stop' }] },
    ]);
    expect(events.slice(0, 2)).toEqual([
      { type: 'reasoning-delta', text: 'A' },
      { type: 'text-delta', text: 'B' },
    ]);
  });

  it('rejects a tool call whose fragments never named the function', () => {
    const translator = new ChunkTranslator(SOURCE);
    translator.accept(
      JSON.stringify({
        choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: 'call_1', function: { arguments: '{}' } }] } }],
      }),
    );
    expect(() => translator.end()).toThrow(
      expect.objectContaining({
        code: 'PROTOCOL',
        message: expect.stringContaining('index 0 without a function name'),
      }),
    );
  });

  it('rejects data that is JSON but not an object', () => {
    expect(() => new ChunkTranslator(SOURCE).accept('42')).toThrow(LlmError);
  });

  it('maps usage with DeepSeek cache-hit tokens when the OpenAI spelling is absent', () => {
    expect(
      translate([
        {
          choices: [],
          usage: {
            prompt_tokens: 100,
            completion_tokens: 10,
            prompt_cache_hit_tokens: 64,
            prompt_cache_miss_tokens: 36,
          },
        },
      ]),
    ).toEqual([
      { type: 'usage', usage: { inputTokens: 100, outputTokens: 10, cachedInputTokens: 64 } },
      { type: 'finish', reason: 'other' },
    ]);
  });
});
