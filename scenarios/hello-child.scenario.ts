import type { ScenarioDefinition } from '../toolkit/scenarios/types.js';

export default {
  name: 'hello-child',
  description: 'The quickstart scenario of docs/scenarios.md: a parent asks one child to greet.',
  providers: [{ kind: 'spawn' }],
  subagentTools: [{ provider: 'spawn' }],
  steps: [{ prompt: 'Ask a helper to say hello.' }],
  script: {
    lineages: {
      main: [
        {
          toolCalls: [{ id: 'call_hello', name: 'subagent', args: { description: 'Say hello', prompt: 'Say hello.' } }],
        },
        { text: 'The helper says: Hello!' },
      ],
      'main/call_hello': [{ text: 'Hello!' }],
    },
  },
  expect: {
    sessions: 2,
    output: { main: 'The helper says: Hello!' },
  },
} satisfies ScenarioDefinition;
