import type { ScenarioDefinition } from '../toolkit/scenarios/types.js';

export default {
  name: 'multi',
  description:
    'The parent delegates two tasks one after the other, each to its own fresh child, then combines the answers.',
  providers: [{ kind: 'spawn' }],
  subagentTools: [{ provider: 'spawn' }],
  agent: { system: 'You are a coordinator. Delegate each research question to its own subagent, one at a time.' },
  steps: [{ prompt: 'What are the capitals of Canada and of Japan? Ask one subagent per country.' }],
  script: {
    lineages: {
      main: [
        {
          text: 'First Canada.',
          toolCalls: [
            {
              id: 'call_canada',
              name: 'subagent',
              args: {
                description: 'Capital of Canada',
                prompt: 'What is the capital of Canada? Answer with the city only.',
              },
            },
          ],
        },
        {
          text: 'Now Japan.',
          toolCalls: [
            {
              id: 'call_japan',
              name: 'subagent',
              args: {
                description: 'Capital of Japan',
                prompt: 'What is the capital of Japan? Answer with the city only.',
              },
            },
          ],
        },
        { text: 'Canada: Ottawa. Japan: Tokyo.' },
      ],
      'main/call_canada': [{ text: 'Ottawa' }],
      'main/call_japan': [{ text: 'Tokyo' }],
    },
  },
  expect: {
    sessions: 3,
    turnEnd: { main: 'completed', 'main/call_canada': 'completed', 'main/call_japan': 'completed' },
    output: { main: 'Canada: Ottawa. Japan: Tokyo.', 'main/call_canada': 'Ottawa', 'main/call_japan': 'Tokyo' },
  },
} satisfies ScenarioDefinition;
