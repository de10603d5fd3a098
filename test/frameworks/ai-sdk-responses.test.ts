import { createOpenAI } from '@ai-sdk/openai';
import { generateText, stepCountIs, streamText, tool } from 'ai';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import type { AuthoredScript } from '../../toolkit/authored/types.js';
import { expectReplaysToGive, recordFramework, type FrameworkRun } from '../support/framework-cassette.js';
import { useTempDir } from '../support/use-temp-dir.js';

/**
 * The AI SDK's OpenAI provider on its default, the Responses API: `streamText` with two tools whose
 * `execute` runs a nested `generateText` sub-agent, both called in one step.
 */
const research: FrameworkRun<string> = async (fetch, baseURL) => {
  const provider = createOpenAI({ baseURL, apiKey: 'sk-test-not-a-key', fetch });
  const model = provider('scripted');
  const subAgent = (system: string) =>
    tool({
      description: `Ask a sub-agent: ${system}`,
      inputSchema: z.object({ question: z.string() }),
      execute: async ({ question }) => (await generateText({ model, system, prompt: question, maxRetries: 0 })).text,
    });
  const result = streamText({
    model,
    system: 'You plan trips by asking your sub-agents.',
    prompt: 'Plan a weekend in Lisbon.',
    tools: { weather: subAgent('You know the weather.'), food: subAgent('You know restaurants.') },
    stopWhen: stepCountIs(3),
    maxRetries: 0,
  });
  return await result.text;
};

const script: AuthoredScript = {
  model: 'scripted',
  lineages: {
    main: [
      {
        toolCalls: [
          { id: 'call_weather', name: 'weather', args: { question: 'Weather in Lisbon this weekend?' } },
          { id: 'call_food', name: 'food', args: { question: 'Best seafood in Lisbon?' } },
        ],
      },
      { text: 'Sunny; eat at the harbour.' },
    ],
    'main/call_weather': [{ text: 'Sunny, 24 degrees.' }],
    'main/call_food': [{ text: 'The harbour grill.' }],
  },
};

const dir = useTempDir('ai-sdk-responses-');

describe('Vercel AI SDK with @ai-sdk/openai (Responses API), parallel sub-agent tools, no lineage in user code', () => {
  test('a streamed parent and JSON children record and replay 50 times with random delays and 0 failures', async () => {
    const recorded = await recordFramework({ script, dir: dir.path, run: research, seed: 31 });
    expect(recorded.result).toBe('Sunny; eat at the harbour.');
    expect(Object.keys(recorded.cassette.calls).sort()).toEqual(['main', 'main/call_food', 'main/call_weather']);
    const calls = Object.values(recorded.cassette.calls).flat();
    expect(new Set(calls.map((call) => call.protocol))).toEqual(new Set(['openai-responses']));
    const main = recorded.cassette.calls['main'] ?? [];
    expect(main.map((call) => ('events' in call.response ? 'stream' : 'body'))).toEqual(['stream', 'stream']);
    expect('body' in (recorded.cassette.calls['main/call_food']?.[0]?.response ?? {})).toBe(true);
    expect(JSON.stringify(main[1]?.request)).toContain('harbour grill.');

    await expectReplaysToGive('Sunny; eat at the harbour.', {
      cassette: recorded.cassette,
      run: research,
      times: 50,
      seed: 4000,
    });
  });
});
