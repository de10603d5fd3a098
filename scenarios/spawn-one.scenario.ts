import type { ScenarioDefinition } from '../toolkit/scenarios/types.js';

export default {
  name: 'spawn-one',
  description: 'The parent delegates one self-contained task to a fresh spawned child and reports its answer.',
  providers: [{ kind: 'spawn' }],
  subagentTools: [{ provider: 'spawn' }],
  agent: { system: 'You are a coordinator. Delegate research to a subagent.' },
  steps: [{ prompt: 'Find out the capital of Australia, using a subagent.' }],
  script: {
    lineages: {
      main: [
        {
          toolCalls: [
            {
              id: 'call_capital',
              name: 'subagent',
              args: {
                description: 'Capital of Australia',
                prompt: 'What is the capital of Australia? Answer with the city only.',
              },
            },
          ],
        },
        { text: 'The capital of Australia is Canberra.' },
      ],
      'main/call_capital': [{ text: 'Canberra' }],
    },
  },
  expect: {
    sessions: 2,
    turnEnd: { main: 'completed', 'main/call_capital': 'completed' },
    output: { main: /Canberra/, 'main/call_capital': 'Canberra' },
  },
} satisfies ScenarioDefinition;
