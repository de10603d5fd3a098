import type { ScenarioDefinition } from '../toolkit/scenarios/types.js';
import { pythonChild } from './fixtures/python-acp-child.js';

export default {
  name: 'acp-python-child',
  description:
    'A child that is an independent program (Python, its own urllib HTTP client to the loopback model): recorded at the ACP protocol level, replayed in process without starting python3.',
  ...pythonChild('answer'),
  agent: { system: 'You are a coordinator. Delegate to the Python agent.' },
  steps: [{ prompt: 'Ask the Python agent for a prime between 20 and 30.' }],
  script: {
    lineages: {
      main: [
        {
          toolCalls: [
            {
              id: 'call_py',
              name: 'subagent_py',
              args: { description: 'A prime in 20..30', prompt: 'Name a prime number between 20 and 30.' },
            },
          ],
        },
        { text: 'The Python agent says 29.' },
      ],
      'main/call_py': [{ text: '29 is prime.' }],
    },
  },
  expect: {
    sessions: 1,
    turnEnd: { main: 'completed' },
    output: { main: 'says 29' },
    toolResults: { main: ['29 is prime.'] },
  },
} satisfies ScenarioDefinition;
