import type { ScenarioDefinition } from '../toolkit/scenarios/types.js';
import { pythonChild } from './fixtures/python-acp-child.js';

export default {
  name: 'acp-python-cancel',
  description:
    'The user cancels while the Python ACP agent is mid-prompt: session/cancel is served from the protocol cassette and the recorded agent answers cancelled, as it did.',
  ...pythonChild('until-cancel'),
  agent: { system: 'You are a coordinator.' },
  steps: [
    { prompt: 'Ask the Python agent to count slowly.', cancel: { afterChildStart: { lineage: 'main/call_py' } } },
  ],
  script: {
    lineages: {
      main: [
        {
          toolCalls: [
            { id: 'call_py', name: 'subagent_py', args: { description: 'Count', prompt: 'Count to three, slowly.' } },
          ],
        },
      ],
      'main/call_py': [{ text: 'one, two' }],
    },
  },
  expect: { sessions: 1, turnEnd: { main: 'aborted' } },
} satisfies ScenarioDefinition;
