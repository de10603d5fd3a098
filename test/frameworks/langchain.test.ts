import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { ChatOpenAI } from '@langchain/openai';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import type { AuthoredScript } from '../../toolkit/authored/types.js';
import type { NormalisationRule } from '../../toolkit/normalisation/types.js';
import {
  expectReplaysToGive,
  recordFramework,
  replayFramework,
  type FrameworkRun,
} from '../support/framework-cassette.js';
import { useTempDir } from '../support/use-temp-dir.js';

/**
 * LangChain.js: a parent model with tools bound, each tool a sub-agent (its own ChatOpenAI call),
 * run concurrently by the parent's loop. Each sub-agent's system prompt carries the current time,
 * as prompt templates often do: a value that differs on every run, which a rule normalises.
 */
const coordinate: FrameworkRun<string> = async (fetch, baseURL) => {
  const model = new ChatOpenAI({
    model: 'scripted',
    apiKey: 'sk-test-not-a-key',
    maxRetries: 0,
    configuration: { baseURL, fetch },
  });
  const subAgent = (name: string, role: string) =>
    tool(
      async ({ topic }: { topic: string }) => {
        const answer = await model.invoke([
          new SystemMessage(`${role} Current time: ${new Date().toISOString()}.`),
          new HumanMessage(topic),
        ]);
        return String(answer.content);
      },
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

const normalise: readonly NormalisationRule[] = [
  { replace: '\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z', with: '<now>' },
];

const dir = useTempDir('langchain-');

describe('LangChain.js, tool sub-agents with a time in their prompt, no lineage in user code', () => {
  test('recorded with a normalisation rule (saved in meta.json), it replays 50 times with random delays and 0 failures', async () => {
    const recorded = await recordFramework({
      script,
      dir: dir.path,
      run: coordinate,
      seed: 31,
      normalise: { rules: normalise },
    });
    expect(recorded.result).toBe('Dune (1965) is a classic.');
    expect(Object.keys(recorded.cassette.calls).sort()).toEqual(['main', 'main/call_history', 'main/call_review']);
    expect(recorded.cassette.normalise).toEqual(normalise);
    expect(recorded.report.unusedRules).toEqual([]);
    expect(JSON.stringify(recorded.cassette.calls['main/call_history']?.[0]?.request)).toContain(
      'Current time: <now>.',
    );

    // Replay reads the rule from meta.json: the test passes none.
    await expectReplaysToGive('Dune (1965) is a classic.', {
      cassette: recorded.cassette,
      run: coordinate,
      times: 50,
      seed: 3000,
    });
  });

  test('without the rule the replay fails with REQUEST_MISMATCH at the time, advising a normalisation rule', async () => {
    const recorded = await recordFramework({
      script,
      dir: dir.path,
      run: coordinate,
      seed: 32,
      normalise: { rules: normalise },
    });
    const { normalise: _dropped, ...withoutRule } = recorded.cassette;
    const { failures } = await replayFramework({ cassette: withoutRule, run: coordinate, times: 1, seed: 4000 });
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatch(/REQUEST_MISMATCH: Model call 1 of session "main\/call_(history|review)"/);
    expect(failures[0]).toContain('a timestamp, which changes on every run: add a normalisation rule');
  });
});
