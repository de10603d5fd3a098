import Anthropic from '@anthropic-ai/sdk';
import type { MessageParam, Tool, ToolUseBlock } from '@anthropic-ai/sdk/resources/messages';
import { defineScenario } from '../toolkit/scenarios/define-scenario.js';

const delegate: Tool = {
  name: 'delegate',
  input_schema: { type: 'object', properties: { task: { type: 'string' } }, required: ['task'] },
};
const lookup: Tool = {
  name: 'lookup',
  input_schema: { type: 'object', properties: { key: { type: 'string' } }, required: ['key'] },
};

/**
 * A program scenario around an agent loop of your own over `@anthropic-ai/sdk` (Anthropic
 * Messages, streamed): the coordinator delegates to a helper loop, which uses a lookup tool.
 */
export default defineScenario({
  name: 'anthropic-loop',
  description:
    'Your own agent loop over the Anthropic SDK (Messages API, streamed): a coordinator delegates to a helper that looks a value up.',
  program: async ({ fetch, signal }) => {
    const client = new Anthropic({ apiKey: 'not-a-key', fetch, maxRetries: 0 });
    const loop = async (system: string, prompt: string, tools: Tool[]): Promise<string> => {
      const messages: MessageParam[] = [{ role: 'user', content: prompt }];
      for (let step = 0; step < 4; step++) {
        const message = await client.messages
          .stream({ model: 'claude-sonnet-4-5', max_tokens: 1024, system, messages, tools }, { signal })
          .finalMessage();
        const calls = message.content.filter((block): block is ToolUseBlock => block.type === 'tool_use');
        if (calls.length === 0)
          return message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
        messages.push({ role: 'assistant', content: message.content });
        const results = await Promise.all(
          calls.map(async (call) => {
            const input = call.input as { task?: string; key?: string };
            if (call.name === 'delegate') return loop('You are a helper.', `Your task: ${input.task}`, [lookup]);
            return `the ${input.key} is 42`;
          }),
        );
        messages.push({
          role: 'user',
          content: calls.map((call, i) => ({
            type: 'tool_result',
            tool_use_id: call.id,
            content: results[i] as string,
          })),
        });
      }
      throw new Error('the loop never answered');
    };
    return loop('You coordinate helpers.', 'Find the answer with a helper.', [delegate]);
  },
  script: {
    model: 'claude-sonnet-4-5',
    lineages: {
      main: [
        {
          reasoning: 'A helper can look it up.',
          text: 'Asking a helper.',
          toolCalls: [{ id: 'toolu_answer', name: 'delegate', args: { task: 'find the answer' } }],
        },
        { text: 'The helper found it: 42.' },
      ],
      'main/toolu_answer': [
        { toolCalls: [{ id: 'toolu_lookup', name: 'lookup', args: { key: 'answer' } }] },
        { text: 'The answer is 42.' },
      ],
    },
  },
  expect: {
    sessions: 2,
    turnEnd: { main: 'completed', 'main/toolu_answer': 'completed' },
    output: { main: 'found it: 42', 'main/toolu_answer': 'The answer is 42.' },
    toolResults: { main: ['The answer is 42.'], 'main/toolu_answer': ['the answer is 42'] },
    result: (text) => text === 'The helper found it: 42.',
  },
});
