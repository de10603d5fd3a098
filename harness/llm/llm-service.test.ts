import { describe, expect, it } from 'vitest';
import { HarnessError } from '../errors.js';
import { LlmService } from './llm-service.js';
import type { LlmAdapter, LlmCallOptions, LlmEvent } from './types.js';

function recordingAdapter(name: string, calls: { adapter: string; options: LlmCallOptions }[]): LlmAdapter {
  return {
    name,
    async *stream(_request, options) {
      calls.push({ adapter: name, options });
      yield { type: 'finish', reason: 'stop' } satisfies LlmEvent;
    },
  };
}

async function drain(events: AsyncIterable<LlmEvent>): Promise<void> {
  for await (const _event of events);
}

const request = { messages: [{ role: 'user' as const, content: 'hi' }] };

describe('LlmService', () => {
  it('streams from the first registered adapter by default and from a named one on request, without passing the adapter option on', async () => {
    const calls: { adapter: string; options: LlmCallOptions }[] = [];
    const llm = new LlmService();
    llm.register(recordingAdapter('deepseek', calls));
    llm.register(recordingAdapter('scripted', calls));
    await drain(llm.stream(request, { lineage: 'main' }));
    await drain(llm.stream(request, { adapter: 'scripted', lineage: 'main/c1' }));
    expect(calls).toEqual([
      { adapter: 'deepseek', options: { lineage: 'main' } },
      { adapter: 'scripted', options: { lineage: 'main/c1' } },
    ]);
  });

  it('rejects a second adapter with the same name as DUPLICATE_ADAPTER', () => {
    const llm = new LlmService();
    llm.register(recordingAdapter('deepseek', []));
    expect(() => llm.register(recordingAdapter('deepseek', []))).toThrow(
      expect.objectContaining({ code: 'DUPLICATE_ADAPTER' }),
    );
  });

  it('forgets an adapter once its disposer runs, and a second dispose does not remove a newer adapter of that name', () => {
    const llm = new LlmService();
    const dispose = llm.register(recordingAdapter('deepseek', []));
    dispose();
    const replacement = recordingAdapter('deepseek', []);
    llm.register(replacement);
    dispose();
    expect(llm.get('deepseek')).toBe(replacement);
    expect(llm.names()).toEqual(['deepseek']);
  });

  it('throws NO_ADAPTER saying how to register one when none is registered', () => {
    const error = captureError(() => new LlmService().stream(request));
    expect(error).toBeInstanceOf(HarnessError);
    expect(error).toMatchObject({ code: 'NO_ADAPTER' });
    expect(error.message).toContain('llm.register(createOpenAICompatibleAdapter())');
  });

  it('throws NO_ADAPTER listing the registered names when the requested adapter is unknown', () => {
    const llm = new LlmService();
    llm.register(recordingAdapter('deepseek', []));
    const error = captureError(() => llm.stream(request, { adapter: 'openai' }));
    expect(error).toMatchObject({ code: 'NO_ADAPTER' });
    expect(error.message).toContain('registered: deepseek');
  });
});

function captureError(action: () => unknown): Error {
  try {
    action();
  } catch (error) {
    if (error instanceof Error) return error;
  }
  throw new Error('expected the action to throw');
}
