import type { ScenarioDefinition } from '../toolkit/scenarios/types.js';
import { pythonChild } from './fixtures/python-acp-child.js';

export default {
  name: 'acp-python-crash',
  description:
    'The Python ACP agent crashes mid-prompt after its first chunk: replayed from the protocol cassette, the tool result keeps the partial output, the exit code and the stderr tail.',
  ...pythonChild('crash'),
  agent: { system: 'You are a coordinator.' },
  steps: [{ prompt: 'Ask the Python agent for the first five primes.' }],
  script: {
    lineages: {
      main: [
        {
          toolCalls: [
            {
              id: 'call_py',
              name: 'subagent_py',
              args: { description: 'First five primes', prompt: 'List the first five primes.' },
            },
          ],
        },
        { text: 'The Python agent crashed; the first five primes are 2, 3, 5, 7 and 11.' },
      ],
      'main/call_py': [{ text: '2, 3, 5, 7, 11' }],
    },
  },
  expect: {
    sessions: 1,
    turnEnd: { main: 'completed' },
    toolResults: { main: [/exited with code 3 during the prompt/, /segmentation fault \(simulated\)/] },
  },
} satisfies ScenarioDefinition;
