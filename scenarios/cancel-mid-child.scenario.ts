import type { ScenarioDefinition } from '../toolkit/scenarios/types.js';

export default {
  name: 'cancel-mid-child',
  description:
    'The user cancels while a foreground child is streaming: the child ends aborted with its partial output, the parent turn ends aborted with every call answered, and the conversation goes on.',
  providers: [{ kind: 'spawn' }],
  subagentTools: [{ provider: 'spawn' }],
  agent: { system: 'You are a coordinator.' },
  steps: [
    {
      prompt: 'Write a long essay on tides. Delegate it.',
      cancel: { whenStreamed: { lineage: 'main/call_essay', text: 'periodic rise' } },
    },
    { prompt: 'Sorry, I cancelled that. Just give me one sentence yourself.' },
  ],
  script: {
    lineages: {
      main: [
        {
          toolCalls: [
            {
              id: 'call_essay',
              name: 'subagent',
              args: { description: 'Essay on tides', prompt: 'Write a long essay on tides.' },
            },
          ],
        },
        { text: 'Tides are the rise and fall of the sea caused mostly by the Moon.' },
      ],
      'main/call_essay': [{ hang: { text: 'Tides are the periodic rise' } }],
    },
  },
  expect: {
    sessions: 2,
    turnEnd: { main: 'completed', 'main/call_essay': 'aborted' },
    output: { 'main/call_essay': 'Tides are the periodic rise', main: 'caused mostly by the Moon' },
  },
} satisfies ScenarioDefinition;
