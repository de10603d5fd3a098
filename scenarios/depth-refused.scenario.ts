import type { ScenarioDefinition } from '../toolkit/scenarios/types.js';

export default {
  name: 'depth-refused',
  description:
    'With maxDepth 1 a child may not delegate again: its attempt is refused (DEPTH_EXCEEDED) before a grandchild exists, and it carries on.',
  providers: [{ kind: 'spawn' }],
  subagentTools: [{ provider: 'spawn', maxDepth: 1 }],
  agent: { system: 'You are a coordinator.' },
  steps: [{ prompt: 'Research the history of the bicycle. Delegate it.' }],
  script: {
    lineages: {
      main: [
        {
          toolCalls: [
            {
              id: 'call_history',
              name: 'subagent',
              args: {
                description: 'Bicycle history',
                prompt: 'Summarise the history of the bicycle; delegate the details if you like.',
              },
            },
          ],
        },
        { text: 'The bicycle evolved from the 1817 draisine to the 1880s safety bicycle.' },
      ],
      'main/call_history': [
        {
          toolCalls: [
            {
              id: 'call_details',
              name: 'subagent',
              args: { description: 'Early bicycles', prompt: 'Describe the draisine.' },
            },
          ],
        },
        { text: 'I could not delegate further, so from memory: the 1817 draisine led to the 1880s safety bicycle.' },
      ],
    },
  },
  expect: {
    sessions: 2,
    turnEnd: { main: 'completed', 'main/call_history': 'completed' },
    toolResults: { 'main/call_history': [/DEPTH_EXCEEDED/] },
  },
} satisfies ScenarioDefinition;
