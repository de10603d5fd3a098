import type { ScenarioDefinition } from '../toolkit/scenarios/types.js';

export default {
  name: 'acp-child',
  description:
    'An out-of-process child: `nestcast acp-agent` started as a real process over ACP. It replays its own model calls from the same recording and writes its session log where the parent harvests it.',
  providers: [{ kind: 'acp' }],
  subagentTools: [
    { provider: 'acp', toolName: 'subagent_acp', maxDepth: 'provider-managed', enableRunInBackground: false },
  ],
  agent: { system: 'You are a coordinator. Delegate to an isolated agent process.' },
  steps: [{ prompt: 'Ask an isolated agent to name a prime number between 20 and 30.' }],
  script: {
    lineages: {
      main: [
        {
          toolCalls: [
            {
              id: 'call_prime',
              name: 'subagent_acp',
              args: { description: 'A prime in 20..30', prompt: 'Name a prime number between 20 and 30.' },
            },
          ],
        },
        { text: 'The isolated agent says 23.' },
      ],
      'main/call_prime': [{ reasoning: '21 = 3·7, 22 even, 23 prime.', text: '23' }],
    },
  },
  expect: {
    sessions: 2,
    turnEnd: { main: 'completed', 'main/call_prime': 'completed' },
    output: { main: 'says 23', 'main/call_prime': '23' },
  },
} satisfies ScenarioDefinition;
