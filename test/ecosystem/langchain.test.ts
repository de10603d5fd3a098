import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { ChatOpenAI } from '@langchain/openai';
import type { AuthoredScript } from 'nestcast/toolkit';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { expectReplaysToGive, lineages, recordFramework, type FrameworkRun } from './support/framework-cassette.js';

/** A parent ChatOpenAI with tools bound, each tool a sub-agent (its own ChatOpenAI call), run concurrently. */
const coordinate: FrameworkRun<string> = async (fetch, baseURL) => {
  const model = new ChatOpenAI({
    model: 'scripted',
    apiKey: 'sk-test-not-a-key',
    maxRetries: 0,
    configuration: { baseURL, fetch },
  });
  const subAgent = (name: string, role: string) =>
    tool(
      async ({ topic }: { topic: string }) =>
        String((await model.invoke([new SystemMessage(role), new HumanMessage(topic)])).content),
      { name, description: role, schema: z.object({ topic: z.string() }) },
    );
  const tools = [subAgent('historian', 'You know history.'), subAgent('critic', 'You review books.')];
  const parent = model.bindTools(tools);
  const messages: BaseMessage[] = [
    new SystemMessage('Answer with help from your tools.'),
    new HumanMessage('Tell me about Dune.'),
  ];
  for (let step = 0; step < 3; step++) {
    const reply = (await parent.invoke(messages)) as AIMessage;
    messages.push(reply);
    const calls = reply.tool_calls ?? [];
    if (calls.length === 0) return String(reply.content);
    const results = await Promise.all(
      calls.map(async (call) => {
        const chosen = tools.find((candidate) => candidate.name === call.name);
        const output = chosen ? await chosen.invoke(call.args as { topic: string }) : `no tool ${call.name}`;
        return new ToolMessage({ content: String(output), tool_call_id: call.id ?? '' });
      }),
    );
    messages.push(...results);
  }
  throw new Error('the parent never answered');
};

const script: AuthoredScript = {
  model: 'scripted',
  lineages: {
    main: [
      {
        toolCalls: [
          { id: 'call_history', name: 'historian', args: { topic: 'When was Dune published?' } },
          { id: 'call_review', name: 'critic', args: { topic: 'Is Dune worth reading?' } },
        ],
      },
      { text: 'Dune (1965) is a classic.' },
    ],
    'main/call_history': [{ text: 'In 1965.' }],
    'main/call_review': [{ text: 'Yes, a classic.' }],
  },
};

describe('LangChain.js (@langchain/openai), tool sub-agents, no lineage in user code', () => {
  test('two concurrent sub-agent tools record under derived lineages and replay 50 times with random delays and 0 failures', async () => {
    const recorded = await recordFramework({ script, run: coordinate, seed: 31 });
    expect(recorded.result).toBe('Dune (1965) is a classic.');
    expect(lineages(recorded)).toEqual(['main', 'main/call_history', 'main/call_review']);
    await expectReplaysToGive('Dune (1965) is a classic.', {
      cassette: recorded.cassette,
      run: coordinate,
      times: 50,
      seed: 3000,
    });
  });
});
