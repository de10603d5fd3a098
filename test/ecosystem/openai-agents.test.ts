import { Agent, OpenAIChatCompletionsModel, run, setTracingDisabled } from '@openai/agents';
import type { AuthoredScript } from 'nestcast/toolkit';
import OpenAI from 'openai';
import { describe, expect, test } from 'vitest';
import { expectReplaysToGive, lineages, recordFramework, type FrameworkRun } from './support/framework-cassette.js';

setTracingDisabled(true);

/** An orchestrator with two agents-as-tools; in one turn it asks the math agent twice and the poet once. */
const orchestrate: FrameworkRun<string> = async (fetch, baseURL) => {
  const client = new OpenAI({ apiKey: 'sk-test-not-a-key', baseURL, fetch, maxRetries: 0 });
  const model = new OpenAIChatCompletionsModel(client, 'scripted');
  const math = new Agent({ name: 'math', instructions: 'You compute.', model });
  const poet = new Agent({ name: 'poet', instructions: 'You write short poems.', model });
  const orchestrator = new Agent({
    name: 'orchestrator',
    instructions: 'Delegate to your tools.',
    model,
    tools: [
      math.asTool({ toolName: 'ask_math', toolDescription: 'Ask the math agent' }),
      poet.asTool({ toolName: 'ask_poet', toolDescription: 'Ask the poet agent' }),
    ],
  });
  const result = await run(orchestrator, 'Compute two sums and write a haiku.');
  return String(result.finalOutput);
};

const script: AuthoredScript = {
  model: 'scripted',
  lineages: {
    main: [
      {
        toolCalls: [
          { id: 'call_sum_small', name: 'ask_math', args: { input: 'What is 2+2?' } },
          { id: 'call_haiku', name: 'ask_poet', args: { input: 'A haiku about the sea' } },
          { id: 'call_sum_large', name: 'ask_math', args: { input: 'What is 300+400?' } },
        ],
      },
      { text: 'Done: 4, 700, and a haiku.' },
    ],
    'main/call_sum_small': [{ text: 'The answer is 4.' }],
    'main/call_sum_large': [{ text: 'The answer is 700.' }],
    'main/call_haiku': [{ text: 'Waves fold into foam' }],
  },
};

describe('OpenAI Agents SDK (chat-completions model), agents as tools, no lineage in user code', () => {
  test('three parallel agents-as-tools record under derived lineages and replay 50 times with random delays and 0 failures', async () => {
    const recorded = await recordFramework({ script, run: orchestrate, seed: 11 });
    expect(recorded.result).toBe('Done: 4, 700, and a haiku.');
    expect(lineages(recorded)).toEqual(['main', 'main/call_haiku', 'main/call_sum_large', 'main/call_sum_small']);
    expect(recorded.report.ambiguities).toEqual([]);
    expect(JSON.stringify(recorded.cassette.calls['main/call_haiku']?.[0])).toContain('A haiku about the sea');
    await expectReplaysToGive('Done: 4, 700, and a haiku.', {
      cassette: recorded.cassette,
      run: orchestrate,
      times: 50,
      seed: 1000,
    });
  });
});
