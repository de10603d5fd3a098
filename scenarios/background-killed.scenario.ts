import type { ScenarioDefinition } from '../toolkit/scenarios/types.js';

export default {
  name: 'background-killed',
  description:
    'A background child is still working when the parent kills its task: the child ends aborted and the task killed.',
  providers: [{ kind: 'spawn' }],
  subagentTools: [{ provider: 'spawn' }],
  agent: { system: 'You are a coordinator.' },
  steps: [
    { prompt: 'Start counting the stars in the background.' },
    { waitFor: { whenStreamed: { lineage: 'main/call_stars', text: 'Counting' } } },
    { prompt: 'Never mind, stop the counting.' },
  ],
  script: {
    lineages: {
      main: [
        {
          toolCalls: [
            {
              id: 'call_stars',
              name: 'subagent',
              args: { description: 'Count the stars', prompt: 'Count every star.', run_in_background: true },
            },
          ],
        },
        { text: 'Started: the counting runs as task subagent-1.' },
        { toolCalls: [{ id: 'call_stop', name: 'task_kill', args: { id: 'subagent-1' } }] },
        { text: 'Stopped the counting.' },
      ],
      'main/call_stars': [{ hang: { text: 'Counting: one, two, three' } }],
    },
  },
  expect: {
    sessions: 2,
    turnEnd: { main: 'completed', 'main/call_stars': 'aborted' },
    toolResults: { main: ['task subagent-1 stopped\n[status: killed]'] },
  },
} satisfies ScenarioDefinition;
