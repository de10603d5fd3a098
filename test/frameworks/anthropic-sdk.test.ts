import Anthropic from '@anthropic-ai/sdk';
import type { MessageParam, Tool, ToolUseBlock } from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, test } from 'vitest';
import type { AuthoredScript } from '../../toolkit/authored/types.js';
import { expectReplaysToGive, recordFramework, type FrameworkRun } from '../support/framework-cassette.js';
import { useTempDir } from '../support/use-temp-dir.js';

const delegate: Tool = {
  name: 'delegate',
  input_schema: { type: 'object', properties: { task: { type: 'string' } }, required: ['task'] },
};
const lookup: Tool = {
  name: 'lookup',
  input_schema: { type: 'object', properties: { key: { type: 'string' } }, required: ['key'] },
};

/**
 * A user's own agent loop over the Anthropic SDK: sends the whole answer back (thinking blocks and
 * their signatures included), runs tools concurrently, and a `delegate` tool_use runs a child loop.
 */
function agentLoop(client: Anthropic, stream: boolean) {
  const loop = async (system: string, prompt: string, tools: Tool[]): Promise<string> => {
    const messages: MessageParam[] = [{ role: 'user', content: prompt }];
    for (let step = 0; step < 4; step++) {
      const params = { model: 'scripted', max_tokens: 1024, system, messages, tools };
      const message = stream
        ? await client.messages.stream(params).finalMessage()
        : await client.messages.create(params);
      const calls = message.content.filter((block): block is ToolUseBlock => block.type === 'tool_use');
      if (calls.length === 0) return message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
      messages.push({ role: 'assistant', content: message.content });
      const results = await Promise.all(
        calls.map(async (call) => {
          const input = call.input as { task?: string; key?: string };
          if (call.name === 'delegate') return loop('You are a helper.', `Your task: ${input.task}`, [lookup]);
          return `value of ${input.key}`;
        }),
      );
      messages.push({
        role: 'user',
        content: calls.map((call, i) => ({ type: 'tool_result', tool_use_id: call.id, content: results[i] as string })),
      });
    }
    throw new Error('the loop never answered');
  };
  return loop;
}

const orchestrate =
  (stream: boolean): FrameworkRun<string> =>
  async (fetch, baseURL) => {
    // The SDK adds `/v1/messages` itself.
    const client = new Anthropic({
      apiKey: 'sk-ant-test-not-a-key',
      baseURL: baseURL.replace(/\/v1$/, ''),
      fetch,
      maxRetries: 0,
    });
    return agentLoop(client, stream)('You coordinate helpers.', 'Collect the two reports.', [delegate]);
  };

const script: AuthoredScript = {
  model: 'scripted',
  lineages: {
    main: [
      {
        reasoning: 'Two helpers can work at once.',
        text: 'Asking two helpers.',
        toolCalls: [
          { id: 'toolu_sales', name: 'delegate', args: { task: 'summarise sales' } },
          { id: 'toolu_costs', name: 'delegate', args: { task: 'summarise costs' } },
        ],
      },
      { text: 'Both reports are in.' },
    ],
    'main/toolu_sales': [
      { toolCalls: [{ id: 'toolu_sales_lookup', name: 'lookup', args: { key: 'sales' } }] },
      { text: 'Sales are up.' },
    ],
    'main/toolu_costs': [{ text: 'Costs are flat.' }],
  },
};

const dir = useTempDir('anthropic-sdk-');

describe('a hand-written parent/child tool loop over the Anthropic SDK, no lineage in user code', () => {
  for (const stream of [true, false]) {
    test(`${stream ? 'streamed' : 'JSON'} answers record against the model server and replay 50 times with random delays and 0 failures`, async () => {
      const run = orchestrate(stream);
      const recorded = await recordFramework({ script, dir: dir.path, run, seed: stream ? 61 : 62 });
      expect(recorded.result).toBe('Both reports are in.');
      expect(recorded.served).toEqual([
        { lineage: 'main', consumed: 2, total: 2 },
        { lineage: 'main/toolu_costs', consumed: 1, total: 1 },
        { lineage: 'main/toolu_sales', consumed: 2, total: 2 },
      ]);
      const main = recorded.cassette.calls['main'] ?? [];
      expect(main.map((call) => ('events' in call.response ? 'stream' : 'body'))).toEqual(
        stream ? ['stream', 'stream'] : ['body', 'body'],
      );
      const second = JSON.stringify(main[1]?.request);
      expect(second).toContain('Sales are up.');
      expect(second).toContain('Costs are flat.');

      await expectReplaysToGive('Both reports are in.', {
        cassette: recorded.cassette,
        run,
        times: 50,
        seed: stream ? 6100 : 6200,
      });
    });
  }
});
