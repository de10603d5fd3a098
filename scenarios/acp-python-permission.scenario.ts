import type { ScenarioDefinition } from '../toolkit/scenarios/types.js';
import { pythonChild } from './fixtures/python-acp-child.js';

export default {
  name: 'acp-python-permission',
  description:
    'The Python ACP agent asks permission before answering; the provider allows it. Replay checks the recorded permission answer and plays the rest of the turn.',
  ...pythonChild('ask-permission', { permission: 'allow' }),
  agent: { system: 'You are a coordinator.' },
  steps: [{ prompt: 'Have the Python agent write its answer down.' }],
  script: {
    lineages: {
      main: [
        {
          toolCalls: [
            {
              id: 'call_py',
              name: 'subagent_py',
              args: { description: 'Write the answer', prompt: 'Write 42 to answer.txt.' },
            },
          ],
        },
        { text: 'The Python agent was allowed and wrote 42.' },
      ],
      'main/call_py': [{ text: 'wrote 42' }],
    },
  },
  expect: {
    sessions: 1,
    turnEnd: { main: 'completed' },
    toolResults: { main: ['permission allow: wrote 42'] },
  },
} satisfies ScenarioDefinition;
