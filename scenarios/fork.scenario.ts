import type { ScenarioDefinition } from '../toolkit/scenarios/types.js';

export default {
  name: 'fork',
  description:
    'After two completed turns the parent forks a child: the child is seeded with those turns (not the open delegating turn) and recalls what was said.',
  providers: [{ kind: 'fork' }],
  subagentTools: [{ provider: 'fork', toolName: 'subagent_fork' }],
  agent: { system: 'You are a careful assistant.' },
  steps: [
    { prompt: 'Remember this codeword: PERIWINKLE.' },
    { prompt: 'And this number: 42.' },
    { prompt: 'Ask a forked subagent to repeat the codeword and the number back.' },
  ],
  script: {
    lineages: {
      main: [
        { text: 'Noted: PERIWINKLE.' },
        { text: 'Noted: 42.' },
        {
          toolCalls: [
            {
              id: 'call_recall',
              name: 'subagent_fork',
              args: { description: 'Recall the facts', prompt: 'Repeat the codeword and the number from earlier.' },
            },
          ],
        },
        { text: 'The forked subagent recalled PERIWINKLE and 42.' },
      ],
      'main/call_recall': [{ text: 'The codeword is PERIWINKLE and the number is 42.' }],
    },
  },
  expect: {
    sessions: 2,
    turnEnd: { main: 'completed', 'main/call_recall': 'completed' },
    output: { 'main/call_recall': 'PERIWINKLE and the number is 42', main: 'recalled PERIWINKLE and 42' },
  },
} satisfies ScenarioDefinition;
