import { createAnthropic } from '@ai-sdk/anthropic';
import { describe, test } from 'vitest';
import { expectTripPlannerReplays, tripPlanner } from '../support/ai-sdk-trip-planner.js';
import { useTempDir } from '../support/use-temp-dir.js';

/** Over Anthropic Messages. `maxOutputTokens` is set: the provider warns about a model it does not know. */
const research = tripPlanner(
  (fetch, baseURL) => createAnthropic({ baseURL, apiKey: 'sk-ant-test-not-a-key', fetch })('scripted'),
  { maxOutputTokens: 1024 },
);

const dir = useTempDir('ai-sdk-anthropic-');

describe('AI SDK with @ai-sdk/anthropic, parallel sub-agent tools, no lineage in user code', () => {
  test('a streamed parent and JSON children record and replay 50 times with random delays and 0 failures', async () => {
    await expectTripPlannerReplays(research, { prefix: 'toolu_', dir: dir.path, seed: 81 });
  });
});
