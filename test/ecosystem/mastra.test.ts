import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { Agent } from '@mastra/core/agent';
import { createTool } from '@mastra/core/tools';
import type { AuthoredScript } from 'nestcast/toolkit';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { expectReplaysToGive, lineages, recordFramework, type FrameworkRun } from './support/framework-cassette.js';

/** A Mastra agent whose tools each ask another Mastra agent; the model calls both in one step. */
const plan: FrameworkRun<string> = async (fetch, baseURL) => {
  const model = createOpenAICompatible({ name: 'scripted', baseURL, apiKey: 'sk-test-not-a-key', fetch }).chatModel(
    'scripted',
  );
  const delegateTo = (id: string, instructions: string) => {
    const agent = new Agent({ id, name: id, instructions, model });
    return createTool({
      id,
      description: instructions,
      inputSchema: z.object({ question: z.string() }),
      execute: async ({ question }) => (await agent.generate(question, { maxRetries: 0 })).text,
    });
  };
  const planner = new Agent({
    id: 'planner',
    name: 'planner',
    instructions: 'Plan a dinner by asking your sub-agents.',
    model,
    tools: { chef: delegateTo('chef', 'You pick a dish.'), sommelier: delegateTo('sommelier', 'You pick a wine.') },
  });
  return (await planner.generate('Plan dinner for two.', { maxSteps: 3, maxRetries: 0 })).text;
};

const script: AuthoredScript = {
  model: 'scripted',
  lineages: {
    main: [
      {
        toolCalls: [
          { id: 'call_dish', name: 'chef', args: { question: 'A dish for two?' } },
          { id: 'call_wine', name: 'sommelier', args: { question: 'A wine for risotto?' } },
        ],
      },
      { text: 'Mushroom risotto with a Barbera.' },
    ],
    'main/call_dish': [{ text: 'Mushroom risotto.' }],
    'main/call_wine': [{ text: 'A Barbera.' }],
  },
};

describe('Mastra (@mastra/core 1.x), agents delegating through tools, no lineage in user code', () => {
  test('two sub-agents called in one step record under derived lineages and replay 50 times with random delays and 0 failures', async () => {
    const recorded = await recordFramework({ script, run: plan, seed: 51 });
    expect(recorded.result).toBe('Mushroom risotto with a Barbera.');
    expect(lineages(recorded)).toEqual(['main', 'main/call_dish', 'main/call_wine']);
    await expectReplaysToGive('Mushroom risotto with a Barbera.', {
      cassette: recorded.cassette,
      run: plan,
      times: 50,
      seed: 5000,
    });
  });
});
