import type { ScenarioDefinition } from '../toolkit/scenarios/types.js';

export default {
  name: 'background',
  description:
    'The parent starts a child in the background, gets a task id at once, and collects the answer with task_output.',
  providers: [{ kind: 'spawn' }],
  subagentTools: [{ provider: 'spawn' }],
  agent: { system: 'You are a coordinator. Run slow research in the background.' },
  steps: [{ prompt: 'Find the tallest mountain in Africa, in the background, then tell me.' }],
  script: {
    lineages: {
      main: [
        {
          toolCalls: [
            {
              id: 'call_peak',
              name: 'subagent',
              args: {
                description: 'Tallest African peak',
                prompt: 'What is the tallest mountain in Africa?',
                run_in_background: true,
              },
            },
          ],
        },
        { toolCalls: [{ id: 'call_collect', name: 'task_output', args: { id: 'subagent-1', wait: true } }] },
        { text: 'The tallest mountain in Africa is Kilimanjaro.' },
      ],
      'main/call_peak': [{ text: 'Kilimanjaro, 5,895 m.' }],
    },
  },
  expect: {
    sessions: 2,
    turnEnd: { main: 'completed', 'main/call_peak': 'completed' },
    output: { main: 'Kilimanjaro' },
    toolResults: {
      main: ['started background subagent task subagent-1', 'Kilimanjaro, 5,895 m.\n[status: completed]'],
    },
  },
} satisfies ScenarioDefinition;
