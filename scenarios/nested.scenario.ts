import type { ScenarioDefinition } from '../toolkit/scenarios/types.js';

export default {
  name: 'nested',
  description: 'A child delegates in turn: three generations of sessions, each keyed by its own lineage.',
  providers: [{ kind: 'spawn' }],
  subagentTools: [{ provider: 'spawn' }],
  agent: { system: 'You are a coordinator.' },
  steps: [{ prompt: 'Plan a weekend in Lisbon. Delegate the planning.' }],
  script: {
    lineages: {
      main: [
        {
          toolCalls: [
            {
              id: 'call_planner',
              name: 'subagent',
              args: {
                description: 'Plan the weekend',
                prompt: 'Plan a weekend in Lisbon; delegate the food research.',
              },
            },
          ],
        },
        { text: 'Plan: Belém on Saturday, Alfama on Sunday, pastéis de nata throughout.' },
      ],
      'main/call_planner': [
        {
          toolCalls: [
            {
              id: 'call_food',
              name: 'subagent',
              args: { description: 'Lisbon food', prompt: 'Name one pastry to try in Lisbon.' },
            },
          ],
        },
        { text: 'Belém on Saturday, Alfama on Sunday; eat pastéis de nata.' },
      ],
      'main/call_planner/call_food': [{ text: 'Pastéis de nata.' }],
    },
  },
  expect: {
    sessions: 3,
    turnEnd: { main: 'completed', 'main/call_planner': 'completed', 'main/call_planner/call_food': 'completed' },
    output: { main: 'pastéis de nata', 'main/call_planner/call_food': 'Pastéis de nata.' },
  },
} satisfies ScenarioDefinition;
