import { createOpenAI } from '@ai-sdk/openai';
import { describe, expect, test } from 'vitest';
import { expectTripPlannerReplays, tripPlanner } from '../support/ai-sdk-trip-planner.js';
import { useTempDir } from '../support/use-temp-dir.js';

/** The AI SDK's OpenAI provider on its default, the Responses API. */
const research = tripPlanner((fetch, baseURL) =>
  createOpenAI({ baseURL, apiKey: 'sk-test-not-a-key', fetch })('scripted'),
);

const dir = useTempDir('ai-sdk-responses-');

describe('Vercel AI SDK with @ai-sdk/openai (Responses API), parallel sub-agent tools, no lineage in user code', () => {
  test('a streamed parent and JSON children record and replay 50 times with random delays and 0 failures', async () => {
    const cassette = await expectTripPlannerReplays(research, { prefix: 'call_', dir: dir.path, seed: 31 });
    const calls = Object.values(cassette.calls).flat();
    expect(new Set(calls.map((call) => call.protocol))).toEqual(new Set(['openai-responses']));
  });
});
