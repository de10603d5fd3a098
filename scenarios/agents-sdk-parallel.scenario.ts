import { Agent, OpenAIProvider, Runner, setTracingDisabled } from '@openai/agents';
import OpenAI from 'openai';
import { defineScenario } from '../toolkit/scenarios/define-scenario.js';

setTracingDisabled(true);

/**
 * A program scenario: an OpenAI Agents SDK orchestrator on its default model (the Responses API)
 * that asks two agents-as-tools at once, one of which asks a third. nestcast hands the program a
 * fetch; the sessions (`main`, `main/<tool call id>`, …) are derived from the calls' content.
 */
export default defineScenario({
  name: 'agents-sdk-parallel',
  description:
    'Your own agent code: an OpenAI Agents SDK orchestrator (Responses API) calls two agents-as-tools in parallel; the research agent asks a fact agent in turn.',
  program: async ({ fetch, signal }) => {
    const client = new OpenAI({ apiKey: 'not-a-key', fetch, maxRetries: 0 });
    const runner = new Runner({ modelProvider: new OpenAIProvider({ openAIClient: client }) });
    const fact = new Agent({ name: 'fact', instructions: 'You know facts about the sea.' });
    const research = new Agent({
      name: 'research',
      instructions: 'You research questions, asking the fact agent.',
      tools: [fact.asTool({ toolName: 'ask_fact', toolDescription: 'Ask the fact agent' })],
    });
    const math = new Agent({ name: 'math', instructions: 'You compute.' });
    const orchestrator = new Agent({
      name: 'orchestrator',
      instructions: 'Delegate to your tools, in parallel where you can.',
      tools: [
        math.asTool({ toolName: 'ask_math', toolDescription: 'Ask the math agent' }),
        research.asTool({ toolName: 'ask_research', toolDescription: 'Ask the research agent' }),
      ],
    });
    const result = await runner.run(orchestrator, 'How far apart are two high tides, and what is 12 + 13?', { signal });
    return String(result.finalOutput);
  },
  script: {
    model: 'gpt-4.1-mini',
    lineages: {
      main: [
        {
          toolCalls: [
            { id: 'call_tides', name: 'ask_research', args: { input: 'How far apart are two high tides?' } },
            { id: 'call_sum', name: 'ask_math', args: { input: 'What is 12 + 13?' } },
          ],
        },
        { text: 'High tides come about 12 hours 25 minutes apart, and 12 + 13 = 25.' },
      ],
      'main/call_tides': [
        { toolCalls: [{ id: 'call_period', name: 'ask_fact', args: { input: 'What is the period of the tide?' } }] },
        { text: 'About 12 hours 25 minutes.' },
      ],
      'main/call_tides/call_period': [{ text: 'A semidiurnal tide repeats every 12 h 25 min.' }],
      'main/call_sum': [{ text: '25' }],
    },
  },
  expect: {
    sessions: 4,
    turnEnd: { main: 'completed', 'main/call_sum': 'completed' },
    output: { main: /12 hours 25 minutes/, 'main/call_sum': '25' },
    toolResults: { main: ['About 12 hours 25 minutes.', '25'], 'main/call_tides': ['12 h 25 min'] },
    result: (answer) => answer.includes('12 + 13 = 25'),
  },
});
