import { HumanMessage, SystemMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { ChatOpenAI } from '@langchain/openai';
import type { AuthoredScript } from 'nestcast/toolkit';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { expectReplaysToGive, lineages, recordFramework, type FrameworkRun } from './support/framework-cassette.js';

/** A LangGraph ReAct agent whose tools are sub-agents; its tool node runs both calls of one step concurrently. */
const supervise: FrameworkRun<string> = async (fetch, baseURL) => {
  const llm = new ChatOpenAI({
    model: 'scripted',
    apiKey: 'sk-test-not-a-key',
    maxRetries: 0,
    configuration: { baseURL, fetch },
  });
  const subAgent = (name: string, role: string) =>
    tool(
      async ({ task }: { task: string }) =>
        String((await llm.invoke([new SystemMessage(role), new HumanMessage(task)])).content),
      { name, description: role, schema: z.object({ task: z.string() }) },
    );
  const agent = createReactAgent({
    llm,
    tools: [subAgent('researcher', 'You find facts.'), subAgent('writer', 'You write one sentence.')],
    prompt: 'Use your sub-agents, then answer.',
  });
  const state = await agent.invoke({ messages: [new HumanMessage('Write about the Moon landing.')] });
  return String(state.messages.at(-1)?.content);
};

const script: AuthoredScript = {
  model: 'scripted',
  lineages: {
    main: [
      {
        toolCalls: [
          { id: 'call_facts', name: 'researcher', args: { task: 'When did Apollo 11 land?' } },
          { id: 'call_prose', name: 'writer', args: { task: 'A sentence about the Moon.' } },
        ],
      },
      { text: 'Apollo 11 landed in 1969, under a silver Moon.' },
    ],
    'main/call_facts': [{ text: 'July 1969.' }],
    'main/call_prose': [{ text: 'The Moon hung silver.' }],
  },
};

describe('LangGraph.js (createReactAgent), sub-agent tools run by the tool node, no lineage in user code', () => {
  test('a graph step with two sub-agent calls records under derived lineages and replays 50 times with random delays and 0 failures', async () => {
    const recorded = await recordFramework({ script, run: supervise, seed: 41 });
    expect(recorded.result).toBe('Apollo 11 landed in 1969, under a silver Moon.');
    expect(lineages(recorded)).toEqual(['main', 'main/call_facts', 'main/call_prose']);
    expect(JSON.stringify(recorded.cassette.calls['main']?.[1]?.request)).toContain('The Moon hung silver.');
    await expectReplaysToGive('Apollo 11 landed in 1969, under a silver Moon.', {
      cassette: recorded.cassette,
      run: supervise,
      times: 50,
      seed: 4000,
    });
  });
});
