import type { ScenarioDefinition } from '../toolkit/scenarios/types.js';

export default {
  name: 'parallel',
  description:
    'One model message starts two children at once; they run concurrently and each replays its own recording, whichever calls the model first.',
  providers: [{ kind: 'spawn' }],
  subagentTools: [{ provider: 'spawn' }],
  agent: { system: 'You are a coordinator. Start independent subagents together.' },
  steps: [{ prompt: 'Compare the populations of Iceland and Malta. Research both at the same time.' }],
  script: {
    lineages: {
      main: [
        {
          toolCalls: [
            {
              id: 'call_iceland',
              name: 'subagent',
              args: { description: 'Population of Iceland', prompt: 'Roughly how many people live in Iceland?' },
            },
            {
              id: 'call_malta',
              name: 'subagent',
              args: { description: 'Population of Malta', prompt: 'Roughly how many people live in Malta?' },
            },
          ],
        },
        { text: 'Malta (about 540,000) has more people than Iceland (about 390,000).' },
      ],
      'main/call_iceland': [
        { reasoning: 'Recent estimates are a little under 400 thousand.', text: 'About 390,000 people.' },
      ],
      'main/call_malta': [
        { reasoning: 'Recent estimates are a little over half a million.', text: 'About 540,000 people.' },
      ],
    },
  },
  expect: {
    sessions: 3,
    turnEnd: { main: 'completed', 'main/call_iceland': 'completed', 'main/call_malta': 'completed' },
    output: { main: /Malta .* more people than Iceland/, 'main/call_iceland': '390,000', 'main/call_malta': '540,000' },
  },
} satisfies ScenarioDefinition;
