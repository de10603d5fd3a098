import type { ScenarioDefinition } from '../toolkit/scenarios/types.js';

export default {
  name: 'mixed',
  description:
    'Spawn and fork providers coexist: the parent asks a fresh child, then a forked child that sees the earlier turn.',
  providers: [{ kind: 'spawn' }, { kind: 'fork' }],
  subagentTools: [{ provider: 'spawn' }, { provider: 'fork', toolName: 'subagent_fork' }],
  agent: { system: 'Use subagent for standalone research and subagent_fork when the child needs this conversation.' },
  steps: [
    { prompt: 'My favourite colour is teal.' },
    {
      prompt:
        'Find a fruit of my favourite colour: ask a fresh subagent for teal-ish fruits, then a forked one to pick the best match for me.',
    },
  ],
  script: {
    lineages: {
      main: [
        { text: 'Teal it is.' },
        {
          toolCalls: [
            {
              id: 'call_fruits',
              name: 'subagent',
              args: { description: 'Teal-ish fruits', prompt: 'List fruits whose skin is blue-green.' },
            },
          ],
        },
        {
          toolCalls: [
            {
              id: 'call_pick',
              name: 'subagent_fork',
              args: {
                description: 'Pick a fruit',
                prompt: 'From: unripe blueberries, green grapes. Which suits the user best?',
              },
            },
          ],
        },
        { text: 'Try green grapes: the closest to teal.' },
      ],
      'main/call_fruits': [{ text: 'Unripe blueberries, green grapes.' }],
      'main/call_pick': [{ text: 'Green grapes, since the user likes teal.' }],
    },
  },
  expect: {
    sessions: 3,
    turnEnd: { main: 'completed', 'main/call_fruits': 'completed', 'main/call_pick': 'completed' },
    output: { main: 'green grapes', 'main/call_pick': 'the user likes teal' },
  },
} satisfies ScenarioDefinition;
