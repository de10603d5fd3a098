import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { describe, test } from 'vitest';
import { expectTripPlannerReplays, tripPlanner } from '../support/ai-sdk-trip-planner.js';
import { useTempDir } from '../support/use-temp-dir.js';

/** Over chat completions, through the OpenAI-compatible provider. */
const research = tripPlanner((fetch, baseURL) =>
  createOpenAICompatible({ name: 'scripted', baseURL, apiKey: 'sk-test-not-a-key', fetch }).chatModel('scripted'),
);

const dir = useTempDir('ai-sdk-');

describe('Vercel AI SDK, parallel sub-agent tools, no lineage in user code', () => {
  test('a streamed parent and non-streaming children record and replay 50 times with random delays and 0 failures', async () => {
    await expectTripPlannerReplays(research, { prefix: 'call_', dir: dir.path, seed: 21 });
  });
});
