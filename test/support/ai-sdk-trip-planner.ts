import { generateText, stepCountIs, streamText, tool, type LanguageModel } from 'ai';
import { expect } from 'vitest';
import { z } from 'zod';
import type { AuthoredScript } from '../../toolkit/authored/types.js';
import type { Cassette } from '../../toolkit/cassette/types.js';
import { expectReplaysToGive, recordFramework, type FrameworkRun } from './framework-cassette.js';

/**
 * The AI SDK proof every provider shares: `streamText` with two tools whose `execute` runs a nested
 * `generateText` sub-agent, both called in one step. Only the provider differs between the proofs,
 * so only the model (and the call options that provider needs) is passed in.
 */
export function tripPlanner(
  modelOf: (fetch: typeof globalThis.fetch, baseURL: string) => LanguageModel,
  options: { readonly maxOutputTokens?: number } = {},
): FrameworkRun<string> {
  return async (fetch, baseURL) => {
    const model = modelOf(fetch, baseURL);
    const subAgent = (system: string) =>
      tool({
        description: `Ask a sub-agent: ${system}`,
        inputSchema: z.object({ question: z.string() }),
        execute: async ({ question }) =>
          (await generateText({ model, system, prompt: question, maxRetries: 0, ...options })).text,
      });
    const result = streamText({
      model,
      system: 'You plan trips by asking your sub-agents.',
      prompt: 'Plan a weekend in Lisbon.',
      tools: { weather: subAgent('You know the weather.'), food: subAgent('You know restaurants.') },
      stopWhen: stepCountIs(3),
      maxRetries: 0,
      ...options,
    });
    return await result.text;
  };
}

/** The trip planner's script; `prefix` is how the provider's tool-call ids look (`call_`, `toolu_`). */
export function tripPlannerScript(prefix: string): AuthoredScript {
  return {
    model: 'scripted',
    lineages: {
      main: [
        {
          toolCalls: [
            { id: `${prefix}weather`, name: 'weather', args: { question: 'Weather in Lisbon this weekend?' } },
            { id: `${prefix}food`, name: 'food', args: { question: 'Best seafood in Lisbon?' } },
          ],
        },
        { text: 'Sunny; eat at the harbour.' },
      ],
      [`main/${prefix}weather`]: [{ text: 'Sunny, 24 degrees.' }],
      [`main/${prefix}food`]: [{ text: 'The harbour grill.' }],
    },
  };
}

/**
 * Records the trip planner from its script, checks the recording is threaded by itself (a streamed
 * parent, JSON children, the children's answers in the parent's second request), then replays it 50
 * times with random delays. Returns the recording for checks of the provider's own.
 */
export async function expectTripPlannerReplays(
  run: FrameworkRun<string>,
  { prefix, dir, seed }: { readonly prefix: string; readonly dir: string; readonly seed: number },
): Promise<Cassette> {
  const recorded = await recordFramework({ script: tripPlannerScript(prefix), dir, run, seed });
  expect(recorded.result).toBe('Sunny; eat at the harbour.');
  expect(Object.keys(recorded.cassette.calls).sort()).toEqual(['main', `main/${prefix}food`, `main/${prefix}weather`]);
  const main = recorded.cassette.calls['main'] ?? [];
  expect(main.map((call) => ('events' in call.response ? 'stream' : 'body'))).toEqual(['stream', 'stream']);
  expect('body' in (recorded.cassette.calls[`main/${prefix}food`]?.[0]?.response ?? {})).toBe(true);
  expect(JSON.stringify(main[1]?.request)).toContain('The harbour grill.');
  await expectReplaysToGive('Sunny; eat at the harbour.', {
    cassette: recorded.cassette,
    run,
    times: 50,
    seed: seed * 100,
  });
  return recorded.cassette;
}
