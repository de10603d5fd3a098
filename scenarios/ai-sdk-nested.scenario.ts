import { createOpenAI } from '@ai-sdk/openai';
import { generateText, stepCountIs, streamText, tool } from 'ai';
import { z } from 'zod';
import { defineScenario } from '../toolkit/scenarios/define-scenario.js';

/**
 * A program scenario on the Vercel AI SDK (its OpenAI provider's default, the Responses API): a
 * streamed planner whose two tools each run a nested `generateText` sub-agent, both called in one
 * step. The sub-agents' sessions hang from the planner's tool calls by content.
 */
export default defineScenario({
  name: 'ai-sdk-nested',
  description:
    'Your own agent code: an AI SDK streamText planner whose tools run nested generateText sub-agents, two at once.',
  program: async ({ fetch, signal }) => {
    const model = createOpenAI({ apiKey: 'not-a-key', fetch })('gpt-4.1-mini');
    const subAgent = (system: string) =>
      tool({
        description: `Ask a sub-agent: ${system}`,
        inputSchema: z.object({ question: z.string() }),
        execute: async ({ question }) =>
          (await generateText({ model, system, prompt: question, maxRetries: 0, abortSignal: signal })).text,
      });
    const result = streamText({
      model,
      system: 'You plan trips by asking your sub-agents.',
      prompt: 'Plan a weekend in Lisbon.',
      tools: { weather: subAgent('You know the weather.'), food: subAgent('You know restaurants.') },
      stopWhen: stepCountIs(3),
      maxRetries: 0,
      abortSignal: signal,
    });
    return await result.text;
  },
  script: {
    model: 'gpt-4.1-mini',
    lineages: {
      main: [
        {
          toolCalls: [
            { id: 'call_weather', name: 'weather', args: { question: 'Weather in Lisbon this weekend?' } },
            { id: 'call_food', name: 'food', args: { question: 'Best seafood in Lisbon?' } },
          ],
        },
        { text: 'Sunny all weekend; eat at the harbour grill.' },
      ],
      'main/call_weather': [{ text: 'Sunny, 24 degrees.' }],
      'main/call_food': [{ text: 'The harbour grill.' }],
    },
  },
  expect: {
    sessions: 3,
    output: { main: 'harbour grill', 'main/call_weather': 'Sunny', 'main/call_food': 'harbour grill' },
    toolResults: { main: ['Sunny, 24 degrees.', 'The harbour grill.'] },
    result: (text) => text === 'Sunny all weekend; eat at the harbour grill.',
  },
});
